//! Helpers shared by the end-to-end tests: running the real binary, and independent references.
#![allow(dead_code)] // Each test file uses a different part.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A file alone in a temporary directory of its own; both go when it is dropped, so a test
/// that fails leaves nothing behind either.
pub struct TempFile {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for TempFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempFile {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<std::ffi::OsStr> for TempFile {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

/// Writes `bytes` to a file called `name` in a fresh temporary directory.
pub fn temp_file(name: &str, bytes: impl AsRef<[u8]>) -> TempFile {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("a temporary file");
    TempFile { path, _dir: dir }
}

/// What a run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn stdout_text(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }
}

/// The `showdown gen` arguments of one 100x100 board with 2% kings: long empty lines, where
/// the time limits of the optimiser and of the proof mode were once overrun.
pub const SPARSE_BOARD: &[&str] = &[
    "--tests",
    "1",
    "--size",
    "100",
    "--density",
    "0.02",
    "--seed",
    "3",
];

/// Writes the input of `chess-puzzles showdown gen args...` to `dir/t.in` (making `dir`) and
/// returns its path.
pub fn generated_input(dir: &Path, args: &[&str]) -> PathBuf {
    let mut all = vec!["showdown", "gen"];
    all.extend_from_slice(args);
    let generated = run(&all, b"");
    assert_eq!(generated.code, 0, "{}", generated.stderr);
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("t.in");
    std::fs::write(&path, &generated.stdout).unwrap();
    path
}

/// Runs `chess-puzzles args...` with `stdin` as standard input.
pub fn run(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess-puzzles"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    // Feed standard input from another thread so a large output cannot dead-lock the pipes.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("the binary finishes");
    feeder.join().expect("the feeder thread ends");
    Run {
        code: output.status.code().expect("the binary exits normally"),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
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

/// Every permutation of `0..n` in lexicographic order (a plain recursive reference).
pub fn permutations(n: usize) -> Vec<Vec<u8>> {
    fn go(prefix: &mut Vec<u8>, left: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left.is_empty() {
            out.push(prefix.clone());
            return;
        }
        for i in 0..left.len() {
            let v = left.remove(i);
            prefix.push(v);
            go(prefix, left, out);
            prefix.pop();
            left.insert(i, v);
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), &mut (0..n as u8).collect(), &mut out);
    out
}

/// True when no two queens (`rows[col]` = row) share a diagonal; rows are distinct by construction
/// of a permutation but checked too.
pub fn non_attacking(rows: &[u8]) -> bool {
    for a in 0..rows.len() {
        for b in a + 1..rows.len() {
            let dr = (i32::from(rows[a]) - i32::from(rows[b])).abs();
            let dc = (b - a) as i32;
            if dr == 0 || dr == dc {
                return false;
            }
        }
    }
    true
}

/// A small deterministic random generator for test data (SplitMix64).
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> TestRng {
        TestRng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
}
