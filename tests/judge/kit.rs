//! The judge kit of the exact puzzles end to end: generators make valid, solvable inputs; the
//! validators reject each kind of violation with its place; the checkers accept right answers
//! (with the documented tolerances) and reject wrong ones at the first difference.

use chess_puzzles::judge::compare::Tolerance;
use chess_puzzles::output::OutputFormat;
use chess_puzzles::queens::{self, Options, Style};
use chess_puzzles::{queens::generator as qgen, sultan, sultan::generator as sgen};
use proptest::prelude::*;

use crate::common::{run, temp_file};
use crate::inputs::validate;

fn queens_input(seed: u64, cases: u64, kind: qgen::Kind) -> Vec<u8> {
    let mut out = Vec::new();
    qgen::generate(
        qgen::GenOptions {
            seed,
            cases,
            kind,
            ..Default::default()
        },
        &mut out,
    )
    .unwrap();
    out
}

fn sultan_input(seed: u64, boards: u64, lo: u32, hi: u32, kind: sgen::Kind) -> Vec<u8> {
    let mut out = Vec::new();
    let options = sgen::GenOptions {
        seed,
        boards,
        min_weight: lo,
        max_weight: hi,
        kind,
    };
    sgen::generate(options, &mut out).unwrap();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn queens_inputs_are_valid_solvable_and_checked(seed in any::<u64>(), cases in 1u64..50, k in 0usize..4) {
        let kind = [qgen::Kind::Random, qgen::Kind::All, qgen::Kind::Fewest, qgen::Kind::Most][k];
        let input = queens_input(seed, cases, kind);
        let count = queens::validate::validate(input.as_slice()).unwrap();
        prop_assert_eq!(count, if kind == qgen::Kind::All { 64 } else { cases });
        for style in [Style::Statement, Style::Uva] {
            let mut answer = Vec::new();
            queens::run(input.as_slice(), &mut answer, &Options { format: OutputFormat::Judge, style }).unwrap();
            let verdict = queens::check(input.as_slice(), answer.as_slice(), style, Tolerance::Exact).unwrap();
            prop_assert!(verdict.is_ok());
        }
    }

    #[test]
    fn sultan_inputs_are_valid_solvable_and_checked(seed in any::<u64>(), boards in 1u64..20, k in 0usize..4, lo in 1u32..99, hi in 1u32..99) {
        let kind = [sgen::Kind::Random, sgen::Kind::Ties, sgen::Kind::Distinct, sgen::Kind::Extreme][k];
        let input = sultan_input(seed, boards, lo, hi, kind);
        prop_assert_eq!(sultan::validate::validate(input.as_slice()).unwrap(), boards);
        let mut answer = Vec::new();
        sultan::run(input.as_slice(), &mut answer, &sultan::Options { format: OutputFormat::Judge }).unwrap();
        prop_assert!(sultan::check(input.as_slice(), answer.as_slice(), Tolerance::Exact).unwrap().is_ok());
    }

    #[test]
    fn generators_are_reproducible(seed in any::<u64>()) {
        prop_assert_eq!(queens_input(seed, 20, qgen::Kind::Random), queens_input(seed, 20, qgen::Kind::Random));
        prop_assert_eq!(
            sultan_input(seed, 3, 1, 99, sgen::Kind::Random),
            sultan_input(seed, 3, 1, 99, sgen::Kind::Random)
        );
    }
}

#[test]
fn different_seeds_give_different_inputs() {
    assert_ne!(
        queens_input(1, 30, qgen::Kind::Random),
        queens_input(2, 30, qgen::Kind::Random)
    );
    assert_ne!(
        sultan_input(1, 2, 1, 99, sgen::Kind::Random),
        sultan_input(2, 2, 1, 99, sgen::Kind::Random)
    );
}

#[test]
fn edge_kinds_hold_what_they_promise() {
    let solver = queens::Solver::new();
    let squares = |input: &[u8]| -> Vec<chess_puzzles::core::Square> {
        let text = String::from_utf8(input.to_vec()).unwrap();
        text.lines()
            .skip(1)
            .map(|l| {
                let v: Vec<u8> = l.split(' ').map(|t| t.parse().unwrap()).collect();
                chess_puzzles::core::Square::new(v[0] - 1, v[1] - 1)
            })
            .collect()
    };
    for sq in squares(&queens_input(5, 40, qgen::Kind::Fewest)) {
        assert_eq!(solver.solutions(sq).count(), 4);
    }
    for sq in squares(&queens_input(5, 40, qgen::Kind::Most)) {
        assert_eq!(solver.solutions(sq).count(), 18);
    }
    let mut all = squares(&queens_input(5, 1, qgen::Kind::All));
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 64);
    let large = queens_input(5, 1, qgen::Kind::Large);
    assert_eq!(
        queens::validate::validate(large.as_slice()).unwrap(),
        200_000
    );
    let large = sultan_input(5, 1, 1, 99, sgen::Kind::Large);
    assert_eq!(
        sultan::validate::validate(large.as_slice()).unwrap(),
        100_000
    );
    // Ties: every weight of a board the same.
    let ties = String::from_utf8(sultan_input(9, 4, 1, 99, sgen::Kind::Ties)).unwrap();
    for board in ties.lines().skip(1).collect::<Vec<_>>().chunks(8) {
        let mut weights: Vec<&str> = board.iter().flat_map(|l| l.split_whitespace()).collect();
        weights.dedup();
        assert_eq!(weights.len(), 1);
    }
}

