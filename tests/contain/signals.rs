//! Signals to `stress` and `judge` themselves: Ctrl-C (SIGINT), SIGTERM (`timeout`, a
//! cancelled CI job), SIGHUP (a closed terminal), and two Ctrl-C 2 ms apart: the binary ends
//! with 128 + the signal and no process of the run is left, whatever the program did.

use std::time::{Duration, Instant};

use crate::common::{BIN, scratch};
use crate::procs::Mark;

/// A program that leaves a child in a new session, a double-forked one and one in its own
/// process group, all ignoring TERM, INT and HUP, then burns CPU ignoring them too.
const FAMILY: &str = "trap '' TERM INT HUP; \
    setsid sh -c \"trap '' TERM INT HUP; sleep 300; :\" & \
    (sh -c \"trap '' TERM INT HUP; sleep 300; :\" &); \
    while :; do :; done";

fn send(pid: u32, signal: i32) {
    // Safety: kill sends a signal to the binary this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, signal) }, 0);
}

/// Starts `args` (stress or judge on FAMILY), waits for the family, sends `signals` (the gap
/// between them), and checks the exit code and that nothing is left.
fn stop_with(args: &[&str], containment: &str, signals: &[i32], gap: Duration, code: i32) {
    let mark = Mark::new("signals");
    let mut all: Vec<&str> = args.to_vec();
    all.extend([
        "--time-limit",
        "100",
        "--containment",
        containment,
        "--",
        "sh",
        "-c",
        FAMILY,
    ]);
    let child = mark.command(&all).spawn().unwrap();
    // The binary, the keeper, the program, three sh children and their sleeps.
    mark.wait_for(7, Duration::from_secs(10));
    let started = Instant::now();
    for (i, &signal) in signals.iter().enumerate() {
        if i > 0 {
            std::thread::sleep(gap);
        }
        send(child.id(), signal);
    }
    let out = child.wait_with_output().unwrap();
    let what = format!("{args:?} {containment} {signals:?}");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{what}: {:?}",
        started.elapsed()
    );
    mark.assert_none_left(Duration::from_secs(1), &what);
}

fn folder() -> tempfile::TempDir {
    let dir = scratch("signals");
    for name in ["a", "b"] {
        std::fs::write(dir.path().join(format!("{name}.in")), "1\n1 1\n").unwrap();
    }
    dir
}

#[test]
fn ctrl_c_sigterm_and_sighup_to_stress_and_judge_leave_nothing() {
    let dir = folder();
    let judge = ["queens", "judge", dir.path().to_str().unwrap()];
    let stress = ["queens", "stress"];
    for containment in ["auto", "subreaper"] {
        for (signal, code) in [
            (libc::SIGINT, 130),
            (libc::SIGTERM, 143),
            (libc::SIGHUP, 129),
        ] {
            stop_with(&stress, containment, &[signal], Duration::ZERO, code);
            stop_with(&judge, containment, &[signal], Duration::ZERO, code);
        }
    }
}

#[test]
fn two_ctrl_c_in_a_row_leave_nothing() {
    let dir = folder();
    let judge = ["queens", "judge", dir.path().to_str().unwrap()];
    for containment in ["auto", "subreaper"] {
        for _ in 0..3 {
            let two = [libc::SIGINT, libc::SIGINT];
            stop_with(
                &["queens", "stress"],
                containment,
                &two,
                Duration::from_millis(2),
                130,
            );
            stop_with(&judge, containment, &two, Duration::from_millis(2), 130);
        }
    }
}

#[test]
fn judge_interrupted_counts_the_tests_it_printed() {
    let dir = scratch("signals-count");
    // Tests a, b, c are answered at once; d never is.
    for name in ["a", "b", "c", "e", "f"] {
        std::fs::write(dir.path().join(format!("{name}.in")), "1\n1 1\n").unwrap();
    }
    std::fs::write(dir.path().join("d.in"), "1\n8 8\n").unwrap();
    let mark = Mark::new("signals-count");
    let program = "read t; read r c; if [ \"$r\" = 8 ]; then sleep 300; fi; \
        printf '1\\n1 1\\n' | exec \"$CP\" queens";
    let child = mark
        .command(&[
            "queens",
            "judge",
            "--idle-limit",
            "100",
            dir.path().to_str().unwrap(),
            "--",
            "sh",
            "-c",
            program,
        ])
        .spawn()
        .unwrap();
    // Wait for the sleep of test d.
    let started = Instant::now();
    while !mark.left().iter().any(|p| p.contains(": sleep 300")) {
        assert!(started.elapsed() < Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(20));
    }
    send(child.id(), libc::SIGINT);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "interrupted: 3 of 6 tests judged\n"
    );
    mark.assert_none_left(Duration::from_secs(1), "judge interrupted");
}

