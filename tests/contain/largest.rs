//! The default tests of `stress` reach the statement's largest inputs: for each puzzle, a
//! program wrong only on them is found within the default 100 runs, and its failure shrunk
//! (to one case that is still as large as the bug needs). And UVa 750's own input layout,
//! written, validated and fed to a solution that reads it as accepted solutions there do.

use crate::common::{BIN, run, temp_file};
use crate::procs::{Mark, have, json};

/// A wrapper around our own answer that spoils it when `test` (an awk program over the input,
/// exiting 0) says the input is one of the largest.
fn wrong_when(test: &str, spoil: &str, command: &str) -> String {
    format!(
        "f=$(mktemp); cat > \"$f\"; if awk '{test}' \"$f\"; then \"$CP\" {command} < \"$f\" | {spoil}; \
         else \"$CP\" {command} < \"$f\"; fi; rm -f \"$f\""
    )
}

/// `stress` with the defaults on `script`: its JSON report.
fn stress_defaults(puzzle: &[&str], script: &str) -> serde_json::Value {
    let mut args = puzzle.to_vec();
    args.extend(["stress", "--format", "json", "--", "sh", "-c", script]);
    let (got, took) = Mark::new("largest").run(&args);
    eprintln!("{puzzle:?}: {took:?}");
    assert_eq!(
        got.code,
        1,
        "{puzzle:?}: {}{}",
        got.stdout_text(),
        got.stderr
    );
    let r = json(&got);
    assert!(r["run"].as_u64().unwrap() <= 100, "{r}");
    r
}

#[test]
fn tour_wrong_only_with_14_knights_is_found_and_shrunk() {
    let test = "/^[.QBNP]+$/ { n += gsub(/N/, \"N\") } /^$/ { if (n >= 14) bad = 1; n = 0 } \
        END { if (n >= 14) bad = 1; exit !bad }";
    let script = wrong_when(test, "sed 's/^impossible$/a1/; 2s/^[a-h]/a/'", "tour");
    let r = stress_defaults(&["tour"], &script);
    assert_eq!(r["verdict"], "WA", "{r}");
    assert_eq!(r["shrunk_cases"], 1, "{r}");
    let input = r["input"].as_str().unwrap();
    assert_eq!(input.matches('N').count(), 14, "{input}");
}

#[test]
fn showdown_wrong_only_on_25x25_boards_is_found_and_shrunk() {
    let script = wrong_when(
        "$0 == \"25\" { bad = 1 } END { exit !bad }",
        "sed '1s/.*/0 0/'",
        "showdown --greedy",
    );
    let r = stress_defaults(&["showdown"], &script);
    assert_eq!(r["verdict"], "WA", "{r}");
    assert_eq!(r["shrunk_cases"], 1, "{r}");
    let input = r["input"].as_str().unwrap();
    assert_eq!(input.lines().nth(1), Some("25"), "{input}");
    assert!(
        r["shrunk_bytes"].as_u64() < r["original_bytes"].as_u64(),
        "{r}"
    );
}

#[test]
fn nqueens_best_wrong_only_on_sides_above_32_is_found_and_shrunk() {
    // Sides are the lines after a board's rows; a board's rows are skipped.
    let test = "NR == 1 { next } skip > 0 { skip--; next } { if ($1 > 32) bad = 1; skip = $1 } \
        END { exit !bad }";
    let script = wrong_when(test, "sed 's/$/0/'", "nqueens best");
    let r = stress_defaults(&["nqueens", "best"], &script);
    assert_eq!(r["verdict"], "WA", "{r}");
    assert_eq!(r["shrunk_cases"], 1, "{r}");
    let input = r["input"].as_str().unwrap();
    // Shrunk to the smallest side that still fails.
    assert_eq!(
        input.lines().nth(1),
        Some("33"),
        "{}",
        &input[..input.len().min(200)]
    );
}

