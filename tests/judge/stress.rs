//! `stress` and `judge` end to end, on the small wrong programs of `tests/data/solutions`:
//! each failure is found with its verdict and shrunk to the smallest input that still fails;
//! right programs pass; `judge` over a folder; JSON; a program that cannot run; exit codes.
//!
//! The wrong programs are Python 3 and sh scripts. Without python3 the Python tests are
//! skipped with a message, except under CI=true, where they fail (.ci/run installs python3).

#![cfg(unix)]

use serde_json::Value;

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{BIN, Run, command, run, scratch};

fn solution(name: &str) -> String {
    format!("{}/tests/data/solutions/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// True when python3 runs; false (the test then returns) when it does not, outside CI.
fn python3() -> bool {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "python3 is needed by the stress tests under CI (.ci/run installs it)"
        );
        eprintln!("python3 not found: the stress tests of the Python programs are skipped");
    }
    found
}

/// `chess-puzzles <args> -- <program>`.
fn stress(args: &[&str], program: &[&str]) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--");
    all.extend_from_slice(program);
    run(&all, b"")
}

/// The JSON report of a stress run, checked to be its only line.
fn report(got: &Run) -> Value {
    let text = got.stdout_text();
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

fn input_of(report: &Value) -> String {
    report["input"].as_str().unwrap().to_string()
}

/// The shrunk input's number of cases (its first line) and its bytes, checked against the
/// report.
fn shrunk_cases(report: &Value) -> u64 {
    let input = input_of(report);
    assert_eq!(report["shrunk_bytes"], input.len());
    assert!(report["shrunk_bytes"].as_u64() <= report["original_bytes"].as_u64());
    let cases: u64 = input.lines().next().unwrap().trim().parse().unwrap();
    assert_eq!(report["shrunk_cases"], cases);
    cases
}

#[test]
fn a_missing_empty_line_between_cases_is_a_presentation_error_shrunk_to_two_cases() {
    if !python3() {
        return;
    }
    let program = solution("queens_no_blank_line.py");
    let got = stress(
        &["queens", "stress", "--seed", "1", "--format", "json"],
        &["python3", &program],
    );
    assert_eq!(got.code, 1, "{}", got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "PE");
    assert_eq!(r["runs"], 1);
    // The bug needs two cases to show: it cannot be shrunk further.
    assert_eq!(shrunk_cases(&r), 2);
    assert!(r["original_bytes"].as_u64().unwrap() > r["shrunk_bytes"].as_u64().unwrap());
    let expected = r["expected"].as_str().unwrap();
    let actual = r["actual"].as_str().unwrap();
    assert_eq!(expected.replace("\n\n", "\n"), actual);
    assert!(r["reason"].as_str().unwrap().contains("expected ''"), "{r}");
    // The text report says the same, with the input and both outputs.
    let text = stress(&["queens", "stress", "--seed", "1"], &["python3", &program]);
    assert_eq!(text.code, 1);
    let out = text.stdout_text();
    assert!(
        out.starts_with("presentation error on run 1, the input of `chess-puzzles queens gen --cases 5 --seed 1`\nshrunk from 5 cases, "),
        "{out}"
    );
    assert!(out.contains(&format!("--- input\n{}--- expected output\n", input_of(&r))));
    assert!(out.ends_with(&format!("--- actual output\n{actual}")));
}

#[test]
fn a_greedy_sultan_is_a_wrong_answer_on_one_board_with_small_weights() {
    if !python3() {
        return;
    }
    let dir = scratch("stress-sultan");
    let save = dir.path().join("failure");
    let program = solution("sultan_greedy.py");
    let got = stress(
        &[
            "sultan",
            "stress",
            "--format",
            "json",
            "--save",
            save.to_str().unwrap(),
        ],
        &["python3", &program],
    );
    assert_eq!(got.code, 1, "{}", got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "WA");
    assert_eq!(shrunk_cases(&r), 1);
    // The weights were shrunk too: from 1..99 to at most 2 digits fewer per square.
    assert!(r["shrunk_bytes"].as_u64().unwrap() < 194, "{r}");
    assert_ne!(r["expected"], r["actual"]);
    // The saved failure: a valid input that our checker rejects the program's answer to, and
    // that `judge` replays with the same verdict.
    let shrunk = std::fs::read_to_string(save.join("shrunk.in")).unwrap();
    assert_eq!(shrunk, input_of(&r));
    let path = |name: &str| save.join(name).to_str().unwrap().to_string();
    assert_eq!(
        run(&["sultan", "validate", &path("shrunk.in")], b"").code,
        0
    );
    let check = run(
        &[
            "sultan",
            "check",
            &path("shrunk.in"),
            &path("shrunk.actual"),
        ],
        b"",
    );
    assert_eq!(check.code, 1, "{}", check.stdout_text());
    let original = std::fs::read(save.join("original.in")).unwrap();
    assert_eq!(original.len() as u64, r["original_bytes"].as_u64().unwrap());
    let replay = stress(
        &[
            "sultan",
            "judge",
            "--format",
            "json",
            save.to_str().unwrap(),
        ],
        &["python3", &program],
    );
    assert_eq!(replay.code, 1);
    let lines: Vec<Value> = replay
        .stdout_text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // original.in (judged against our answer) and shrunk.in (against shrunk.out), then the
    // summary.
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["test"], "shrunk");
    assert_eq!(lines[1]["verdict"], "WA");
    assert_eq!(lines[2]["verdict"], "WA");
}

