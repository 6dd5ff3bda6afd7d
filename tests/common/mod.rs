//! What every test crate shares: the real binary, run to the end or started as a process to
//! drive, and scratch files for it to read.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The binary cargo built for the tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_chess-puzzles");

/// The variable that lets `--device gpu` count on a software device, and its value: the
/// tests run where there is no GPU (CI has Mesa's software device).
pub const ALLOW_SOFTWARE_GPU: (&str, &str) = ("CHESS_PUZZLES_GPU_ALLOW_SOFTWARE", "1");

/// The binary as a command not yet started, for the tests that drive the process themselves
/// (signals, input streamed or held open, output read as it comes); [`run`] for the others.
/// A software device may count on it (see [`ALLOW_SOFTWARE_GPU`]).
pub fn command() -> Command {
    let mut command = Command::new(BIN);
    command.env(ALLOW_SOFTWARE_GPU.0, ALLOW_SOFTWARE_GPU.1);
    command
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

/// Runs `chess-puzzles args...` with `stdin` as standard input, to the end.
pub fn run(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    // Feed standard input from another thread so a large output cannot dead-lock the pipes;
    // the binary may stop reading early (on an error): a closed pipe is fine then.
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

/// A fresh temporary directory named after `name` (`cp-NAME-...`, easy to trace back to its
/// test), removed when dropped.
/// A temporary directory of the tests' own, readable by every user (mode 0755): a root
/// judge runs the programs kept there as an unprivileged user.
pub fn scratch(name: &str) -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .prefix(&format!("cp-{name}-"))
        .permissions(std::fs::Permissions::from_mode(0o755))
        .tempdir()
        .expect("a temporary directory")
}

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
    let dir = scratch(name);
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("a temporary file");
    TempFile { path, _dir: dir }
}
