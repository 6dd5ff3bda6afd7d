//! A program's standard error: its first and last bytes kept, and the line that names the
//! error of a crash found in them.

use std::collections::VecDeque;

/// The first and the last bytes of a stream, half of a budget each.
pub(super) struct Kept {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    half: usize,
    dropped: u64,
}

impl Kept {
    pub(super) fn new(budget: usize) -> Kept {
        Kept {
            head: Vec::new(),
            tail: VecDeque::new(),
            half: budget / 2,
            dropped: 0,
        }
    }

    pub(super) fn push(&mut self, mut bytes: &[u8]) {
        let room = self.half.saturating_sub(self.head.len());
        let now = bytes.len().min(room);
        self.head.extend_from_slice(&bytes[..now]);
        bytes = &bytes[now..];
        // Only the last `half` bytes of what is left can stay.
        if bytes.len() > self.half {
            self.dropped += (bytes.len() - self.half) as u64;
            bytes = &bytes[bytes.len() - self.half..];
        }
        let overflow = (self.tail.len() + bytes.len()).saturating_sub(self.half);
        self.dropped += overflow as u64;
        self.tail.drain(..overflow);
        self.tail.extend(bytes);
    }

    /// The bytes kept, with a line saying how many were left out between them.
    pub(super) fn into_bytes(self) -> Vec<u8> {
        let mut all = self.head;
        if self.dropped > 0 {
            all.extend_from_slice(format!("\n[... {} bytes ...]\n", self.dropped).as_bytes());
        }
        all.extend(self.tail);
        all
    }
}

/// The line of a crashed program's standard error that names its error: Java's `Exception
/// in thread "main" ...`, a sanitizer's `SUMMARY: ...`, C++'s `terminate called after
/// throwing ...` with its `what()`, Rust's `panicked at` with its message, Go's `panic: ...`;
/// otherwise the last line that is not empty (Python's exception, after its traceback).
///
/// ```
/// use chess_puzzles::judge::run::error_line;
///
/// let java = b"Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 3\n\tat M.main(M.java:1)\n";
/// assert_eq!(
///     error_line(java).unwrap(),
///     "Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 3"
/// );
/// let python = b"Traceback (most recent call last):\n  File \"s.py\", line 1\nIndexError: list index out of range\n";
/// assert_eq!(error_line(python).unwrap(), "IndexError: list index out of range");
/// ```
pub fn error_line(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let find = |test: &dyn Fn(&str) -> bool| lines.iter().position(|l| test(l));
    let with_next = |i: usize| -> String {
        match lines.get(i + 1).map(|l| l.trim()).filter(|l| !l.is_empty()) {
            Some(next) => format!("{} {next}", lines[i].trim()),
            None => lines[i].trim().to_string(),
        }
    };
    if let Some(i) = find(&|l| l.contains("Exception in thread \"")) {
        return Some(lines[i].trim().to_string());
    }
    if let Some(i) = find(&|l| l.starts_with("SUMMARY: ")) {
        return Some(lines[i].trim().to_string());
    }
    if let Some(i) = find(&|l| l.starts_with("terminate called after throwing")) {
        return Some(with_next(i));
    }
    if let Some(i) = find(&|l| l.contains("' panicked at ") || l.ends_with(" panicked at")) {
        return Some(with_next(i));
    }
    if let Some(i) = find(&|l| l.starts_with("panic: ") || l.starts_with("fatal error: ")) {
        return Some(lines[i].trim().to_string());
    }
    lines
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_and_the_tail_are_kept() {
        let mut kept = Kept::new(8);
        kept.push(b"abcdef");
        kept.push(b"ghijklmnop");
        assert_eq!(kept.into_bytes(), b"abcd\n[... 8 bytes ...]\nmnop");
        let mut kept = Kept::new(8);
        kept.push(b"abc");
        assert_eq!(kept.into_bytes(), b"abc");
    }

    #[test]
    fn the_line_that_names_the_error_is_found() {
        let asan = b"==1==ERROR: AddressSanitizer: SEGV on unknown address\n    #0 0x1 in main a.c:1\nSUMMARY: AddressSanitizer: SEGV a.c:1 in main\n==1==ABORTING\n";
        assert_eq!(
            error_line(asan).unwrap(),
            "SUMMARY: AddressSanitizer: SEGV a.c:1 in main"
        );
        let cpp = b"terminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check\n";
        assert_eq!(
            error_line(cpp).unwrap(),
            "terminate called after throwing an instance of 'std::out_of_range' what():  vector::_M_range_check"
        );
        let rust = b"\nthread 'main' panicked at src/main.rs:2:5:\nindex out of bounds\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            error_line(rust).unwrap(),
            "thread 'main' panicked at src/main.rs:2:5: index out of bounds"
        );
        assert_eq!(error_line(b"\n \n"), None);
    }
}