#[test]
fn gen_validate_solve_check_through_the_binary() {
    for (puzzle, gen_args) in [
        ("queens", vec!["--seed", "11", "--cases", "25"]),
        ("queens", vec!["--kind", "all"]),
        ("sultan", vec!["--seed", "11", "--boards", "25"]),
        ("sultan", vec!["--kind", "distinct", "--boards", "3"]),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let mut args = vec![puzzle, "gen"];
        args.extend(&gen_args);
        let generated = run(&args, b"");
        assert_eq!(generated.code, 0, "{}", generated.stderr);
        let input = dir.join("t.in");
        std::fs::write(&input, &generated.stdout).unwrap();
        let input = input.to_str().unwrap();
        let valid = run(&[puzzle, "validate", input], b"");
        assert_eq!(valid.code, 0, "{}", valid.stdout_text());
        assert!(valid.stdout_text().starts_with("valid: "));
        let solved = run(&[puzzle, input], b"");
        assert_eq!(solved.code, 0);
        let output = dir.join("t.out");
        std::fs::write(&output, &solved.stdout).unwrap();
        let checked = run(&[puzzle, "check", input, output.to_str().unwrap()], b"");
        assert_eq!(checked.code, 0, "{}", checked.stdout_text());
        assert!(checked.stdout_text().starts_with("accepted: "));
    }
}

#[test]
fn queens_validator_rejects_each_violation_where_it_is() {
    let cases: &[(&str, &str)] = &[
        (
            "",
            "<stdin>:1:1: expected the number of test cases, found end of input",
        ),
        (
            "0\n",
            "<stdin>:1:1: expected the number of test cases (1 or more), found '0'",
        ),
        (
            "1\n1 1",
            "<stdin>:2:4: expected a line end '\\n', found end of input",
        ),
        (
            "1\r\n1 1\r\n",
            "<stdin>:1:2: expected the end of the line after the number, found '\\r' (a Windows line end \\r\\n; lines must end with \\n alone)",
        ),
        (
            "1\n1  1\n",
            "<stdin>:2:3: expected a column 1..8 (case 1 of 1), found ' '",
        ),
        (
            " 1\n1 1\n",
            "<stdin>:1:1: expected the number of test cases (1 or more), found ' '",
        ),
        (
            "1\n1 9\n",
            "<stdin>:2:3: expected a column 1..8 (case 1 of 1), found '9'",
        ),
        (
            "1\n01 1\n",
            "<stdin>:2:1: expected a row 1..8, written without a leading zero (case 1 of 1), found '01'",
        ),
        (
            "1\n1\n",
            "<stdin>:2:2: expected a space and a column 1..8 (case 1 of 1), found end of line",
        ),
        (
            "1\n1 1 1\n",
            "<stdin>:2:4: expected the end of the line after 2 numbers (case 1 of 1), found ' '",
        ),
        (
            "2\n1 1\n",
            "<stdin>:3:1: expected case 2 of 2: a row and a column 1..8, found end of input",
        ),
        (
            "1\n1 1\n\n",
            "<stdin>:3:1: expected the end of input after 1 case, found an empty line",
        ),
    ];
    for (input, message) in cases {
        let (code, verdict) = validate("queens", input);
        assert_eq!(code, 1, "{input:?}: {verdict}");
        assert!(
            verdict.starts_with(&format!("invalid: {message}")),
            "{input:?}: {verdict}"
        );
    }
}

