//! Boards drawn as SVG, for worksheets, problem statements and the web board's downloads: a
//! [`Figure`] is a title, one or more [`Board`]s (each with a caption) in a grid, and lines of
//! notes, written as one standalone SVG document.
//!
//! Everything is drawn with presentation attributes (no style sheet, no ids), so a document
//! looks the same in any viewer, prints in black and white (a mark is outlined as well as
//! filled: colour is never the only signal), and several documents can be put side by side
//! in one ([`crate::output::svg`]). Each piece is a group that names it for people and
//! programs:
//! `<g class="piece" data-piece="queen" data-row="1" data-col="5"><title>queen on row 1, column
//! 5</title>...</g>` (rows and columns from 1).
//!
//! ```
//! use chess_puzzles::core::Square;
//! use chess_puzzles::core::svg::{Board, Figure, Labels, Piece};
//!
//! let mut board = Board::new(4, 4, Labels::Numbers);
//! for (c, r) in [1u8, 3, 0, 2].into_iter().enumerate() {
//!     board.piece(Square::new(r, c as u8), Piece::glyph("♛", "queen"));
//! }
//! let mut figure = Figure::new("4 queens");
//! figure.panel(board, "2 4 1 3");
//! let svg = figure.to_document();
//! assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
//! assert_eq!(svg.matches("class=\"piece\"").count(), 4);
//! ```

use std::fmt::Write as _;

use super::square::Square;

/// The colours of the board and its marks.
mod colour {
    pub const LIGHT: &str = "#f0d9b5";
    pub const DARK: &str = "#b58863";
    pub const MARK: &str = "#e8c33c";
    pub const BAD: &str = "#e7a29c";
    pub const INK: &str = "#222222";
    pub const LABEL: &str = "#555555";
    pub const ACCENT: &str = "#2a6fb0";
    pub const GIVEN: &str = "#7a1010";
}

/// The fonts of text and chess glyphs.
const FONT: &str = "DejaVu Sans, Segoe UI Symbol, Apple Symbols, sans-serif";

/// The largest side a board is drawn at, in pixels (before labels).
const BOARD_PIXELS: f64 = 360.0;
/// The smallest and largest square, in pixels.
const SQUARE_PIXELS: (f64, f64) = (2.0, 44.0);
/// The smallest width of a figure, in pixels.
const MIN_WIDTH: f64 = 420.0;
/// The space around and between panels.
const GAP: f64 = 16.0;
/// Line heights of the title, captions and notes.
const TITLE_LINE: f64 = 22.0;
const TEXT_LINE: f64 = 17.0;

/// How a board's rows and columns are labelled.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Labels {
    /// Rows and columns numbered from 1, rows from the top (the judges' convention).
    Numbers,
    /// Files a..h left to right and ranks 8..1 top to bottom (chess notation).
    Chess,
}

/// How a piece looks.
#[derive(Clone, Debug, Eq, PartialEq)]
enum Look {
    /// A chess glyph (♛, ♞, ...), dark red when `given`.
    Glyph { text: String, given: bool },
    /// A letter on a coloured disc.
    Disc { letter: char, fill: &'static str },
}

/// A piece to draw: how it looks and its name for people (`queen`, `gold general`).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Piece {
    look: Look,
    name: String,
}

impl Piece {
    /// A chess glyph (`♛`) named `name`.
    pub fn glyph(text: &str, name: &str) -> Piece {
        Piece {
            look: Look::Glyph {
                text: text.to_string(),
                given: false,
            },
            name: name.to_string(),
        }
    }

    /// A glyph marked as given in advance (drawn in another colour; its name says so too).
    pub fn given(text: &str, name: &str) -> Piece {
        Piece {
            look: Look::Glyph {
                text: text.to_string(),
                given: true,
            },
            name: name.to_string(),
        }
    }

    /// A letter on a disc of colour `fill` (a CSS colour), named `name`.
    pub fn disc(letter: char, fill: &'static str, name: &str) -> Piece {
        Piece {
            look: Look::Disc { letter, fill },
            name: name.to_string(),
        }
    }
}

/// A highlighted square.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Mark {
    /// Yellow, outlined: a square that matters (a given queen, a stop of the tour).
    Highlight,
    /// Red, outlined and crossed: a square at fault (a piece that cannot be reached).
    Bad,
}

