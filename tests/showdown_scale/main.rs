//! `chess-puzzles showdown` at scale, through the real binary: the time limit and Ctrl-C
//! hold on hundreds of thousands of tests and on hundreds of 256x256 boards, and memory stays
//! bounded by the input, not by the number of tests. Inputs are generated at test time
//! (`showdown gen`); every answer is checked by the judge; peak memory is the child's own,
//! from `wait4`.
//!
//! The targets are wall-clock times on a 2-core machine. A machine shared with other work
//! can slow any single run down, so a timed run that misses its target is made again, up to
//! three times in all, and the test fails only when every attempt missed it (each attempt's
//! answers are checked all the same). A crate of its own, so that no other test shares the
//! machine with these, and each of them takes one lock (`timed_alone`), so that they do not
//! compete with each other for the cores.

#![cfg(unix)]

// The shared helpers, of which these tests use one.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use chess_puzzles::showdown::judge::{Verdict, check};

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use common::{command, run};

/// The lock every test here takes: two runs with two workers each starve a timed one on a
/// 2-core machine.
fn timed_alone() -> MutexGuard<'static, ()> {
    static TIMED: Mutex<()> = Mutex::new(());
    TIMED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes the input of `chess-puzzles showdown gen args...` to `dir/name` and returns its
/// path.
fn generated_file(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let mut all = vec!["showdown", "gen"];
    all.extend_from_slice(args);
    let out = run(&all, b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let path = dir.join(name);
    std::fs::write(&path, out.stdout).unwrap();
    path
}

/// How many times a timed run is made at most before its target counts as missed.
const ATTEMPTS: usize = 3;

/// How a child ended: its exit code (128 + the signal if one ended it) and its peak
/// resident memory in bytes.
struct Ended {
    code: i32,
    peak: u64,
}

/// Waits for `child` with `wait4`, which also gives its peak memory (`ru_maxrss`).
fn wait_measured(child: &Child) -> Ended {
    let mut status: libc::c_int = 0;
    // Safety: `rusage` is plain data, all zeros is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // Safety: `status` and `usage` are valid for writes for the whole call; the child is
    // ours and not yet waited for (std's `Child` is never waited for after this).
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    // Linux reports kibibytes.
    Ended {
        code,
        peak: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
    }
}

/// Starts `chess-puzzles args...` with its standard output read by a thread (returned with
/// it: joining it gives the output).
fn start(args: &[&str]) -> (Child, std::thread::JoinHandle<Vec<u8>>) {
    let mut child = command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).unwrap();
        out
    });
    (child, reader)
}

fn stderr_of(child: &mut Child) -> String {
    let mut text = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut text);
    }
    text
}

/// Every test of `input` answered validly by `output`: returns how many.
fn all_valid(input: &Path, output: &[u8]) -> usize {
    let input = std::fs::read(input).unwrap();
    let report = check(&input[..], output, |_, _| {}).unwrap();
    assert_eq!(report.verdict, Verdict::Accepted);
    report.scores.len()
}

/// With `--time-limit 1`, 300,000 tests of 2x2 are read, answered (every one validly) and
/// written within 1.5 s of wall time in all, by the optimiser and by `--greedy`. (The
/// scheduling of the time once did work per test in proportion to the number of tests:
/// 100,000 tests took 38 s.)
#[test]
fn three_hundred_thousand_small_tests_end_within_a_second_and_a_half() {
    let _alone = timed_alone();
    let dir = tempfile::tempdir().unwrap();
    let input = generated_file(
        dir.path(),
        "small.in",
        &["--kind", "smallest", "--cases", "300000", "--seed", "1"],
    );
    let target = Duration::from_millis(1500);
    for greedy in [false, true] {
        let mut args = vec!["showdown", "--time-limit", "1"];
        if greedy {
            args.push("--greedy");
        }
        args.push(input.to_str().unwrap());
        let mut times = Vec::new();
        for _ in 0..ATTEMPTS {
            let began = Instant::now();
            let (mut child, reader) = start(&args);
            let ended = wait_measured(&child);
            let took = began.elapsed();
            let out = reader.join().unwrap();
            assert_eq!(ended.code, 0, "{args:?}: {}", stderr_of(&mut child));
            assert_eq!(all_valid(&input, &out), 300_000);
            eprintln!("{}: {took:.2?}", args.join(" "));
            times.push(took);
            if took <= target {
                break;
            }
        }
        assert!(
            times.iter().any(|&t| t <= target),
            "{args:?}: every attempt took over {target:?}: {times:?}"
        );
    }
}

