//! The judge kit's promises about bad input and adversarial output, through the real binary:
//! validators report the first wrong byte with what was expected there; checkers swallow no
//! error, compare in bounded memory, and judge lines and tokens of any length.

use crate::common::{BIN, command, run, scratch};
use crate::inputs::{assert_input_error, validate};

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

/// The three exact puzzles with their sample input and output.
fn samples() -> Vec<(&'static str, String, String)> {
    ["queens", "sultan", "tour"]
        .into_iter()
        .map(|p| {
            let read = |ext: &str| {
                std::fs::read_to_string(format!("tests/data/{p}/sample.{ext}")).unwrap()
            };
            (p, read("in"), read("out"))
        })
        .collect()
}

const TOLERANCES: [&str; 3] = ["exact", "lines", "tokens"];

fn check(
    puzzle: &str,
    input: &std::path::Path,
    output: &[u8],
    tolerance: &str,
) -> (i32, String, String) {
    let got = run(
        &[
            puzzle,
            "check",
            input.to_str().unwrap(),
            "-",
            "--tolerance",
            tolerance,
        ],
        output,
    );
    assert!(!got.stderr.contains("panicked"), "{}", got.stderr);
    (got.code, got.stdout_text(), got.stderr)
}

#[test]
fn nothing_after_the_last_answer_is_swallowed() {
    let tmp = scratch("judge-strict-after-last");
    let dir = tmp.path();
    for (puzzle, input, output) in samples() {
        let path = dir.join(format!("{puzzle}.in"));
        std::fs::write(&path, &input).unwrap();
        let lines = output.lines().count();
        for tolerance in TOLERANCES {
            assert_eq!(
                check(puzzle, &path, output.as_bytes(), tolerance).0,
                0,
                "{puzzle} {tolerance}"
            );
            // A right answer followed by a token longer than any input token, by one word, by
            // a line of two mebibytes: each a wrong answer, located after the right lines.
            for extra in ["x".repeat(70_000), "1".to_string(), "y".repeat(2 << 20)] {
                let text = format!("{output}{extra}\n");
                let (code, out, _) = check(puzzle, &path, text.as_bytes(), tolerance);
                assert_eq!(code, 1, "{puzzle} {tolerance} {}: {out}", extra.len());
                let at = lines + 1;
                assert!(
                    out.starts_with(&format!("wrong answer: <stdin>:{at}:1: expected ")),
                    "{puzzle} {tolerance}: {out}"
                );
                assert!(out.contains("end of output, found '"), "{out}");
            }
        }
        // A token too long after the last case of the INPUT cannot be judged: exit 2, even
        // when the output is wrong from its first line.
        let bad_input = dir.join(format!("{puzzle}-bad.in"));
        std::fs::write(&bad_input, format!("{input}{}\n", "z".repeat(70_000))).unwrap();
        for output in [output.as_bytes(), b"nonsense\n"] {
            for tolerance in TOLERANCES {
                let (code, _, err) = check(puzzle, &bad_input, output, tolerance);
                assert_eq!(code, 2, "{puzzle} {tolerance}: {err}");
                assert!(
                    err.contains("expected a token of at most 65536 bytes"),
                    "{err}"
                );
            }
        }
        // So is a wrong count, found only at the end of the input.
        let short_input = dir.join(format!("{puzzle}-short.in"));
        let (count, rest) = input.split_once('\n').unwrap();
        let more: u64 = count.trim().parse::<u64>().unwrap() + 1;
        std::fs::write(&short_input, format!("{more}\n{rest}")).unwrap();
        for tolerance in TOLERANCES {
            let (code, _, err) = check(puzzle, &short_input, b"nonsense\n", tolerance);
            assert_eq!(code, 2, "{puzzle} {tolerance}: {err}");
            assert!(err.contains("found end of input"), "{err}");
        }
        // A validator refuses a line over 1 MiB after the last case.
        let (code, out) = validate(
            puzzle,
            format!("{input}{}\n", "1".repeat(2 << 20)).as_bytes(),
        );
        assert_eq!(code, 1, "{puzzle}: {out}");
        assert!(out.starts_with("invalid: <stdin>:"), "{out}");
    }
}

#[test]
fn long_lines_and_tokens_are_judged_not_refused() {
    let tmp = scratch("judge-strict-long");
    let dir = tmp.path();
    for (puzzle, input, output) in samples() {
        let path = dir.join(format!("{puzzle}.in"));
        std::fs::write(&path, &input).unwrap();
        // Under `tokens` a line break means nothing: the whole answer on one line, its words
        // two mebibytes of spaces apart, is right.
        let spread = output
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(&" ".repeat(2 << 20));
        assert_eq!(
            check(puzzle, &path, spread.as_bytes(), "tokens").0,
            0,
            "{puzzle}"
        );
        assert_eq!(
            check(puzzle, &path, spread.as_bytes(), "lines").0,
            1,
            "{puzzle}"
        );
        // Under `lines`, blanks at the end of a line are forgiven however many there are.
        let padded = output.replace('\n', &format!("{}\n", " ".repeat(1 << 20)));
        assert_eq!(
            check(puzzle, &path, padded.as_bytes(), "lines").0,
            0,
            "{puzzle}"
        );
        assert_eq!(
            check(puzzle, &path, padded.as_bytes(), "exact").0,
            1,
            "{puzzle}"
        );
        // A first line of two mebibytes is wrong, and shown cut short.
        let long = format!("{}\n{output}", "w".repeat(2 << 20));
        for tolerance in TOLERANCES {
            let (code, out, _) = check(puzzle, &path, long.as_bytes(), tolerance);
            assert_eq!(code, 1, "{puzzle} {tolerance}");
            assert!(
                out.starts_with("wrong answer: <stdin>:1:1: expected "),
                "{out}"
            );
            assert!(
                out.len() < 400,
                "{puzzle} {tolerance}: the message is short"
            );
        }
    }
}

