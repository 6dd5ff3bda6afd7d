//! What a new user reads: the puzzles' names, help screens, the vocabulary shared by every
//! command, and the drawings. Everything through the real binary.

use crate::common::{BIN, run};

/// The four puzzles as users know them: subcommand, title, judge.
const PUZZLES: [(&str, &str, &str); 4] = [
    ("queens", "8 Queens Chess Problem", "UVa 750"),
    ("sultan", "The Sultan's Successors", "UVa 167"),
    ("showdown", "Chess Variants Showdown", "SPOJ CHE"),
    ("tour", "Traveling Queen", "POJ 2919"),
];

fn help(args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.push("--help");
    let got = run(&all, b"");
    assert_eq!(got.code, 0, "{args:?}: {}", got.stderr);
    got.stdout_text()
}

#[test]
fn puzzles_are_named_by_title_and_judge_never_by_internal_number() {
    let top = help(&[]);
    for (command, title, judge) in PUZZLES {
        assert!(
            top.contains(&format!("{title} ({judge})")),
            "top-level help names {command}: {top}"
        );
        let own = help(&[command]);
        assert!(own.contains(&format!("{title} ({judge})")), "{own}");
        for sub in ["gen", "validate", "check"] {
            let text = help(&[command, sub]);
            assert!(!text.to_lowercase().contains("seed 00"), "{text}");
        }
        assert!(!own.to_lowercase().contains("seed 00"), "{own}");
    }
    assert!(!top.to_lowercase().contains("seed 00"), "{top}");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README");
    assert!(!readme.to_lowercase().contains("seed 00"));
    for (command, title, judge) in PUZZLES {
        assert!(
            readme.contains(&format!(
                "| `chess-puzzles {command} [INPUT]` | {title} ({judge})"
            )),
            "README table row of {command}"
        );
    }
}

#[test]
fn messages_count_in_good_english() {
    // One king, one piece.
    let got = run(
        &["showdown", "--format", "board", "--steps", "10"],
        b"1\n2\n#_\n__\n1 1 1 1 1 1 1 1\n",
    );
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert!(
        got.stdout_text()
            .starts_with("Test 1: 2x2, 1 king; 1 piece, cost 1 "),
        "{}",
        got.stdout_text()
    );
    // After one case, one row, one character.
    let got = run(&["queens", "validate"], b"1\n1 1\n1 1\n");
    assert!(
        got.stdout_text()
            .contains("expected the end of input after 1 case, found"),
        "{}",
        got.stdout_text()
    );
    let got = run(&["queens"], b"1\n1 1\n1 1\n");
    assert!(
        got.stderr
            .contains("expected the end of input after 1 case, found"),
        "{}",
        got.stderr
    );
    let got = run(&["tour"], b"1\nQ.......\n\nB.......\n");
    assert!(
        got.stderr.contains("found an empty line after 1 row"),
        "{}",
        got.stderr
    );
    let got = run(&["tour"], b"1\nQ\n");
    assert!(
        got.stderr.contains("found 'Q' (1 character)"),
        "{}",
        got.stderr
    );
    let got = run(&["showdown", "--steps", "1"], b"1\n3\n#\n");
    assert!(
        got.stderr.contains("found 1 character '#'"),
        "{}",
        got.stderr
    );
    let got = run(&["queens", "validate"], b"1\n1 1\n");
    assert_eq!(got.stdout_text(), "valid: 1 case\n");
    let got = run(
        &[
            "queens",
            "check",
            "tests/data/queens/sample.in",
            "tests/data/queens/sample.out",
        ],
        b"",
    );
    assert_eq!(got.stdout_text(), "accepted: 6 lines\n");
}

