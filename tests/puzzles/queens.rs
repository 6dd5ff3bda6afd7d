//! `chess-puzzles queens` end to end: the sample, every square and random query lists against a
//! brute-force reference over the 8! permutations, the other formats, and bad input.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::Stdio;

use crate::common::{command, run};
use crate::inputs::assert_input_error;
use crate::reference::{TestRng, non_attacking, placements};

/// The placements containing the queen at (row, col), 0-based, in lexicographic order.
fn brute_force(all: &[Vec<u8>], row: u8, col: u8) -> Vec<Vec<u8>> {
    all.iter()
        .filter(|p| p[col as usize] == row)
        .cloned()
        .collect()
}

/// The judge output for the queries, written from the statement independently of the crate.
fn reference_output(queries: &[(u8, u8)], uva: bool) -> String {
    let all: Vec<Vec<u8>> = placements(8);
    assert_eq!(all.len(), 92);
    let mut cases = Vec::new();
    for &(r, c) in queries {
        let mut text = String::from("SOLN       COLUMN\n #      1 2 3 4 5 6 7 8\n");
        if uva {
            text.push('\n');
        }
        for (i, p) in brute_force(&all, r, c).iter().enumerate() {
            let rows: Vec<String> = p.iter().map(|r| (r + 1).to_string()).collect();
            text.push_str(&format!("{:>2}      {}\n", i + 1, rows.join(" ")));
        }
        cases.push(text);
    }
    cases.join("\n")
}

fn input_for(queries: &[(u8, u8)]) -> String {
    let mut text = format!("{}\n", queries.len());
    for (r, c) in queries {
        text.push_str(&format!("{} {}\n", r + 1, c + 1));
    }
    text
}

#[test]
fn the_sample_byte_for_byte() {
    let input = std::fs::read("tests/data/queens/sample.in").unwrap();
    let expected = std::fs::read("tests/data/queens/sample.out").unwrap();
    let got = run(&["queens"], &input);
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert_eq!(got.stdout, expected);
    // The same from a path.
    let got = run(&["queens", "tests/data/queens/sample.in"], b"");
    assert_eq!(got.stdout, expected);
}

#[test]
fn all_64_squares_in_both_layouts() {
    let queries: Vec<(u8, u8)> = (0..64).map(|i| (i / 8, i % 8)).collect();
    let input = input_for(&queries);
    for uva in [false, true] {
        let args: &[&str] = if uva {
            &["queens", "--uva"]
        } else {
            &["queens"]
        };
        let got = run(args, input.as_bytes());
        assert_eq!(got.code, 0, "{}", got.stderr);
        assert_eq!(got.stdout_text(), reference_output(&queries, uva));
    }
}

#[test]
fn random_query_lists_in_any_layout() {
    let mut rng = TestRng::new(750);
    for _ in 0..30 {
        let len = rng.range(1, 40) as usize;
        let queries: Vec<(u8, u8)> = (0..len)
            .map(|_| (rng.range(0, 7) as u8, rng.range(0, 7) as u8))
            .collect();
        // Any whitespace layout: random separators, CRLF, blank lines.
        let mut input = format!("{}", queries.len());
        for (r, c) in &queries {
            let seps = [" ", "\n", "\r\n", "\t", "\n\n", "  "];
            let a = seps[rng.range(0, 5) as usize];
            let b = seps[rng.range(0, 5) as usize];
            input.push_str(&format!("{a}{}{b}{}", r + 1, c + 1));
        }
        input.push_str("\r\n");
        let got = run(&["queens"], input.as_bytes());
        assert_eq!(got.code, 0, "{}", got.stderr);
        assert_eq!(got.stdout_text(), reference_output(&queries, false));
    }
}

#[test]
fn every_printed_placement_is_non_attacking_and_holds_the_queen() {
    let queries: Vec<(u8, u8)> = (0..64).map(|i| (i / 8, i % 8)).collect();
    let got = run(&["queens"], input_for(&queries).as_bytes());
    let text = got.stdout_text();
    let mut case = 0;
    let mut checked = 0;
    for line in text.lines() {
        if line.starts_with("SOLN") {
            case += 1;
            continue;
        }
        if line.is_empty() || line.starts_with(" #") {
            continue;
        }
        let numbers: Vec<u8> = line
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(numbers.len(), 9, "{line}");
        let rows: Vec<u8> = numbers[1..].iter().map(|r| r - 1).collect();
        assert!(non_attacking(&rows), "{line}");
        let (r, c) = queries[case - 1];
        assert_eq!(rows[c as usize], r, "{line}");
        checked += 1;
    }
    assert_eq!(case, 64);
    // Each of the 92 placements holds 8 queens, so it is listed once per square it covers.
    assert_eq!(checked, 92 * 8);
}

