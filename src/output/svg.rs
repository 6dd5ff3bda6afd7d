//! Where the SVG documents of a run go: [`Documents`] takes the standalone documents that
//! [`write_case`](super::write_case) writes, one per case, and either puts them one under the
//! other in a single document ([`Layout::One`]: a worksheet, written once every case is
//! answered) or writes each to a file of its own as soon as it is complete ([`Layout::Files`]).
//!
//! One document holds at most [`MAX_DOCUMENT`] bytes (or the limit given to
//! [`Documents::with_limit`]): a larger one is refused (an error of kind `InvalidInput` that
//! names the limit and says to write one file per case instead), so memory stays bounded
//! whatever the input.
//!
//! ```
//! use std::io::Write;
//! use chess_puzzles::output::svg::{Documents, Layout};
//! use chess_puzzles::output::OutputFormat;
//! use chess_puzzles::queens::{self, Options};
//!
//! let mut out = Vec::new();
//! let mut documents = Documents::new(&mut out, Layout::One);
//! let options = Options { format: OutputFormat::Svg, ..Options::default() };
//! queens::run("2\n1 1\n5 4\n".as_bytes(), &mut documents, &options).unwrap();
//! assert_eq!(documents.finish().unwrap(), 2);
//! let svg = String::from_utf8(out).unwrap();
//! assert_eq!(svg.matches("<svg").count(), 3); // the document and its two cases
//! assert!(svg.ends_with("</svg>\n"));
//! ```

use std::io::{self, Write};
use std::path::PathBuf;

use crate::core::svg::Figure;

/// The largest single document, in bytes.
pub const MAX_DOCUMENT: usize = 64 << 20;

/// Where the documents go.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Layout {
    /// One document, the cases one under the other, written to the output at the end.
    One,
    /// One file per case, `<dir>/<stem>-<case>.svg`, each written as soon as it is complete;
    /// nothing goes to the output.
    Files {
        /// The folder (it must exist).
        dir: PathBuf,
        /// The start of each file's name (the puzzle's name).
        stem: String,
    },
}

/// A writer that receives SVG documents and lays them out. See the [module docs](self).
pub struct Documents<W: Write> {
    out: W,
    layout: Layout,
    /// The most bytes of one document.
    limit: usize,
    /// The document being received.
    pending: Vec<u8>,
    /// The documents received (for [`Layout::One`]), with their sizes in pixels.
    complete: Vec<(String, f64, f64)>,
    /// Their bytes in all.
    bytes: usize,
    /// Documents received.
    count: u64,
    /// The files written (for [`Layout::Files`]).
    files: Vec<PathBuf>,
}

/// The end of every document [`Figure::to_document`] writes.
const END: &[u8] = b"</svg>\n";

fn too_large(limit: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "the SVG document would be larger than {} MiB: draw fewer cases at once, or one \
             file per case (--svg-dir DIR on the command line)",
            limit >> 20
        ),
    )
}

impl<W: Write> Documents<W> {
    /// Documents laid out as `layout`, the single document written to `out`.
    pub fn new(out: W, layout: Layout) -> Documents<W> {
        Documents::with_limit(out, layout, MAX_DOCUMENT)
    }

    /// [`Documents::new`] with a document held to `limit` bytes instead of [`MAX_DOCUMENT`].
    pub fn with_limit(out: W, layout: Layout, limit: usize) -> Documents<W> {
        Documents {
            out,
            layout,
            limit,
            pending: Vec::new(),
            complete: Vec::new(),
            bytes: 0,
            count: 0,
            files: Vec::new(),
        }
    }

    /// The files written so far ([`Layout::Files`]).
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Takes every complete document out of `pending`, looking for their ends from `from` on.
    fn take_documents(&mut self, mut from: usize) -> io::Result<()> {
        while let Some(at) =
            find(&self.pending[from.min(self.pending.len())..], END).map(|i| i + from)
        {
            from = 0;
            let rest = self.pending.split_off(at + END.len());
            let document = std::mem::replace(&mut self.pending, rest);
            self.count += 1;
            match &self.layout {
                Layout::Files { dir, stem } => {
                    let path = dir.join(format!("{stem}-{}.svg", self.count));
                    std::fs::write(&path, &document).map_err(|e| {
                        io::Error::new(e.kind(), format!("{}: {e}", path.display()))
                    })?;
                    self.files.push(path);
                }
                Layout::One => {
                    let text = String::from_utf8(document).map_err(|_| {
                        io::Error::new(io::ErrorKind::InvalidData, "an SVG document not in UTF-8")
                    })?;
                    let (width, height) = size(&text).ok_or_else(|| {
                        io::Error::new(
                            io::ErrorKind::InvalidData,
                            "an SVG document without its size",
                        )
                    })?;
                    self.complete.push((text, width, height));
                }
            }
        }
        Ok(())
    }

    /// Ends the run: with [`Layout::One`], writes the single document (the case's own when
    /// there is one, a note when there is none) and flushes the output. Returns the number of
    /// documents received.
    pub fn finish(mut self) -> io::Result<u64> {
        if let Layout::Files { .. } = self.layout {
            return Ok(self.count);
        }
        let document = match self.complete.len() {
            0 => Figure::new("nothing to draw: the input has no case").to_document(),
            1 => std::mem::take(&mut self.complete[0].0),
            _ => combine(&self.complete),
        };
        self.out.write_all(document.as_bytes())?;
        self.out.flush()?;
        Ok(self.count)
    }
}