/// One board: its squares, labels, and what is drawn on them.
#[derive(Clone, Debug)]
pub struct Board {
    rows: usize,
    cols: usize,
    labels: Labels,
    /// The largest side of the squares drawn, in pixels.
    pixels: f64,
    marks: Vec<(Square, Mark)>,
    numbers: Vec<(Square, String)>,
    arrows: Vec<(Square, Square)>,
    pieces: Vec<(Square, Piece)>,
    stops: Vec<(Square, String)>,
}

impl Board {
    /// An empty board of `rows` by `cols` squares.
    pub fn new(rows: usize, cols: usize, labels: Labels) -> Board {
        Board {
            rows,
            cols,
            labels,
            pixels: BOARD_PIXELS,
            marks: Vec::new(),
            numbers: Vec::new(),
            arrows: Vec::new(),
            pieces: Vec::new(),
            stops: Vec::new(),
        }
    }

    /// Draws the squares within `pixels` (360 by default), for figures of many boards.
    pub fn fit(mut self, pixels: f64) -> Board {
        self.pixels = pixels.max(16.0);
        self
    }

    /// Puts `piece` on `square`.
    pub fn piece(&mut self, square: Square, piece: Piece) {
        self.pieces.push((square, piece));
    }

    /// Marks `square`.
    pub fn mark(&mut self, square: Square, mark: Mark) {
        self.marks.push((square, mark));
    }

    /// Writes a small number (a weight) at the foot of `square`.
    pub fn number(&mut self, square: Square, text: &str) {
        self.numbers.push((square, text.to_string()));
    }

    /// Writes a stop's label (`1`, `0,3`) on a tag in the top right corner of `square`: a disc
    /// for one digit, a tag as wide as its text for more (`0,4`, `12`), its text made smaller
    /// only when the square is too narrow for it.
    pub fn stop(&mut self, square: Square, text: &str) {
        self.stops.push((square, text.to_string()));
    }

    /// An arrow from the centre of one square to another's.
    pub fn arrow(&mut self, from: Square, to: Square) {
        self.arrows.push((from, to));
    }

    /// The side of a square in pixels.
    fn cell(&self) -> f64 {
        let side = self.rows.max(self.cols).max(1) as f64;
        (self.pixels / side).clamp(SQUARE_PIXELS.0, SQUARE_PIXELS.1)
    }

    /// The room for labels left of and above the squares, in pixels.
    fn margin(&self) -> f64 {
        14.0
    }

    /// Width and height in pixels, labels included.
    fn size(&self) -> (f64, f64) {
        let cell = self.cell();
        (
            self.margin() + cell * self.cols as f64,
            self.margin() + cell * self.rows as f64,
        )
    }

    fn row_label(&self, r: usize) -> String {
        match self.labels {
            Labels::Numbers => (r + 1).to_string(),
            Labels::Chess => (self.rows - r).to_string(),
        }
    }

    fn col_label(&self, c: usize) -> String {
        match self.labels {
            Labels::Numbers => (c + 1).to_string(),
            Labels::Chess => char::from(b'a' + (c % 26) as u8).to_string(),
        }
    }

    /// The name of a square for people: `row 3, column 5` or `e4`.
    pub fn square_name(&self, s: Square) -> String {
        match self.labels {
            Labels::Numbers => format!(
                "row {}, column {}",
                u32::from(s.row) + 1,
                u32::from(s.col) + 1
            ),
            Labels::Chess => format!(
                "{}{}",
                self.col_label(usize::from(s.col)),
                self.row_label(usize::from(s.row))
            ),
        }
    }

