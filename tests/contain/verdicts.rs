//! Verdicts that nothing the program does can bend: its memory measured without the judge's,
//! its output as it was when it exited, a CPU limit hit by threads, signals it raised itself,
//! a keeper it killed, a test that vanished, names that are escaped, a session of its own.

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use crate::common::scratch;
use crate::hostile::every;
use crate::procs::{Mark, PASSED_WORDS, have, json, json_lines};

/// `judge --format json` over `dir` with `args` before the folder, the program after `--`;
/// the per-test lines and the summary.
fn judge(
    mark: &Mark,
    dir: &std::path::Path,
    args: &[&str],
    program: &[&str],
) -> (i32, Vec<serde_json::Value>) {
    let mut all = vec!["queens", "judge", "--format", "json"];
    all.extend_from_slice(args);
    all.push(dir.to_str().unwrap());
    all.push("--");
    all.extend_from_slice(program);
    let (run, _) = mark.run(&all);
    (run.code, json_lines(&run))
}

#[test]
fn the_judges_own_memory_is_not_the_programs() {
    // The judge holds a 40 MiB input in memory when it starts the program; the program
    // itself (sh, then cat) uses a few MiB. Under a 32 MiB limit it is accepted.
    let dir = scratch("memory");
    std::fs::write(dir.path().join("big.in"), vec![b'7'; 40 << 20]).unwrap();
    std::fs::write(dir.path().join("big.out"), "ok\n").unwrap();
    for (containment, names) in every() {
        let mark = Mark::new("memory");
        let (code, lines) = judge(
            &mark,
            dir.path(),
            &["--memory-limit", "32", "--containment", containment],
            &["sh", "-c", "cat >/dev/null; echo ok"],
        );
        let what = names.join("+");
        assert_eq!(lines[0]["verdict"], "AC", "{what}: {}", lines[0]);
        let peak = lines[0]["peak_memory_bytes"].as_u64().unwrap();
        assert!(peak < 16 << 20, "{what}: peak {peak} bytes");
        assert_eq!(code, 0, "{what}");
        mark.assert_none_left(Duration::from_secs(1), &what);
    }
}

/// A right answer, and a child that writes `garbage` the moment its parent has exited.
const WRITES_AFTER_EXIT: &str = "import os, sys
cp = os.environ['CP']
if os.fork() == 0:
    parent = os.getppid()
    while os.getppid() == parent:
        pass
    os.write(1, b'garbage\\n')
    os._exit(0)
os.execv(cp, [cp, 'queens'])
";

#[test]
fn output_written_after_the_program_exited_does_not_count() {
    if !have("python3") {
        return;
    }
    for (containment, names) in every() {
        let mark = Mark::new("after-exit");
        let (run, _) = mark.run(&[
            "queens",
            "stress",
            "--cases",
            "12",
            "--gen-args",
            "--cases 1",
            "--containment",
            containment,
            "--",
            "python3",
            "-c",
            WRITES_AFTER_EXIT,
        ]);
        let what = names.join("+");
        assert_eq!(
            run.stdout_text(),
            "accepted: 12 runs (seeds 0..11)\n",
            "{what}: {}",
            run.stderr
        );
        mark.assert_none_left(Duration::from_secs(1), &what);
    }
}