#[test]
fn json_lists_the_same_solutions() {
    let queries = [(0u8, 0u8), (3, 5), (7, 7)];
    let got = run(
        &["queens", "--format", "json"],
        input_for(&queries).as_bytes(),
    );
    assert_eq!(got.code, 0, "{}", got.stderr);
    let all: Vec<Vec<u8>> = placements(8);
    let lines: Vec<String> = got.stdout_text().lines().map(String::from).collect();
    assert_eq!(lines.len(), queries.len());
    for (i, (line, &(r, c))) in lines.iter().zip(&queries).enumerate() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["case"], i + 1);
        assert_eq!(value["queen"], serde_json::json!([r + 1, c + 1]));
        let expected: Vec<Vec<u8>> = brute_force(&all, r, c)
            .iter()
            .map(|p| p.iter().map(|x| x + 1).collect())
            .collect();
        assert_eq!(value["solutions"], serde_json::json!(expected));
    }
}

#[test]
fn boards_draw_every_solution() {
    let got = run(&["queens", "--format", "board"], b"2\n1 1\n4 6\n");
    assert_eq!(got.code, 0, "{}", got.stderr);
    let text = got.stdout_text();
    let all: Vec<Vec<u8>> = placements(8);
    let total = brute_force(&all, 0, 0).len() + brute_force(&all, 3, 5).len();
    assert_eq!(
        text.matches('♕').count(),
        total + 2,
        "one per board plus the headings"
    );
    assert_eq!(text.matches('♛').count(), total * 7);
    assert!(text.contains("Case 2: queen given on row 4, column 6"));
}

#[test]
fn nothing_for_zero_cases() {
    let got = run(&["queens"], b"0\n");
    assert_eq!(got.code, 0);
    assert!(got.stdout.is_empty());
}

#[test]
fn bad_inputs_are_located_errors() {
    let cases: &[(&str, &str)] = &[
        ("", "end of input"),
        ("   \n\n", "end of input"),
        ("x", "'x'"),
        ("1\n1 9\n", "'9'"),
        ("1\n0 1\n", "'0'"),
        ("1\n-1 1\n", "'-1'"),
        ("1\n1 1.5\n", "'1.5'"),
        ("2\n1 1\n", "end of input"),
        ("2\n1 1\n2\n", "end of input"),
        ("1\n1 1\n3 3\n", "'3'"),
        (
            "1000000000000000000000000000000\n1 1\n",
            "'100000000000000000000000...'",
        ),
        ("99999999999999\n1 1\n", "'99999999999999'"),
    ];
    for (input, found) in cases {
        let got = run(&["queens"], input.as_bytes());
        let message = assert_input_error(&got, "<stdin>");
        assert!(
            message.ends_with(&format!("found {found}")),
            "{input:?}: {message}"
        );
    }
    // A count the input does not hold fails at its end, after the cases that were there.
    let got = run(&["queens"], b"5\n1 1\n");
    assert_eq!(got.code, 2);
    assert!(got.stderr.contains("(case 2 of 5)"), "{}", got.stderr);
    assert!(got.stdout.starts_with(b"SOLN"));
    // The error names the case and the place.
    let got = run(&["queens"], b"3\n1 1\n2 2\n\n  9 1\n");
    assert_eq!(
        got.stderr,
        "error: <stdin>:5:3: expected a row number 1..8 (case 3 of 3), found '9'\n"
    );
}

#[test]
fn a_missing_file_is_an_error() {
    let got = run(&["queens", "no/such/file.in"], b"");
    assert_eq!(got.code, 2);
    assert!(
        got.stderr
            .starts_with("error: no/such/file.in: cannot read:"),
        "{}",
        got.stderr
    );
    assert!(!got.stderr.contains("panicked"));
}

#[test]
fn answers_stream_before_the_input_ends() {
    let mut child = command()
        .arg("queens")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(b"2\n1 1\n").unwrap();
    stdin.flush().unwrap();
    // The first case's answer arrives while the second query has not been sent.
    let mut lines = Vec::new();
    for _ in 0..6 {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        lines.push(line);
    }
    assert_eq!(lines[5], " 4      1 7 5 8 2 4 6 3\n");
    stdin.write_all(b"8 8\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(rest.starts_with("\nSOLN"));
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let queries: Vec<(u8, u8)> = (0..20000)
        .map(|i| ((i % 8) as u8, (i / 8 % 8) as u8))
        .collect();
    let input = input_for(&queries);
    let mut child = command()
        .arg("queens")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