    /// Writes the board with its top left corner at `(x, y)` pixels.
    fn write(&self, svg: &mut String, x: f64, y: f64) {
        let cell = self.cell();
        let m = self.margin();
        let (rows, cols) = (self.rows, self.cols);
        let _ = writeln!(
            svg,
            "<g class=\"board\" data-rows=\"{rows}\" data-cols=\"{cols}\" transform=\"translate({} {})\">",
            num(x),
            num(y)
        );
        // Labels: every one on boards up to 16, every fourth beyond.
        let every = if rows.max(cols) > 16 { 4 } else { 1 };
        let size = num((cell * 0.32).clamp(7.0, 11.0));
        for r in (0..rows).filter(|r| (r + 1) % every == 0 || every == 1) {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"{size}\" fill=\"{}\" text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"{FONT}\">{}</text>",
                num(m / 2.0),
                num(m + cell * (r as f64 + 0.5)),
                colour::LABEL,
                self.row_label(r)
            );
        }
        for c in (0..cols).filter(|c| (c + 1) % every == 0 || every == 1) {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"{size}\" fill=\"{}\" text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"{FONT}\">{}</text>",
                num(m + cell * (c as f64 + 0.5)),
                num(m / 2.0),
                colour::LABEL,
                self.col_label(c)
            );
        }
        // The squares, in board units (one unit a square) from here on.
        let _ = writeln!(
            svg,
            "<g transform=\"translate({} {}) scale({})\">",
            num(m),
            num(m),
            num(cell)
        );
        let _ = writeln!(
            svg,
            "<rect width=\"{cols}\" height=\"{rows}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
            colour::LIGHT,
            colour::INK,
            num(1.0 / cell)
        );
        let mut dark = String::new();
        for r in 0..rows {
            for c in 0..cols {
                if (r + c) % 2 == 1 {
                    let _ = write!(dark, "M{c} {r}h1v1h-1z");
                }
            }
        }
        if !dark.is_empty() {
            let _ = writeln!(svg, "<path d=\"{dark}\" fill=\"{}\"/>", colour::DARK);
        }
        for (s, mark) in &self.marks {
            let (c, r) = (s.col, s.row);
            let (fill, stroke) = match mark {
                Mark::Highlight => (colour::MARK, colour::INK),
                Mark::Bad => (colour::BAD, "#b3261e"),
            };
            let kind = match mark {
                Mark::Highlight => "highlight",
                Mark::Bad => "bad",
            };
            let _ = writeln!(
                svg,
                "<rect class=\"mark\" data-mark=\"{kind}\" x=\"{c}\" y=\"{r}\" width=\"1\" height=\"1\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"0.06\"/>"
            );
            if *mark == Mark::Bad {
                let _ = writeln!(
                    svg,
                    "<path d=\"M{} {}l0.8 0.8M{} {}l-0.8 0.8\" stroke=\"#b3261e\" stroke-width=\"0.06\"/>",
                    num(f64::from(c) + 0.1),
                    num(f64::from(r) + 0.1),
                    num(f64::from(c) + 0.9),
                    num(f64::from(r) + 0.1)
                );
            }
        }
        for (from, to) in &self.arrows {
            write_arrow(svg, *from, *to);
        }
        for (s, piece) in &self.pieces {
            let name = format!("{} on {}", piece.name, self.square_name(*s));
            let _ = write!(
                svg,
                "<g class=\"piece\" data-piece=\"{}\" data-row=\"{}\" data-col=\"{}\"><title>{}</title>",
                escape(&piece.name),
                u32::from(s.row) + 1,
                u32::from(s.col) + 1,
                escape(&name)
            );
            let (cx, cy) = (f64::from(s.col) + 0.5, f64::from(s.row) + 0.5);
            match &piece.look {
                Look::Glyph { text, given } => {
                    let fill = if *given { colour::GIVEN } else { colour::INK };
                    let _ = write!(
                        svg,
                        "<text x=\"{}\" y=\"{}\" font-size=\"0.8\" fill=\"{fill}\" text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"{FONT}\">{}</text>",
                        num(cx),
                        num(cy + 0.03),
                        escape(text)
                    );
                }
                Look::Disc { letter, fill } => {
                    let _ = write!(
                        svg,
                        "<circle cx=\"{}\" cy=\"{}\" r=\"0.38\" fill=\"{fill}\" stroke=\"{}\" stroke-width=\"0.04\"/><text x=\"{}\" y=\"{}\" font-size=\"0.48\" font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"{FONT}\">{}</text>",
                        num(cx),
                        num(cy),
                        colour::INK,
                        num(cx),
                        num(cy + 0.02),
                        escape(&letter.to_string())
                    );
                }
            }
            svg.push_str("</g>\n");
        }
        // The numbers (weights) over the pieces, with a white halo: a queen never hides the
        // weight she stands on.
        for (s, text) in &self.numbers {
            let _ = writeln!(
                svg,
                "<text class=\"number\" x=\"{}\" y=\"{}\" font-size=\"0.3\" font-weight=\"bold\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"0.08\" paint-order=\"stroke\" text-anchor=\"middle\" font-family=\"{FONT}\">{}</text>",
                num(f64::from(s.col) + 0.5),
                num(f64::from(s.row) + 0.92),
                colour::INK,
                escape(text)
            );
        }
        for (s, text) in &self.stops {
            let tag = StopTag::new(text);
            let (left, top) = (f64::from(s.col) + 0.99 - tag.width, f64::from(s.row) + 0.01);
            let (cx, cy) = (left + tag.width / 2.0, top + StopTag::HEIGHT / 2.0);
            let shape = if tag.width > StopTag::HEIGHT {
                format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\"/>",
                    num(left),
                    num(top),
                    num(tag.width),
                    num(StopTag::HEIGHT),
                    num(StopTag::HEIGHT / 2.0),
                    colour::ACCENT
                )
            } else {
                format!(
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>",
                    num(cx),
                    num(cy),
                    num(StopTag::HEIGHT / 2.0),
                    colour::ACCENT
                )
            };
            let _ = writeln!(
                svg,
                "<g class=\"stop\" data-row=\"{}\" data-col=\"{}\">{shape}<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"{FONT}\">{}</text></g>",
                u32::from(s.row) + 1,
                u32::from(s.col) + 1,
                num(cx),
                num(cy + 0.01),
                num(tag.font),
                escape(text)
            );
        }
        svg.push_str("</g>\n</g>\n");
    }
}

