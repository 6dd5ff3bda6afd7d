//! The judge kit of `showdown` end to end: every generator family makes valid inputs that are
//! what it names (checked on the boards as read here, with the king-neighbour rule written
//! here); the optimiser answers them and `showdown check` accepts the answers; the validator
//! rejects each kind of violation at its place.

use chess_puzzles::showdown::generator::{self, Costs, Densities, GenOptions, Kind, Sizes};
use chess_puzzles::showdown::judge::{self, Verdict};
use chess_puzzles::showdown::{self, Options, SAMPLE};
use proptest::prelude::*;

use crate::common::run;
use crate::inputs::{assert_rejected, validate};

/// The families that take the options (`largest` is 15 boards of 25x25: tested on its own).
const KINDS: [Kind; 6] = [
    Kind::Random,
    Kind::Smallest,
    Kind::Dense,
    Kind::Sparse,
    Kind::OneCheap,
    Kind::ExpensiveSmall,
];

const MODELS: [Costs; 5] = [
    Costs::Equal,
    Costs::Skewed,
    Costs::Uniform,
    Costs::OneCheap,
    Costs::Random,
];

fn generate(options: GenOptions) -> Vec<u8> {
    let mut out = Vec::new();
    generator::generate(options, &mut out).unwrap();
    out
}

fn options(seed: u64, tests: u64, kind: Kind) -> GenOptions {
    GenOptions {
        seed,
        tests,
        kind,
        ..GenOptions::default()
    }
}

/// One test as this file reads it from the generated text: `kings[r][c]`.
#[derive(Clone, Debug)]
struct Test {
    kings: Vec<Vec<bool>>,
    costs: Vec<u64>,
}

impl Test {
    fn side(&self) -> usize {
        self.kings.len()
    }

    fn king_count(&self) -> usize {
        self.kings.iter().flatten().filter(|&&k| k).count()
    }
}

/// The tests of a generated input, read here without the library: the count, then per test the
/// side, the rows and the prices, each on its own line.
fn tests_of(input: &[u8]) -> Vec<Test> {
    let text = std::str::from_utf8(input).unwrap();
    assert!(text.ends_with('\n'));
    let mut lines = text[..text.len() - 1].split('\n');
    let count: usize = lines.next().unwrap().parse().unwrap();
    let tests: Vec<Test> = (0..count)
        .map(|_| {
            let n: usize = lines.next().unwrap().parse().unwrap();
            let kings = (0..n)
                .map(|_| {
                    let row = lines.next().unwrap();
                    assert_eq!(row.len(), n, "{row}");
                    row.bytes()
                        .map(|b| match b {
                            b'#' => true,
                            b'_' => false,
                            _ => panic!("{row}"),
                        })
                        .collect()
                })
                .collect();
            let costs = lines
                .next()
                .unwrap()
                .split(' ')
                .map(|c| c.parse().unwrap())
                .collect();
            Test { kings, costs }
        })
        .collect();
    assert_eq!(lines.next(), None, "nothing after the last test");
    tests
}

/// True when the king at `r`, `c` has an empty square among its (up to) eight neighbours.
fn has_empty_neighbour(kings: &[Vec<bool>], r: usize, c: usize) -> bool {
    let n = kings.len() as i64;
    (-1i64..=1).any(|dr| {
        (-1i64..=1).any(|dc| {
            let (rr, cc) = (r as i64 + dr, c as i64 + dc);
            (dr, dc) != (0, 0)
                && (0..n).contains(&rr)
                && (0..n).contains(&cc)
                && !kings[rr as usize][cc as usize]
        })
    })
}

/// The statement's promise: every king has an empty neighbour.
fn every_king_free(kings: &[Vec<bool>]) -> bool {
    (0..kings.len())
        .all(|r| (0..kings.len()).all(|c| !kings[r][c] || has_empty_neighbour(kings, r, c)))
}