/// A right answer (the judge's own, from a child it waits for), then a thread other than the
/// main one makes a child and ends the process (`exit`, that is `exit_group`, from that
/// thread, as a JVM or a Go program may end) while the main thread waits; the child writes
/// `garbage` the moment the thread that made it is gone (`PR_SET_PDEATHSIG`).
const THREAD_ENDS_THE_PROCESS: &str = r#"#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
static void orphaned(int s) { (void)s; write(1, "garbage\n", 8); _exit(0); }
static void *ender(void *arg) {
    int ready[2];
    if (pipe(ready) != 0) _exit(3);
    pid_t parent = getpid();
    if (fork() == 0) {
        signal(SIGUSR1, orphaned);
        prctl(PR_SET_PDEATHSIG, SIGUSR1);
        if (getppid() != parent) orphaned(0);
        write(ready[1], "r", 1);
        for (;;) pause();
    }
    char r;
    if (read(ready[0], &r, 1) != 1) _exit(3);
    exit(0);
    return arg;
}
int main(void) {
    pid_t solver = fork();
    if (solver == 0) {
        char *cp = getenv("CP");
        execl(cp, cp, "queens", (char *)0);
        _exit(4);
    }
    int status;
    if (waitpid(solver, &status, 0) != solver || status != 0) return 5;
    pthread_t t;
    pthread_create(&t, 0, ender, 0);
    for (;;) pause();
}
"#;

/// The first thread ends itself (`pthread_exit`) while another one, later, writes the
/// answer: the program runs on until its last thread ends.
const FIRST_THREAD_ENDS_ITSELF: &str = r#"#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static void *answer(void *arg) {
    usleep(100000);
    pid_t solver = fork();
    if (solver == 0) {
        char *cp = getenv("CP");
        execl(cp, cp, "queens", (char *)0);
        _exit(4);
    }
    int status;
    waitpid(solver, &status, 0);
    return arg;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, answer, 0);
    pthread_exit(0);
}
"#;

/// `source` compiled with gcc into `dir` as `name`.
fn compiled(dir: &std::path::Path, name: &str, source: &str) -> std::path::PathBuf {
    let file = dir.join(format!("{name}.c"));
    std::fs::write(&file, source).unwrap();
    let binary = dir.join(name);
    let built = std::process::Command::new("gcc")
        .args(["-O1", "-pthread", "-o"])
        .arg(&binary)
        .arg(&file)
        .status()
        .unwrap();
    assert!(built.success());
    binary
}

#[test]
fn output_written_after_another_thread_ended_the_program_does_not_count() {
    if !have("gcc") {
        return;
    }
    let dir = scratch("thread-exit");
    let ender = compiled(dir.path(), "ender", THREAD_ENDS_THE_PROCESS);
    let first_ends = compiled(dir.path(), "first-ends", FIRST_THREAD_ENDS_ITSELF);
    for (containment, names) in every() {
        let what = names.join("+");
        for (binary, runs) in [(&ender, "12"), (&first_ends, "3")] {
            let mark = Mark::new("thread-exit");
            let (run, _) = mark.run(&[
                "queens",
                "stress",
                "--cases",
                runs,
                "--gen-args",
                "--cases 1",
                "--containment",
                containment,
                "--",
                binary.to_str().unwrap(),
            ]);
            assert_eq!(
                run.stdout_text(),
                format!(
                    "accepted: {runs} runs (seeds 0..{})\n",
                    runs.parse::<u32>().unwrap() - 1
                ),
                "{what}, {}: {}",
                binary.display(),
                run.stderr
            );
            mark.assert_none_left(Duration::from_secs(1), &what);
        }
    }
}

/// The verdict and reason of one `stress` run of `sh -c script` on one small input.
fn stress_once(mark: &Mark, containment: &str, extra: &[&str], script: &str) -> serde_json::Value {
    stress_with(mark, containment, extra, script, &[])
}

/// [`stress_once`] with `rest`, the script's `$0` and arguments, after the script.
fn stress_with(
    mark: &Mark,
    containment: &str,
    extra: &[&str],
    script: &str,
    rest: &[&str],
) -> serde_json::Value {
    let mut args = stress_args(containment, extra, script);
    args.extend_from_slice(rest);
    json(&mark.run(&args).0)
}

/// The arguments of one `stress` run of `sh -c script` on one small input.
fn stress_args<'a>(containment: &'a str, extra: &[&'a str], script: &'a str) -> Vec<&'a str> {
    let mut args = vec![
        "queens",
        "stress",
        "--cases",
        "1",
        "--gen-args",
        "--cases 1",
        "--shrink-runs",
        "0",
        "--format",
        "json",
        "--containment",
        containment,
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", "sh", "-c", script]);
    args
}