#[test]
fn a_tour_that_is_not_lexicographically_first_is_shrunk_to_one_scenario() {
    if !python3() {
        return;
    }
    let program = solution("tour_not_lexicographic.py");
    let got = stress(
        &["tour", "stress", "--seed", "3", "--format", "json"],
        &["python3", &program],
    );
    assert_eq!(got.code, 1, "{}", got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "WA");
    assert_eq!(shrunk_cases(&r), 1);
    // Both paths have the same length: the program's is a shortest path, just not the first.
    let path = |key: &str| r[key].as_str().unwrap().lines().nth(1).unwrap().to_string();
    let (expected, actual) = (path("expected"), path("actual"));
    assert_eq!(expected.len(), actual.len());
    assert!(expected < actual, "{expected} {actual}");
    // The statement's 2 knights at least are kept; the report counts the pieces left.
    let input = input_of(&r);
    let (knights, pawns) = (input.matches('N').count(), input.matches('P').count());
    assert!(knights >= 2);
    let text = stress(&["tour", "stress", "--seed", "3"], &["python3", &program]);
    let second = text.stdout_text().lines().nth(1).unwrap().to_string();
    let pieces = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    assert!(
        second.ends_with(&format!(
            "to 1 scenario, 75 bytes ({}, {}) in {} runs",
            pieces(knights, "knight"),
            pieces(pawns, "pawn"),
            r["shrink_runs"]
        )),
        "{second}"
    );
    let missing_folder = stress(
        &["tour", "judge", "/nonexistent-dir"],
        &["python3", &program],
    );
    assert_eq!(missing_folder.code, 2);
    assert!(
        missing_folder
            .stderr
            .starts_with("error: /nonexistent-dir: ")
    );
}