/// How the prices of a test look: which of the models they could come from.
fn fits(model: Costs, costs: &[u64]) -> bool {
    let in_range = |lo: u64, hi: u64| costs.iter().all(|c| (lo..=hi).contains(c));
    let one_cheap = costs.iter().filter(|&&c| (1..=10).contains(&c)).count() == 1
        && costs
            .iter()
            .filter(|&&c| (10_000..=1_000_000).contains(&c))
            .count()
            == 7;
    match model {
        Costs::Equal => costs.iter().all(|&c| c == costs[0]) && in_range(1, 1000),
        Costs::Skewed => in_range(1, 9),
        Costs::Uniform => in_range(1, 1_000_000),
        Costs::OneCheap => one_cheap,
        Costs::Random => [Costs::Equal, Costs::Skewed, Costs::Uniform, Costs::OneCheap]
            .iter()
            .any(|&m| fits(m, costs)),
    }
}

/// What each family promises, checked on the tests as read here.
fn assert_family(options: &GenOptions, tests: &[Test]) {
    let count = if options.kind == Kind::Largest {
        15
    } else {
        options.tests as usize
    };
    assert_eq!(tests.len(), count);
    for t in tests {
        let n = t.side();
        let shown = format!("{t:?}");
        assert!(every_king_free(&t.kings), "{shown}");
        assert_eq!(t.costs.len(), 8);
        assert!(t.costs.iter().all(|c| (1..=1_000_000).contains(c)));
        let sizes = (options.sizes.min(), options.sizes.max());
        match options.kind {
            Kind::Random | Kind::Dense | Kind::Sparse | Kind::OneCheap => {
                assert!((sizes.0..=sizes.1).contains(&n), "{n} {sizes:?}");
            }
            Kind::Largest => assert_eq!(n, 25),
            Kind::Smallest => assert_eq!(n, 2),
            Kind::ExpensiveSmall => assert!((2..=5).contains(&n)),
        }
        match options.kind {
            Kind::OneCheap => assert!(fits(Costs::OneCheap, &t.costs), "{shown}"),
            Kind::ExpensiveSmall => {
                assert!(t.costs.iter().all(|&c| c >= 900_000), "{shown}");
            }
            _ => assert!(fits(options.costs, &t.costs), "{shown}"),
        }
        match options.kind {
            Kind::Sparse => assert!((1..=3).contains(&t.king_count()), "{shown}"),
            Kind::Dense => {
                // No empty square can take one more king: each would leave some king (itself
                // or one around it) with no empty neighbour.
                for r in 0..n {
                    for c in 0..n {
                        if !t.kings[r][c] {
                            let mut more = t.kings.clone();
                            more[r][c] = true;
                            assert!(!every_king_free(&more), "{shown} + king at {r},{c}");
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Answers `input` with a fixed number of search steps (the answers then depend only on the
/// seed) or with the plain greedy, and judges them with the library's `showdown check`.
fn solve_and_check(input: &[u8], seed: u64, steps: Option<u64>) -> f64 {
    let options = Options {
        seed,
        steps,
        greedy: steps.is_none(),
        ..Options::default()
    };
    let mut answers = Vec::new();
    showdown::run(input, &mut answers, &options).unwrap();
    let report = judge::check(input, answers.as_slice(), |_, _| {}).unwrap();
    assert_eq!(report.verdict, Verdict::Accepted, "{}", report.verdict);
    report.total
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_family_is_valid_solvable_checked_and_as_named(
        seed in any::<u64>(),
        tests in 1u64..=3,
        k in 0usize..KINDS.len(),
        m in 0usize..MODELS.len(),
        a in 2usize..=25,
        b in 2usize..=25,
        d in 0.0f64..=1.0,
        e in 0.0f64..=1.0,
        steps in prop_oneof![Just(None), (1u64..200).prop_map(Some)],
    ) {
        let options = GenOptions {
            seed,
            tests,
            sizes: Sizes::new(a.min(b), a.max(b)).unwrap(),
            densities: Densities::new(d.min(e), d.max(e)).unwrap(),
            costs: MODELS[m],
            kind: KINDS[k],
        };
        let input = generate(options);
        prop_assert_eq!(showdown::validate::validate(input.as_slice()).unwrap(), tests);
        assert_family(&options, &tests_of(&input));
        let total = solve_and_check(&input, seed, steps);
        prop_assert!(total > 0.0);
    }

    #[test]
    fn the_same_seed_and_options_give_the_same_input(seed in any::<u64>(), k in 0usize..KINDS.len()) {
        let o = options(seed, 4, KINDS[k]);
        prop_assert_eq!(generate(o), generate(o));
    }
}

#[test]
fn largest_is_fifteen_boards_of_25_and_solved() {
    for (seed, costs) in [(1, Costs::Random), (2, Costs::Equal)] {
        let o = GenOptions {
            costs,
            tests: 3,
            sizes: Sizes::new(2, 2).unwrap(),
            ..options(seed, 3, Kind::Largest)
        };
        let input = generate(o);
        assert_eq!(showdown::validate::validate(input.as_slice()).unwrap(), 15);
        assert_family(&o, &tests_of(&input));
        solve_and_check(&input, seed, Some(20));
    }
}

#[test]
fn seeds_and_options_change_the_input() {
    for kind in KINDS.into_iter().chain([Kind::Largest]) {
        let o = options(1, 4, kind);
        assert_ne!(
            generate(o),
            generate(GenOptions { seed: 2, ..o }),
            "{kind:?}"
        );
    }
    let o = options(1, 4, Kind::Random);
    for other in [
        GenOptions {
            sizes: Sizes::new(10, 10).unwrap(),
            ..o
        },
        GenOptions {
            densities: Densities::new(0.5, 0.5).unwrap(),
            ..o
        },
        GenOptions {
            costs: Costs::Skewed,
            ..o
        },
        GenOptions { tests: 5, ..o },
    ] {
        assert_ne!(generate(o), generate(other), "{other:?}");
    }
}

#[test]
fn sizes_and_densities_follow_the_options() {
    // Density 0: no kings; density 1: kings everywhere but where a king needed an empty
    // neighbour; density 0.5 on 25x25: about half the squares.
    let at = |density: f64, side: usize| {
        let o = GenOptions {
            sizes: Sizes::new(side, side).unwrap(),
            densities: Densities::new(density, density).unwrap(),
            ..options(4, 15, Kind::Random)
        };
        let tests = tests_of(&generate(o));
        assert_family(&o, &tests);
        tests
    };
    assert!(at(0.0, 25).iter().all(|t| t.king_count() == 0));
    for t in at(1.0, 25) {
        assert!(t.king_count() * 10 >= 625 * 7, "{}", t.king_count());
    }
    let kings: usize = at(0.5, 25).iter().map(Test::king_count).sum();
    let share = kings as f64 / (15.0 * 625.0);
    assert!((0.45..=0.55).contains(&share), "{share}");
    // Boards beyond the statement: generated as asked, refused by the validator.
    let big = GenOptions {
        sizes: Sizes::new(40, 40).unwrap(),
        ..options(1, 1, Kind::Random)
    };
    let input = generate(big);
    assert_family(&big, &tests_of(&input));
    let err = showdown::validate::validate(input.as_slice()).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "2:1: expected a board side n 2..25 (the statement's limit; the program's is 2..256)"
        ),
        "{err}"
    );
    let many = generate(options(1, 16, Kind::Sparse));
    let err = showdown::validate::validate(many.as_slice()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("1:1: expected the number of tests t, 1..15"),
        "{err}"
    );
}

#[test]
fn dense_boards_are_nearly_full() {
    for seed in 0..4 {
        let o = GenOptions {
            sizes: Sizes::new(8, 25).unwrap(),
            ..options(seed, 15, Kind::Dense)
        };
        let tests = tests_of(&generate(o));
        assert_family(&o, &tests);
        for t in &tests {
            let n = t.side();
            assert!(t.king_count() * 10 >= n * n * 7, "{t:?}");
        }
    }
}

const PRICES: &str = "1 2 3 4 5 6 7 8";

#[test]
fn validator_rejects_each_violation_where_it_is() {
    let one = |board: &str| format!("1\n3\n{board}{PRICES}\n");
    let board = "#__\n_#_\n__#\n";
    let cases: Vec<(String, &str)> = vec![
        (
            String::new(),
            "1:1: expected the number of tests t, found end of input",
        ),
        (
            format!("0\n3\n{board}{PRICES}\n"),
            "1:1: expected the number of tests t, 1..15, found '0'",
        ),
        (
            format!("16\n3\n{board}{PRICES}\n"),
            "1:1: expected the number of tests t, 1..15, found '16'",
        ),
        (
            format!("01\n3\n{board}{PRICES}\n"),
            "1:1: expected the number of tests t, 1..15, written without a leading zero, found '01'",
        ),
        (
            format!(" 1\n3\n{board}{PRICES}\n"),
            "1:1: expected the number of tests t, 1..15, found ' '",
        ),
        (
            format!("1 \n3\n{board}{PRICES}\n"),
            "1:2: expected the end of the line after the number, found ' '",
        ),
        (
            format!("1\n1\n#\n{PRICES}\n"),
            "2:1: expected a board side n 2..25 (the statement's limit; the program's is 2..256) (test 1 of 1), found '1'",
        ),
        (
            format!("1\n26\n{board}{PRICES}\n"),
            "2:1: expected a board side n 2..25 (the statement's limit; the program's is 2..256) (test 1 of 1), found '26'",
        ),
        (
            format!("1\n\n{board}{PRICES}\n"),
            "2:1: expected a board side n 2..25 (the statement's limit; the program's is 2..256) (test 1 of 1), found end of line",
        ),
        (
            one("#__\n_#\n__#\n"),
            "4:3: expected row 2 of 3: 3 characters '#' or '_' (test 1 of 1), found end of line after 2 characters",
        ),
        (
            one("#__\n_#__\n__#\n"),
            "4:4: expected the end of the line after 3 characters (test 1 of 1), found '_'",
        ),
        (
            one("#__\n_#_ \n__#\n"),
            "4:4: expected the end of the line after 3 characters (test 1 of 1), found ' '",
        ),
        (
            one("#__\n_K_\n__#\n"),
            "4:2: expected one of '#' '_' (test 1 of 1), found 'K'",
        ),
        (
            one("#__\n_#.\n__#\n"),
            "4:3: expected one of '#' '_' (test 1 of 1), found '.'",
        ),
        (
            one("#__\n_#\t\n__#\n"),
            "4:3: expected one of '#' '_' (test 1 of 1), found '\\t'",
        ),
        (
            one("___\n###\n###\n"),
            "5:1: expected an empty square among the 8 neighbours of every king (test 1 of 1), found the king on row 3, column 1 with none",
        ),
        (
            one("###\n###\n##_\n"),
            "3:1: expected an empty square among the 8 neighbours of every king (test 1 of 1), found the king on row 1, column 1 with none",
        ),
        (
            format!("1\n3\n{board}"),
            "6:1: expected the eight prices (test 1 of 1), found end of input",
        ),
        (
            format!("1\n3\n{board}1 2 3 4 5 6 7\n"),
            "6:14: expected a space and a price 1..1000000 (test 1 of 1), found end of line",
        ),
        (
            format!("1\n3\n{board}{PRICES} 9\n"),
            "6:16: expected the end of the line after 8 numbers (test 1 of 1), found ' '",
        ),
        (
            format!("1\n3\n{board}{PRICES} \n"),
            "6:16: expected the end of the line after 8 numbers (test 1 of 1), found ' '",
        ),
        (
            format!("1\n3\n{board}1 2 3  4 5 6 7 8\n"),
            "6:7: expected a price 1..1000000 (test 1 of 1), found ' '",
        ),
        (
            format!("1\n3\n{board}1 2 3 0 5 6 7 8\n"),
            "6:7: expected a price 1..1000000 (test 1 of 1), found '0'",
        ),
        (
            format!("1\n3\n{board}1 2 3 1000001 5 6 7 8\n"),
            "6:7: expected a price 1..1000000 (test 1 of 1), found '1000001'",
        ),
        (
            format!("1\n3\n{board}1 2 3 04 5 6 7 8\n"),
            "6:7: expected a price 1..1000000, written without a leading zero (test 1 of 1), found '04'",
        ),
        (
            format!("1\n3\n{board}1 2 3 4 5 6 7 -8\n"),
            "6:15: expected a price 1..1000000 (test 1 of 1), found '-8'",
        ),
        (
            format!("2\n3\n{board}{PRICES}\n"),
            "7:1: expected a board side n 2..25 (the statement's limit; the program's is 2..256) (test 2 of 2), found end of input",
        ),
        (
            format!("1\n3\n{board}{PRICES}\n\n"),
            "7:1: expected the end of input after 1 test, found an empty line",
        ),
        (
            format!("1\n3\n{board}{PRICES}\n3\n"),
            "7:1: expected the end of input after 1 test, found '3'",
        ),
        (
            format!("1\n3\n{board}{PRICES}\n").replace('\n', "\r\n"),
            "1:2: expected the end of the line after the number, found '\\r' (a Windows line end \\r\\n; lines must end with \\n alone)",
        ),
        (
            format!("1\n3\n{board}{PRICES}"),
            "6:16: expected a line end '\\n', found end of input",
        ),
        // The statement's sample as printed there, without t: its side is taken for t.
        (
            SAMPLE.input.strip_prefix("1\n").unwrap().to_string(),
            "2:1: expected a board side n 2..25 (the statement's limit; the program's is 2..256) (test 1 of 5), found a board row: the first line, 5, was read as the number of tests t, so the input seems to lack it (the statement's sample leaves it out); add the number of tests as its first line, e.g. 1",
        ),
    ];
    assert_rejected(
        "showdown",
        |input| showdown::validate::validate(input),
        &cases,
    );
    assert_eq!(
        validate("showdown", SAMPLE.input),
        (0, "valid: 1 test\n".to_string())
    );
    // The limits themselves are valid, a board without kings too.
    let full = format!("{}\n", "_".repeat(25)).repeat(25);
    let edge = format!(
        "15\n{}",
        format!("25\n{full}1000000 1 1 1 1 1 1 1000000\n").repeat(15)
    );
    assert_eq!(
        validate("showdown", &edge),
        (0, "valid: 15 tests\n".to_string())
    );
    let tiny = format!("2\n2\n##\n#_\n{PRICES}\n2\n__\n__\n{PRICES}\n");
    assert_eq!(
        validate("showdown", &tiny),
        (0, "valid: 2 tests\n".to_string())
    );
}

#[test]
fn unreadable_inputs_and_bad_options_are_errors_not_verdicts() {
    let got = run(&["showdown", "validate", "no/such/file"], b"");
    assert_eq!(got.code, 2);
    assert!(
        got.stderr.starts_with("error: no/such/file: cannot read"),
        "{}",
        got.stderr
    );
    for bad in [
        &["--size", "1"][..],
        &["--size", "2-257"],
        &["--size", "9-3"],
        &["--density", "1.5"],
        &["--density", "-0.1"],
        &["--density", "0.8-0.2"],
        &["--costs", "free"],
        &["--kind", "huge"],
        &["--tests", "0"],
    ] {
        let mut args = vec!["showdown", "gen"];
        args.extend(bad);
        let got = run(&args, b"");
        assert_eq!(got.code, 2, "{bad:?}");
        assert!(got.stdout.is_empty());
        assert!(!got.stderr.contains("panicked"));
    }
}

#[test]
fn gen_validate_solve_check_through_the_binary() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (i, gen_args) in [
        vec!["--seed", "11", "--tests", "4", "--size", "5-12"],
        vec!["--kind", "dense", "--size", "10", "--tests", "2"],
        vec!["--kind", "expensive-small", "--costs", "equal"],
        vec!["--kind", "sparse", "--density", "0.3", "--costs", "skewed"],
    ]
    .iter()
    .enumerate()
    {
        let mut args = vec!["showdown", "gen"];
        args.extend(gen_args);
        let generated = run(&args, b"");
        assert_eq!(generated.code, 0, "{}", generated.stderr);
        assert_eq!(run(&args, b"").stdout, generated.stdout, "reproducible");
        let input = dir.join(format!("{i}.in"));
        std::fs::write(&input, &generated.stdout).unwrap();
        let input = input.to_str().unwrap();
        let valid = run(&["showdown", "validate", input], b"");
        assert_eq!(valid.code, 0, "{}", valid.stdout_text());
        assert!(valid.stdout_text().starts_with("valid: "));
        let solved = run(&["showdown", "--steps", "50", input], b"");
        assert_eq!(solved.code, 0, "{}", solved.stderr);
        let output = dir.join(format!("{i}.out"));
        std::fs::write(&output, &solved.stdout).unwrap();
        let checked = run(&["showdown", "check", input, output.to_str().unwrap()], b"");
        assert_eq!(checked.code, 0, "{}", checked.stdout_text());
        assert!(checked.stdout_text().contains("total: "));
    }
}
