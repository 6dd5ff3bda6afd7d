//! What `stress` and `judge` say: control bytes escaped, a missing interpreter named, the line
//! of a crash that names its error, one numbering of runs, a command to copy, tips for usual
//! mistakes, the first difference of large outputs, and the tests of a folder that cannot be
//! read, refused by name without blocking.

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use crate::common::{BIN, run, scratch, temp_file};
use crate::procs::{Mark, have, json, json_lines};

#[test]
fn control_bytes_of_the_output_never_reach_the_terminal_raw() {
    let mark = Mark::new("control");
    let (run, _) = mark.run(&[
        "queens",
        "stress",
        "--cases",
        "1",
        "--gen-args",
        "--cases 1",
        "--",
        "sh",
        "-c",
        "printf 'SOLN\\033[2J\\033]0;owned\\007\\r\\001\\n'",
    ]);
    assert_eq!(run.code, 1);
    let text = run.stdout_text();
    for raw in ['\x1b', '\x07', '\r', '\x01'] {
        assert!(!text.contains(raw), "{raw:?} in {text:?}");
    }
    assert!(
        text.contains("SOLN\\x1b[2J\\x1b]0;owned\\x07\\r\\x01\n"),
        "{text}"
    );
    assert!(
        text.contains("reason: 1:5: expected ' ', found '\\x1b'") || text.contains("reason: 1:"),
        "{text}"
    );
}