#[test]
fn a_program_that_never_ends_is_a_time_limit_on_a_single_case() {
    let started = std::time::Instant::now();
    let got = stress(
        &[
            "queens",
            "stress",
            "--time-limit",
            "0.3",
            "--format",
            "json",
        ],
        &["sh", &solution("never_ends.sh")],
    );
    assert_eq!(got.code, 1, "{}", got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "TLE");
    assert_eq!(shrunk_cases(&r), 1);
    assert_eq!(r["actual"], "");
    // The first run and the one that shrank it, each killed at its limit.
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn a_program_that_allocates_without_bound_is_a_memory_limit() {
    if !python3() {
        return;
    }
    let got = stress(
        &[
            "queens",
            "stress",
            "--memory-limit",
            "64",
            "--format",
            "json",
        ],
        &["python3", &solution("allocates.py")],
    );
    assert_eq!(got.code, 1, "{}", got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "MLE", "{r}");
    assert_eq!(shrunk_cases(&r), 1);
}

#[test]
fn a_program_that_crashes_is_a_runtime_error_on_the_case_that_crashes_it() {
    if !python3() {
        return;
    }
    let got = stress(
        &["queens", "stress", "--format", "json"],
        &["python3", &solution("queens_crashes.py")],
    );
    assert_eq!(got.code, 1, "{}", got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "RE");
    assert_eq!(shrunk_cases(&r), 1);
    // The off-by-one bites in the last column only.
    let query = input_of(&r).lines().nth(1).unwrap().to_string();
    assert!(query.ends_with(" 8"), "{query}");
    let reason = r["reason"].as_str().unwrap();
    assert!(reason.starts_with("exit code 1: IndexError"), "{reason}");
}

#[test]
fn a_signal_and_a_flood_of_output_are_named() {
    let got = stress(
        &["queens", "stress", "--cases", "1"],
        &["sh", "-c", "kill -SEGV $$"],
    );
    assert_eq!(got.code, 1);
    let text = got.stdout_text();
    assert!(text.starts_with("runtime error on run 1"), "{text}");
    assert!(text.contains("reason: signal 11 (SIGSEGV)\n"), "{text}");
    let got = stress(
        &[
            "queens",
            "stress",
            "--output-limit",
            "1",
            "--format",
            "json",
        ],
        &["yes"],
    );
    assert_eq!(got.code, 1);
    let r = report(&got);
    assert_eq!(r["verdict"], "OLE");
    assert_eq!(shrunk_cases(&r), 1);
    // The whole output is not repeated in the report: its size, and the lines around the
    // first difference.
    assert_eq!(r["actual_output"]["bytes"], 1 << 20);
    assert_eq!(r["actual_output"]["whole"], false);
    assert!(r["actual"].as_str().unwrap().len() < 100, "{r}");
}

#[test]
fn showdown_answers_without_pieces_shrink_to_the_smallest_board() {
    let no_pieces = "read t; i=0; while [ $i -lt $t ]; do echo 0 0; i=$((i+1)); done";
    let got = stress(
        &["showdown", "stress", "--format", "json"],
        &["sh", "-c", no_pieces],
    );
    assert_eq!(got.code, 1, "{}", got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "WA");
    assert_eq!(shrunk_cases(&r), 1);
    let input = input_of(&r);
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(lines[1], "2", "{input}");
    // Even a board without kings wants a piece (an answer has 1..n² pieces): the kings went.
    assert_eq!(input.matches('#').count(), 0, "{input}");
    assert_eq!(
        r["reason"],
        "test 1: 1:1: the number of pieces must be 1..4, found 0"
    );
}

#[test]
fn our_own_programs_pass_a_thousand_runs_and_a_thousand_python_cases() {
    let got = stress(
        &["queens", "stress", "--cases", "1000", "--jobs", "2"],
        &[BIN, "queens"],
    );
    assert_eq!(got.code, 0, "{}{}", got.stdout_text(), got.stderr);
    assert_eq!(got.stdout_text(), "accepted: 1000 runs (seeds 0..999)\n");
    let got = stress(
        &["showdown", "stress", "--cases", "20", "--ratio", "1.5"],
        // The default inputs reach 15 boards of 25x25: the reference's own search (2000 steps
        // a test) rather than a time budget too short for them.
        &[BIN, "showdown", "--steps", "2000", "--time-limit", "inf"],
    );
    assert_eq!(got.code, 0, "{}{}", got.stdout_text(), got.stderr);
    if !python3() {
        return;
    }
    // 20 inputs of 50 queries: a thousand test cases.
    let got = stress(
        &[
            "queens",
            "stress",
            "--cases",
            "20",
            "--gen-args",
            "--cases 50",
            "--jobs",
            "2",
            "--format",
            "json",
        ],
        &["python3", &solution("queens_ok.py")],
    );
    assert_eq!(got.code, 0, "{}{}", got.stdout_text(), got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "AC");
    assert_eq!(r["runs"], 20);
    assert_eq!(r["input"], Value::Null);
}

#[test]
fn judge_over_a_folder_gives_a_table_and_a_summary() {
    let dir = scratch("judge-folder");
    let tests = dir.path();
    let write = |name: &str, bytes: &[u8]| std::fs::write(tests.join(name), bytes).unwrap();
    write("1.in", b"1\n1 1\n");
    write("2.in", b"2\n1 1\n8 8\n");
    let right = run(&["queens"], b"2\n1 1\n8 8\n").stdout;
    write("2.out", &right);
    write("3.in", b"1\n4 4\n");
    write("3.out", b"wrong\n");
    write("notes.txt", b"not a test\n");
    let folder = tests.to_str().unwrap();
    let got = stress(&["queens", "judge", folder], &[BIN, "queens"]);
    assert_eq!(got.code, 1);
    let text = got.stdout_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[0].starts_with("test  verdict  time     memory"),
        "{text}"
    );
    let verdicts: Vec<&str> = lines[1..4]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(verdicts, ["AC", "AC", "WA"]);
    assert!(
        lines[3].ends_with("1:1: expected 'wrong', found 'SOLN       COLUMN'"),
        "{text}"
    );
    assert_eq!(
        lines[4],
        "wrong answer: 2 of 3 tests accepted; the first failure is 3"
    );
    // JSON: one object per test, then the summary; every test accepted is exit 0.
    std::fs::remove_file(tests.join("3.out")).unwrap();
    let got = stress(
        &["queens", "judge", "--format", "json", folder],
        &[BIN, "queens"],
    );
    assert_eq!(got.code, 0, "{}", got.stderr);
    let objects: Vec<Value> = got
        .stdout_text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 4);
    for (object, name) in objects.iter().zip(["1", "2", "3"]) {
        assert_eq!(object["test"], name);
        assert_eq!(object["verdict"], "AC");
        assert!(object["peak_memory_bytes"].as_u64().unwrap() > 0);
        assert!(object["cpu_seconds"].as_f64().unwrap() >= 0.0);
    }
    assert_eq!(objects[3]["verdict"], "AC");
    assert_eq!(objects[3]["tests"], 3);
    assert_eq!(objects[3]["accepted"], 3);
}

