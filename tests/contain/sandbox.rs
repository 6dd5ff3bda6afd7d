//! The sandbox, attacked: a program that looks for the expected answers, rewrites the tests,
//! reads the keeper's memory, reaches the network, moves itself out of its cgroup, forks
//! without end, or leaves files in /tmp. Each is bounded in count, time and memory, and every
//! process of it is looked for after the run.
//!
//! A part this system does not allow is said so and its test skipped, except under CI=true,
//! where every part the default sandbox promises must be there (as root, and as an ordinary
//! user through .ci/run).

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use crate::common::scratch;
use crate::procs::{Mark, have, json, json_lines};

/// The parts of the default sandbox in force here (the JSON's `containment`), probed once.
pub fn parts() -> &'static Vec<String> {
    static FOUND: OnceLock<Vec<String>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let mark = Mark::new("sandbox-probe");
        let (run, _) = mark.run(&[
            "queens",
            "stress",
            "--cases",
            "1",
            "--gen-args",
            "--cases 1",
            "--format",
            "json",
            "--",
            "sh",
            "-c",
            "exec \"$CP\" queens",
        ]);
        let r = json(&run);
        let names: Vec<String> = r["containment"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect();
        let missing = r["containment_missing"].as_array().unwrap().clone();
        eprintln!("sandbox here: {names:?}; missing: {missing:?}");
        names
    })
}

/// True when the default sandbox has `part`; otherwise false with a message, or a failure
/// under CI=true.
pub fn has(part: &str) -> bool {
    let here = parts().iter().any(|p| p == part);
    if !here {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "the sandbox has no {part} here: {:?}",
            parts()
        );
        eprintln!("skipped: the sandbox has no {part} on this system");
    }
    here
}

/// A folder of tests `a`, `b` with their right answers.
pub fn tests() -> tempfile::TempDir {
    let dir = scratch("sandbox-tests");
    for name in ["a", "b"] {
        std::fs::write(dir.path().join(format!("{name}.in")), "1\n1 1\n").unwrap();
        let answer = crate::common::run(&["queens"], b"1\n1 1\n").stdout;
        std::fs::write(dir.path().join(format!("{name}.out")), answer).unwrap();
    }
    dir
}

/// `queens judge --format json TESTS -- sh -c script`, with `T` naming the tests' folder.
pub fn judge(
    mark: &Mark,
    tests: &Path,
    extra: &[&str],
    script: &str,
) -> (i32, Vec<serde_json::Value>) {
    let mut args = vec!["queens", "judge", "--format", "json", "--env", "T"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[tests.to_str().unwrap(), "--", "sh", "-c", script]);
    let mut command = mark.command(&args);
    command.env("T", tests);
    let out = command.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code().unwrap_or(-1), lines)
}

#[test]
fn the_expected_answers_cannot_be_read_nor_the_tests_rewritten() {
    if !has("mount-namespace") {
        return;
    }
    let dir = tests();
    let before = std::fs::read(dir.path().join("b.out")).unwrap();
    let mark = Mark::new("answers");
    // Copying the answer would be accepted; the folder is not there to copy from, nor to
    // write into.
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &[],
        "cat \"$T/$(ls \"$T\" | head -1 | sed 's/in$/out/')\" 2>/dev/null || echo hidden; \
         echo garbage > \"$T/b.out\"; echo garbage > \"$T/b.in\"; :",
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "WA", "{line}");
        assert!(
            line["reason"].as_str().unwrap().contains("found 'hidden'"),
            "{line}"
        );
    }
    assert_eq!(std::fs::read(dir.path().join("b.out")).unwrap(), before);
    assert_eq!(std::fs::read(dir.path().join("b.in")).unwrap(), b"1\n1 1\n");
    // The same program without the sandbox does both (which is why there is one).
    let (_, lines) = judge(&mark, dir.path(), &["--sandbox", "off"], "cat \"$T/a.out\"");
    assert_eq!(lines[0]["verdict"], "AC", "{}", lines[0]);
    mark.assert_none_left(Duration::from_secs(1), "answers");
}

#[test]
fn the_keepers_memory_and_the_judges_processes_are_out_of_reach() {
    if !has("own-proc") {
        return;
    }
    let dir = tests();
    let mark = Mark::new("memory");
    // The keeper (pid 1 here) holds a copy of the judge's memory: it cannot be read, and no
    // process outside the run is listed.
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &[],
        "cat >/dev/null; head -c 64 /proc/1/mem >/dev/null 2>&1 && echo mem; \
         cat /proc/1/environ >/dev/null 2>&1 && echo environ; \
         ls /proc | grep -c '^[0-9]' | awk '$1 > 8 { print \"processes\", $1 }'; echo done",
    );
    assert_eq!(
        lines[0]["reason"], "1:1: expected 'SOLN       COLUMN', found 'done'",
        "{}",
        lines[0]
    );
    mark.assert_none_left(Duration::from_secs(1), "memory");
}

