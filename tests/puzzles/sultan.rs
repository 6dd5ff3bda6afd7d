//! `chess-puzzles sultan` end to end: the sample, random boards against a brute-force reference
//! over the 8! permutations, the other formats, and bad input.

use crate::common::run;
use crate::inputs::assert_input_error;
use crate::reference::{TestRng, non_attacking, placements};

type Board = [[u64; 8]; 8];

fn score(board: &Board, p: &[u8]) -> u64 {
    p.iter()
        .enumerate()
        .map(|(c, &r)| board[r as usize][c])
        .sum()
}

fn brute_force(all: &[Vec<u8>], board: &Board) -> u64 {
    all.iter().map(|p| score(board, p)).max().unwrap()
}

fn random_board(rng: &mut TestRng, lo: u64, hi: u64) -> Board {
    let mut b = [[0u64; 8]; 8];
    for row in b.iter_mut() {
        for w in row.iter_mut() {
            *w = rng.range(lo, hi);
        }
    }
    b
}

fn input_for(boards: &[Board]) -> String {
    let mut text = format!("{}\n", boards.len());
    for b in boards {
        for row in b {
            let cells: Vec<String> = row.iter().map(|w| format!("{w:2}")).collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
    }
    text
}

#[test]
fn the_sample_byte_for_byte() {
    let input = std::fs::read("tests/data/sultan/sample.in").unwrap();
    let expected = std::fs::read("tests/data/sultan/sample.out").unwrap();
    let got = run(&["sultan"], &input);
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert_eq!(got.stdout, expected);
}

#[test]
fn random_boards_match_brute_force() {
    let all = placements(8);
    let mut rng = TestRng::new(167);
    for (lo, hi) in [(1, 99), (1, 3), (0, 0), (4_000_000_000, 4_294_967_295)] {
        let boards: Vec<Board> = (0..60).map(|_| random_board(&mut rng, lo, hi)).collect();
        let got = run(&["sultan"], input_for(&boards).as_bytes());
        assert_eq!(got.code, 0, "{}", got.stderr);
        let expected: String = boards
            .iter()
            .map(|b| format!("{:5}\n", brute_force(&all, b)))
            .collect();
        assert_eq!(got.stdout_text(), expected);
    }
}

#[test]
fn json_placements_are_valid_and_score_the_best() {
    let all = placements(8);
    let mut rng = TestRng::new(1);
    let boards: Vec<Board> = (0..40).map(|_| random_board(&mut rng, 1, 99)).collect();
    let got = run(
        &["sultan", "--format", "json"],
        input_for(&boards).as_bytes(),
    );
    assert_eq!(got.code, 0, "{}", got.stderr);
    let text = got.stdout_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), boards.len());
    for (i, (line, board)) in lines.iter().zip(&boards).enumerate() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["case"], i + 1);
        let rows: Vec<u8> = value["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_u64().unwrap() as u8 - 1)
            .collect();
        assert!(non_attacking(&rows));
        let best = brute_force(&all, board);
        assert_eq!(value["score"], best);
        assert_eq!(score(board, &rows), best);
        // The first best placement in lexicographic order.
        let first = all.iter().find(|p| score(board, p) == best).unwrap();
        assert_eq!(&rows, first);
    }
}

#[test]
fn boards_show_the_queens_and_the_sum() {
    let input = std::fs::read("tests/data/sultan/sample.in").unwrap();
    let got = run(&["sultan", "--format", "board"], &input);
    assert_eq!(got.code, 0, "{}", got.stderr);
    let text = got.stdout_text();
    assert!(text.starts_with("Board 1: best score 260 = "), "{text}");
    let queens = text.split('[').skip(1);
    assert_eq!(
        queens
            .filter(|p| p.starts_with(|c: char| c.is_ascii_digit()))
            .count(),
        8
    );
}

#[test]
fn bad_inputs_are_located_errors() {
    let full = "1 ".repeat(64);
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "end of input"),
        ("x".to_string(), "'x'"),
        (format!("1\n{} 5", "1 ".repeat(62)), "end of input"),
        (
            format!("1\n{}99999999999", "1 ".repeat(63)),
            "'99999999999'",
        ),
        (format!("1\n{}-4", "1 ".repeat(63)), "'-4'"),
        (format!("1\n{}1e3", "1 ".repeat(63)), "'1e3'"),
        (format!("2\n{full}"), "end of input"),
        (format!("1\n{full} 7"), "'7'"),
        (
            "100000000000000000000000 1".to_string(),
            "'100000000000000000000000'",
        ),
    ];
    for (input, found) in &cases {
        let got = run(&["sultan"], input.as_bytes());
        let message = assert_input_error(&got, "<stdin>");
        assert!(
            message.ends_with(&format!("found {found}")),
            "{input:?}: {message}"
        );
    }
    let got = run(&["sultan"], format!("2\n{full}\n1 1\n").as_bytes());
    assert_eq!(got.stdout, b"    8\n");
    assert!(got.stderr.contains("(board 2 of 2)"), "{}", got.stderr);
}