#[test]
fn every_generator_counts_with_cases_and_keeps_the_old_names_hidden() {
    for (puzzle, old) in [
        ("queens", None),
        ("sultan", Some("--boards")),
        ("tour", Some("--scenarios")),
        ("showdown", Some("--tests")),
    ] {
        let got = run(&[puzzle, "gen", "--cases", "3", "--seed", "5"], b"");
        assert_eq!(got.code, 0, "{puzzle}: {}", got.stderr);
        assert!(got.stdout_text().starts_with("3\n"), "{puzzle}");
        let valid = run(&[puzzle, "validate"], &got.stdout);
        assert_eq!(valid.code, 0, "{puzzle}: {}", valid.stdout_text());
        let text = help(&[puzzle, "gen"]);
        assert!(text.contains("--cases <N>"), "{text}");
        if let Some(old) = old {
            let again = run(&[puzzle, "gen", old, "3", "--seed", "5"], b"");
            assert_eq!(again.stdout, got.stdout, "{puzzle} {old}");
            assert!(!text.contains(old), "{old} is hidden: {text}");
        }
    }
}

#[test]
fn ranges_are_written_alike_and_reversed_ones_are_refused() {
    for (puzzle, option) in [
        ("sultan", "--weights <W|A-B>"),
        ("tour", "--knights <K|A-B>"),
        ("showdown", "--size <N|A-B>"),
        ("showdown", "--density <D|A-B>"),
    ] {
        let text = help(&[puzzle, "gen"]);
        assert!(text.contains(option), "{puzzle}: {text}");
        assert!(text.contains("A <= B"), "{puzzle}: {text}");
    }
    for args in [
        &["sultan", "gen", "--min-weight", "50", "--max-weight", "10"][..],
        &["sultan", "gen", "--weights", "50-10"],
        &["sultan", "gen", "--min-weight", "100"],
        &["tour", "gen", "--knights", "14-2"],
        &["showdown", "gen", "--size", "9-3"],
        &["showdown", "gen", "--density", "0.9-0.1"],
    ] {
        let got = run(args, b"");
        assert_eq!(got.code, 2, "{args:?}");
        assert!(got.stdout.is_empty(), "{args:?}");
        assert!(
            got.stderr.starts_with("error: "),
            "{args:?}: {}",
            got.stderr
        );
    }
    // The range is honoured, and the old options still mean what they said.
    let got = run(&["sultan", "gen", "--weights", "7-8", "--cases", "2"], b"");
    let text = got.stdout_text();
    let weights: Vec<&str> = text.split_whitespace().skip(1).collect();
    assert_eq!(weights.len(), 128);
    assert!(
        weights.iter().all(|w| *w == "7" || *w == "8"),
        "{weights:?}"
    );
    let old = run(
        &[
            "sultan",
            "gen",
            "--min-weight",
            "7",
            "--max-weight",
            "8",
            "--cases",
            "2",
        ],
        b"",
    );
    assert_eq!(old.stdout, got.stdout);
}

#[test]
fn json_speaks_one_vocabulary() {
    let json = |args: &[&str], input: &[u8]| -> Vec<serde_json::Value> {
        let got = run(args, input);
        assert_eq!(got.code, 0, "{args:?}: {}", got.stderr);
        got.stdout_text()
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect()
    };
    let sample = |p: &str| std::fs::read(format!("tests/data/{p}/sample.in")).unwrap();
    // The number of the test case is `case` in every command.
    for (args, input) in [
        (&["queens", "--format", "json"][..], sample("queens")),
        (&["sultan", "--format", "json"], sample("sultan")),
        (&["tour", "--format", "json"], sample("tour")),
        (
            &["showdown", "--format", "json", "--steps", "10"],
            sample("showdown"),
        ),
        (
            &["nqueens", "best", "--format", "json"],
            b"1\n4\n1 2 3 4\n5 6 7 8\n9 1 2 3\n4 5 6 7\n".to_vec(),
        ),
    ] {
        for (i, value) in json(args, &input).iter().enumerate() {
            assert_eq!(value["case"], i as u64 + 1, "{args:?}: {value}");
            for old in ["scenario", "board", "placement", "test"] {
                assert!(value.get(old).is_none(), "{args:?}: {value}");
            }
        }
    }
    // A placement is `rows`: the 1-based row of the queen of each column.
    let sultan = json(&["sultan", "--format", "json"], &sample("sultan"));
    assert_eq!(
        sultan[0]["rows"],
        serde_json::json!([1, 5, 8, 6, 3, 7, 2, 4])
    );
    let listed = json(&["nqueens", "list", "4", "--format", "json"], b"");
    assert_eq!(listed[0]["index"], 1);
    assert_eq!(listed[0]["rows"], serde_json::json!([2, 4, 1, 3]));
    assert!(listed[0].get("placement").is_none());
}