#[test]
fn wrong_answers_are_located_at_the_first_differing_byte() {
    let tmp = scratch("judge-strict-located");
    let dir = tmp.path();
    let path = dir.join("out.txt");
    let right = std::fs::read_to_string("tests/data/queens/sample.out").unwrap();
    std::fs::write(
        &path,
        right.replace(" 3      1 7 4 6 8 2 5 3", " 3      1 7 4 6 8 5 2 3"),
    )
    .unwrap();
    let got = run(
        &[
            "queens",
            "check",
            "tests/data/queens/sample.in",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(got.code, 1);
    let out = got.stdout_text();
    assert_eq!(
        out,
        format!(
            "wrong answer: {}:5:19: expected ' 3      1 7 4 6 8 2 5 3', found ' 3      1 7 4 6 8 5 2 3'\n",
            path.display()
        )
    );
    // Under `tokens`, the token's own place.
    let got = run(
        &[
            "queens",
            "check",
            "tests/data/queens/sample.in",
            path.to_str().unwrap(),
            "--tolerance",
            "tokens",
        ],
        b"",
    );
    assert!(
        got.stdout_text()
            .ends_with(":5:19: expected '2', found '5'\n"),
        "{}",
        got.stdout_text()
    );
}

#[test]
fn check_compares_case_by_case_in_bounded_memory() {
    // 200,000 queries (800 KB) whose right answer is 64 MB: the checker gets 48 MiB of
    // address space in all, less than that answer alone, and still judges it.
    let tmp = scratch("judge-strict-memory");
    let dir = tmp.path();
    let input = dir.join("large.in");
    let generated = run(&["queens", "gen", "--kind", "large"], b"");
    std::fs::write(&input, &generated.stdout).unwrap();
    let script = format!(
        "'{BIN}' queens '{input}' | (ulimit -v 49152 && exec '{BIN}' queens check '{input}' -)",
        input = input.display()
    );
    let got = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&got.stdout);
    assert_eq!(
        got.status.code(),
        Some(0),
        "{out} {}",
        String::from_utf8_lossy(&got.stderr)
    );
    assert!(out.starts_with("accepted: "), "{out}");
    // The limit is real: a program that needs 128 MiB fails under it.
    let control = "ulimit -v 49152 && exec awk 'BEGIN { s = \"x\"; for (i = 0; i < 27; i++) s = s s; print length(s) }'";
    let got = std::process::Command::new("sh")
        .args(["-c", control])
        .output()
        .unwrap();
    assert!(
        !got.status.success(),
        "{}",
        String::from_utf8_lossy(&got.stdout)
    );
}

#[test]
fn tokens_up_to_the_limit_and_zero_padded_counts_are_read() {
    let first = " 1      1 5 8 6 3 7 2 4\n";
    // A row of exactly 65,536 bytes (zeros before the 1) is read; one byte more is refused.
    let padded = |len: usize| format!("1\n{}1 1\n", "0".repeat(len - 1));
    let got = run(&["queens"], padded(65_536).as_bytes());
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert!(got.stdout_text().contains(first));
    let got = run(&["queens"], padded(65_537).as_bytes());
    let message = assert_input_error(&got, "<stdin>");
    assert!(
        message.starts_with("expected a token of at most 65536 bytes"),
        "{message}"
    );
    // A count written with many leading zeros is the number it says.
    let got = run(&["queens"], b"0000000000000000000001\n1 1\n");
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert!(got.stdout_text().contains(first));
    let got = run(
        &["sultan"],
        format!("{}1\n{}", "0".repeat(40), "1 ".repeat(64)).as_bytes(),
    );
    assert_eq!((got.code, got.stdout_text().as_str()), (0, "    8\n"));
}

#[test]
fn answers_read_from_a_fifo_are_written_before_more_input_arrives() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;

    let tmp = scratch("judge-strict-fifo");
    let dir = tmp.path();
    let fifo = dir.join("queries");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let mut child = command()
        .args(["queens", fifo.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, received) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writer.write_all(b"2\n1 1\n").unwrap();
    writer.flush().unwrap();
    // The first case's answer arrives while the FIFO is still open and the second is unsent.
    let mut first = Vec::new();
    while first.len() < 6 {
        let line = received
            .recv_timeout(Duration::from_secs(20))
            .expect("the first answer is written before the input ends");
        first.push(line);
    }
    assert_eq!(first[5], " 4      1 7 5 8 2 4 6 3");
    writer.write_all(b"2 1\n").unwrap();
    drop(writer);
    let status = child.wait().unwrap();
    assert!(status.success());
    reader.join().unwrap();
    let rest: Vec<String> = received.try_iter().collect();
    assert_eq!(rest[0], "");
    assert_eq!(rest[1], "SOLN       COLUMN");
}