#[test]
fn threads_over_the_cpu_limit_are_a_time_limit() {
    if !have("gcc") {
        return;
    }
    let dir = scratch("threads");
    let source = dir.path().join("spin.c");
    std::fs::write(
        &source,
        "#include <pthread.h>\nstatic void *spin(void *a) { for (;;) {} return a; }\n\
         int main(void) { pthread_t t[3]; for (int i = 0; i < 3; i++) \
         pthread_create(&t[i], 0, spin, 0); spin(0); }\n",
    )
    .unwrap();
    let binary = dir.path().join("spin");
    let built = std::process::Command::new("gcc")
        .args(["-O1", "-pthread", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success());
    // The spinner is a child of the shell, which fails when it is killed (named as an
    // argument, so that the sandbox shows its folder).
    let script = "\"$0\"; exit $?";
    let binary = binary.to_str().unwrap();
    for (containment, names) in every() {
        let mark = Mark::new("threads");
        for _ in 0..3 {
            let r = stress_with(
                &mark,
                containment,
                &["--time-limit", "1"],
                script,
                &[binary],
            );
            assert_eq!(r["verdict"], "TLE", "{}: {r}", names.join("+"));
            assert!(r["reason"].as_str().unwrap().starts_with("CPU time"), "{r}");
        }
        mark.assert_none_left(Duration::from_secs(1), &names.join("+"));
    }
}

#[test]
fn limit_signals_the_program_raised_itself_are_named_so() {
    // In /tmp: the sandbox's scratch folder, or the system's without one (removed after).
    let big = std::path::PathBuf::from(format!("/tmp/cp-xfsz-{}", std::process::id()));
    for (containment, names) in every() {
        let what = names.join("+");
        let mark = Mark::new("signals");
        let r = stress_once(&mark, containment, &[], "kill -XCPU $$");
        assert_eq!(r["verdict"], "RE", "{what}: {r}");
        assert_eq!(
            r["reason"], "signal 24 (SIGXCPU) sent by a process, not by the CPU limit",
            "{what}"
        );
        // A file past the file size limit (the output limit), written elsewhere than on
        // standard output, is named as a file.
        let r = stress_once(
            &mark,
            containment,
            &["--output-limit", "1"],
            &format!("exec head -c 3000000 /dev/zero > {}", big.display()),
        );
        let _ = std::fs::remove_file(&big);
        assert_eq!(r["verdict"], "OLE", "{what}: {r}");
        assert!(
            r["reason"]
                .as_str()
                .unwrap()
                .starts_with("a file it wrote reached the file size limit of 1.0 MiB"),
            "{what}: {r}"
        );
        if have("python3") {
            let r = stress_once(
                &mark,
                containment,
                &[],
                // Python ignores SIGXFSZ unless told otherwise.
                "exec python3 -c 'import signal as s; s.signal(s.SIGXFSZ, s.SIG_DFL); \
                 s.raise_signal(s.SIGXFSZ)'",
            );
            assert_eq!(r["verdict"], "RE", "{what}: {r}");
            assert_eq!(
                r["reason"], "signal 25 (SIGXFSZ) sent by a process, not by the file size limit",
                "{what}"
            );
            // A SIGKILL it sends itself, holding 160 MiB of the 256 MiB limit: no limit
            // ended it.
            let r = stress_once(
                &mark,
                containment,
                &["--memory-limit", "256"],
                "exec python3 -c 'import os, signal; held = bytearray(160 << 20); \
                 os.kill(os.getpid(), signal.SIGKILL)'",
            );
            assert_eq!(r["verdict"], "RE", "{what}: {r}");
            assert_eq!(r["reason"], "signal 9 (SIGKILL)", "{what}: {r}");
        }
        mark.assert_none_left(Duration::from_secs(1), &what);
    }
}

#[test]
fn a_program_that_kills_its_keeper_ends_with_everything_it_started() {
    for (containment, names) in every() {
        let what = names.join("+");
        let mark = Mark::new("keeper");
        let (run, took) = mark.run(&stress_args(
            containment,
            &[],
            "sleep 300 & sleep 0.3; kill -9 $PPID; sleep 300",
        ));
        let r = json(&run);
        // In a namespace the keeper is its init, which the program cannot kill: the run is
        // idle too long. Elsewhere the keeper dies, and the run with it.
        if names.iter().any(|n| n == "pid-namespace") {
            assert_eq!(r["verdict"], "ILE", "{what}: {r}");
        } else {
            assert_eq!(r["verdict"], "RE", "{what}: {r}");
            assert!(
                r["reason"]
                    .as_str()
                    .unwrap()
                    .starts_with("the keeper holding the run was killed"),
                "{what}: {r}"
            );
        }
        assert!(took < Duration::from_secs(8), "{what}: {took:?}");
        mark.assert_none_left(Duration::from_secs(2), &what);
    }
}

#[test]
fn a_test_that_stops_being_a_file_during_the_run_is_counted_as_skipped() {
    let dir = scratch("vanish");
    for name in ["a", "b", "c"] {
        std::fs::write(dir.path().join(format!("{name}.in")), "1\n1 1\n").unwrap();
    }
    // Judging a (the first test, --jobs 1) turns b into a FIFO.
    let b = dir.path().join("b.in");
    let script = format!(
        "[ -p {b} ] || {{ rm -f {b}; mkfifo {b}; }}; exec \"$CP\" queens",
        b = b.display()
    );
    let mark = Mark::new("vanish");
    // The program plays the part of someone changing the folder: without the sandbox, which
    // would hide the folder from it.
    let (code, lines) = judge(
        &mark,
        dir.path(),
        &["--sandbox", "off"],
        &["sh", "-c", &script],
    );
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[1]["verdict"], "skipped", "{}", lines[1]);
    let summary = &lines[3];
    assert_eq!(summary["verdict"], "skipped", "{summary}");
    assert_eq!(summary["accepted"], 2, "{summary}");
    assert_eq!(summary["skipped"][0]["test"], "b", "{summary}");
    assert_eq!(code, 2);
    // The text summary says so too.
    std::fs::remove_file(&b).unwrap();
    std::fs::write(&b, "1\n1 1\n").unwrap();
    let (run, _) = mark.run(&[
        "queens",
        "judge",
        "--sandbox",
        "off",
        dir.path().to_str().unwrap(),
        "--",
        "sh",
        "-c",
        &script,
    ]);
    let text = run.stdout_text();
    assert!(
        text.ends_with(
            "accepted: 2 of 3 tests; 1 test skipped: b (b.in is a FIFO, not a regular file)\n"
        ),
        "{text}"
    );
    assert_eq!(run.code, 2);
}

