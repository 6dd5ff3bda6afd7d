//! One meaning for each exit code, the same for every command, through the real binary: an
//! output to check that cannot be read is 2 (as an input that cannot be read), and a time
//! limit that leaves work undone is 124 (the time limit of `showdown`, a budget within which
//! every test is answered, is 0).

use chess_puzzles::showdown::judge::{Verdict, check};

use crate::common::{run, temp_file};

const PUZZLES: [&str; 4] = ["queens", "sultan", "tour", "showdown"];

fn sample(puzzle: &str, ext: &str) -> String {
    format!(
        "{}/tests/data/{puzzle}/sample.{ext}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `check INPUT OUTPUT` with a directory for either file: exit 2, a message naming it on
/// standard error, nothing on standard output, for every puzzle (the showdown judge once
/// called an unreadable output a wrong answer, exit 1).
#[test]
fn an_unreadable_file_to_check_is_exit_2_for_every_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let dir_name = dir.path().to_str().unwrap();
    for puzzle in PUZZLES {
        let (input, output) = (sample(puzzle, "in"), sample(puzzle, "out"));
        for args in [
            [puzzle, "check", &input, dir_name],
            [puzzle, "check", dir_name, &output],
        ] {
            let out = run(&args, b"");
            assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
            assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout_text());
            assert!(
                out.stderr.starts_with(&format!("error: {dir_name}: ")),
                "{args:?}: {}",
                out.stderr
            );
            assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
        }
        // Both readable: the sample's own answer is accepted (exit 0).
        let out = run(&[puzzle, "check", &input, &output], b"");
        assert_eq!(out.code, 0, "{puzzle}: {}", out.stdout_text());
    }
}

/// A time limit that leaves work undone is 124 for every command that has one: a count not
/// finished (no count written), a listing cut short and placements not proven best (what was
/// found written), `showdown --steps` cut short (every test answered, validly). The time
/// limit of `showdown` without `--steps` is the optimiser's budget: 0, every test answered.
#[test]
fn a_time_limit_that_leaves_work_undone_is_124_for_every_command() {
    let count = run(&["nqueens", "count", "19", "--time-limit", "0.2"], b"");
    assert_eq!(count.code, 124, "{}", count.stderr);
    assert!(count.stdout.is_empty());
    assert!(
        count.stderr.contains("no count written"),
        "{}",
        count.stderr
    );

    let list = run(&["nqueens", "list", "28", "--time-limit", "0.2"], b"");
    assert_eq!(list.code, 124, "{}", list.stderr);
    assert!(
        list.stderr.contains("time limit reached"),
        "{}",
        list.stderr
    );

    // Boards of side 40 on random weights are not proven best at once.
    let mut boards = String::from("2\n");
    for board in 0..2u64 {
        boards.push_str("40\n");
        for r in 0..40u64 {
            let row: Vec<String> = (0..40u64)
                .map(|c| ((r * 7919 + c * 104_729 + board * 31) % 1000).to_string())
                .collect();
            boards.push_str(&row.join(" "));
            boards.push('\n');
        }
    }
    let best = run(&["nqueens", "best", "--time-limit", "0"], boards.as_bytes());
    assert_eq!(best.code, 124, "{}", best.stderr);
    assert_eq!(best.stdout_text().lines().count(), 2);

    let showdown = run(&["showdown", "gen", "--kind", "largest"], b"");
    assert_eq!(showdown.code, 0);
    let input = temp_file("largest.in", &showdown.stdout);
    let path = input.to_str().unwrap();
    for (args, code) in [
        (
            &[
                "showdown",
                "--steps",
                "1000000000000",
                "--time-limit",
                "0.3",
                path,
            ][..],
            124,
        ),
        (&["showdown", "--time-limit", "0.3", path][..], 0),
    ] {
        let out = run(args, b"");
        assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
        let report = check(&showdown.stdout[..], &out.stdout[..], |_, _| {}).unwrap();
        assert_eq!(report.verdict, Verdict::Accepted, "{args:?}");
        assert_eq!(report.scores.len(), 15);
    }
}