#[test]
fn a_missing_interpreter_is_named_from_the_first_line() {
    let dir = scratch("interpreter");
    for (name, first, missing) in [
        ("direct.py", "#!/usr/bin/python2.2", "/usr/bin/python2.2"),
        ("env.py", "#!/usr/bin/env python2.2", "python2.2"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{first}\nprint(1)\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        for command in [
            &["queens", "stress"][..],
            &["queens", "judge", "tests/data/queens"],
        ] {
            let mut args = command.to_vec();
            args.extend(["--", path.to_str().unwrap()]);
            let got = run(&args, b"");
            assert_eq!(got.code, 2);
            assert_eq!(
                got.stderr,
                format!(
                    "error: cannot run the program '{}': its interpreter '{missing}' (from its \
                     first line '{first}') is not installed\n",
                    path.display()
                )
            );
        }
    }
}

#[test]
fn a_python_crash_quotes_its_exception() {
    if !have("python3") {
        return;
    }
    let program = temp_file("crash.py", "import sys\nprint('SOLN')\nprint([][1])\n");
    // Marked: the system's python3 first on PATH, the one the sandbox shows.
    let (got, _) = Mark::new("python-crash").run(&[
        "queens",
        "stress",
        "--cases",
        "1",
        "--format",
        "json",
        "--",
        "python3",
        program.to_str().unwrap(),
    ]);
    let r = json(&got);
    assert_eq!(r["verdict"], "RE");
    assert_eq!(
        r["reason"],
        "exit code 1: IndexError: list index out of range"
    );
}

#[test]
fn a_java_crash_quotes_its_exception_not_its_last_stack_line() {
    if !have("java") {
        return;
    }
    let dir = scratch("java");
    let source = dir.path().join("Main.java");
    std::fs::write(
        &source,
        "public class Main {\n  static int at(int[] a, int i) { return a[i]; }\n  \
         public static void main(String[] args) { System.out.println(at(new int[1], 3)); }\n}\n",
    )
    .unwrap();
    let got = run(
        &[
            "queens",
            "stress",
            "--cases",
            "1",
            "--gen-args",
            "--cases 1",
            "--memory-limit",
            "0",
            "--time-limit",
            "10",
            "--format",
            "json",
            "--",
            "java",
            "-Xmx64m",
            "-XX:-UsePerfData",
            source.to_str().unwrap(),
        ],
        b"",
    );
    let r = json(&got);
    assert_eq!(r["verdict"], "RE", "{r}");
    assert_eq!(
        r["reason"],
        "exit code 1: Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: \
         Index 3 out of bounds for length 1"
    );
}

#[test]
fn a_sanitizer_crash_quotes_its_summary() {
    if !have("gcc") {
        return;
    }
    let dir = scratch("asan");
    let source = dir.path().join("a.c");
    std::fs::write(
        &source,
        "#include <stdlib.h>\nint main(void) { int *a = malloc(4 * sizeof *a); a[4] = 1; \
         return a[0]; }\n",
    )
    .unwrap();
    let binary = dir.path().join("a");
    let compiled = std::process::Command::new("gcc")
        .args(["-fsanitize=address", "-g", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap();
    assert!(compiled.success());
    let got = run(
        &[
            "queens",
            "stress",
            "--cases",
            "1",
            "--gen-args",
            "--cases 1",
            "--memory-limit",
            "0",
            "--format",
            "json",
            "--",
            binary.to_str().unwrap(),
        ],
        b"",
    );
    let r = json(&got);
    assert_eq!(r["verdict"], "RE", "{r}");
    let reason = r["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("exit code 1: SUMMARY: AddressSanitizer: heap-buffer-overflow"),
        "{reason}"
    );
}

#[test]
fn runs_are_numbered_alike_in_text_and_json_and_the_command_can_be_pasted() {
    // Wrong on one square: the query of `gen --cases 1 --seed 2`, first met on run 3 or
    // before.
    let wrong_on_seed = "s=$(cat); echo \"$s\" | \"$CP\" queens | \
        if [ \"$(echo \"$s\" | sed -n 2p)\" = \"$BAD\" ]; then sed 's/1/2/'; else cat; fi";
    let square = |seed: &str| {
        let input = run(&["queens", "gen", "--cases", "1", "--seed", seed], b"").stdout_text();
        input.lines().nth(1).unwrap().to_string()
    };
    let bad = square("2");
    let first = ["0", "1", "2"]
        .iter()
        .position(|s| square(s) == bad)
        .unwrap() as u64;
    let input = run(
        &[
            "queens",
            "gen",
            "--cases",
            "1",
            "--seed",
            &first.to_string(),
        ],
        b"",
    )
    .stdout_text();
    let mark = Mark::new("numbering");
    let args = [
        "queens",
        "stress",
        "--env",
        "BAD",
        "--gen-args",
        "--cases 1",
        "--",
        "sh",
        "-c",
        wrong_on_seed,
    ];
    let mut command = mark.command(&args);
    let text = command.env("BAD", &bad).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    let mut json_args = args.to_vec();
    json_args.splice(2..2, ["--format", "json"]);
    let out = mark.command(&json_args).env("BAD", &bad).output().unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["run"], first + 1, "{r}");
    assert_eq!(r["run_seed"], first);
    assert_eq!(r["runs"], first + 1);
    assert!(
        text.starts_with(&format!(
            "wrong answer on run {}, the input of `chess-puzzles queens gen --cases 1 --seed {first}`\n",
            first + 1
        )),
        "{text}"
    );
    assert_eq!(
        r["command"],
        format!("chess-puzzles queens gen --cases 1 --seed {first}")
    );
    // The command gives the failing input back.
    let again = std::process::Command::new(BIN)
        .args([
            "queens",
            "gen",
            "--cases",
            "1",
            "--seed",
            &first.to_string(),
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&again.stdout), input);
}

#[test]
fn usual_mistakes_get_a_tip() {
    for args in [
        &["sultan", "stress", "python3", "sol.py"][..],
        &["sultan", "stress", "--cases", "5", "./a.out"],
        &["queens", "judge", "tests/data/queens", "python3", "sol.py"],
    ] {
        let got = run(args, b"");
        assert_eq!(got.code, 2, "{args:?}");
        assert!(
            got.stderr
                .contains("tip: put `--` before the program to judge"),
            "{args:?}: {}",
            got.stderr
        );
    }
    let got = run(&["nqueens", "count", "12", "--fix", "1", "1"], b"");
    assert_eq!(got.code, 2);
    assert!(
        got.stderr
            .contains("tip: --fix takes the queen's square as one value, ROW,COL: `--fix 1,1`"),
        "{}",
        got.stderr
    );
}

#[test]
fn large_outputs_are_shown_around_their_first_difference_with_their_sizes() {
    // 64 queries of every square: a long answer, wrong in one line near its end.
    let script = "\"$CP\" queens | sed '500s/ 1 / 9 /'";
    let dir = scratch("excerpt");
    let (got, _) = Mark::new("excerpt").run(&[
        "queens",
        "stress",
        "--cases",
        "1",
        "--gen-args",
        "--kind all",
        "--save",
        dir.path().to_str().unwrap(),
        "--",
        "sh",
        "-c",
        script,
    ]);
    let text = got.stdout_text();
    assert_eq!(got.code, 1, "{text}");
    let expected = std::fs::read(dir.path().join("shrunk.out")).unwrap();
    let lines = expected.iter().filter(|&&b| b == b'\n').count();
    let header = format!(
        "--- expected output: lines 497-503 of {lines} ({} bytes; the whole of it is in --save's folder)\n",
        expected.len()
    );
    assert!(text.contains(&header), "{text}");
    assert!(text.lines().count() < 80, "{text}");
    let actual = std::fs::read(dir.path().join("shrunk.actual")).unwrap();
    assert_eq!(actual.len(), expected.len());
}

#[test]
fn judge_refuses_what_is_not_a_regular_file_by_name_without_blocking() {
    let dir = scratch("folder");
    let path = |name: &str| dir.path().join(name);
    std::fs::write(path("a.in"), "1\n1 1\n").unwrap();
    std::fs::write(path("b.in"), "1\n1 1\n").unwrap();
    // A FIFO as an answer: opening it to read would wait for a writer for ever.
    let fifo = std::ffi::CString::new(path("b.out").to_str().unwrap()).unwrap();
    // Safety: mkfifo makes a FIFO at the path given.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    // A FIFO, a directory and a device named like inputs.
    let fifo = std::ffi::CString::new(path("c.in").to_str().unwrap()).unwrap();
    // Safety: as above.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    std::fs::create_dir(path("d.in")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", path("e.in")).unwrap();
    let folder = dir.path().to_str().unwrap();
    let mark = Mark::new("folder");
    let (got, took) = mark.run(&["queens", "judge", folder, "--", BIN, "queens"]);
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(got.code, 2, "{}{}", got.stdout_text(), got.stderr);
    let text = got.stdout_text();
    assert!(
        text.contains("b     skipped  b.out is a FIFO, not a regular file\n"),
        "{text}"
    );
    assert!(
        text.contains("c     skipped  c.in is a FIFO, not a regular file\n"),
        "{text}"
    );
    assert!(
        text.contains("d     skipped  d.in is a directory, not a regular file\n"),
        "{text}"
    );
    assert!(
        text.contains("e     skipped  e.in is a character device, not a regular file\n"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "accepted: 1 of 5 tests; 4 tests skipped: b (b.out is a FIFO, not a regular file), \
             c (c.in is a FIFO, not a regular file), d (d.in is a directory, not a regular \
             file), e (e.in is a character device, not a regular file)\n"
        ),
        "{text}"
    );
    let (got, _) = mark.run(&[
        "queens", "judge", "--format", "json", folder, "--", BIN, "queens",
    ]);
    let lines = json_lines(&got);
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[1]["verdict"], "skipped");
    let summary = &lines[5];
    assert_eq!(summary["verdict"], "skipped");
    assert_eq!(summary["accepted"], 1);
    assert_eq!(summary["skipped"].as_array().unwrap().len(), 4);
    assert_eq!(summary["skipped"][0]["test"], "b");
}
