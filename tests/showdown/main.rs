//! `chess-puzzles showdown` (Chess Variants Showdown), through the real binary and the
//! library: the command and its judge, the judge kit, the promises of the
//! command line, the search against exhaustive references on random boards, the committed
//! experiment data, and the proof mode (`--features milp`). The runs at scale, timed, have a crate of their own: `tests/showdown_scale/`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/inputs.rs"]
mod inputs;

mod command;
mod experiment_data;
mod kit;
mod promises;
mod prove;
mod random;

use std::sync::{Mutex, MutexGuard};

use common::run;

/// The statement's sample input and the statement's own answer to it.
const SAMPLE_IN: &str = include_str!("../data/showdown/sample.in");
const SAMPLE_OUT: &str = include_str!("../data/showdown/sample.out");

/// The `showdown gen` arguments of one 100x100 board with 2% kings: long empty lines, where
/// the time limits of the optimiser and of the proof mode were once overrun.
const SPARSE_BOARD: &[&str] = &[
    "--tests",
    "1",
    "--size",
    "100",
    "--density",
    "0.02",
    "--seed",
    "3",
];

/// The tests that time runs of the binary, or compare answers found under a small time
/// limit, take this lock, so that they do not compete with each other for the cores: the
/// test harness runs tests side by side, and two runs with two workers each starved a timed
/// one on a 2-core machine (a 1.5 s limit took 3.4 s).
fn timed_alone() -> MutexGuard<'static, ()> {
    static TIMED: Mutex<()> = Mutex::new(());
    TIMED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sends Ctrl-C (SIGINT) to a running child (through the shell's `kill`).
fn interrupt(pid: u32) {
    let status = std::process::Command::new("sh")
        .args(["-c", &format!("kill -INT {pid}")])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Writes the input of `chess-puzzles showdown gen args...` to `dir/name` and returns its
/// path (for the proof mode's tests).
#[cfg(feature = "milp")]
fn generated_file(dir: &std::path::Path, name: &str, args: &[&str]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, generate(args)).unwrap();
    path
}

/// The input `chess-puzzles showdown gen args...` writes.
fn generate(args: &[&str]) -> Vec<u8> {
    let mut all = vec!["showdown", "gen"];
    all.extend_from_slice(args);
    let out = run(&all, b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}
