//! `chess-puzzles nqueens` through the real binary: counts against OEIS, listings and counts
//! with given queens against a brute force over permutations written here, every listed
//! placement checked on its own, the error cases, and the thread count not changing a count.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{Run, command, run};
use crate::reference::{non_attacking, placements};

fn stdout(out: &Run) -> String {
    assert!(out.code == 0, "exit {:?}: {}", out.code, out.stderr);
    out.stdout_text()
}

/// Runs `args`, expects exit code 2 and a message on standard error; returns the message.
fn fails(args: &[&str]) -> String {
    let out = run(args, b"");
    let err = out.stderr.clone();
    assert_eq!(out.code, 2, "{args:?}: {err}");
    assert!(err.starts_with("error") || err.contains("error:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Runs a command whose time limit runs out with work undone: exit 124, a message, no count.
fn out_of_time(args: &[&str]) -> String {
    let out = run(args, b"");
    let err = out.stderr.clone();
    assert_eq!(out.code, 124, "{args:?}: {err}");
    assert!(err.contains("time limit"), "{err}");
    assert!(out.stdout.is_empty(), "{args:?}: a count was written");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The number of placements of n queens, n = 1..=15 (OEIS A000170,
/// https://oeis.org/A000170).
const A000170: [u64; 15] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
];

/// Every placement of n queens (`rows[col]` = row, from 0), found by trying every
/// permutation, in lexicographic order.
fn brute_force(n: usize) -> Vec<Vec<usize>> {
    placements(n)
        .into_iter()
        .map(|p| p.into_iter().map(usize::from).collect())
        .collect()
}

/// Parses listing lines of 1-based rows into 0-based placements.
fn parse_listing(text: &str, n: usize) -> Vec<Vec<usize>> {
    text.lines()
        .map(|line| {
            let rows: Vec<usize> = line
                .split(' ')
                .map(|t| t.parse::<usize>().unwrap() - 1)
                .collect();
            assert_eq!(rows.len(), n, "{line}");
            rows
        })
        .collect()
}

#[test]
fn counts_match_oeis_a000170() {
    for (i, &expected) in A000170.iter().enumerate() {
        let n = (i + 1).to_string();
        assert_eq!(
            stdout(&run(&["nqueens", "count", &n], b"")),
            format!("{expected}\n"),
            "n = {n}"
        );
    }
}

#[test]
fn listings_are_complete_sorted_and_valid() {
    for n in 1..=9usize {
        let text = stdout(&run(&["nqueens", "list", &n.to_string()], b""));
        let listed = parse_listing(&text, n);
        assert!(listed.iter().all(|p| non_attacking(p)));
        assert_eq!(listed, brute_force(n), "n = {n}");
        assert_eq!(listed.len() as u64, A000170[n - 1]);
    }
}

#[test]
fn random_given_queens_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let all: Vec<Vec<Vec<usize>>> = (0..=9).map(brute_force).collect();
    let mut checked = 0;
    let mut refused = 0;
    while checked < 40 {
        let n = rng.random_range(4..=9usize);
        let k = rng.random_range(1..=3usize);
        let fixes: Vec<(usize, usize)> = (0..k)
            .map(|_| (rng.random_range(0..n), rng.random_range(0..n)))
            .collect();
        let mut args = vec!["nqueens".to_string(), "list".to_string(), n.to_string()];
        for (r, c) in &fixes {
            args.push("--fix".to_string());
            args.push(format!("{},{}", r + 1, c + 1));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let consistent = fixes.iter().enumerate().all(|(i, a)| {
            fixes[..i]
                .iter()
                .all(|b| a.0 != b.0 && a.1 != b.1 && a.0.abs_diff(b.0) != a.1.abs_diff(b.1))
        });
        if !consistent {
            // Attacking or repeated queens are refused, naming them.
            let err = fails(&args);
            assert!(err.contains("attack") || err.contains("twice"), "{err}");
            refused += 1;
            continue;
        }
        let expected: Vec<Vec<usize>> = all[n]
            .iter()
            .filter(|p| fixes.iter().all(|&(r, c)| p[c] == r))
            .cloned()
            .collect();
        let listed = parse_listing(&stdout(&run(&args, b"")), n);
        assert!(listed.iter().all(|p| non_attacking(p)));
        assert_eq!(listed, expected, "{args:?}");
        let mut count_args = args.clone();
        count_args[1] = "count";
        assert_eq!(
            stdout(&run(&count_args, b"")),
            format!("{}\n", expected.len()),
            "{count_args:?}"
        );
        checked += 1;
    }
    assert!(refused > 0);
}

/// A placement of n queens for even n with n % 6 != 2 (a classical construction: for
/// i = 1..=n/2, queens on (i, 2i) and (n/2 + i, 2i - 1), 1-based row and column), as the row
/// of each column, 0-based. Checked by `non_attacking` before use.
fn constructed(n: usize) -> Vec<usize> {
    let mut rows = vec![0; n];
    for i in 1..=n / 2 {
        rows[2 * i - 1] = i - 1;
        rows[2 * i - 2] = n / 2 + i - 1;
    }
    rows
}

#[test]
fn large_boards_with_given_queens() {
    for (n, free) in [(64usize, 8usize), (52, 7), (40, 9)] {
        let full = constructed(n);
        assert!(non_attacking(&full), "the construction for n = {n}");
        // Give every queen but those of `free` columns spread over the board.
        let open_columns: Vec<usize> = (0..free).map(|i| i * (n - 1) / (free - 1)).collect();
        let mut args: Vec<String> = vec!["nqueens".into(), "list".into(), n.to_string()];
        for (c, r) in full.iter().enumerate() {
            if !open_columns.contains(&c) {
                args.push("--fix".into());
                args.push(format!("{},{}", r + 1, c + 1));
            }
        }
        // Brute force: every way to put the free rows on the free columns.
        let free_rows: Vec<usize> = open_columns.iter().map(|&c| full[c]).collect();
        let mut expected = Vec::new();
        let mut perm = free_rows.clone();
        perm.sort_unstable();
        loop {
            let mut rows = full.clone();
            for (&c, &r) in open_columns.iter().zip(&perm) {
                rows[c] = r;
            }
            if non_attacking(&rows) {
                expected.push(rows);
            }
            if !next_permutation(&mut perm) {
                break;
            }
        }
        expected.sort();
        let args_ref: Vec<&str> = args.iter().map(String::as_str).collect();
        let listed = parse_listing(&stdout(&run(&args_ref, b"")), n);
        assert!(listed.contains(&full));
        assert!(listed.iter().all(|p| non_attacking(p)));
        assert_eq!(listed, expected, "n = {n}");
        let mut count_args = args_ref.clone();
        count_args[1] = "count";
        assert_eq!(
            stdout(&run(&count_args, b"")),
            format!("{}\n", expected.len())
        );
    }
}

/// Steps `v` to its next permutation in lexicographic order; false after the last.
fn next_permutation(v: &mut [usize]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).unwrap();
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

#[test]
fn thread_counts_do_not_change_counts() {
    for args in [
        &["nqueens", "count", "13"][..],
        &["nqueens", "count", "14", "--fix", "2,3"],
        &["nqueens", "count", "16", "--fix", "5,1", "--fix", "1,7"],
    ] {
        let one = stdout(&run(&[args, &["--threads", "1"]].concat(), b""));
        let two = stdout(&run(&[args, &["--threads", "2"]].concat(), b""));
        let three = stdout(&run(&[args, &["--threads", "3"]].concat(), b""));
        assert_eq!(one, two, "{args:?}");
        assert_eq!(one, three, "{args:?}");
    }
}

#[test]
fn formats_board_and_json() {
    let board = stdout(&run(
        &["nqueens", "list", "5", "--fix", "1,1", "--format", "board"],
        b"",
    ));
    assert!(board.starts_with("Placement 1: 1 3 5 2 4\n"), "{board}");
    assert_eq!(board.matches('♕').count(), 2);
    assert_eq!(board.matches('♛').count(), 8);
    let json = stdout(&run(&["nqueens", "list", "4", "--format", "json"], b""));
    assert_eq!(
        json,
        "{\"n\":4,\"index\":1,\"rows\":[2,4,1,3]}\n{\"n\":4,\"index\":2,\"rows\":[3,1,4,2]}\n"
    );
    let count = stdout(&run(
        &["nqueens", "count", "8", "--fix", "1,1", "--format", "json"],
        b"",
    ));
    assert_eq!(count, "{\"n\":8,\"given\":[[1,1]],\"count\":4}\n");
    let drawn = stdout(&run(&["nqueens", "count", "3", "--format", "board"], b""));
    assert!(
        drawn.starts_with("3x3 board, no queen given: 0 placements\n"),
        "{drawn}"
    );
}

#[test]
fn bad_given_queens_are_named() {
    let err = fails(&["nqueens", "list", "8", "--fix", "1,1", "--fix", "3,3"]);
    assert!(err.contains("(1,1)") && err.contains("(3,3)"), "{err}");
    let err = fails(&["nqueens", "count", "8", "--fix", "9,1"]);
    assert!(err.contains("(9,1)") && err.contains("outside"), "{err}");
    let err = fails(&["nqueens", "count", "8", "--fix", "0,4"]);
    assert!(err.contains("(0,4)"), "{err}");
    let err = fails(&["nqueens", "list", "8", "--fix", "2,5", "--fix", "2,5"]);
    assert!(err.contains("(2,5)") && err.contains("twice"), "{err}");
    let err = fails(&["nqueens", "count", "0"]);
    assert!(err.contains("1..64"), "{err}");
    fails(&["nqueens", "count", "65"]);
    fails(&["nqueens", "list", "8", "--fix", "a,b"]);
    fails(&["nqueens", "list", "8", "--fix", "3"]);
    fails(&["nqueens", "count", "8", "--threads", "0"]);
    // A limit of 0 is allowed (no time at all): the count is not finished.
    out_of_time(&["nqueens", "count", "8", "--time-limit", "0"]);
    fails(&["nqueens", "count", "8", "--time-limit=-1"]);
    fails(&["nqueens", "count", "8", "--time-limit", "nan"]);
}

#[test]
fn a_time_limit_stops_a_long_count() {
    out_of_time(&["nqueens", "count", "22", "--time-limit", "0.3"]);
    // A limit too far away to represent is no limit.
    assert_eq!(
        stdout(&run(
            &["nqueens", "count", "8", "--time-limit", "1e300"],
            b""
        )),
        "92\n"
    );
    // Counted by the band (sides 12 to 27), and a shard of it.
    out_of_time(&["nqueens", "count", "19", "--time-limit", "0.3"]);
    out_of_time(&[
        "nqueens",
        "count",
        "20",
        "--shard",
        "0/2",
        "--time-limit",
        "0.3",
    ]);
    out_of_time(&[
        "nqueens",
        "count",
        "40",
        "--fix",
        "1,1",
        "--time-limit",
        "0.3",
    ]);
}

/// The band's set-up (counting its configurations, building a configuration's sides) looks
/// at the clock too: at the frontier sizes, where it takes seconds (about 2 s to count the
/// configurations of 27, 3 s to build a first side of 24), a count and a shard stop on time.
#[test]
fn a_time_limit_holds_during_the_band_set_up() {
    for args in [
        &["nqueens", "count", "24", "--time-limit", "0.1"][..],
        &["nqueens", "count", "27", "--time-limit", "0.1"],
        &[
            "nqueens",
            "count",
            "27",
            "--shard",
            "7/1000",
            "--time-limit",
            "0.1",
        ],
    ] {
        let began = Instant::now();
        out_of_time(args);
        let took = began.elapsed();
        // The set-up alone takes seconds; a generous margin for a loaded machine.
        assert!(took < Duration::from_secs(1), "{args:?}: {took:?}");
    }
}

/// Ctrl-C (SIGINT) stops a long count within a moment: exit 130, no count, the share done said.
#[test]
fn ctrl_c_stops_a_long_count() {
    for args in [
        &["nqueens", "count", "21"][..],
        &[
            "nqueens", "count", "21", "--shard", "3/7", "--format", "json",
        ][..],
        &["nqueens", "count", "40", "--fix", "1,1"][..],
    ] {
        let child = command()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(800));
        let sent = Instant::now();
        let status = Command::new("sh")
            .args(["-c", &format!("kill -INT {}", child.id())])
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        let took = sent.elapsed();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{args:?}: {err}");
        assert!(
            took.as_secs_f64() < 3.0,
            "{args:?} ended {took:?} after Ctrl-C"
        );
        assert!(err.contains("interrupted: nqueens count"), "{err}");
        assert!(err.contains("% of the count done"), "{err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_closed_pipe_ends_the_listing_quietly() {
    let mut child = command()
        .args(["nqueens", "list", "14"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(
        lines.next().unwrap().unwrap(),
        "1 3 5 7 12 10 13 4 14 9 2 6 8 11"
    );
    drop(lines);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_limit_of_zero_lists_nothing() {
    assert_eq!(
        stdout(&run(&["nqueens", "list", "8", "--limit", "0"], b"")),
        ""
    );
    let _ = run(&["nqueens", "list", "4"], b"");
}

/// The largest sum of weights under n queens by trying every permutation.
/// The rows (from 0) of a JSON placement's `rows` array (written from 1).
fn json_rows(v: &serde_json::Value) -> Vec<usize> {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap() as usize - 1)
        .collect()
}

fn brute_best(n: usize, w: &[u64]) -> u64 {
    brute_force(n)
        .iter()
        .map(|p| p.iter().enumerate().map(|(c, &r)| w[r * n + c]).sum())
        .max()
        .unwrap()
}

/// The input of `nqueens best` for `boards`: (side, weights row by row) each.
pub fn board_input(boards: &[(usize, Vec<u64>)]) -> String {
    let mut input = format!("{}\n", boards.len());
    for (n, w) in boards {
        input.push_str(&format!("{n}\n"));
        for row in w.chunks((*n).max(1)) {
            let line: Vec<String> = row.iter().map(u64::to_string).collect();
            input.push_str(&line.join(" "));
            input.push('\n');
        }
    }
    input
}

#[test]
fn best_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let boards: Vec<(usize, Vec<u64>)> = (0..40)
        .map(|_| {
            let n = [1usize, 4, 5, 6, 7, 8][rng.random_range(0..6)];
            let top = [1u64, 3, 100, 4294967295][rng.random_range(0..4)];
            (n, (0..n * n).map(|_| rng.random_range(0..=top)).collect())
        })
        .collect();
    let input = board_input(&boards);
    let expected: String = boards
        .iter()
        .map(|(n, w)| format!("{}\n", brute_best(*n, w)))
        .collect();
    let out = run(&["nqueens", "best"], input.as_bytes());
    assert_eq!(stdout(&out), expected);
    // The JSON placements are valid and score what they claim.
    let out = run(&["nqueens", "best", "--format", "json"], input.as_bytes());
    for (line, (n, w)) in stdout(&out).lines().zip(&boards) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let rows = json_rows(&v);
        assert_eq!(rows.len(), *n);
        assert!(non_attacking(&rows));
        let score: u64 = rows.iter().enumerate().map(|(c, &r)| w[r * n + c]).sum();
        assert_eq!(v["score"].as_u64().unwrap(), score);
        assert_eq!(score, brute_best(*n, w));
    }
}

#[test]
fn best_reads_the_sultan_sample_board() {
    // Seed 001's board: 1..64 with 48 written twice and no 49; its answer is 260.
    let w: Vec<u64> = (1..=64).map(|v| if v == 49 { 48 } else { v }).collect();
    let out = run(&["nqueens", "best"], board_input(&[(8, w)]).as_bytes());
    assert_eq!(stdout(&out), "260\n");
}

#[test]
fn best_answers_a_20x20_board() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let boards: Vec<(usize, Vec<u64>)> = (0..3)
        .map(|_| (20, (0..400).map(|_| rng.random_range(1..=99)).collect()))
        .collect();
    let out = run(
        &["nqueens", "best", "--format", "json"],
        board_input(&boards).as_bytes(),
    );
    for (line, (n, w)) in stdout(&out).lines().zip(&boards) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let rows = json_rows(&v);
        assert!(non_attacking(&rows));
        let score: u64 = rows.iter().enumerate().map(|(c, &r)| w[r * n + c]).sum();
        assert_eq!(v["score"].as_u64().unwrap(), score);
    }
}

/// Runs `nqueens best` on `input`; expects exit 2 and a located message naming `<stdin>`.
fn best_fails(input: &str) -> String {
    let out = run(&["nqueens", "best"], input.as_bytes());
    let err = out.stderr.clone();
    assert_eq!(out.code, 2, "{input:?}: {err}");
    assert!(err.starts_with("error: <stdin>:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn best_input_errors_are_located() {
    let err = best_fails("1\n65\n");
    assert!(err.contains("<stdin>:2:1:"), "{err}");
    best_fails("1\n0\n");
    best_fails("1\nfour\n");
    let err = best_fails("1\n4\n1 2 3 4\n5 6 -7 8\n");
    assert!(
        err.contains("<stdin>:4:5:") && err.contains("row 2"),
        "{err}"
    );
    best_fails("1\n4\n1 2 3 4\n5 6 7 4294967296\n");
    let err = best_fails("2\n1\n5\n4\n1 2 3\n");
    assert!(err.contains("board 2 of 2"), "{err}");
    best_fails("1\n1\n5\n6\n");
    best_fails("");
    // Counts and sides too large to be real are refused before anything is allocated.
    best_fails("99999999999999999999\n");
    best_fails("1\n999999999999\n");
}

#[test]
fn best_honours_a_time_limit() {
    let mut rng = ChaCha8Rng::seed_from_u64(64);
    let w: Vec<u64> = (0..64 * 64).map(|_| rng.random_range(1..=1000)).collect();
    let input = board_input(&[(64, w.clone())]);
    let out = run(
        &["nqueens", "best", "--time-limit", "0.5", "--format", "json"],
        input.as_bytes(),
    );
    let err = &out.stderr;
    // The best placement found is written, marked not proven, and the exit code says so.
    assert_eq!(out.code, 124, "{err}");
    assert!(err.contains("time limit"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["proven"], serde_json::Value::Bool(false));
    let rows = json_rows(&v);
    assert!(non_attacking(&rows));
    let score: u64 = rows.iter().enumerate().map(|(c, &r)| w[r * 64 + c]).sum();
    assert_eq!(v["score"].as_u64().unwrap(), score);
}

/// The records of every shard of `n`'s count in `shards` parts, one JSON line each.
fn shard_records(n: usize, shards: u64) -> String {
    (0..shards)
        .map(|i| {
            stdout(&run(
                &[
                    "nqueens",
                    "count",
                    &n.to_string(),
                    "--shard",
                    &format!("{i}/{shards}"),
                    "--format",
                    "json",
                ],
                b"",
            ))
        })
        .collect()
}

#[test]
fn shards_add_up_to_the_count_and_merge_checks_them() {
    // Inside the band's range (13), below it (9) and a tiny board (4).
    for (n, shards, expected) in [(13usize, 7u64, 73_712u64), (9, 5, 352), (4, 3, 2)] {
        let records = shard_records(n, shards);
        let mut sum = 0u64;
        for (i, line) in records.lines().enumerate() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(record["n"], n as u64);
            assert_eq!(record["shard"], i as u64);
            assert_eq!(record["shards"], shards);
            assert!(record["cpu_seconds"].as_f64().is_some_and(|s| s >= 0.0));
            assert_eq!(record["version"], env!("CARGO_PKG_VERSION"));
            assert_eq!(record["check"].as_str().map(str::len), Some(16));
            // The residue is the count modulo 2^61 - 1, summed apart.
            let count = record["count"].as_u64().unwrap();
            assert_eq!(record["residue"].as_u64(), Some(count % ((1 << 61) - 1)));
            assert!(record["side"].as_u64().is_some_and(|s| s <= n as u64 / 2));
            sum += count;
            // The plain shard prints its count alone.
            let plain = stdout(&run(
                &[
                    "nqueens",
                    "count",
                    &n.to_string(),
                    "--shard",
                    &format!("{i}/{shards}"),
                ],
                b"",
            ));
            assert_eq!(plain, format!("{}\n", record["count"]));
        }
        assert_eq!(sum, expected, "n = {n}");
        let merged = stdout(&run(&["nqueens", "merge"], records.as_bytes()));
        assert_eq!(merged, format!("{expected}\n"));
        let json = stdout(&run(
            &["nqueens", "merge", "--format", "json"],
            records.as_bytes(),
        ));
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            (json["count"].as_u64(), json["shards"].as_u64()),
            (Some(expected), Some(shards))
        );
    }
}

#[test]
fn merge_names_what_is_wrong_and_writes_no_total() {
    let records = shard_records(10, 4);
    let lines: Vec<&str> = records.lines().collect();
    let rejected = |input: String, says: &str| {
        let out = run(&["nqueens", "merge"], input.as_bytes());
        let err = &out.stderr;
        assert_eq!(out.code, 1, "{err}");
        assert!(out.stdout.is_empty(), "a total was written");
        assert!(err.contains(says), "expected '{says}' in: {err}");
    };
    rejected(lines[..3].join("\n"), "missing 1 of 4 shards: 3");
    rejected(
        format!("{records}{}\n", lines[1]),
        "<stdin>:5: repeated record: shard 1 of 4",
    );
    rejected(
        format!("{records}{}", shard_records(11, 4).lines().next().unwrap()),
        "<stdin>:5: foreign record: n = 11",
    );
    rejected(
        records.replacen("\"count\":", "\"count\":1", 1),
        "<stdin>:1: corrupted record",
    );
    // Two intact records whose total passes 128 bits: named, exit 1, no total. A record
    // whose count does not match its residue (its check made to fit, as a buggy counter
    // would write it), and one whose CPU time is negative: corrupted.
    use chess_puzzles::nqueens::band::Tally;
    use chess_puzzles::nqueens::shard::{Counted, Record, Spec};
    let claiming = |index: u64, count: u128, residue: u64, cpu: f64| {
        let counted = Counted {
            tally: Tally { count, residue },
            side: 9,
        };
        Record::new(27, Spec::new(index, 2).unwrap(), counted, cpu).to_json_line()
    };
    let half = (1u128 << 127) % ((1 << 61) - 1);
    rejected(
        claiming(0, 1 << 127, half as u64, 1.0) + &claiming(1, 1 << 127, half as u64, 1.0),
        "<stdin>:2: the total overflows 128 bits",
    );
    rejected(
        claiming(0, 5, 6, 1.0) + &claiming(1, 5, 5, 1.0),
        "<stdin>:1: corrupted record: its count 5 does not match its residue 6",
    );
    rejected(
        claiming(0, 5, 5, -1.0) + &claiming(1, 5, 5, 1.0),
        "<stdin>:1: corrupted record: a CPU time of -1 s",
    );
    // Not a record at all: exit 2, located.
    let out = run(
        &["nqueens", "merge"],
        format!("{records}{{\"n\":10}}\n").as_bytes(),
    );
    let err = &out.stderr;
    assert_eq!(out.code, 2, "{err}");
    assert!(err.contains("<stdin>:5:"), "{err}");
    // Files by name, and a missing file.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    std::fs::write(&a, lines[..2].join("\n")).unwrap();
    std::fs::write(&b, lines[2..].join("\n")).unwrap();
    let merged = run(
        &["nqueens", "merge", a.to_str().unwrap(), b.to_str().unwrap()],
        b"",
    );
    assert_eq!(stdout(&merged), "724\n");
    let err = fails(&["nqueens", "merge", dir.join("none.jsonl").to_str().unwrap()]);
    assert!(err.contains("none.jsonl"), "{err}");
}

#[test]
fn bad_shards_are_refused_with_the_option_named() {
    for bad in [
        "4/4",
        "0/0",
        "1",
        "a/4",
        "1/1000000001",
        "-1/4",
        "1/4/5",
        "18446744073709551616/1",
    ] {
        let err = fails(&["nqueens", "count", "12", &format!("--shard={bad}")]);
        assert!(err.contains("--shard"), "{bad}: {err}");
    }
    // A number beyond 64 bits is named as written, not as a saturated value.
    let err = fails(&["nqueens", "count", "12", "--shard=18446744073709551616/1"]);
    assert!(err.contains("found 18446744073709551616"), "{err}");
    let err = fails(&["nqueens", "count", "12", "--shard", "1/4", "--fix", "1,1"]);
    assert!(err.contains("--fix"), "{err}");
    // Past the band's limit one shard would do all the work: refused, the limit named.
    let err = fails(&["nqueens", "count", "28", "--shard", "0/2"]);
    assert!(err.contains("--shard") && err.contains("27"), "{err}");
}

/// OEIS A000170 for n = 18 and 19, counted by the band on every core: minutes, so only on
/// demand (`cargo test --release --test puzzles nqueens:: -- --ignored`).
#[test]
#[ignore]
fn counts_18_and_19_match_oeis() {
    for (n, expected) in [(18, "666090624"), (19, "4968057848")] {
        let out = stdout(&run(&["nqueens", "count", &n.to_string()], b""));
        assert_eq!(out.trim(), expected, "n = {n}");
    }
}

/// The first `k` placements of an n x n board in lexicographic order that hold the given queens
/// (row, column, 0-based), by a plain recursive backtracker written here: column by column,
/// rows in increasing order, no look-ahead.
fn plain_first(n: usize, given: &[(usize, usize)], k: usize) -> Vec<Vec<usize>> {
    fn go(
        n: usize,
        given: &[(usize, usize)],
        k: usize,
        rows: &mut Vec<usize>,
        found: &mut Vec<Vec<usize>>,
    ) {
        let c = rows.len();
        if c == n {
            found.push(rows.clone());
            return;
        }
        for r in 0..n {
            if found.len() >= k {
                return;
            }
            if given.iter().any(|&(gr, gc)| gc == c && gr != r) {
                continue;
            }
            let free = rows
                .iter()
                .enumerate()
                .all(|(pc, &pr)| pr != r && pr.abs_diff(r) != c - pc);
            // A given queen further right must not be attacked either.
            let clear = given
                .iter()
                .all(|&(gr, gc)| gc <= c || (gr != r && gr.abs_diff(r) != gc - c));
            if free && clear {
                rows.push(r);
                go(n, given, k, rows, found);
                rows.pop();
            }
        }
    }
    let mut found = Vec::new();
    go(n, given, k, &mut Vec::new(), &mut found);
    found
}

#[test]
fn first_placements_match_a_plain_search_and_oeis_a141843() {
    // OEIS A141843 (https://oeis.org/A141843) rows 8 and 10; the rest against the plain
    // search, which reaches them in well under a second.
    assert_eq!(
        stdout(&run(&["nqueens", "list", "8", "--limit", "1"], b"")),
        "1 5 8 6 3 7 2 4\n"
    );
    assert_eq!(
        stdout(&run(&["nqueens", "list", "10", "--limit", "1"], b"")),
        "1 3 6 8 10 5 9 2 4 7\n"
    );
    for n in 4..=24usize {
        let expected = plain_first(n, &[], 3);
        let listed = parse_listing(
            &stdout(&run(
                &["nqueens", "list", &n.to_string(), "--limit", "3"],
                b"",
            )),
            n,
        );
        assert!(listed.iter().all(|p| non_attacking(p)));
        assert_eq!(listed, expected, "n = {n}");
    }
}

#[test]
fn first_placements_with_random_given_queens_match_a_plain_search() {
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    let mut checked = 0;
    while checked < 40 {
        let n = rng.random_range(10..=16usize);
        let k = rng.random_range(1..=3usize);
        let given: Vec<(usize, usize)> = (0..k)
            .map(|_| (rng.random_range(0..n), rng.random_range(0..n)))
            .collect();
        let consistent = given.iter().enumerate().all(|(i, a)| {
            given[..i]
                .iter()
                .all(|b| a.0 != b.0 && a.1 != b.1 && a.0.abs_diff(b.0) != a.1.abs_diff(b.1))
        });
        if !consistent {
            continue;
        }
        let mut args = vec![
            "nqueens".to_string(),
            "list".to_string(),
            n.to_string(),
            "--limit".to_string(),
            "4".to_string(),
        ];
        for (r, c) in &given {
            args.push("--fix".to_string());
            args.push(format!("{},{}", r + 1, c + 1));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let listed = parse_listing(&stdout(&run(&args, b"")), n);
        assert!(listed.iter().all(|p| non_attacking(p)));
        assert!(listed.iter().all(|p| given.iter().all(|&(r, c)| p[c] == r)));
        assert_eq!(listed, plain_first(n, &given, 4), "{args:?}");
        checked += 1;
    }
}

#[test]
fn a_time_limit_stops_a_long_first_placement() {
    // Side 40's first placement is out of reach in a second (see docs/guide.md).
    let started = Instant::now();
    let out = run(
        &[
            "nqueens",
            "list",
            "40",
            "--limit",
            "1",
            "--time-limit",
            "0.5",
        ],
        b"",
    );
    assert_eq!(out.code, 124, "{}", out.stderr);
    assert!(out.stderr.contains("time limit"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// Runs shard `i` of `shards` of side `n`'s first-placement search (`extra` arguments
/// added) and returns its exit code, record line and standard error.
fn first_shard(n: usize, i: u64, shards: u64, extra: &[&str]) -> (i32, String, String) {
    let (n, shard) = (n.to_string(), format!("{i}/{shards}"));
    let mut args = vec![
        "nqueens", "list", &n, "--limit", "1", "--shard", &shard, "--format", "json",
    ];
    args.extend_from_slice(extra);
    let out = run(&args, b"");
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    (out.code, out.stdout_text(), out.stderr)
}

/// The records of every shard of side `n`'s first placement, one JSON line each.
fn first_shard_records(n: usize, shards: u64, extra: &[&str]) -> String {
    (0..shards)
        .map(|i| {
            let (code, record, err) = first_shard(n, i, shards, extra);
            assert_eq!(code, 0, "shard {i}/{shards} of {n}: {err}");
            record
        })
        .collect()
}

#[test]
fn first_placement_shards_merge_to_the_first_placement() {
    // Random sides, numbers of shards and depths: the merged answer is the plain listing's
    // first line and the plain backtracker's, and a valid placement.
    let mut rng = ChaCha8Rng::seed_from_u64(5252);
    for case in 0..14 {
        let n = if case < 3 {
            case + 1
        } else {
            rng.random_range(4..=24usize)
        };
        let shards = rng.random_range(1..=9u64);
        let depth = rng.random_range(1..=n.min(9)).to_string();
        let extra: &[&str] = if case % 2 == 0 {
            &[]
        } else {
            &["--depth", &depth]
        };
        let records = first_shard_records(n, shards, extra);
        for (i, line) in records.lines().enumerate() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(
                (r["search"].as_str(), r["n"].as_u64()),
                (Some("first"), Some(n as u64))
            );
            assert_eq!(
                (r["shard"].as_u64(), r["shards"].as_u64()),
                (Some(i as u64), Some(shards))
            );
            assert!(
                matches!(r["outcome"].as_str(), Some("found" | "none")),
                "{line}"
            );
        }
        let merged = run(&["nqueens", "merge"], records.as_bytes());
        assert_eq!(
            merged.code, 0,
            "n = {n}, {shards} shards {extra:?}: {}",
            merged.stderr
        );
        let plain = plain_first(n, &[], 1);
        let listed = stdout(&run(
            &["nqueens", "list", &n.to_string(), "--limit", "1"],
            b"",
        ));
        assert_eq!(
            merged.stdout_text(),
            listed,
            "n = {n}, {shards} shards {extra:?}"
        );
        let got = parse_listing(&merged.stdout_text(), n);
        assert!(got.iter().all(|p| non_attacking(p)));
        assert_eq!(got, plain, "n = {n}, {shards} shards {extra:?}");
    }
}

#[test]
fn a_first_placement_merge_without_every_earlier_shard_gives_no_answer() {
    // N = 20 in 4 shards at depth 7: shard 1 finds the first placement at prefix 37, so
    // every other shard must have refuted its prefixes below 37.
    let records = first_shard_records(20, 4, &["--depth", "7"]);
    let lines: Vec<&str> = records.lines().collect();
    let rejected = |input: String, says: &str| {
        let out = run(&["nqueens", "merge"], input.as_bytes());
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert!(out.stdout.is_empty(), "a placement was written");
        assert!(out.stderr.contains(says), "{}", out.stderr);
        assert!(
            out.stderr.contains("no first placement written"),
            "{}",
            out.stderr
        );
    };
    // Shard 0 stopped at once (a time limit of 0): its record says it refuted nothing yet.
    let (code, stopped, err) = first_shard(20, 0, 4, &["--depth", "7", "--time-limit", "0"]);
    assert_eq!(code, 124, "{err}");
    assert!(
        err.contains("time limit") && err.contains("no placement yet"),
        "{err}"
    );
    assert!(stopped.contains("\"outcome\":\"running\""), "{stopped}");
    rejected(
        format!("{stopped}{}\n{}\n{}\n", lines[1], lines[2], lines[3]),
        "unfinished: shard 0 of 4",
    );
    rejected(
        format!("{}\n{}\n{}\n", lines[1], lines[2], lines[3]),
        "missing 1 of 4 shards: 0",
    );
    rejected(
        format!("{}\n{}\n{}\n{}\n", lines[0], lines[1], lines[2], lines[0]),
        "repeated record",
    );
    // A later shard unfinished past the prefix found does not matter... but it must have got
    // past it: the merge of all four is the answer.
    assert_eq!(
        stdout(&run(&["nqueens", "merge"], records.as_bytes())),
        stdout(&run(&["nqueens", "list", "20", "--limit", "1"], b""))
    );
}

#[test]
fn a_stopped_first_placement_shard_resumes_to_the_same_record() {
    let dir = crate::common::scratch("first-resume");
    let file = dir.path().join("shard.json");
    let file = file.to_str().unwrap();
    let args = ["--depth", "14"];
    let (code, straight, err) = first_shard(30, 0, 4, &args);
    assert_eq!(code, 0, "{err}");
    let mut stops = 0;
    let last = loop {
        let limit = format!("{}", 0.02 * f64::from(stops + 1));
        let (code, record, err) = first_shard(
            30,
            0,
            4,
            &["--depth", "14", "--record", file, "--time-limit", &limit],
        );
        let kept = std::fs::read_to_string(file).unwrap();
        assert_eq!(kept, record, "the record file and the output differ");
        if code == 0 {
            break record;
        }
        assert_eq!(code, 124, "{err}");
        assert!(err.contains(file), "{err}");
        stops += 1;
        assert!(stops < 100, "not done after {stops} stops");
    };
    assert!(stops >= 2, "the shard was not stopped: make it longer");
    let without_cpu = |line: &str| {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        v.as_object_mut().unwrap().remove("cpu_seconds");
        v.as_object_mut().unwrap().remove("check");
        v
    };
    assert_eq!(without_cpu(&last), without_cpu(&straight));
    // Run again, it says the same at once.
    let (code, again, _) = first_shard(30, 0, 4, &["--depth", "14", "--record", file]);
    assert_eq!((code, again), (0, last));
}

#[test]
fn bad_first_placement_shards_and_records_are_refused() {
    for bad in ["4/4", "0/0", "a/4", "1/4/5", "-1/4"] {
        let err = fails(&[
            "nqueens",
            "list",
            "12",
            "--limit",
            "1",
            &format!("--shard={bad}"),
        ]);
        assert!(err.contains("--shard"), "{bad}: {err}");
    }
    for (args, says) in [
        (
            &["nqueens", "list", "12", "--shard", "0/2"][..],
            "--limit 1",
        ),
        (
            &["nqueens", "list", "12", "--limit", "2", "--shard", "0/2"][..],
            "--limit 1",
        ),
        (
            &[
                "nqueens", "list", "12", "--limit", "1", "--shard", "0/2", "--fix", "1,1",
            ][..],
            "--fix",
        ),
        (
            &[
                "nqueens", "list", "12", "--limit", "1", "--shard", "0/2", "--depth", "0",
            ][..],
            "--depth",
        ),
        (
            &[
                "nqueens", "list", "12", "--limit", "1", "--shard", "0/2", "--depth", "13",
            ][..],
            "--depth",
        ),
        (
            &["nqueens", "list", "12", "--limit", "1", "--depth", "3"][..],
            "--shard",
        ),
    ] {
        let err = fails(args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // Record files that are not this shard's intact record: located, exit 2.
    let dir = crate::common::scratch("first-records");
    let (_, good, _) = first_shard(12, 1, 3, &["--depth", "3"]);
    let tampered = good.replace("\"nodes\":", "\"nodes\":1");
    for (name, text, says) in [
        (
            "garbage.json",
            "not a record\n".to_string(),
            "garbage.json:1:",
        ),
        ("two.json", format!("{good}{good}"), "two.json:2:"),
        ("tampered.json", tampered, "does not match"),
        (
            "other.json",
            good.clone(),
            "expected the record of shard 1/4",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let shard = if name == "other.json" { "1/4" } else { "1/3" };
        let err = fails(&[
            "nqueens", "list", "12", "--limit", "1", "--shard", shard, "--depth", "3", "--record",
            path,
        ]);
        assert!(
            err.contains(says) && err.contains("--record"),
            "{name}: {err}"
        );
    }
    // A merge input whose later line is not a first-placement record: located.
    let err = fails_with_input(
        &["nqueens", "merge"],
        &format!("{good}{{\"search\":\"first\"}}\n"),
    );
    assert!(err.contains("<stdin>:2:"), "{err}");
}

/// Runs `args` on `input`, expects exit code 2; returns standard error.
fn fails_with_input(args: &[&str], input: &str) -> String {
    let out = run(args, input.as_bytes());
    assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    out.stderr
}

#[test]
fn ctrl_c_stops_a_first_placement_shard_with_its_record() {
    let dir = crate::common::scratch("first-ctrl-c");
    let file = dir.path().join("shard.json");
    let child = command()
        .args([
            "nqueens", "list", "40", "--limit", "1", "--shard", "0/2", "--format", "json",
        ])
        .arg("--record")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let sent = Instant::now();
    let status = Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(sent.elapsed() < Duration::from_secs(3));
    assert!(err.contains("interrupted: shard 0/2"), "{err}");
    let kept = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        kept.as_bytes(),
        out.stdout,
        "the record file and the output differ"
    );
    assert!(kept.contains("\"outcome\":\"running\""), "{kept}");
}