#[test]
fn the_network_is_a_loopback_of_its_own() {
    if !has("network-namespace") || !have("python3") {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tests();
    // Not among the tests, which the program cannot see.
    let own = scratch("net");
    let program = own.path().join("net.py");
    std::fs::write(
        &program,
        format!(
            "import socket, sys\nsys.stdin.read()\n\
             try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n    print('host')\n\
             except OSError:\n    print('no host')\n\
             try:\n    own = socket.socket(); own.bind(('127.0.0.1', 0)); own.listen(1)\n\
             \x20   socket.create_connection(own.getsockname(), timeout=1)\n    print('own loopback')\n\
             except OSError:\n    print('no socket')\n"
        ),
    )
    .unwrap();
    let script = format!("exec python3 {}", program.display());
    let opened = own.path().to_str().unwrap();
    let mark = Mark::new("network");
    let (_, lines) = judge(&mark, dir.path(), &["--read-only", opened], &script);
    assert_eq!(
        lines[0]["reason"], "1:1: expected 'SOLN       COLUMN', found 'no host'",
        "{}",
        lines[0]
    );
    // Opened by the option, and said so in the report.
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &["--allow-network", "--read-only", opened],
        &script,
    );
    assert_eq!(
        lines[0]["reason"], "1:1: expected 'SOLN       COLUMN', found 'host'",
        "{}",
        lines[0]
    );
    assert!(
        !lines[2]["containment"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == "network-namespace")
    );
    drop(listener);
    mark.assert_none_left(Duration::from_secs(1), "network");
}

#[test]
fn a_spinning_fork_bomb_is_bounded_and_ended() {
    // Either limit will do: RLIMIT_NPROC in a user namespace, or a cgroup's pids.max.
    let limited = parts().iter().any(|p| p.starts_with("process-limit"));
    if !limited && !has("process-limit") {
        return;
    }
    let dir = tests();
    let mark = Mark::new("bomb");
    // Each process starts two more and spins; at most 40 of them can be.
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &[
            "--process-limit",
            "40",
            "--time-limit",
            "0.5",
            "--jobs",
            "1",
        ],
        "b() { b & b & while :; do :; done; }; b",
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "TLE", "{line}");
    }
    mark.assert_none_left(Duration::from_secs(2), "bomb");
    // The limit itself: 60 sleepers are more than 40 processes, and the fork that would
    // make one too many is refused (without a limit all 60 start, and the answer is right).
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &["--process-limit", "40", "--jobs", "1"],
        "i=0; while [ $i -lt 60 ]; do sleep 30 & i=$((i + 1)); done; exec \"$CP\" queens",
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "RE", "{line}");
        assert!(line["reason"].as_str().unwrap().contains("fork"), "{line}");
    }
    mark.assert_none_left(Duration::from_secs(2), "sleepers");
}

#[test]
fn the_program_cannot_leave_its_cgroup_nor_leave_files_behind() {
    if !has("mount-namespace") {
        return;
    }
    let dir = tests();
    let mark = Mark::new("cgroup");
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &[],
        "for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/unified/cgroup.procs; do \
         echo $$ > $f 2>/dev/null && echo moved; done; \
         echo left > /tmp/left-behind; setsid sh -c 'sleep 300' & exec \"$CP\" queens",
    );
    assert_eq!(lines[0]["verdict"], "AC", "{}", lines[0]);
    mark.assert_none_left(Duration::from_secs(1), "cgroup");
    // No run folder of a judge that is gone is left.
    let temp = std::env::temp_dir();
    for entry in std::fs::read_dir(&temp).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(pid) = name
            .strip_prefix("chess-puzzles-box-")
            .and_then(|r| r.split_once('-'))
            .and_then(|(p, _)| p.parse::<i32>().ok())
        {
            // Safety: signal 0 only asks whether the process is there.
            let alive = unsafe { libc::kill(pid, 0) } == 0;
            assert!(alive, "left behind: {}", entry.path().display());
        }
    }
}

