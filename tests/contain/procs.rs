//! Marking every process of a test and finding those left: the binary and everything it
//! starts inherit an environment variable with a mark of the test's own.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{BIN, Run};

/// `PATH` with the system's folders first: the sandbox shows the system's interpreters, not
/// those a user installed in a home folder (pyenv's shims and what they run).
pub fn system_first() -> String {
    let rest = std::env::var("PATH").unwrap_or_default();
    format!("/usr/local/bin:/usr/bin:/bin:{rest}")
}

/// The environment variable that marks a test's processes.
const MARK: &str = "CP_CONTAIN_TEST_MARK";

/// The options that pass the binary's name and the mark on to a judged program.
pub const PASSED: [&str; 4] = ["--env", "CP", "--env", MARK];

/// [`PASSED`] as words of a shell command.
pub const PASSED_WORDS: &str = "--env CP --env CP_CONTAIN_TEST_MARK";

/// A mark of one test: its processes carry it in their environment.
pub struct Mark(String);

impl Mark {
    /// A fresh mark named after the test.
    pub fn new(name: &str) -> Mark {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Mark(format!("{name}-{}-{n}", std::process::id()))
    }

    /// The binary with `args`, marked, `CP` naming the binary (for the programs to call it).
    /// A judged program gets neither variable unless passed by name: `stress` and `judge`
    /// are given `--env CP --env` the mark (after the subcommand), so that the programs
    /// call the binary and every process of theirs carries the mark.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(BIN);
        let mut args: Vec<&str> = args.to_vec();
        if let Some(at) = args.iter().position(|a| *a == "stress" || *a == "judge") {
            args.splice(at + 1..at + 1, PASSED);
        }
        command
            .args(args)
            .env(MARK, &self.0)
            .env("CP", BIN)
            .env("PATH", system_first())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    /// Runs the binary with `args` to its end: what it wrote and how long it took.
    pub fn run(&self, args: &[&str]) -> (Run, Duration) {
        let started = Instant::now();
        let out = self.command(args).output().expect("the binary runs");
        let took = started.elapsed();
        (
            Run {
                code: out.status.code().unwrap_or(-1),
                stdout: out.stdout,
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            },
            took,
        )
    }

    /// Runs `sh -c script`, marked, to its end.
    pub fn run_shell(&self, script: &str) -> (Run, Duration) {
        let started = Instant::now();
        let out = Command::new("sh")
            .args(["-c", script])
            .env(MARK, &self.0)
            .env("CP", BIN)
            .env("PATH", system_first())
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        (
            Run {
                code: out.status.code().unwrap_or(-1),
                stdout: out.stdout,
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            },
            started.elapsed(),
        )
    }

    /// The peak resident memory of the binary run with `args`, in bytes (its own, not its
    /// children's).
    pub fn peak_memory(&self, args: &[&str]) -> u64 {
        let mut child = self
            .command(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // Safety: wait4 writes the status and the usage of the child this test started.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(r, pid);
        // Reaped here: std must not wait for it again.
        std::mem::forget(child.stdin.take());
        std::mem::forget(child);
        usage.ru_maxrss as u64 * 1024
    }

    /// The processes that carry the mark now (their pid and command line).
    pub fn left(&self) -> Vec<String> {
        let needle = format!("{MARK}={}\0", self.0);
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            if pid == std::process::id() {
                continue;
            }
            let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
                continue;
            };
            if environ
                .windows(needle.len())
                .any(|w| w == needle.as_bytes())
            {
                let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
                // A zombie waiting for its parent to read it is gone but for its entry.
                if state
                    .rsplit_once(") ")
                    .is_some_and(|(_, rest)| rest.starts_with('Z'))
                {
                    continue;
                }
                found.push(format!(
                    "{pid}: {}",
                    String::from_utf8_lossy(&cmdline).replace('\0', " ")
                ));
            }
        }
        found
    }

    /// Fails unless no process of the mark is left within `patience`.
    pub fn assert_none_left(&self, patience: Duration, what: &str) {
        let started = Instant::now();
        loop {
            let left = self.left();
            if left.is_empty() {
                return;
            }
            assert!(
                started.elapsed() < patience,
                "{what}: processes left after the run: {left:#?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until at least `count` processes carry the mark.
    pub fn wait_for(&self, count: usize, patience: Duration) {
        let started = Instant::now();
        while self.left().len() < count {
            assert!(
                started.elapsed() < patience,
                "only {:?} started",
                self.left()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The one JSON object of a report.
pub fn json(run: &Run) -> Value {
    let text = run.stdout_text();
    assert_eq!(text.lines().count(), 1, "{text}\n{}", run.stderr);
    serde_json::from_str(&text).unwrap()
}

/// The JSON objects of a `judge --format json` report, one per line.
pub fn json_lines(run: &Run) -> Vec<Value> {
    run.stdout_text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every containment this machine allows (`auto` and `subreaper` always; `namespace` and
/// `cgroup` where the system lets them be made), with what each puts in force.
pub fn containments() -> Vec<(&'static str, Vec<String>)> {
    let mut found = Vec::new();
    for c in ["auto", "subreaper", "namespace", "cgroup"] {
        let mark = Mark::new("probe");
        let (run, _) = mark.run(&[
            "queens",
            "stress",
            "--cases",
            "1",
            "--gen-args",
            "--cases 1",
            "--format",
            "json",
            "--containment",
            c,
            "--",
            BIN,
            "queens",
        ]);
        if run.code == 2 && matches!(c, "namespace" | "cgroup") {
            assert!(run.stderr.contains("can be made here"), "{}", run.stderr);
            continue;
        }
        assert_eq!(run.code, 0, "--containment {c}: {}", run.stderr);
        let names = json(&run)["containment"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        found.push((c, names));
    }
    found
}

/// True when `program --version` (or `-version`) runs; false (the test then returns) when it
/// does not, outside CI; under CI=true a failure.
pub fn have(program: &str) -> bool {
    let found = Command::new(program)
        .arg(if program == "java" {
            "-version"
        } else {
            "--version"
        })
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "{program} is needed by these tests under CI (.ci/run installs it)"
        );
        eprintln!("{program} not found: its tests are skipped");
    }
    found
}