#[test]
fn a_program_that_cannot_run_and_bad_options_are_usage_errors() {
    for args in [
        &["queens", "stress"][..],
        &["queens", "judge", "tests/data/queens"],
    ] {
        let got = stress(args, &["/nonexistent/program"]);
        assert_eq!(got.code, 2, "{args:?}");
        assert!(got.stdout.is_empty(), "{args:?}: {}", got.stdout_text());
        assert_eq!(
            got.stderr,
            "error: cannot run the program '/nonexistent/program': No such file or directory\n"
        );
    }
    let not_executable = solution("never_ends.sh");
    let got = stress(&["tour", "stress"], &[&not_executable]);
    assert_eq!(got.code, 2);
    assert!(
        got.stderr.contains("it is not executable (chmod +x it"),
        "{}",
        got.stderr
    );
    for bad in [
        &["queens", "stress", "--gen-args", "--kind nope", "--", "cat"][..],
        &["queens", "stress", "--gen-args", "--seed 3", "--", "cat"],
        &["showdown", "stress", "--ratio", "0.5", "--", "cat"],
        &["queens", "stress", "--cases", "0", "--", "cat"],
        &["queens", "stress", "--time-limit", "-1", "--", "cat"],
        // The output held in memory is bounded: per run, and over the runs side by side.
        &["queens", "stress", "--output-limit", "1025", "--", "cat"],
        &[
            "queens",
            "stress",
            "--jobs",
            "5",
            "--output-limit",
            "1000",
            "--",
            "cat",
        ],
        &[
            "queens",
            "judge",
            "tests/data/queens",
            "--jobs",
            "256",
            "--output-limit",
            "17",
            "--",
            "cat",
        ],
        // A generated input is held in memory: past 256 MiB it is refused, not built.
        &[
            "queens",
            "stress",
            "--gen-args",
            "--cases 100000000",
            "--",
            "cat",
        ],
        &["queens", "stress"],
        &["queens", "judge", "--", "cat"],
        &["queens", "judge", "tests/data/solutions", "--", "cat"],
    ] {
        let got = run(bad, b"");
        assert_eq!(got.code, 2, "{bad:?}");
        assert!(got.stderr.starts_with("error: "), "{bad:?}: {}", got.stderr);
        assert!(!got.stderr.contains("panicked"), "{bad:?}");
    }
}