#[test]
fn strict_runs_with_everything_or_not_at_all() {
    let mark = Mark::new("strict");
    let (run, _) = mark.run(&[
        "queens",
        "stress",
        "--cases",
        "1",
        "--gen-args",
        "--cases 1",
        "--sandbox",
        "strict",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "exec \"$CP\" queens",
    ]);
    let missing = !json_missing().is_empty();
    if missing {
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("--sandbox strict"), "{}", run.stderr);
    } else {
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(json(&run)["verdict"], "AC");
    }
    // A program whose interpreter the sandbox does not show is refused before any run,
    // naming it.
    if has("mount-namespace") {
        let dir = scratch("unseen");
        let interpreter = dir.path().join("interp");
        std::fs::write(&interpreter, "#!/bin/sh\nexec cat\n").unwrap();
        std::fs::set_permissions(&interpreter, std::fs::Permissions::from_mode(0o755)).unwrap();
        let elsewhere = scratch("unseen-program");
        let program = elsewhere.path().join("p");
        std::fs::write(&program, format!("#!{}\n", interpreter.display())).unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (run, _) = mark.run(&["queens", "stress", "--", program.to_str().unwrap()]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains(interpreter.to_str().unwrap()),
            "{}",
            run.stderr
        );
        let opened = interpreter.parent().unwrap().to_str().unwrap();
        let (run, _) = mark.run(&[
            "queens",
            "stress",
            "--cases",
            "1",
            "--read-only",
            opened,
            "--",
            program.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("opened by the options"),
            "{}",
            run.stderr
        );
    }
}

/// The parts the default sandbox misses here.
fn json_missing() -> Vec<serde_json::Value> {
    let mark = Mark::new("missing");
    let (run, _) = mark.run(&[
        "queens",
        "stress",
        "--cases",
        "1",
        "--gen-args",
        "--cases 1",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "exec \"$CP\" queens",
    ]);
    json(&run)["containment_missing"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn with_the_sandbox_off_nothing_of_it_is_in_force() {
    let mark = Mark::new("off");
    let (run, _) = mark.run(&[
        "queens",
        "judge",
        "--format",
        "json",
        "--sandbox",
        "off",
        tests().path().to_str().unwrap(),
        "--",
        "sh",
        "-c",
        "exec \"$CP\" queens",
    ]);
    let lines = json_lines(&run);
    let containment = lines[2]["containment"].as_array().unwrap();
    assert!(
        !containment.iter().any(|p| p == "mount-namespace"),
        "{containment:?}"
    );
    assert_eq!(lines[2]["verdict"], "AC");
}

/// The folder of this process's group under the cgroup v1 `controller`, where one is
/// mounted (the judge, a child of the tests, starts in the same groups).
fn v1_group(controller: &str) -> Option<std::path::PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let relative = own.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
        names.split(',').any(|n| n == controller).then_some(path)
    })?;
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let mount = mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let right: Vec<&str> = right.split_whitespace().collect();
        let v1 =
            right.first() == Some(&"cgroup") && right.get(2)?.split(',').any(|o| o == controller);
        v1.then(|| left.split_whitespace().nth(4).map(str::to_string))?
    })?;
    Some(Path::new(&mount).join(relative.trim_start_matches('/')))
}