/// The size of a stop's tag and of its text, in squares: the text's width is estimated from
/// the advance widths of DejaVu Sans Bold (the first font of [`FONT`], and the widest of
/// them), a digit 0.696 em and a comma 0.380 em.
#[derive(Copy, Clone, Debug, PartialEq)]
struct StopTag {
    width: f64,
    font: f64,
}

impl StopTag {
    /// The tag's height (a disc's diameter).
    const HEIGHT: f64 = 0.38;
    /// The text's size when the square has room for it.
    const FONT: f64 = 0.24;
    /// The room left and right of the text, together.
    const PADDING: f64 = 0.1;
    /// The widest tag: the square less a margin of 0.01 at each side.
    const MAX_WIDTH: f64 = 0.98;

    /// The text's width in ems.
    fn ems(text: &str) -> f64 {
        text.chars()
            .map(|c| match c {
                ',' | '.' => 0.380,
                _ => 0.696,
            })
            .sum()
    }

    fn new(text: &str) -> StopTag {
        let ems = Self::ems(text).max(0.001);
        let font = Self::FONT.min((Self::MAX_WIDTH - Self::PADDING) / ems);
        StopTag {
            width: (ems * font + Self::PADDING).max(Self::HEIGHT),
            font,
        }
    }
}

/// An `n`x`n` board with every weight written on its square and a queen on each square of
/// `placement` (the row of each column's queen), marked.
pub fn weighted_board(n: usize, weight: impl Fn(usize, usize) -> u64, placement: &[u8]) -> Board {
    let mut b = Board::new(n, n, Labels::Numbers);
    for r in 0..n {
        for c in 0..n {
            b.number(Square::new(r as u8, c as u8), &weight(r, c).to_string());
        }
    }
    for (c, &r) in placement.iter().enumerate() {
        let sq = Square::new(r, c as u8);
        b.mark(sq, Mark::Highlight);
        b.piece(sq, Piece::glyph("♛", "queen"));
    }
    b
}

/// An arrow between two square centres, stopped short of both, with its head drawn as a
/// triangle (no marker: a document has no ids).
fn write_arrow(svg: &mut String, from: Square, to: Square) {
    let (x1, y1) = (f64::from(from.col) + 0.5, f64::from(from.row) + 0.5);
    let (x2, y2) = (f64::from(to.col) + 0.5, f64::from(to.row) + 0.5);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = dx.hypot(dy);
    if len == 0.0 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let (sx, sy) = (x1 + ux * 0.25, y1 + uy * 0.25);
    let (ex, ey) = (x2 - ux * 0.25, y2 - uy * 0.25);
    let (bx, by) = (ex - ux * 0.22, ey - uy * 0.22);
    let (px, py) = (-uy * 0.11, ux * 0.11);
    let _ = writeln!(
        svg,
        "<g class=\"arrow\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"0.07\" opacity=\"0.85\"/><path d=\"M{} {}L{} {}L{} {}z\" fill=\"{}\"/></g>",
        num(sx),
        num(sy),
        num(bx),
        num(by),
        colour::ACCENT,
        num(ex),
        num(ey),
        num(bx + px),
        num(by + py),
        num(bx - px),
        num(by - py),
        colour::ACCENT
    );
}