#[test]
fn uva_layout_is_refused_where_it_would_be_ignored() {
    let input = b"1\n1 1\n";
    for format in ["json", "board"] {
        let got = run(&["queens", "--uva", "--format", format], input);
        assert_eq!(got.code, 2, "{format}");
        assert!(got.stdout.is_empty());
        assert_eq!(
            got.stderr,
            format!(
                "error: --uva changes the judge's layout only; it cannot be used with --format {format}\n"
            )
        );
    }
    let got = run(&["queens", "--uva", "--format", "judge"], input);
    assert_eq!(got.code, 0);
    assert!(
        got.stdout_text()
            .starts_with("SOLN       COLUMN\n #      1 2 3 4 5 6 7 8\n\n 1 ")
    );
}

#[test]
fn judge_format_is_described_truthfully_where_there_is_no_judge() {
    for sub in ["list", "count"] {
        let text = help(&["nqueens", sub]);
        assert!(
            text.contains("there is no judge for nqueens"),
            "{sub}: {text}"
        );
    }
    let text = help(&["nqueens", "best"]);
    assert!(
        text.contains("plain text where there is no judge"),
        "{text}"
    );
}

/// The lines of the help screen's EXAMPLES section, which must be its last.
fn examples(args: &[&str]) -> Vec<String> {
    let text = help(args);
    let (_, section) = text
        .split_once("\nExamples:\n")
        .unwrap_or_else(|| panic!("{args:?} has an EXAMPLES section: {text}"));
    let lines: Vec<String> = section.lines().map(str::to_string).collect();
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(
            line.starts_with("  "),
            "{args:?}: the section ends the help: {line:?}"
        );
    }
    lines.iter().map(|l| l.trim().to_string()).collect()
}

#[test]
fn every_solver_describes_its_input_and_ends_with_examples_that_run() {
    let bin = std::path::Path::new(BIN);
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for screen in [
        &["queens"][..],
        &["sultan"],
        &["showdown"],
        &["tour"],
        &["nqueens"],
        &["nqueens", "list"],
        &["nqueens", "count"],
        &["nqueens", "best"],
        &["demo"],
        &["completions"],
        &["man"],
        #[cfg(unix)]
        &["queens", "stress"],
        #[cfg(unix)]
        &["sultan", "judge"],
    ] {
        if screen.len() == 1 && ["queens", "sultan", "showdown", "tour"].contains(&screen[0]) {
            let text = help(screen);
            assert!(text.contains("\nInput: "), "{screen:?}: {text}");
            assert!(text.contains("\nOutput: "), "{screen:?}: {text}");
        }
        // Each example runs as written, in a fresh directory, in order.
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        for line in examples(screen) {
            let got = std::process::Command::new("sh")
                .args(["-c", &line])
                .current_dir(dir)
                .env("PATH", &path)
                .env("HOME", dir)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&got.stderr);
            assert!(got.status.success(), "{screen:?}: {line}: {stderr}");
            assert!(!stderr.contains("panicked"), "{line}");
            if !line.contains('>') && !line.starts_with("mkdir ") {
                assert!(!got.stdout.is_empty(), "{line} prints something");
            }
        }
    }
    assert!(help(&["nqueens", "best"]).contains("per board its side n"));
}

#[test]
fn a_solver_reading_a_terminal_says_it_is_waiting() {
    // `script` gives the command a terminal; Ctrl-D (\x04) ends the input there.
    let mut child = std::process::Command::new("script")
        .args(["-qec", &format!("'{BIN}' queens"), "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1\n1 1\n\x04")
        .unwrap();
    let got = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&got.stdout);
    assert!(got.status.success(), "{text}");
    assert!(
        text.contains("waiting for the input on standard input (a terminal)")
            && text.contains("Ctrl-D"),
        "{text}"
    );
    assert!(text.contains(" 4      1 7 5 8 2 4 6 3"), "{text}");
    // Not when the input comes from a pipe.
    let got = run(&["queens"], b"1\n1 1\n");
    assert_eq!(got.stderr, "");
}