#[test]
fn sultan_wrong_only_at_the_top_weight_is_found_and_shrunk() {
    if !have("python3") {
        return;
    }
    // Right, except that a best sum of 8 x 99 is answered 791.
    let program = temp_file(
        "sultan_792.py",
        "import sys\nfrom itertools import permutations\n\
         P = [p for p in permutations(range(8)) if all(abs(p[i] - p[j]) != j - i for i in range(8) for j in range(i + 1, 8))]\n\
         w = sys.stdin.read().split()\n\
         for b in range(int(w[0])):\n\
         \x20   g = [int(x) for x in w[1 + 64 * b: 65 + 64 * b]]\n\
         \x20   best = max(sum(g[8 * r + p[r]] for r in range(8)) for p in P)\n\
         \x20   print('%5d' % min(best, 791))\n",
    );
    let (got, _) = Mark::new("sultan-top").run(&[
        "sultan",
        "stress",
        "--format",
        "json",
        "--",
        "python3",
        program.to_str().unwrap(),
    ]);
    assert_eq!(got.code, 1, "{}{}", got.stdout_text(), got.stderr);
    let r = json(&got);
    assert_eq!(r["verdict"], "WA", "{r}");
    assert!(r["run"].as_u64().unwrap() <= 100);
    assert_eq!(r["shrunk_cases"], 1, "{r}");
    assert_eq!(r["expected"], "  792\n");
}

#[test]
fn uva_layout_is_written_validated_and_fed() {
    let got = run(
        &["queens", "gen", "--uva", "--cases", "3", "--seed", "1"],
        b"",
    );
    assert_eq!(got.code, 0);
    let input = got.stdout_text();
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(lines.len(), 7, "{input}");
    assert_eq!((lines[0], lines[1], lines[3], lines[5]), ("3", "", "", ""));
    // The same queries as without --uva.
    let plain = run(&["queens", "gen", "--cases", "3", "--seed", "1"], b"").stdout_text();
    assert_eq!(input.replace("\n\n", "\n"), plain);
    let valid = run(&["queens", "validate", "--uva"], input.as_bytes());
    assert_eq!(
        (valid.code, valid.stdout_text().as_str()),
        (0, "valid: 3 cases\n")
    );
    // The statement's layout is not UVa's, and UVa's is not the statement's.
    let got = run(&["queens", "validate", "--uva"], plain.as_bytes());
    assert_eq!(got.code, 1);
    assert!(
        got.stdout_text()
            .starts_with("invalid: <stdin>:2:1: expected an empty line before case 1 of 3"),
        "{}",
        got.stdout_text()
    );
    assert_eq!(run(&["queens", "validate"], input.as_bytes()).code, 1);
    // Empty lines only where UVa puts them: not two, not one after the last case.
    for bad in ["3\n\n\n4 5\n\n1 1\n\n2 2\n", "1\n\n4 5\n\n", "1\n4 5\n\n"] {
        let got = run(&["queens", "validate", "--uva"], bad.as_bytes());
        assert_eq!(got.code, 1, "{bad:?}: {}", got.stdout_text());
    }
}

#[test]
fn a_uva_style_solution_passes_with_uva_and_fails_without() {
    if !have("python3") {
        return;
    }
    let program = format!(
        "{}/tests/data/solutions/queens_uva.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (got, _) = Mark::new("uva").run(&["queens", "stress", "--uva", "--", "python3", &program]);
    assert_eq!(got.code, 0, "{}{}", got.stdout_text(), got.stderr);
    assert_eq!(got.stdout_text(), "accepted: 100 runs (seeds 0..99)\n");
    // Fed the statement's layout, it reads a query where it expects an empty line.
    let (got, _) = Mark::new("uva").run(&[
        "queens", "stress", "--format", "json", "--", "python3", &program,
    ]);
    let r = json(&got);
    assert_eq!(r["verdict"], "RE", "{r}");
    assert!(
        r["reason"].as_str().unwrap().contains("AssertionError"),
        "{r}"
    );
    // judge on a folder in UVa's layout.
    let dir = crate::common::scratch("uva");
    for seed in ["1", "2"] {
        let input = run(
            &["queens", "gen", "--uva", "--cases", "4", "--seed", seed],
            b"",
        )
        .stdout;
        std::fs::write(dir.path().join(format!("{seed}.in")), input).unwrap();
    }
    let (got, _) = Mark::new("uva").run(&[
        "queens",
        "judge",
        "--uva",
        dir.path().to_str().unwrap(),
        "--",
        "python3",
        &program,
    ]);
    assert_eq!(got.code, 0, "{}", got.stdout_text());
    assert!(got.stdout_text().ends_with("accepted: 2 of 2 tests\n"));
    let _ = BIN;
}
