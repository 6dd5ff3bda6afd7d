//! Text diagrams of boards of any size: a grid of short cell texts with row and column labels.
//!
//! ```
//! use chess_puzzles::core::{Diagram, Square};
//!
//! let mut d = Diagram::new(3, 3);
//! d.set(Square::new(0, 1), "♛");
//! assert_eq!(d.to_string(), "  1 2 3\n1 · ♛ ·\n2 · · ·\n3 · · ·\n");
//! ```

use std::fmt;

use super::square::Square;

/// What an untouched cell shows.
pub const EMPTY_CELL: &str = "·";

/// A board drawn as text. Labels default to the judges' 1-based numbers.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Diagram {
    rows: usize,
    cols: usize,
    cells: Vec<String>,
    row_labels: Vec<String>,
    col_labels: Vec<String>,
}

impl Diagram {
    /// An empty board of `rows` x `cols` cells, labelled 1.. from the top left.
    pub fn new(rows: usize, cols: usize) -> Diagram {
        Diagram {
            rows,
            cols,
            cells: vec![EMPTY_CELL.to_string(); rows * cols],
            row_labels: (1..=rows).map(|r| r.to_string()).collect(),
            col_labels: (1..=cols).map(|c| c.to_string()).collect(),
        }
    }

    /// Writes `text` into the cell of `sq`; squares outside the diagram are ignored.
    pub fn set(&mut self, sq: Square, text: impl Into<String>) {
        let (r, c) = (usize::from(sq.row), usize::from(sq.col));
        if r < self.rows && c < self.cols {
            self.cells[r * self.cols + c] = text.into();
        }
    }

    /// The text of the cell of `sq`, if it lies on the diagram.
    pub fn get(&self, sq: Square) -> Option<&str> {
        let (r, c) = (usize::from(sq.row), usize::from(sq.col));
        (r < self.rows && c < self.cols).then(|| self.cells[r * self.cols + c].as_str())
    }

    /// Replaces the row labels (top to bottom); missing labels are left blank.
    pub fn with_row_labels<S: ToString>(mut self, labels: impl IntoIterator<Item = S>) -> Diagram {
        let mut labels: Vec<String> = labels.into_iter().map(|s| s.to_string()).collect();
        labels.resize(self.rows, String::new());
        self.row_labels = labels;
        self
    }

    /// Replaces the column labels (left to right); missing labels are left blank.
    pub fn with_col_labels<S: ToString>(mut self, labels: impl IntoIterator<Item = S>) -> Diagram {
        let mut labels: Vec<String> = labels.into_iter().map(|s| s.to_string()).collect();
        labels.resize(self.cols, String::new());
        self.col_labels = labels;
        self
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

impl fmt::Display for Diagram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label_w = self.row_labels.iter().map(|s| width(s)).max().unwrap_or(0);
        let cell_w = self
            .cells
            .iter()
            .chain(&self.col_labels)
            .map(|s| width(s))
            .max()
            .unwrap_or(1);
        let pad = |f: &mut fmt::Formatter<'_>, s: &str, w: usize| -> fmt::Result {
            write!(f, "{:1$}{s}", "", w.saturating_sub(width(s)))
        };
        pad(f, "", label_w)?;
        for label in &self.col_labels {
            write!(f, " ")?;
            pad(f, label, cell_w)?;
        }
        writeln!(f)?;
        for r in 0..self.rows {
            pad(f, &self.row_labels[r], label_w)?;
            for c in 0..self.cols {
                write!(f, " ")?;
                pad(f, &self.cells[r * self.cols + c], cell_w)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A weighted board with a placement of queens: every square shows its weight, and the
/// squares of the queens (`rows[c]` is the 0-based row of the queen of column `c`) show it in
/// brackets, `[34]`, so that they stand out among the numbers. Returns the diagram and the
/// queens' weights, column by column, for the sum to be spelled out.
///
/// ```
/// use chess_puzzles::core::diagram::weighted_placement;
///
/// let (d, terms) = weighted_placement(2, |r, c| (r * 2 + c) as u64, &[1, 0]);
/// assert_eq!(terms, [2, 1]);
/// assert_eq!(d.to_string(), "    1   2\n1   0 [1]\n2 [2]   3\n");
/// ```
pub fn weighted_placement(
    n: usize,
    weight: impl Fn(usize, usize) -> u64,
    rows: &[u8],
) -> (Diagram, Vec<u64>) {
    let mut d = Diagram::new(n, n);
    for r in 0..n {
        for c in 0..n {
            d.set(Square::new(r as u8, c as u8), weight(r, c).to_string());
        }
    }
    let mut terms = Vec::with_capacity(rows.len());
    for (c, &r) in rows.iter().enumerate().take(n) {
        let w = weight(usize::from(r), c);
        terms.push(w);
        d.set(Square::new(r, c as u8), format!("[{w}]"));
    }
    (d, terms)
}

/// `260 = 1 + 34 + 59 + ...`: a sum and its terms.
pub fn sum_spelled_out(total: u64, terms: &[u64]) -> String {
    let terms: Vec<String> = terms.iter().map(u64::to_string).collect();
    format!("{total} = {}", terms.join(" + "))
}

/// The legend under a [`weighted_placement`].
pub const WEIGHTED_LEGEND: &str = "[w]: a queen on a square of weight w";

/// Sets texts (each several lines, such as rendered diagrams) side by side, `gap` spaces apart,
/// each padded to its widest line.
pub fn side_by_side(blocks: &[String], gap: usize) -> String {
    let split: Vec<Vec<&str>> = blocks.iter().map(|b| b.lines().collect()).collect();
    let widths: Vec<usize> = split
        .iter()
        .map(|lines| lines.iter().map(|l| width(l)).max().unwrap_or(0))
        .collect();
    let height = split.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = String::new();
    for i in 0..height {
        let mut line = String::new();
        for (b, lines) in split.iter().enumerate() {
            if b > 0 {
                line.extend(std::iter::repeat_n(' ', gap));
            }
            let text = lines.get(i).copied().unwrap_or("");
            line.push_str(text);
            line.extend(std::iter::repeat_n(' ', widths[b] - width(text)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn blocks_side_by_side() {
        let joined = side_by_side(&["ab\nc\n".to_string(), "xyz\n".to_string()], 2);
        assert_eq!(joined, "ab  xyz\nc\n");
    }

    #[test]
    fn wide_cells_and_labels_align() {
        let mut d = Diagram::new(2, 2)
            .with_row_labels(["8", "7"])
            .with_col_labels(["a", "b"]);
        d.set(Square::new(1, 0), "42");
        d.set(Square::new(5, 5), "ignored");
        assert_eq!(d.get(Square::new(1, 0)), Some("42"));
        assert_eq!(d.get(Square::new(2, 0)), None);
        assert_eq!(d.to_string(), "   a  b\n8  ·  ·\n7 42  ·\n");
    }

    #[test]
    fn long_row_labels_are_right_aligned() {
        let d = Diagram::new(10, 1);
        let text = d.to_string();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines[0], "   1");
        assert_eq!(lines[1], " 1 ·");
        assert_eq!(lines[10], "10 ·");
    }
}
