//! Showing a program's output to people: control bytes escaped, and the part of two outputs
//! around their first difference.

/// The most lines an output may have to be shown whole.
pub const WHOLE_LINES: usize = 40;
/// The most bytes an output may have to be shown whole.
pub const WHOLE_BYTES: usize = 4096;
/// Lines shown before the first difference when an output is cut.
const BEFORE: usize = 3;
/// Lines shown from the first difference on when an output is cut.
const FROM: usize = 4;
/// The most bytes of one line shown.
const LINE_BYTES: usize = 200;

/// Text safe for a terminal: printable characters as they are, `\n` kept when `newlines`,
/// tab and carriage return as `\t` and `\r`, other control characters as `\x1b` or `\u{9b}`,
/// and bytes that are not UTF-8 as `\xff`.
///
/// ```
/// use chess_puzzles::judge::report::escape;
///
/// assert_eq!(escape(b"ok\x1b[2J\r\n\xff", true), "ok\\x1b[2J\\r\n\\xff");
/// assert_eq!(escape(b"a\tb\n", false), "a\\tb\\n");
/// ```
pub fn escape(bytes: &[u8], newlines: bool) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' if newlines => out.push('\n'),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\\' => out.push('\\'),
                c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                    out.push_str(&format!("\\x{:02x}", c as u32));
                }
                c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// A part of an output, as shown in a report.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Excerpt {
    /// The output's size in bytes.
    pub bytes: usize,
    /// Its number of lines.
    pub lines: usize,
    /// The first line shown (from 1).
    pub first_line: usize,
    /// The lines shown, escaped (see [`escape`]), each long one cut; empty for an empty output.
    pub text: String,
    /// The same lines as they are (for JSON, which escapes them itself), each long one cut.
    pub raw: String,
    /// True when the whole output is shown.
    pub whole: bool,
}

/// The lines of `bytes`, each without its `\n` (a last line without one is a line).
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    body.split(|&b| b == b'\n').collect()
}

/// The first line (from 0) where `a` and `b` differ, or the number of lines of the shorter
/// when one is the start of the other.
pub fn first_different_line(a: &[u8], b: &[u8]) -> usize {
    let (a, b) = (lines(a), lines(b));
    a.iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

/// The parts of `expected` and `actual` to show: both whole when both are small, otherwise the
/// lines around their first difference (a few before it, a few from it on), each line cut at
/// 200 bytes.
pub fn excerpts(expected: &[u8], actual: &[u8]) -> (Excerpt, Excerpt) {
    let small = |b: &[u8]| b.len() <= WHOLE_BYTES && lines(b).len() <= WHOLE_LINES;
    let whole = small(expected) && small(actual);
    let at = first_different_line(expected, actual);
    let from = if whole { 0 } else { at.saturating_sub(BEFORE) };
    let to = if whole { usize::MAX } else { at + FROM };
    (excerpt(expected, from, to), excerpt(actual, from, to))
}

/// The first lines of `bytes`, at most [`WHOLE_LINES`] of them (all when it is small).
pub fn head(bytes: &[u8]) -> Excerpt {
    excerpt(bytes, 0, WHOLE_LINES)
}

fn excerpt(bytes: &[u8], from: usize, to: usize) -> Excerpt {
    let all = lines(bytes);
    let shown: Vec<&[u8]> = all
        .iter()
        .skip(from)
        .take(to.saturating_sub(from))
        .copied()
        .collect();
    let mut text = String::new();
    let mut raw = String::new();
    let mut cut = false;
    for line in &shown {
        if line.len() > LINE_BYTES {
            cut = true;
            let mut end = LINE_BYTES;
            // Cut at a character's start.
            while end > 0 && (line[end] & 0xc0) == 0x80 {
                end -= 1;
            }
            let more = format!(" ... ({} more bytes)", line.len() - end);
            text.push_str(&escape(&line[..end], false));
            text.push_str(&more);
            raw.push_str(&String::from_utf8_lossy(&line[..end]));
            raw.push_str(&more);
        } else {
            text.push_str(&escape(line, false));
            raw.push_str(&String::from_utf8_lossy(line));
        }
        text.push('\n');
        raw.push('\n');
    }
    let whole = !cut && from == 0 && shown.len() == all.len();
    if whole && !bytes.is_empty() && !bytes.ends_with(b"\n") {
        text.push_str("(no newline at the end)\n");
        raw.pop();
    }
    Excerpt {
        bytes: bytes.len(),
        lines: all.len(),
        first_line: from.min(all.len()) + 1,
        text,
        raw,
        whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_outputs_are_shown_whole() {
        let (e, a) = excerpts(b"1\n2\n", b"1\n3");
        assert!(e.whole && a.whole);
        assert_eq!(e.text, "1\n2\n");
        assert_eq!(a.text, "1\n3\n(no newline at the end)\n");
        assert_eq!(first_different_line(b"1\n2\n", b"1\n3"), 1);
    }

    #[test]
    fn large_outputs_are_cut_around_the_first_difference() {
        let expected: String = (1..=1000).map(|i| format!("{i}\n")).collect();
        let actual = expected.replace("\n500\n", "\n5oo\n");
        let (e, a) = excerpts(expected.as_bytes(), actual.as_bytes());
        assert!(!e.whole);
        assert_eq!(e.first_line, 497);
        assert_eq!(e.text, "497\n498\n499\n500\n501\n502\n503\n");
        assert_eq!(a.text, "497\n498\n499\n5oo\n501\n502\n503\n");
        assert_eq!((e.lines, e.bytes), (1000, expected.len()));
        let long = vec![b'x'; 1 << 20];
        let (_, a) = excerpts(b"1\n", &long);
        assert_eq!(
            a.text,
            format!("{} ... ({} more bytes)\n", "x".repeat(200), (1 << 20) - 200)
        );
    }
}