/// The folders of the groups the judge `pid` made under `base`, with `file`'s contents.
fn groups_of(base: &Path, pid: u32, file: &str) -> Vec<(std::path::PathBuf, String)> {
    let prefix = format!("chess-puzzles-{pid}-");
    std::fs::read_dir(base)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                .filter_map(|e| {
                    let text = std::fs::read_to_string(e.path().join(file)).ok()?;
                    Some((e.path(), text.trim().to_string()))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn cgroup_v1_limits_are_the_ones_asked_for_and_hold() {
    // As root on a hybrid hierarchy (v1 controllers, no v2 controllers): the run's process
    // and memory limits are v1 groups the judge makes beside its own.
    let (Some(pids), Some(memory)) = (v1_group("pids"), v1_group("memory")) else {
        eprintln!("skipped: no cgroup v1 pids and memory controllers here");
        return;
    };
    let v1 = ["process-limit-cgroup", "memory-limit-cgroup"]
        .iter()
        .all(|part| parts().iter().any(|p| p == part));
    if !v1 || !pids.join("cgroup.procs").exists() {
        eprintln!(
            "skipped: the sandbox does not use cgroup v1 groups here: {:?}",
            parts()
        );
        return;
    }
    let mark = Mark::new("v1");
    let stress = |extra: &[&str], script: &str| {
        let mut args = vec![
            "queens",
            "stress",
            "--cases",
            "1",
            "--gen-args",
            "--cases 1",
        ];
        args.extend_from_slice(&["--format", "json", "--jobs", "1"]);
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", "sh", "-c", script]);
        mark.command(&args).spawn().unwrap()
    };
    // While the run sleeps, its groups hold the limits asked for, and the run.
    let child = stress(
        &["--process-limit", "40", "--memory-limit", "48"],
        "sleep 2; exec \"$CP\" queens",
    );
    let judge = child.id();
    let until = std::time::Instant::now() + Duration::from_millis(1500);
    let (mut seen_pids, mut seen_memory) = (Vec::new(), Vec::new());
    while std::time::Instant::now() < until && (seen_pids.is_empty() || seen_memory.is_empty()) {
        seen_pids = groups_of(&pids, judge, "pids.max");
        seen_memory = groups_of(&memory, judge, "memory.limit_in_bytes");
        std::thread::sleep(Duration::from_millis(20));
    }
    let procs: Vec<String> = groups_of(&pids, judge, "cgroup.procs")
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let out = child.wait_with_output().unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["verdict"], "AC", "{r}");
    assert_eq!(
        seen_pids
            .iter()
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>(),
        ["40"]
    );
    assert_eq!(
        seen_memory
            .iter()
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>(),
        [(48u64 << 20).to_string()]
    );
    assert!(
        procs.iter().any(|p| !p.is_empty()),
        "the run is in its group"
    );
    // Removed after the run.
    for (path, _) in seen_pids.iter().chain(&seen_memory) {
        assert!(!path.exists(), "left: {}", path.display());
    }
    // The memory limit holds on memory used: a shell holding 100 MB in a variable is MLE
    // (the address space is not limited; the group's limit stops it). The process limit
    // holds too: see the fork bomb above, where the cgroup is this limit.
    let child = stress(
        // A CPU time to spare: the shell's copying is slow on a busy machine.
        &["--memory-limit", "48", "--time-limit", "10"],
        "x=$(head -c 100000000 /dev/zero | tr '\\0' x); echo ${#x}",
    );
    let judge = child.id();
    let out = child.wait_with_output().unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["verdict"], "MLE", "{r}");
    assert!(groups_of(&memory, judge, "memory.limit_in_bytes").is_empty());
    mark.assert_none_left(Duration::from_secs(2), "v1 limits");
}

#[test]
fn without_a_namespace_a_fork_bomb_is_still_bounded_and_ended() {
    // `--containment subreaper` and `cgroup` have no sandbox, but a process limit: a cgroup's
    // pids.max where one can be made, RLIMIT_NPROC in a user namespace of the program's own
    // otherwise, named in the JSON's containment.
    let dir = tests();
    for (containment, names) in crate::hostile::every() {
        if !["subreaper", "cgroup"].contains(containment) {
            continue;
        }
        let what = names.join("+");
        let limit = names
            .iter()
            .find(|n| n.starts_with("process-limit"))
            .cloned();
        // Where the default sandbox has a process limit, so does this mode (the same pids
        // cgroup, or a user namespace of the program's own).
        let sandboxed = parts().iter().any(|p| p.starts_with("process-limit"));
        let Some(limit) = limit else {
            assert!(
                !sandboxed && std::env::var("CI").as_deref() != Ok("true"),
                "--containment {containment}: no process limit here: {what}"
            );
            eprintln!("skipped: --containment {containment} has no process limit here");
            continue;
        };
        eprintln!("--containment {containment}: {limit}");
        let mark = Mark::new("bomb-plain");
        let mode = [
            "--containment",
            containment,
            "--process-limit",
            "40",
            "--jobs",
            "1",
        ];
        // Each process starts two more and spins: at most 40 of them can be.
        let mut extra = mode.to_vec();
        extra.extend_from_slice(&["--time-limit", "0.5"]);
        let started = std::time::Instant::now();
        let (_, lines) = judge(
            &mark,
            dir.path(),
            &extra,
            "b() { b & b & while :; do :; done; }; b",
        );
        for line in &lines[..2] {
            assert_eq!(line["verdict"], "TLE", "{what}: {line}");
        }
        let summary = &lines[2];
        assert!(
            summary["containment"]
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n == limit.as_str()),
            "{what}: {summary}"
        );
        assert!(started.elapsed() < Duration::from_secs(20), "{what}");
        mark.assert_none_left(Duration::from_secs(2), &what);
        // The limit itself: the fork that would make a 41st process is refused.
        let (_, lines) = judge(
            &mark,
            dir.path(),
            &mode,
            "i=0; while [ $i -lt 60 ]; do sleep 30 & i=$((i + 1)); done; exec \"$CP\" queens",
        );
        for line in &lines[..2] {
            assert_eq!(line["verdict"], "RE", "{what}: {line}");
            assert!(
                line["reason"].as_str().unwrap().contains("fork"),
                "{what}: {line}"
            );
        }
        mark.assert_none_left(Duration::from_secs(2), &what);
    }
}