impl<W: Write> Write for Documents<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.layout == Layout::One && self.bytes + buf.len() > self.limit {
            return Err(too_large(self.limit));
        }
        if self.pending.len() + buf.len() > self.limit {
            return Err(too_large(self.limit));
        }
        self.bytes += buf.len();
        // An end may straddle the previous write and this one.
        let from = self.pending.len().saturating_sub(END.len() - 1);
        self.pending.extend_from_slice(buf);
        self.take_documents(from)?;
        Ok(buf.len())
    }

    /// Nothing to flush before the end: a single document is written by [`Documents::finish`],
    /// each file as soon as its document is complete.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The `width` and `height` of a document's root element (its first line).
fn size(document: &str) -> Option<(f64, f64)> {
    let first = document.lines().next()?;
    let attribute = |name: &str| -> Option<f64> {
        let start = first.find(&format!(" {name}=\""))? + name.len() + 3;
        let end = start + first[start..].find('"')?;
        first[start..end].parse().ok()
    };
    Some((attribute("width")?, attribute("height")?))
}

/// The widest row of a worksheet, in pixels: four boards of the narrowest figure side by side.
pub const ROW_WIDTH: f64 = 1760.0;

/// The documents in rows in one, as a worksheet: left to right while a row stays within
/// [`ROW_WIDTH`] (a wider document has a row of its own), the rows one under the other; each
/// keeps its own root element, placed with `x` and `y`.
fn combine(documents: &[(String, f64, f64)]) -> String {
    const GAP: f64 = 24.0;
    // Each document's place, row by row.
    let mut places = Vec::with_capacity(documents.len());
    let (mut x, mut y, mut row_h, mut width) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (_, w, h) in documents {
        if x > 0.0 && x + w > ROW_WIDTH {
            y += row_h + GAP;
            (x, row_h) = (0.0, 0.0);
        }
        places.push((x, y));
        width = width.max(x + w);
        row_h = row_h.max(*h);
        x += w + GAP;
    }
    let height = y + row_h;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n<title>{} cases</title>\n",
        documents.len()
    );
    for ((text, _, _), (x, y)) in documents.iter().zip(places) {
        // Every document starts with `<svg xmlns="..." `: place it.
        let placed = text.replacen("<svg ", &format!("<svg x=\"{x}\" y=\"{y}\" "), 1);
        svg.push_str(&placed);
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(title: &str) -> String {
        Figure::new(title).to_document()
    }

    #[test]
    fn documents_are_cut_wherever_the_writes_fall() {
        let mut out = Vec::new();
        let mut docs = Documents::new(&mut out, Layout::One);
        let both = format!("{}{}", document("one"), document("two"));
        for chunk in both.as_bytes().chunks(7) {
            docs.write_all(chunk).unwrap();
        }
        assert_eq!(docs.finish().unwrap(), 2);
        let svg = String::from_utf8(out).unwrap();
        assert!(svg.contains("<title>2 cases</title>"));
        assert!(svg.contains("<svg x=\"0\" y=\"0\" xmlns="));
        assert_eq!(svg.matches("</svg>").count(), 3);
    }

    #[test]
    fn a_worksheet_lays_its_documents_out_in_rows() {
        let mut out = Vec::new();
        let mut docs = Documents::new(&mut out, Layout::One);
        for i in 0..12 {
            docs.write_all(document(&i.to_string()).as_bytes()).unwrap();
        }
        docs.finish().unwrap();
        let svg = String::from_utf8(out).unwrap();
        let (w, h) = size(&svg).unwrap();
        let (one_w, one_h) = size(&document("0")).unwrap();
        // Four narrow figures to a row, three rows.
        assert!(w <= ROW_WIDTH);
        assert_eq!(w, 4.0 * one_w + 3.0 * 24.0);
        assert_eq!(h, 3.0 * one_h + 2.0 * 24.0);
        assert_eq!(svg.matches(&format!("y=\"{}\"", one_h + 24.0)).count(), 4);
    }

    #[test]
    fn one_document_is_written_as_it_is_and_none_says_so() {
        let mut out = Vec::new();
        let mut docs = Documents::new(&mut out, Layout::One);
        docs.write_all(document("alone").as_bytes()).unwrap();
        docs.finish().unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), document("alone"));
        let mut out = Vec::new();
        Documents::new(&mut out, Layout::One).finish().unwrap();
        assert!(String::from_utf8(out).unwrap().contains("nothing to draw"));
    }

    #[test]
    fn files_are_written_one_per_document() {
        let dir = std::env::temp_dir().join(format!("svg-docs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut out = Vec::new();
        let layout = Layout::Files {
            dir: dir.clone(),
            stem: "tour".to_string(),
        };
        let mut docs = Documents::new(&mut out, layout);
        docs.write_all(document("a").as_bytes()).unwrap();
        assert_eq!(docs.files().len(), 1);
        docs.write_all(document("b").as_bytes()).unwrap();
        assert_eq!(docs.finish().unwrap(), 2);
        assert!(out.is_empty());
        assert_eq!(
            std::fs::read_to_string(dir.join("tour-2.svg")).unwrap(),
            document("b")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_document_too_large_is_refused() {
        let mut docs = Documents::with_limit(Vec::new(), Layout::One, 4 << 20);
        let chunk = vec![b' '; 1 << 20];
        let refused = (0..=4).find_map(|_| docs.write_all(&chunk).err()).unwrap();
        assert_eq!(refused.kind(), io::ErrorKind::InvalidInput);
        assert!(refused.to_string().contains("larger than 4 MiB"));
    }
}