#[test]
fn test_names_are_escaped_in_the_table_and_the_summary() {
    let dir = scratch("names");
    let names = ["bell\x07", "esc\x1b[2J", "cr\rx", "nl\nx"];
    for name in names {
        std::fs::write(dir.path().join(format!("{name}.in")), "1\n1 1\n").unwrap();
        std::fs::write(dir.path().join(format!("{name}.out")), "wrong\n").unwrap();
    }
    // A FIFO, skipped, is named in the summary.
    let fifo = dir.path().join("fifo\x1b.in");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let mark = Mark::new("names");
    let (run, _) = mark.run(&[
        "queens",
        "judge",
        dir.path().to_str().unwrap(),
        "--",
        "sh",
        "-c",
        "exec \"$CP\" queens",
    ]);
    let raw = run.stdout.iter().any(|&b| b < 0x20 && b != b'\n');
    assert!(!raw, "{:?}", run.stdout_text());
    let text = run.stdout_text();
    // A heading, five tests, a summary: no name breaks a line.
    assert_eq!(text.lines().count(), 7, "{text}");
    assert!(text.contains("esc\\x1b[2J"), "{text}");
    assert!(text.contains("fifo\\x1b (fifo\\x1b.in is a FIFO"), "{text}");
    assert!(text.contains("the first failure is bell\\x07"), "{text}");
}

