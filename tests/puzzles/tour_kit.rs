//! The judge kit of `tour` end to end: every generator family makes valid inputs that are what
//! it names (checked on the boards with a reachability test written here, and on the solver's
//! answers); the validator rejects each kind of violation at its place; the checker accepts
//! right answers with the documented tolerances and rejects wrong ones at the first difference.

use chess_puzzles::judge::compare::Tolerance;
use chess_puzzles::output::OutputFormat;
use chess_puzzles::tour::generator::{self, GenOptions, Kind, Knights};
use chess_puzzles::tour::{self, Options, SAMPLE};
use proptest::prelude::*;

use crate::common::{run, temp_file};
use crate::inputs::{assert_rejected, validate};
use crate::tour::{Grid, find, touches};

const KINDS: [Kind; 6] = [
    Kind::Random,
    Kind::Impossible,
    Kind::StartAlone,
    Kind::Most,
    Kind::Fewest,
    Kind::Crowded,
];

fn generate(options: GenOptions) -> Vec<u8> {
    let mut out = Vec::new();
    generator::generate(options, &mut out).unwrap();
    out
}

fn options(
    seed: u64,
    scenarios: u64,
    knights: (usize, usize),
    pawns: f64,
    kind: Kind,
) -> GenOptions {
    GenOptions {
        seed,
        scenarios,
        knights: Knights::new(knights.0, knights.1).unwrap(),
        pawns,
        kind,
    }
}

/// The boards of a generated input, read here without the library: the count line, then
/// groups of eight rows and an empty line.
fn boards(input: &[u8]) -> Vec<Grid> {
    let text = std::str::from_utf8(input).unwrap();
    let lines: Vec<&str> = text.split('\n').collect();
    let count: usize = lines[0].parse().unwrap();
    assert_eq!(lines.len(), 1 + count * 9 + 1, "line structure");
    (0..count)
        .map(|i| {
            let rows = &lines[1 + i * 9..1 + i * 9 + 9];
            assert_eq!(rows[8], "", "an empty line after each board");
            let mut grid = [[0u8; 8]; 8];
            for (r, row) in rows[..8].iter().enumerate() {
                grid[r].copy_from_slice(row.as_bytes());
            }
            grid
        })
        .collect()
}

/// Whether a path exists, decided independently of the library: the squares the queen can
/// ever stand on are those joined to her start by king steps over empty squares (a queen move
/// is a run of such steps); a path exists exactly when every knight and the bishop touches one.
fn possible(grid: &Grid) -> bool {
    let queen = find(grid, b'Q')[0];
    let mut seen = [[false; 8]; 8];
    let mut stack = vec![queen];
    seen[queen.0][queen.1] = true;
    while let Some((r, c)) = stack.pop() {
        for dr in -1i32..=1 {
            for dc in -1i32..=1 {
                let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                if !(0..8).contains(&nr) || !(0..8).contains(&nc) {
                    continue;
                }
                let (nr, nc) = (nr as usize, nc as usize);
                if grid[nr][nc] == b'.' && !seen[nr][nc] {
                    seen[nr][nc] = true;
                    stack.push((nr, nc));
                }
            }
        }
    }
    let reached: Vec<(usize, usize)> = (0..64)
        .map(|i| (i / 8, i % 8))
        .filter(|&(r, c)| seen[r][c])
        .collect();
    find(grid, b'N')
        .into_iter()
        .chain(find(grid, b'B'))
        .all(|p| reached.iter().any(|&s| touches(s, p)))
}

/// The judge answers for `input`, as path lines (`None` for `impossible`), after checking the
/// output's layout.
fn answers(input: &[u8]) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let judge = Options {
        format: OutputFormat::Judge,
    };
    tour::run(input, &mut out, &judge).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.split('\n').collect();
    let count = (lines.len() - 1) / 3;
    (0..count)
        .map(|i| {
            assert_eq!(lines[3 * i], format!("Scenario #{}:", i + 1));
            assert_eq!(lines[3 * i + 2], "");
            let answer = lines[3 * i + 1];
            (answer != "impossible").then(|| answer.to_string())
        })
        .collect()
}