/// A board and the line of text under it.
#[derive(Clone, Debug)]
struct Panel {
    board: Board,
    caption: String,
}

/// A title, boards in a grid (each with a caption), and lines of notes: one SVG document.
#[derive(Clone, Debug)]
pub struct Figure {
    title: String,
    panels: Vec<Panel>,
    columns: usize,
    notes: Vec<String>,
}

impl Figure {
    /// A figure with this title and no board yet, one board to a row.
    pub fn new(title: &str) -> Figure {
        Figure {
            title: title.to_string(),
            panels: Vec::new(),
            columns: 1,
            notes: Vec::new(),
        }
    }

    /// Puts up to `columns` boards on a row (at least one).
    pub fn columns(&mut self, columns: usize) -> &mut Figure {
        self.columns = columns.max(1);
        self
    }

    /// Adds a board with its caption (empty for none).
    pub fn panel(&mut self, board: Board, caption: &str) -> &mut Figure {
        self.panels.push(Panel {
            board,
            caption: caption.to_string(),
        });
        self
    }

    /// Adds a line of notes under the boards (wrapped to the figure's width).
    pub fn note(&mut self, line: &str) -> &mut Figure {
        self.notes.push(line.to_string());
        self
    }

    /// The whole figure as a standalone SVG document: its first line is the root element's
    /// start tag with `width` and `height` in pixels, its last line `</svg>`.
    pub fn to_document(&self) -> String {
        // The grid: every cell as large as the largest board, with room for a caption.
        let (cell_w, cell_h) = self.panels.iter().fold((0.0f64, 0.0f64), |(w, h), p| {
            let (bw, bh) = p.board.size();
            (w.max(bw), h.max(bh))
        });
        let captions = self.panels.iter().any(|p| !p.caption.is_empty());
        let cell_h = cell_h + if captions { TEXT_LINE + 4.0 } else { 0.0 };
        let columns = self.columns.min(self.panels.len()).max(1);
        let grid_rows = self.panels.len().div_ceil(columns);
        let grid_w = columns as f64 * cell_w + (columns.saturating_sub(1)) as f64 * GAP;
        let width = (grid_w + 2.0 * GAP).max(MIN_WIDTH).ceil();
        let chars = ((width - 2.0 * GAP) / 7.2).floor().max(20.0) as usize;
        let title = wrap(&self.title, (chars as f64 * 0.85) as usize);
        let notes: Vec<String> = self.notes.iter().flat_map(|n| wrap(n, chars)).collect();
        let top = GAP + TITLE_LINE * title.len() as f64 + 6.0;
        let grid_h = grid_rows as f64 * cell_h + grid_rows.saturating_sub(1) as f64 * GAP;
        let height = (top + grid_h + 8.0 + TEXT_LINE * notes.len() as f64 + GAP).ceil();
        let mut svg = String::new();
        let (w, h) = (num(width), num(height));
        let _ = writeln!(
            svg,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" font-family=\"{FONT}\">"
        );
        let _ = writeln!(svg, "<title>{}</title>", escape(&self.title));
        if !self.notes.is_empty() {
            let _ = writeln!(svg, "<desc>{}</desc>", escape(&self.notes.join(" ")));
        }
        let _ = writeln!(svg, "<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>");
        for (i, line) in title.iter().enumerate() {
            let _ = writeln!(
                svg,
                "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\" fill=\"{}\">{}</text>",
                num(GAP),
                num(GAP + TITLE_LINE * (i as f64 + 0.75)),
                colour::INK,
                escape(line)
            );
        }
        let left = ((width - grid_w) / 2.0).max(GAP);
        for (i, panel) in self.panels.iter().enumerate() {
            let (gr, gc) = (i / columns, i % columns);
            let x = left + gc as f64 * (cell_w + GAP);
            let y = top + gr as f64 * (cell_h + GAP);
            panel.board.write(&mut svg, x, y);
            if !panel.caption.is_empty() {
                let (_, bh) = panel.board.size();
                let _ = writeln!(
                    svg,
                    "<text class=\"caption\" x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"{}\">{}</text>",
                    num(x),
                    num(y + bh + TEXT_LINE),
                    colour::INK,
                    escape(&panel.caption)
                );
            }
        }
        let notes_top = top + grid_h + 8.0;
        for (i, line) in notes.iter().enumerate() {
            let _ = writeln!(
                svg,
                "<text class=\"note\" x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{}\">{}</text>",
                num(GAP),
                num(notes_top + TEXT_LINE * (i as f64 + 0.75)),
                colour::INK,
                escape(line)
            );
        }
        svg.push_str("</svg>\n");
        svg
    }
}