/// Ctrl-C in the middle of a long run answers every test (validly) and ends the program
/// with exit code 130 within half a second: on the inputs of the other tests here, 300,000
/// tests of 2x2 and 100 boards of 256x256 (each of whose first answers alone takes a tenth of
/// a second). Ctrl-C is sent half a second after the input has been read (the first tests
/// prepared, their search under way). (It once stopped nothing: only SIGKILL ended a million small tests.)
#[test]
fn ctrl_c_answers_every_test_within_half_a_second() {
    let _alone = timed_alone();
    let dir = tempfile::tempdir().unwrap();
    let small = generated_file(
        dir.path(),
        "small.in",
        &["--kind", "smallest", "--cases", "300000", "--seed", "1"],
    );
    let large = generated_file(
        dir.path(),
        "large.in",
        &["--size", "256", "--cases", "100", "--seed", "3"],
    );
    let target = Duration::from_millis(500);
    for (input, tests) in [(&small, 300_000), (&large, 100)] {
        let args = ["showdown", "--time-limit", "1000", input.to_str().unwrap()];
        let mut times = Vec::new();
        for _ in 0..ATTEMPTS {
            let (mut child, reader) = start(&args);
            // Once the input is read, the first tests are prepared and searched.
            let size = std::fs::metadata(input).unwrap().len();
            wait_until_read(&child, size, Duration::from_secs(20));
            std::thread::sleep(Duration::from_millis(500));
            let (ended, took) = interrupt(&child);
            let out = reader.join().unwrap();
            let stderr = stderr_of(&mut child);
            assert_eq!(ended.code, 130, "{args:?}: {stderr}");
            assert!(stderr.contains("interrupted"), "{stderr}");
            assert_eq!(all_valid(input, &out), tests);
            eprintln!("{tests} tests: ended {took:.2?} after Ctrl-C");
            times.push(took);
            if took <= target {
                break;
            }
        }
        assert!(
            times.iter().any(|&t| t <= target),
            "{args:?}: every attempt ended over {target:?} after Ctrl-C: {times:?}"
        );
    }
}

/// Sends Ctrl-C (SIGINT) to `child` and waits for it: how it ended, and how long after.
fn interrupt(child: &Child) -> (Ended, Duration) {
    let sent = Instant::now();
    // Safety: a plain signal to our own child, which has not been waited for.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let ended = wait_measured(child);
    (ended, sent.elapsed())
}

/// Waits until `child` has read `bytes` bytes (`rchar` of /proc/<pid>/io): its input, read
/// whole before anything is solved.
fn wait_until_read(child: &Child, bytes: u64, at_most: Duration) {
    let began = Instant::now();
    let io = format!("/proc/{}/io", child.id());
    while began.elapsed() < at_most {
        let read = std::fs::read_to_string(&io)
            .ok()
            .and_then(|text| {
                text.lines()
                    .find_map(|l| l.strip_prefix("rchar: ").map(|v| v.trim().parse::<u64>()))
            })
            .and_then(Result::ok)
            .unwrap_or(0);
        if read >= bytes {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the input was not read within {at_most:?}");
}

/// Ctrl-C while a long input is still being read ends the program at once with exit code
/// 130 and no answer (nothing is answered before the whole input is read and checked).
#[test]
fn ctrl_c_while_reading_a_long_input_ends_at_once() {
    let _alone = timed_alone();
    let dir = tempfile::tempdir().unwrap();
    let input = generated_file(
        dir.path(),
        "small.in",
        &["--kind", "smallest", "--cases", "3000000", "--seed", "2"],
    );
    let (mut child, reader) = start(&["showdown", input.to_str().unwrap()]);
    std::thread::sleep(Duration::from_millis(200));
    let (ended, took) = interrupt(&child);
    let out = reader.join().unwrap();
    let stderr = stderr_of(&mut child);
    assert_eq!(ended.code, 130, "{stderr}");
    assert!(stderr.contains("while reading the input"), "{stderr}");
    assert!(out.is_empty());
    assert!(
        took < Duration::from_millis(500),
        "ended {took:?} after Ctrl-C"
    );
}

/// Memory is bounded by the input, not by what is built for every test: 100 boards of
/// 256x256 (6.6 MB of input) under 256 MiB of peak memory, 400 (26 MB) under 600 MiB, with
/// `--time-limit 1`, every answer valid. (The search structures of all the tests were once
/// built before the first answer: 590 MB and 2.3 GB.)
#[test]
fn memory_stays_bounded_on_hundreds_of_large_boards() {
    let _alone = timed_alone();
    let dir = tempfile::tempdir().unwrap();
    for (boards, limit) in [(100, 256u64 << 20), (400, 600 << 20)] {
        let cases = boards.to_string();
        let input = generated_file(
            dir.path(),
            "large.in",
            &["--size", "256", "--cases", &cases, "--seed", "3"],
        );
        for greedy in [false, true] {
            let mut args = vec!["showdown", "--time-limit", "1"];
            if greedy {
                args.push("--greedy");
            }
            args.push(input.to_str().unwrap());
            let (mut child, reader) = start(&args);
            let ended = wait_measured(&child);
            let out = reader.join().unwrap();
            assert_eq!(ended.code, 0, "{args:?}: {}", stderr_of(&mut child));
            assert_eq!(all_valid(&input, &out), boards);
            eprintln!("{}: peak {} MiB", args.join(" "), ended.peak >> 20);
            assert!(
                ended.peak < limit,
                "{boards} boards{}: peak {} MiB",
                if greedy { " (--greedy)" } else { "" },
                ended.peak >> 20
            );
        }
    }
}
