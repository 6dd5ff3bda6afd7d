//! What the crates that feed the puzzles inputs, good and bad, share (included beside
//! `mod.rs` by those crates alone): a validator's verdict through the binary, and the
//! conventions of a rejected input.

use crate::common::{Run, run};

/// Validates `input` with `chess-puzzles PUZZLE validate`, asserting no panic: the exit code
/// and the verdict on standard output.
pub fn validate(puzzle: &str, input: impl AsRef<[u8]>) -> (i32, String) {
    let got = run(&[puzzle, "validate"], input.as_ref());
    assert!(!got.stderr.contains("panicked"), "{}", got.stderr);
    (got.code, got.stdout_text())
}

/// Asserts that a validator rejects each input of `cases` with its message (`line:col:
/// expected ...`), the same through the library (`library`, the puzzle's `validate`) and
/// through the binary (`chess-puzzles PUZZLE validate`: exit 1 and `invalid: <stdin>:...`).
// The judge crate includes this file and reads no validator's located errors.
#[allow(dead_code)]
pub fn assert_rejected<T, E: std::fmt::Display>(
    puzzle: &str,
    library: impl Fn(&[u8]) -> Result<T, E>,
    cases: &[(String, &str)],
) {
    for (input, message) in cases {
        match library(input.as_bytes()) {
            Ok(_) => panic!("{input:?}: accepted by the library"),
            Err(err) => assert_eq!(&err.to_string(), message, "{input:?}"),
        }
        let (code, verdict) = validate(puzzle, input);
        assert_eq!(code, 1, "{input:?}: {verdict}");
        assert_eq!(
            verdict,
            format!("invalid: <stdin>:{message}\n"),
            "{input:?}"
        );
    }
}

/// Asserts the conventions of a rejected input: exit 2, nothing on stdout, one located message
/// `error: <name>:<line>:<col>: expected ..., found ...` and no panic. Returns the message.
pub fn assert_input_error(run: &Run, name: &str) -> String {
    assert_eq!(run.code, 2, "exit code; stderr: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let line = run.stderr.trim_end();
    assert_eq!(line.lines().count(), 1, "one line: {line}");
    let rest = line
        .strip_prefix(&format!("error: {name}:"))
        .unwrap_or_else(|| panic!("located error for {name}: {line}"));
    let mut parts = rest.splitn(3, ':');
    let l: u64 = parts.next().unwrap().parse().expect("a line number");
    let c: u64 = parts.next().unwrap().parse().expect("a column number");
    assert!(l >= 1 && c >= 1);
    let message = parts.next().unwrap().trim().to_string();
    assert!(message.starts_with("expected "), "{message}");
    assert!(message.contains(", found "), "{message}");
    message
}
