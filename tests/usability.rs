//! What a new user reads: the puzzles' names, help screens, the vocabulary shared by every
//! command, and the drawings. Everything through the real binary.

mod support;

use support::run;

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
