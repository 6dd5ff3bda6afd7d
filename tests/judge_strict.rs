//! The judge kit's promises about bad input and adversarial output, through the real binary:
//! validators report the first wrong byte with what was expected there; checkers swallow no
//! error, compare in bounded memory, and judge lines and tokens of any length.

mod support;

use support::run;

/// Validates `input` as `puzzle` through the binary: exit code and standard output.
fn validate(puzzle: &str, input: &[u8]) -> (i32, String) {
    let got = run(&[puzzle, "validate"], input);
    assert!(!got.stderr.contains("panicked"), "{}", got.stderr);
    (got.code, got.stdout_text())
}

fn assert_invalid(puzzle: &str, input: &[u8], verdict: &str) {
    let (code, out) = validate(puzzle, input);
    assert_eq!(code, 1, "{puzzle} {input:?}: {out}");
    assert_eq!(
        out,
        format!("invalid: <stdin>:{verdict}\n"),
        "{puzzle} {input:?}"
    );
}

#[test]
fn validators_report_the_first_wrong_byte_and_what_belongs_there() {
    // A tab between the row and the column is the wrong byte, at 2:2.
    assert_invalid(
        "queens",
        b"1\n1\t1\n",
        "2:2: expected a single space (case 1 of 1), found '\\t'",
    );
    // A number out of range is named as such, not as a spacing problem.
    assert_invalid(
        "queens",
        b"1\n11\n",
        "2:1: expected a row 1..8 (case 1 of 1), found '11'",
    );
    assert_invalid(
        "queens",
        b"1\n1 11\n",
        "2:3: expected a column 1..8 (case 1 of 1), found '11'",
    );
    // A missing final newline does not hide a bad number before it...
    assert_invalid(
        "queens",
        b"1\n1 9",
        "2:3: expected a column 1..8 (case 1 of 1), found '9'",
    );
    // ...and is reported where the line ends when nothing else is wrong.
    assert_invalid(
        "queens",
        b"1\n1 8",
        "2:4: expected a line end '\\n', found end of input",
    );

    let row = " 1  2  3  4  5  6  7  8\n";
    let board = row.repeat(8);
    assert_invalid(
        "sultan",
        format!("1\n{}", board.replacen(" 1  2", " 1\t 2", 1)).as_bytes(),
        "2:3: expected a space (board 1 of 1), found '\\t'",
    );
    let truncated = format!("1\n{}", board.replacen(" 8\n", "100\n", 8));
    assert_invalid(
        "sultan",
        truncated.trim_end().as_bytes(),
        "2:22: expected a weight 1..99 (board 1 of 1), found '100'",
    );
    let last_bad = format!("1\n{} 1  2  3  4  5  6  7 100", row.repeat(7));
    assert_invalid(
        "sultan",
        last_bad.as_bytes(),
        "9:22: expected a weight 1..99 (board 1 of 1), found '100'",
    );

    let showdown = "1\n2\n#_\n__\n";
    assert_invalid(
        "showdown",
        format!("{showdown}1 1 1\t1 1 1 1 1\n").as_bytes(),
        "5:6: expected a single space (test 1 of 1), found '\\t'",
    );
    assert_invalid(
        "showdown",
        format!("{showdown}1 1 1 1 1 1 1 0").as_bytes(),
        "5:15: expected a price 1..1000000 (test 1 of 1), found '0'",
    );
    assert_invalid(
        "showdown",
        b"1\n2\t\n#_\n__\n1 1 1 1 1 1 1 1\n",
        "2:2: expected the end of the line after the number (test 1 of 1), found '\\t'",
    );

    let tour = std::fs::read_to_string("tests/data/tour/sample.in").unwrap();
    // The last row of the last board with a bad square and no line end at all.
    let cut = tour.trim_end().to_string();
    let bad_last = format!("{}x", &cut[..cut.len() - 1]);
    let line = bad_last.lines().count();
    assert_invalid(
        "tour",
        bad_last.as_bytes(),
        &format!("{line}:8: expected one of '.' 'Q' 'B' 'P' 'N' (scenario 2 of 2), found 'x'"),
    );
}

#[test]
fn a_byte_order_mark_is_named_by_validators_and_skipped_by_solvers() {
    for (puzzle, input) in [
        ("queens", "1\n1 1\n"),
        (
            "sultan",
            &format!("1\n{}", " 1  2  3  4  5  6  7  8\n".repeat(8)),
        ),
        ("showdown", "1\n2\n#_\n__\n1 1 1 1 1 1 1 1\n"),
        (
            "tour",
            &std::fs::read_to_string("tests/data/tour/sample.in").unwrap(),
        ),
    ] {
        let with_mark = format!("\u{feff}{input}");
        let (code, out) = validate(puzzle, with_mark.as_bytes());
        assert_eq!(code, 1, "{puzzle}: {out}");
        assert!(
            out.starts_with("invalid: <stdin>:1:1: expected the number of ")
                && out.ends_with(", found a byte-order mark (U+FEFF): save the file without it\n"),
            "{puzzle}: {out}"
        );
        assert_eq!(validate(puzzle, input.as_bytes()).0, 0, "{puzzle}");
        // Solvers read past it: the same answers as without it.
        let mut args = vec![puzzle];
        if puzzle == "showdown" {
            args.extend(["--steps", "10"]);
        }
        let plain = run(&args, input.as_bytes());
        let marked = run(&args, with_mark.as_bytes());
        assert_eq!(plain.code, 0, "{puzzle}: {}", plain.stderr);
        assert_eq!(marked.code, 0, "{puzzle}: {}", marked.stderr);
        assert_eq!(plain.stdout, marked.stdout, "{puzzle}");
    }
}