#[test]
fn sultan_validator_rejects_each_violation_where_it_is() {
    let row = " 1  2  3  4  5  6  7  8\n";
    let board = row.repeat(8);
    let cases: Vec<(String, &str)> = vec![
        ("".to_string(), "<stdin>:1:1: expected the number of boards"),
        (
            format!("1\n{}", row.repeat(7)),
            "<stdin>:9:1: expected row 8 of board 1 of 1",
        ),
        (
            format!("1\n{}", board.replacen(" 8\n", " 0\n", 1)),
            "<stdin>:2:23: expected a weight 1..99 (board 1 of 1), found '0'",
        ),
        (
            format!("1\n{}", board.replacen(" 8\n", " 8 \n", 1)),
            "<stdin>:2:24: expected the end of the line after 8 numbers (board 1 of 1), found ' '",
        ),
        (
            format!("1\n{}", board.replacen(" 7  8\n", " 7\n", 1)),
            "<stdin>:2:21: expected a space (board 1 of 1), found end of line",
        ),
        (
            format!("1\n{}", board.replacen(" 2 ", "2a ", 1)),
            "<stdin>:2:5: expected a digit or a space (board 1 of 1), found 'a'",
        ),
        (
            format!("1\n{board}\n"),
            "<stdin>:10:1: expected the end of input after 1 board, found an empty line",
        ),
        (
            format!("2\n{board}"),
            "<stdin>:10:1: expected row 1 of board 2 of 2",
        ),
    ];
    for (input, message) in &cases {
        let (code, verdict) = validate("sultan", input);
        assert_eq!(code, 1, "{input:?}: {verdict}");
        assert!(
            verdict.starts_with(&format!("invalid: {message}")),
            "{input:?}: {verdict}"
        );
    }
    // The statement's own sample, column-aligned, is valid.
    let sample = std::fs::read_to_string("tests/data/sultan/sample.in").unwrap();
    assert_eq!(
        validate("sultan", &sample),
        (0, "valid: 1 board\n".to_string())
    );
}

#[test]
fn unreadable_inputs_are_errors_not_verdicts() {
    for puzzle in ["queens", "sultan"] {
        let got = run(&[puzzle, "validate", "no/such/file"], b"");
        assert_eq!(got.code, 2);
        assert!(got.stderr.starts_with("error: no/such/file: cannot read"));
        let got = run(&[puzzle, "check", "no/such/file", "-"], b"");
        assert_eq!(got.code, 2);
        let got = run(&[puzzle, "check", "-", "-"], b"");
        assert_eq!(got.code, 2);
    }
}

/// Checks `output` against the queens sample input through the binary.
fn check_queens(output: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["queens", "check", "tests/data/queens/sample.in", "-"];
    args.extend(extra);
    let got = run(&args, output.as_bytes());
    assert!(!got.stderr.contains("panicked"));
    (got.code, got.stdout_text())
}

#[test]
fn checkers_forgive_only_the_documented_differences() {
    let right = std::fs::read_to_string("tests/data/queens/sample.out").unwrap();
    assert_eq!(
        check_queens(&right, &[]),
        (0, "accepted: 6 lines\n".to_string())
    );
    // Tolerated by default: trailing blanks, CRLF, a missing final newline, empty lines at the end.
    for variant in [
        right.replace('\n', " \n"),
        right.replace('\n', "\r\n"),
        right.trim_end().to_string(),
        format!("{right}\n\n"),
    ] {
        assert_eq!(check_queens(&variant, &[]).0, 0, "{variant:?}");
        assert_eq!(
            check_queens(&variant, &["--tolerance", "exact"]).0,
            1,
            "{variant:?}"
        );
    }
    // Wrong answers, reported at the first difference.
    let swapped = right.replace(" 2      1 6 8 3 7 4 2 5", " 2      1 6 8 3 7 4 5 2");
    assert_eq!(
        check_queens(&swapped, &[]),
        (
            1,
            "wrong answer: <stdin>:4:21: expected ' 2      1 6 8 3 7 4 2 5', found ' 2      1 6 8 3 7 4 5 2'\n"
                .to_string()
        )
    );
    let missing = right.lines().take(5).collect::<Vec<_>>().join("\n") + "\n";
    assert_eq!(
        check_queens(&missing, &[]),
        (
            1,
            "wrong answer: <stdin>:6:1: expected ' 4      1 7 5 8 2 4 6 3', found end of output\n"
                .to_string()
        )
    );
    // The UVa layout has one more line, so the statement's layout is wrong under --uva.
    assert_eq!(check_queens(&right, &["--uva"]).0, 1);
    // Tokens mode ignores the layout entirely.
    let squeezed = right.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(check_queens(&squeezed, &["--tolerance", "tokens"]).0, 0);
    assert_eq!(check_queens(&squeezed, &[]).0, 1);
    // Sultan: the %5d padding matters.
    let got = run(
        &["sultan", "check", "tests/data/sultan/sample.in", "-"],
        b"260\n",
    );
    assert_eq!(got.code, 1);
    assert_eq!(
        got.stdout_text(),
        "wrong answer: <stdin>:1:1: expected '  260', found '260'\n"
    );
    // An invalid test input cannot be judged: exit 2, located.
    let bad = temp_file("bad.in", "1\n9 9\n");
    let got = run(&["queens", "check", bad.to_str().unwrap(), "-"], b"");
    assert_eq!(got.code, 2);
    assert!(
        got.stderr
            .contains("bad.in:2:1: expected a row number 1..8"),
        "{}",
        got.stderr
    );
}