#[test]
fn sigkill_to_stress_takes_a_namespace_with_it() {
    // Only a PID namespace survives a judge killed without warning: its keeper dies with the
    // judge, and the kernel with it kills the whole namespace.
    let mark = Mark::new("sigkill");
    let (probe, _) = mark.run(&[
        "queens",
        "stress",
        "--cases",
        "1",
        "--containment",
        "namespace",
        "--",
        BIN,
        "queens",
    ]);
    if probe.code == 2 {
        eprintln!("no PID namespace here: {}", probe.stderr.trim());
        return;
    }
    let child = mark
        .command(&[
            "queens",
            "stress",
            "--time-limit",
            "100",
            "--containment",
            "namespace",
            "--",
            "sh",
            "-c",
            FAMILY,
        ])
        .spawn()
        .unwrap();
    mark.wait_for(7, Duration::from_secs(10));
    send(child.id(), libc::SIGKILL);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), None);
    mark.assert_none_left(Duration::from_secs(2), "SIGKILL to stress in a namespace");
}

/// The cgroup v2 folder this test runs in (where the judge makes its runs' cgroups), if
/// cgroup v2 is mounted.
fn own_cgroup() -> Option<std::path::PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let relative = own.lines().find_map(|l| l.strip_prefix("0::"))?.to_string();
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let mount = mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        (right.split_whitespace().next()? == "cgroup2")
            .then(|| left.split_whitespace().nth(4).map(str::to_string))?
    })?;
    Some(std::path::Path::new(&mount).join(relative.trim_start_matches('/')))
}

#[test]
fn cgroups_left_by_a_killed_judge_are_removed_by_the_next() {
    // A judge killed with SIGKILL cannot remove its runs' cgroups; the next judge to make
    // one removes those named after a process that is gone (once empty), and nothing else.
    let mark = Mark::new("cgroups");
    let probe = [
        "queens",
        "stress",
        "--cases",
        "1",
        "--containment",
        "cgroup",
        "--",
        BIN,
        "queens",
    ];
    let (run, _) = mark.run(&probe);
    if run.code == 2 {
        eprintln!("no cgroup can be made here: {}", run.stderr.trim());
        return;
    }
    let base = own_cgroup().expect("a cgroup was made, so cgroup v2 is mounted");
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = gone.id();
    let left = base.join(format!("chess-puzzles-{dead}-0"));
    let probe_left = base.join(format!("chess-puzzles-{dead}-probe"));
    let living = base.join(format!("chess-puzzles-{}-7", std::process::id()));
    let foreign = base.join(format!("chess-puzzles-{dead}-mine"));
    for folder in [&left, &probe_left, &living, &foreign] {
        std::fs::create_dir(folder).unwrap();
    }
    let (run, _) = mark.run(&probe);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (left_there, probe_there) = (left.exists(), probe_left.exists());
    let (living_there, foreign_there) = (living.exists(), foreign.exists());
    for folder in [&left, &probe_left, &living, &foreign] {
        let _ = std::fs::remove_dir(folder);
    }
    assert!(!left_there && !probe_there, "left behind, not removed");
    assert!(living_there, "a living judge's cgroup was removed");
    assert!(foreign_there, "a cgroup of another name was removed");
}

/// `queens stress --format json` with `extra`, on `sh -c script`, stopped by Ctrl-C once the
/// script's `sleep 300` runs: its exit code, JSON report and standard error.
fn interrupted(extra: &[&str], script: &str) -> (Option<i32>, serde_json::Value, String) {
    let mark = Mark::new("interrupted");
    let mut all = vec!["queens", "stress", "--format", "json", "--jobs", "1"];
    all.extend_from_slice(extra);
    all.extend_from_slice(&["--time-limit", "100", "--", "sh", "-c", script]);
    let child = mark.command(&all).spawn().unwrap();
    let waited = Instant::now();
    while !mark.left().iter().any(|p| p.contains(": sleep 300")) {
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "{:?}",
            mark.left()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let started = Instant::now();
    send(child.id(), libc::SIGINT);
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    mark.assert_none_left(Duration::from_secs(1), "interrupted stress");
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stdout));
    });
    (
        out.status.code(),
        report,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_interrupted_stress_says_so_in_its_json_before_a_failure_and_while_shrinking() {
    // Before any failure: the first run sleeps.
    let (code, r, _) = interrupted(&[], "sleep 300; :");
    assert_eq!(code, Some(130), "{r}");
    assert_eq!(r["interrupted"], true, "{r}");
    assert_eq!(r["verdict"], serde_json::Value::Null, "{r}");
    assert_eq!(r["runs"], 0, "{r}");
    // While shrinking: the generated input (5 cases) gets a wrong answer at once, every
    // smaller one sleeps; Ctrl-C once a smaller one runs.
    let script = "read n; if [ \"$n\" = 5 ]; then echo garbage; exit 0; fi; sleep 300; :";
    let (code, r, stderr) = interrupted(&["--gen-args", "--cases 5"], script);
    assert_eq!(code, Some(130), "{r}");
    assert_eq!(r["interrupted"], true, "{r}");
    assert_eq!(r["verdict"], "WA", "{r}");
    assert_eq!(r["runs"], 1, "{r}");
    // The input reported still fails: the one that failed (5 cases), nothing smaller.
    assert!(r["input"].as_str().unwrap().starts_with("5\n"), "{r}");
    assert_eq!(r["original_bytes"], r["shrunk_bytes"], "{r}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(!stderr.contains("no smaller input fails"), "{stderr}");
}