/// What each family promises, checked on the boards and on the solver's answers.
fn assert_family(kind: Kind, knights: (usize, usize), grids: &[Grid], paths: &[Option<String>]) {
    assert_eq!(grids.len(), paths.len());
    for (grid, path) in grids.iter().zip(paths) {
        let n = find(grid, b'N').len();
        let shown = String::from_utf8_lossy(grid.as_flattened()).into_owned();
        assert_eq!(path.is_some(), possible(grid), "{shown}");
        match kind {
            Kind::Random => assert!((knights.0..=knights.1).contains(&n)),
            Kind::Impossible => {
                assert!((knights.0..=knights.1).contains(&n));
                assert_eq!(path, &None, "{shown}");
            }
            Kind::StartAlone => {
                assert!((knights.0.min(7)..=knights.1.min(7)).contains(&n));
                let queen = find(grid, b'Q')[0];
                let start = format!("{}{}", char::from(b'a' + queen.1 as u8), 8 - queen.0);
                assert_eq!(path.as_deref(), Some(start.as_str()), "{shown}");
            }
            Kind::Most | Kind::Large => assert_eq!(n, 14),
            Kind::Fewest => assert_eq!(n, 2),
            Kind::Crowded => {
                assert!((knights.0..=knights.1).contains(&n));
                assert!(path.is_some(), "{shown}");
                // No further pawn fits: on every empty square but the start it ends the path.
                for (r, c) in find(grid, b'.') {
                    let mut more = *grid;
                    more[r][c] = b'P';
                    assert!(!possible(&more), "{shown} + pawn at {r},{c}");
                }
            }
        }
        assert_eq!(find(grid, b'Q').len(), 1);
        assert_eq!(find(grid, b'B').len(), 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn every_family_is_valid_solvable_checked_and_as_named(
        seed in any::<u64>(),
        scenarios in 1u64..8,
        k in 0usize..KINDS.len(),
        a in 2usize..=14,
        b in 2usize..=14,
        pawns in 0.0f64..0.6,
    ) {
        let kind = KINDS[k];
        let knights = (a.min(b), a.max(b));
        let input = generate(options(seed, scenarios, knights, pawns, kind));
        prop_assert_eq!(tour::validate::validate(input.as_slice()).unwrap(), scenarios);
        let grids = boards(&input);
        let paths = answers(&input);
        assert_family(kind, knights, &grids, &paths);
        let mut answer = Vec::new();
        tour::run(input.as_slice(), &mut answer, &Options { format: OutputFormat::Judge }).unwrap();
        let verdict = tour::check(input.as_slice(), answer.as_slice(), Tolerance::Exact).unwrap();
        prop_assert!(verdict.is_ok());
    }

    #[test]
    fn the_same_seed_and_options_give_the_same_input(seed in any::<u64>(), k in 0usize..KINDS.len()) {
        let o = options(seed, 5, (2, 14), 0.2, KINDS[k]);
        prop_assert_eq!(generate(o), generate(o));
    }
}

#[test]
fn seeds_and_options_change_the_input() {
    for kind in KINDS {
        let o = options(1, 5, (2, 14), 0.1, kind);
        assert_ne!(
            generate(o),
            generate(GenOptions { seed: 2, ..o }),
            "{kind:?}"
        );
    }
    let o = options(1, 5, (2, 14), 0.1, Kind::Random);
    assert_ne!(generate(o), generate(GenOptions { pawns: 0.3, ..o }));
    assert_ne!(
        generate(o),
        generate(GenOptions {
            knights: Knights::new(3, 3).unwrap(),
            ..o
        })
    );
}

#[test]
fn knights_and_pawns_follow_the_options_even_beyond_the_statement() {
    // Exactly K knights; no pawns at density 0, every free square a pawn at density 1.
    for k in [0, 1, 3, 20, 24] {
        let input = generate(options(9, 20, (k, k), 0.0, Kind::Random));
        for grid in boards(&input) {
            assert_eq!(find(&grid, b'N').len(), k);
            assert!(find(&grid, b'P').is_empty());
        }
        let input = generate(options(9, 5, (k, k), 1.0, Kind::Random));
        for grid in boards(&input) {
            assert!(find(&grid, b'.').is_empty());
        }
        // Families other than `most`, `fewest` and `large` keep what they name at any count.
        // (Crowded boards beyond 14 knights are left out: solving them takes a while.)
        let kinds: &[Kind] = if k <= 14 {
            &[Kind::Impossible, Kind::StartAlone, Kind::Crowded]
        } else {
            &[Kind::Impossible, Kind::StartAlone]
        };
        for &kind in kinds {
            let input = generate(options(k as u64, 20, (k, k), 0.3, kind));
            assert_family(kind, (k, k), &boards(&input), &answers(&input));
        }
    }
    // Outside 2..14 the validator says so.
    let input = generate(options(9, 1, (15, 15), 0.0, Kind::Random));
    let err = tour::validate::validate(input.as_slice()).unwrap_err();
    assert!(err.to_string().contains("at most 14 knights"), "{err}");
}

#[test]
fn large_is_a_thousand_boards_of_fourteen_knights() {
    let input = generate(options(5, 1, (2, 2), 0.1, Kind::Large));
    assert_eq!(tour::validate::validate(input.as_slice()).unwrap(), 1000);
    let grids = boards(&input);
    let paths = answers(&input);
    assert_family(Kind::Large, (14, 14), &grids, &paths);
}

const BOARD: &str =
    ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n........\n";

#[test]
fn validator_rejects_each_violation_where_it_is() {
    let one = |board: &str| format!("1\n{board}\n");
    let cases: Vec<(String, &str)> = vec![
        (
            String::new(),
            "1:1: expected the number of scenarios, found end of input",
        ),
        (
            format!("0\n{BOARD}\n"),
            "1:1: expected the number of scenarios (1 or more), found '0'",
        ),
        (
            format!(" 1\n{BOARD}\n"),
            "1:1: expected the number of scenarios (1 or more), found ' '",
        ),
        (
            one(&BOARD.replacen(".......Q", ".......", 1)),
            "2:8: expected row 1 of 8 (rank 8): eight of . Q B P N (scenario 1 of 1), found end of line after 7 characters",
        ),
        (
            one(&BOARD.replacen(".......Q", ".......Q.", 1)),
            "2:9: expected the end of the line after 8 characters (scenario 1 of 1), found '.'",
        ),
        (
            one(&BOARD.replacen(".......Q", ".......Q ", 1)),
            "2:9: expected the end of the line after 8 characters (scenario 1 of 1), found ' '",
        ),
        (
            one(&BOARD.replacen("..NP", "..nP", 1)),
            "5:3: expected one of '.' 'Q' 'B' 'P' 'N' (scenario 1 of 1), found 'n'",
        ),
        (
            one(&BOARD.replacen("........", "...\t....", 1)),
            "6:4: expected one of '.' 'Q' 'B' 'P' 'N' (scenario 1 of 1), found '\\t'",
        ),
        (
            one(&BOARD.replacen("........", "....Q...", 1)),
            "6:5: expected one 'Q' per board (scenario 1 of 1), found a second one (the first at 2:8)",
        ),
        (
            one(&BOARD.replacen("........", "B.......", 1)),
            "8:3: expected one 'B' per board (scenario 1 of 1), found a second one (the first at 6:1)",
        ),
        (
            one(&BOARD.replacen('Q', ".", 1)),
            "2:1: expected a board with one 'Q' (scenario 1 of 1), found none in its eight rows",
        ),
        (
            one(&BOARD.replacen('B', ".", 1)),
            "2:1: expected a board with one 'B' (scenario 1 of 1), found none in its eight rows",
        ),
        (
            one(&BOARD.replacen('N', ".", 1)),
            "2:1: expected a board with 2 to 14 knights 'N' (scenario 1 of 1), found 1 in its eight rows",
        ),
        (
            one("QB..NNNN\nNNNNNNNN\nNNN.....\n........\n........\n........\n........\n........\n"),
            "4:3: expected at most 14 knights 'N' per board (scenario 1 of 1), found knight number 15",
        ),
        (
            format!("1\n{BOARD}"),
            "10:1: expected an empty line after the board (scenario 1 of 1), found end of input",
        ),
        (
            format!("1\n{BOARD}........\n"),
            "10:1: expected an empty line after the board (scenario 1 of 1), found '........'",
        ),
        (
            format!("1\n{BOARD} \n"),
            "10:1: expected an empty line after the board (scenario 1 of 1), found ' '",
        ),
        (
            format!("2\n{BOARD}{BOARD}\n"),
            "10:1: expected an empty line after the board (scenario 1 of 2), found '.......Q'",
        ),
        (
            format!("2\n{BOARD}\n"),
            "11:1: expected row 1 of 8 (rank 8): eight of . Q B P N (scenario 2 of 2), found end of input",
        ),
        (
            format!("1\n{BOARD}\n\n"),
            "11:1: expected the end of input after 1 scenario, found an empty line",
        ),
        (
            format!("1\n{BOARD}\n").replace('\n', "\r\n"),
            "1:2: expected the end of the line after the number, found '\\r' (a Windows line end \\r\\n; lines must end with \\n alone)",
        ),
        (
            format!("1\n{}", &BOARD[..BOARD.len() - 1]),
            "9:9: expected a line end '\\n', found end of input",
        ),
    ];
    assert_rejected("tour", |input| tour::validate::validate(input), &cases);
    assert_eq!(
        validate("tour", SAMPLE.input),
        (0, "valid: 2 scenarios\n".to_string())
    );
    assert_eq!(
        validate("tour", one(BOARD)),
        (0, "valid: 1 scenario\n".to_string())
    );
}

/// Checks `output` against the sample input through the binary.
fn check(output: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["tour", "check", "tests/data/tour/sample.in", "-"];
    args.extend(extra);
    let got = run(&args, output.as_bytes());
    assert!(!got.stderr.contains("panicked"), "{}", got.stderr);
    (got.code, got.stdout_text())
}

#[test]
fn checker_forgives_only_the_documented_differences() {
    let right = SAMPLE.output;
    let lib = |output: &str, tolerance| {
        tour::check(SAMPLE.input.as_bytes(), output.as_bytes(), tolerance).unwrap()
    };
    assert_eq!(check(right, &[]), (0, "accepted: 6 lines\n".to_string()));
    assert!(lib(right, Tolerance::Exact).is_ok());
    // Forgiven by default, not under `exact`: trailing blanks, CRLF, the final empty line
    // missing, the final newline missing, more empty lines at the end.
    for variant in [
        right.replace('\n', " \n"),
        right.replace('\n', "\r\n"),
        right.strip_suffix('\n').unwrap().to_string(),
        right.trim_end().to_string(),
        format!("{right}\n\n"),
    ] {
        assert!(lib(&variant, Tolerance::Lines).is_ok(), "{variant:?}");
        assert_eq!(check(&variant, &[]).0, 0, "{variant:?}");
        assert!(lib(&variant, Tolerance::Exact).is_err(), "{variant:?}");
        assert_eq!(
            check(&variant, &["--tolerance", "exact"]).0,
            1,
            "{variant:?}"
        );
    }
    // The missing final empty line under `exact`, reported where it should be.
    assert_eq!(
        check(right.strip_suffix('\n').unwrap(), &["--tolerance", "exact"]),
        (
            1,
            "wrong answer: <stdin>:6:1: expected '\\n', found end of output\n".to_string()
        )
    );
    // A wrong path: a legal path of the same length that is not the first.
    let later = right.replace("h8h2e5d4b2", "h8h2e5d4c3");
    assert_eq!(
        check(&later, &[]),
        (
            1,
            "wrong answer: <stdin>:2:9: expected 'h8h2e5d4b2', found 'h8h2e5d4c3'\n".to_string()
        )
    );
    // `impossible` missing: an empty answer line, or nothing at all after the heading.
    let empty_answer = right.replace("impossible\n", "");
    assert_eq!(
        check(&empty_answer, &[]),
        (
            1,
            "wrong answer: <stdin>:5:1: expected 'impossible', found ''\n".to_string()
        )
    );
    let cut = right.replace("impossible\n\n", "");
    assert_eq!(
        check(&cut, &[]),
        (
            1,
            "wrong answer: <stdin>:5:1: expected 'impossible', found end of output\n".to_string()
        )
    );
    // The empty line between scenarios is required, the heading's spelling too.
    let joined = right.replacen("\n\nScenario", "\nScenario", 1);
    assert_eq!(check(&joined, &[]).0, 1);
    assert!(
        lib(
            &right.replace("Scenario #1:", "Scenario #1: "),
            Tolerance::Lines
        )
        .is_ok()
    );
    assert!(
        lib(
            &right.replace("Scenario #1:", "scenario #1:"),
            Tolerance::Lines
        )
        .is_err()
    );
    // `tokens` ignores the layout entirely.
    let squeezed = right.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(check(&squeezed, &["--tolerance", "tokens"]).0, 0);
    assert_eq!(check(&squeezed, &[]).0, 1);
    // An input the solver cannot read cannot be judged: exit 2, located in the input.
    let bad = temp_file("bad.in", "1\n........\n");
    let got = run(&["tour", "check", bad.to_str().unwrap(), "-"], b"");
    assert_eq!(got.code, 2);
    assert!(
        got.stderr.contains("bad.in:3:1: expected row 2 of 8"),
        "{}",
        got.stderr
    );
}

#[test]
fn unreadable_inputs_are_errors_not_verdicts() {
    let got = run(&["tour", "validate", "no/such/file"], b"");
    assert_eq!(got.code, 2);
    assert!(
        got.stderr.starts_with("error: no/such/file: cannot read"),
        "{}",
        got.stderr
    );
    assert_eq!(run(&["tour", "check", "no/such/file", "-"], b"").code, 2);
    assert_eq!(run(&["tour", "check", "-", "-"], b"").code, 2);
    for bad in [
        &["--knights", "1-25"][..],
        &["--knights", "x"],
        &["--pawns", "-0.1"],
        &["--scenarios", "0"],
    ] {
        let mut args = vec!["tour", "gen"];
        args.extend(bad);
        let got = run(&args, b"");
        assert_eq!(got.code, 2, "{bad:?}");
        assert!(!got.stderr.contains("panicked"));
    }
}

#[test]
fn gen_validate_solve_check_through_the_binary() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (i, gen_args) in [
        vec!["--seed", "11", "--scenarios", "25"],
        vec!["--kind", "impossible", "--knights", "5-9"],
        vec!["--kind", "start-alone", "--pawns", "0.5"],
        vec!["--kind", "crowded", "--seed", "3", "--scenarios", "4"],
    ]
    .iter()
    .enumerate()
    {
        let mut args = vec!["tour", "gen"];
        args.extend(gen_args);
        let generated = run(&args, b"");
        assert_eq!(generated.code, 0, "{}", generated.stderr);
        assert_eq!(run(&args, b"").stdout, generated.stdout, "reproducible");
        let input = dir.join(format!("{i}.in"));
        std::fs::write(&input, &generated.stdout).unwrap();
        let input = input.to_str().unwrap();
        let valid = run(&["tour", "validate", input], b"");
        assert_eq!(valid.code, 0, "{}", valid.stdout_text());
        assert!(valid.stdout_text().starts_with("valid: "));
        let solved = run(&["tour", input], b"");
        assert_eq!(solved.code, 0);
        if gen_args.contains(&"impossible") {
            let text = solved.stdout_text();
            assert_eq!(text.matches("impossible").count(), 10, "{text}");
        }
        let output = dir.join(format!("{i}.out"));
        std::fs::write(&output, &solved.stdout).unwrap();
        let checked = run(&["tour", "check", input, output.to_str().unwrap()], b"");
        assert_eq!(checked.code, 0, "{}", checked.stdout_text());
        assert!(checked.stdout_text().starts_with("accepted: "));
    }
}