/// A number in pixels or board units, with at most three decimals and no trailing zeros.
fn num(v: f64) -> String {
    let text = format!("{:.3}", v);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// Text made safe for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Splits `text` into lines of at most `width` characters at spaces (a longer word stays
/// whole on its line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_wrapped() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot; ");
        assert_eq!(
            wrap("one two three four", 9),
            vec!["one two", "three", "four"]
        );
        assert_eq!(wrap("", 9), vec![""]);
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            vec!["averyveryverylongword", "x"]
        );
        assert_eq!(num(1.5), "1.5");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(-0.0001), "0");
    }

    #[test]
    fn a_figure_is_one_document_with_every_piece_named() {
        let mut board = Board::new(8, 8, Labels::Chess);
        board.piece(Square::new(0, 7), Piece::glyph("♛", "queen"));
        board.piece(Square::new(6, 2), Piece::disc('F', "#c2185b", "phoenix"));
        board.mark(Square::new(1, 1), Mark::Bad);
        board.arrow(Square::new(0, 7), Square::new(6, 1));
        board.stop(Square::new(6, 1), "1");
        board.number(Square::new(3, 3), "42");
        let mut figure = Figure::new("A & B");
        figure.panel(board, "caption <1>").note("a note");
        let svg = figure.to_document();
        assert_eq!(
            svg.lines().next().map(|l| l.starts_with("<svg ")),
            Some(true)
        );
        assert!(svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<svg").count(), 1);
        assert!(svg.contains("<title>queen on h8</title>"));
        assert!(svg.contains("data-piece=\"phoenix\" data-row=\"7\" data-col=\"3\""));
        assert!(svg.contains("A &amp; B") && svg.contains("caption &lt;1&gt;"));
        assert!(!svg.contains(" id="));
        // The number is drawn after (over) the pieces.
        assert!(svg.find(">42</text>") > svg.find("<title>queen on h8</title>"));
    }

    #[test]
    fn a_stop_tag_is_as_wide_as_its_text_and_stays_in_its_square() {
        // One digit: a disc of the usual size.
        assert_eq!(
            StopTag::new("7"),
            StopTag {
                width: StopTag::HEIGHT,
                font: StopTag::FONT
            }
        );
        for text in [
            "12",
            "0,4",
            "3,10,17",
            "10,20,30,40",
            "1,2,3,4,5,6,7,8,9,10",
        ] {
            let tag = StopTag::new(text);
            let text_width = StopTag::ems(text) * tag.font;
            assert!(
                (tag.width - text_width - StopTag::PADDING).abs() < 1e-9,
                "{text}: {tag:?}"
            );
            assert!(tag.width <= StopTag::MAX_WIDTH + 1e-9, "{text}: {tag:?}");
            assert!(tag.font <= StopTag::FONT, "{text}: {tag:?}");
        }
        // Smaller text only when the square has no room for it.
        assert_eq!(StopTag::new("3,10").font, StopTag::FONT);
        assert!(StopTag::new("3,10,17").font < StopTag::FONT);
        assert!(StopTag::new("10,20,30,40").font < StopTag::FONT);
        let mut board = Board::new(8, 8, Labels::Chess);
        board.stop(Square::new(7, 0), "1,3");
        let mut figure = Figure::new("twice");
        figure.panel(board, "");
        let svg = figure.to_document();
        assert!(
            svg.contains(
                "<rect x=\"0.465\" y=\"7.01\" width=\"0.525\" height=\"0.38\" rx=\"0.19\""
            ),
            "{svg}"
        );
    }

    #[test]
    fn large_boards_keep_their_size_bounded() {
        let board = Board::new(256, 256, Labels::Numbers);
        let (w, h) = board.size();
        assert!(w <= 14.0 + 2.0 * 256.0 + 0.5 && h == w);
        let small = Board::new(2, 2, Labels::Numbers);
        assert_eq!(small.cell(), 44.0);
    }
}