#[test]
fn nqueens_best_answers_of_zero_shrink_to_one_square_of_weight_one() {
    let zeros = "read k; i=0; while [ $i -lt $k ]; do echo 0; i=$((i+1)); done";
    let got = stress(
        &["nqueens", "best", "stress", "--format", "json"],
        &["sh", "-c", zeros],
    );
    assert_eq!(got.code, 1, "{}", got.stderr);
    let r = report(&got);
    assert_eq!(r["verdict"], "WA");
    assert_eq!(shrunk_cases(&r), 1);
    // The smallest board whose best sum is not 0: side 1, weight 1.
    assert_eq!(r["input"], "1\n1\n1\n");
    assert_eq!(r["expected"], "1\n");
    assert_eq!(r["actual"], "0\n");
    let got = stress(
        &["nqueens", "best", "stress", "--cases", "100"],
        &[BIN, "nqueens", "best"],
    );
    assert_eq!(got.code, 0, "{}{}", got.stdout_text(), got.stderr);
    assert_eq!(got.stdout_text(), "accepted: 100 runs (seeds 0..99)\n");
}

/// The processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        if let Ok(line) = std::fs::read(entry.path().join("cmdline"))
            && String::from_utf8_lossy(&line).contains(marker)
        {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

#[test]
fn ctrl_c_kills_the_program_with_its_children_and_exits_130() {
    if !std::path::Path::new("/proc/self/cmdline").exists() {
        return;
    }
    let marker = format!("cp-stress-ctrl-c-{}", std::process::id());
    // A busy loop that started a sleeping child, both named by the marker (as the stress
    // tester is, by its arguments).
    let script = "sh -c 'sleep 1000; :' \"$0\" & while :; do :; done";
    let child = command()
        .args([
            "queens",
            "stress",
            "--time-limit",
            "100",
            "--",
            "sh",
            "-c",
            script,
        ])
        .arg(&marker)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while processes_with(&marker).len() < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the program started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Safety: kill sends a signal to the binary this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "interrupted after 0 runs, every one accepted\n"
    );
    assert!(out.stdout.is_empty());
    // Killed with SIGKILL and reaped: gone at once.
    let started = Instant::now();
    while !processes_with(&marker).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "left running: {:?}",
            processes_with(&marker)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn judge_reads_a_test_when_it_judges_it_and_refuses_an_answer_past_the_output_limit() {
    let dir = scratch("judge-limits");
    let sample = std::fs::read("tests/data/queens/sample.in").unwrap();
    std::fs::write(dir.path().join("a.in"), &sample).unwrap();
    // An answer of 2 MiB can never be matched under an output limit of 1 MiB.
    std::fs::write(dir.path().join("a.out"), vec![b' '; 2 << 20]).unwrap();
    let folder = dir.path().to_str().unwrap();
    let got = stress(
        &["queens", "judge", "--output-limit", "1", folder],
        &[BIN, "queens"],
    );
    assert_eq!(got.code, 2, "{}", got.stderr);
    assert!(
        got.stderr.starts_with("error: ")
            && got.stderr.contains("a.out: larger than the output limit"),
        "{}",
        got.stderr
    );
    // Under the default limit the same answer is judged: a wrong answer, not an error.
    let got = stress(&["queens", "judge", folder], &[BIN, "queens"]);
    assert_eq!(got.code, 1, "{}", got.stderr);
    assert!(got.stdout_text().contains("a  "), "{}", got.stdout_text());
}

#[test]
fn a_time_of_zero_makes_no_run_and_says_so() {
    let got = stress(&["queens", "stress", "--time", "0"], &["cat"]);
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert_eq!(got.stdout_text(), "no run made: the time ran out first\n");
}

#[test]
fn an_answer_in_uva_750s_layout_is_told_to_use_uva() {
    // The judge's own queens in UVa 750's layout (an empty line after the headings), judged
    // in the statement's: a presentation error that says what it is.
    let got = stress(
        &["queens", "stress", "--cases", "1", "--format", "json"],
        &[BIN, "queens", "--uva"],
    );
    let r = report(&got);
    assert_eq!(r["verdict"], "PE", "{r}");
    assert!(
        r["reason"]
            .as_str()
            .unwrap()
            .contains("right in UVa 750's layout")
            && r["reason"].as_str().unwrap().contains("--uva"),
        "{r}"
    );
    // Judged in that layout, it is accepted.
    let got = stress(
        &["queens", "stress", "--cases", "1", "--uva"],
        &[BIN, "queens", "--uva"],
    );
    assert_eq!(
        got.stdout_text(),
        "accepted: 1 run (seeds 0..0)\n",
        "{}",
        got.stderr
    );
}