/// The numbers in brackets of a drawn weighted board (the queens' squares).
fn bracketed(text: &str) -> Vec<u64> {
    text.split('[')
        .skip(1)
        .filter_map(|part| part.split_once(']'))
        .filter_map(|(number, _)| number.parse().ok())
        .collect()
}

#[test]
fn drawings_show_the_queens_plainly() {
    // Sultan and nqueens best: the queens' squares in brackets, summing to the score spelled
    // out in the heading.
    let sample = std::fs::read("tests/data/sultan/sample.in").unwrap();
    let got = run(&["sultan", "--format", "board"], &sample);
    let text = got.stdout_text();
    let heading = text.lines().next().unwrap();
    assert_eq!(
        heading,
        "Board 1: best score 260 = 1 + 34 + 59 + 44 + 21 + 54 + 15 + 32"
    );
    let queens = bracketed(&text);
    assert_eq!(queens.len(), 8);
    assert_eq!(queens.iter().sum::<u64>(), 260);
    let board = b"2\n4\n1 2 3 4\n5 6 7 8\n9 1 2 3\n4 5 6 7\n1\n7\n";
    let got = run(&["nqueens", "best", "--format", "board"], board);
    assert_eq!(got.code, 0, "{}", got.stderr);
    let text = got.stdout_text();
    let (first, second) = text.split_once("\n\n").expect("two boards");
    assert!(
        first.starts_with("Board 1 (4x4): best score 25 = "),
        "{first}"
    );
    let queens = bracketed(first);
    assert_eq!(queens.len(), 4);
    assert_eq!(queens.iter().sum::<u64>(), 25);
    let terms: u64 = first
        .lines()
        .next()
        .unwrap()
        .rsplit("= ")
        .next()
        .unwrap()
        .split(" + ")
        .map(|t| t.parse::<u64>().unwrap())
        .sum();
    assert_eq!(terms, 25);
    assert!(
        second.starts_with("Board 2 (1x1): best score 7 = 7\n"),
        "{second}"
    );

    // Tour: the start is drawn as the queen, and no stop is numbered 0.
    let sample = std::fs::read("tests/data/tour/sample.in").unwrap();
    let got = run(&["tour", "--format", "board"], &sample);
    let text = got.stdout_text();
    let first = text.split("\n\n").next().unwrap();
    let h8 = first.lines().nth(2).unwrap();
    assert_eq!(h8, "8 · · · · · · · ♛");
    assert!(
        !first
            .lines()
            .skip(2)
            .take(8)
            .any(|l| l.split(' ').any(|c| c == "0")),
        "{first}"
    );
    assert!(
        first.ends_with(
            "♛ the queen's start, numbers her stops in order; ♞ knight; ♝ bishop; ♟ pawn"
        )
    );

    // A stop on the start square again shows both.
    let back =
        b"1\n........\n........\n........\nN..P.P..\nPPPPQPPP\n....PP..\n........\n.......B\n";
    let text = run(&["tour", "--format", "board"], back).stdout_text();
    assert!(text.contains("♛,4"), "{text}");

    // nqueens count: no empty board; the given queens are drawn.
    let got = run(&["nqueens", "count", "6", "--format", "board"], b"");
    assert_eq!(
        got.stdout_text(),
        "6x6 board, no queen given: 4 placements\n"
    );
    let got = run(
        &["nqueens", "count", "6", "--fix", "2,1", "--format", "board"],
        b"",
    );
    let text = got.stdout_text();
    assert!(
        text.starts_with("6x6 board, queens given at (2,1) (♕): 1 placement\n"),
        "{text}"
    );
    assert_eq!(text.matches('♕').count(), 2);
}