#[test]
fn the_program_has_a_session_of_its_own_and_no_terminal() {
    if !have("python3") {
        return;
    }
    let dir = scratch("session");
    std::fs::write(dir.path().join("a.in"), "1\n1 1\n").unwrap();
    std::fs::write(dir.path().join("a.out"), "leader no-tty\n").unwrap();
    // Not among the tests, which the sandbox hides.
    let own = scratch("session-program");
    let program = own.path().join("p.py");
    std::fs::write(
        &program,
        "#!/usr/bin/env python3\nimport os\nleader = 'leader' if os.getsid(0) == os.getpid() else 'member'\n\
         try:\n    os.close(os.open('/dev/tty', os.O_RDWR))\n    tty = 'tty'\nexcept OSError:\n    tty = 'no-tty'\n\
         print(leader, tty)\n",
    )
    .unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The judge itself on a terminal (`script` gives it one), where it is to be had.
    let terminal = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    for (containment, names) in every() {
        let what = names.join("+");
        let mark = Mark::new("session");
        let command = format!(
            "\"$CP\" queens judge {PASSED_WORDS} --format json --containment {containment} {} -- {}",
            dir.path().display(),
            program.display()
        );
        let (run, _) = if terminal {
            mark.run_shell(&format!("script -qec '{command}' /dev/null | tr -d '\\r'"))
        } else {
            mark.run_shell(&command)
        };
        // The first JSON line (a warning on standard error may come first on a terminal).
        let first = run
            .stdout_text()
            .lines()
            .find(|l| l.starts_with('{'))
            .unwrap_or_default()
            .to_string();
        let line: serde_json::Value = serde_json::from_str(&first).unwrap_or_default();
        assert_eq!(
            line["verdict"],
            "AC",
            "{what}: {}{}",
            run.stdout_text(),
            run.stderr
        );
        mark.assert_none_left(Duration::from_secs(1), &what);
    }
}

#[test]
fn a_jvm_that_says_on_standard_output_it_has_no_memory_is_a_memory_limit() {
    let mark = Mark::new("jvm");
    let r = stress_once(
        &mark,
        "auto",
        &[],
        "echo 'Error occurred during initialization of VM'; \
         echo 'Could not reserve enough space for object heap'; exit 1",
    );
    assert_eq!(r["verdict"], "MLE", "{r}");
    assert!(
        r["reason"]
            .as_str()
            .unwrap()
            .ends_with("on standard output: Error occurred during initialization of VM"),
        "{r}"
    );
}

#[test]
fn a_script_with_windows_line_ends_is_refused_before_any_run() {
    let dir = scratch("crlf");
    let program = dir.path().join("sol.sh");
    std::fs::write(&program, "#!/bin/sh\r\necho 1\r\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mark = Mark::new("crlf");
    let (run, _) = mark.run(&["queens", "stress", "--", program.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("carriage return"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn the_tip_for_a_missing_separator_names_the_command_typed() {
    let mark = Mark::new("tip");
    let (run, _) = mark.run(&["queens", "stress", "--cases", "3", "python3", "sol.py"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("`chess-puzzles queens stress --cases 50 -- python3 sol.py`"),
        "{}",
        run.stderr
    );
    let (run, _) = mark.run(&["tour", "judge", "tests", "python3", "sol.py"]);
    assert!(
        run.stderr
            .contains("`chess-puzzles tour judge TESTS -- python3 sol.py`"),
        "{}",
        run.stderr
    );
}
