//! End-to-end tests of `chess-puzzles showdown` and `chess-puzzles showdown check`.

use chess_puzzles::showdown::judge::{Rejection, Verdict, check};

use crate::common::{run, temp_file};
use crate::{SAMPLE_IN, SAMPLE_OUT};

#[test]
fn the_sample_is_answered_validly_for_at_most_4() {
    let out = run(&["showdown", "--time-limit", "1"], SAMPLE_IN.as_bytes());
    assert!(out.code == 0);
    let text = String::from_utf8(out.stdout).unwrap();
    let report = check(SAMPLE_IN.as_bytes(), text.as_bytes(), |_, _| {}).unwrap();
    assert_eq!(report.verdict, Verdict::Accepted, "{text}");
    let cost: u64 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(cost <= 4, "{text}");
}

#[test]
fn the_statements_own_answer_scores_0_16() {
    let input = temp_file("sample.in", SAMPLE_IN);
    let output = temp_file("sample.out", SAMPLE_OUT);
    let out = run(
        &[
            "showdown",
            "check",
            input.to_str().unwrap(),
            output.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "test 1: 0.160000\ntotal: 0.160000\n"
    );
}

#[test]
fn check_exit_codes() {
    let input = temp_file("codes.in", SAMPLE_IN);
    let wrong = temp_file("wrong.out", "3 4\n2 1 1\n7 3 3\n4 5 4\n");
    let malformed = temp_file("malformed.out", "3 four\n");
    let bad_input = temp_file("bad.in", "1\n5\n___##\n");
    let code = |i: &std::path::Path, o: &std::path::Path| {
        let out = run(
            &[
                "showdown",
                "check",
                i.to_str().unwrap(),
                o.to_str().unwrap(),
            ],
            b"",
        );
        let stderr = out.stderr.clone();
        assert!(!stderr.contains("panicked"), "{stderr}");
        (out.code, out.stdout_text(), stderr)
    };
    let (c, stdout, _) = code(&input, &wrong);
    assert_eq!(c, 1);
    assert!(stdout.contains("test 1: wrong answer"), "{stdout}");
    let (c, stdout, _) = code(&input, &malformed);
    assert_eq!(c, 1);
    assert!(stdout.contains("1:3"), "{stdout}");
    let (c, _, stderr) = code(&bad_input, &wrong);
    assert_eq!(c, 2);
    assert!(stderr.contains("bad.in:4:1"), "{stderr}");
}

#[test]
fn bad_inputs_exit_2_with_a_location() {
    let cases = [
        (
            "1\n3\n#__\n__\n___\n1 1 1 1 1 1 1 1\n",
            "4:3",
            "row 2 of exactly 3",
        ),
        (
            "1\n3\n#__\n_x_\n___\n1 1 1 1 1 1 1 1\n",
            "4:2",
            "'#' (king) or '_'",
        ),
        ("1\n3\n#__\n___\n___\n1 1 1 1 1 1 1\n", "7:1", "cost 8 of 8"),
        (
            "1\n3\n#__\n___\n___\n1 1 1 1 1 1 1 0\n",
            "6:15",
            "cost 8 of 8",
        ),
        (
            "1\n3\n#__\n___\n___\n1 1 1 1 1 1 1 1000001\n",
            "6:15",
            "cost 8 of 8",
        ),
        ("3\n2\n#_\n__\n1 1 1 1 1 1 1 1\n", "6:1", "test 2 of 3"),
        ("1\n2\n##\n##\n1 1 1 1 1 1 1 1\n", "3:1", "(1,1)"),
        ("1\n300\n", "2:1", "a board side"),
    ];
    for (input, place, words) in cases {
        let out = run(&["showdown", "--time-limit", "0.1"], input.as_bytes());
        let stderr = out.stderr;
        assert_eq!(out.code, 2, "{input:?}: {stderr}");
        assert!(
            stderr.contains(&format!("<stdin>:{place}:")),
            "{input:?}: {stderr}"
        );
        assert!(stderr.contains(words), "{input:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn board_and_json_formats() {
    let out = run(
        &["showdown", "--format", "board", "--time-limit", "1"],
        SAMPLE_IN.as_bytes(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Test 1: 5x5, 10 kings;"), "{text}");
    assert_eq!(text.matches('♚').count(), 11, "{text}"); // ten kings and the legend
    assert!(text.contains("2 for F phoenix"), "{text}");
    let out = run(
        &["showdown", "--format", "json", "--time-limit", "1"],
        SAMPLE_IN.as_bytes(),
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["case"], 1);
    assert_eq!(value["side"], 5);
    assert!(value["cost"].as_u64().unwrap() <= 4);
    assert!(value["lower_bound"].as_u64().unwrap() <= value["cost"].as_u64().unwrap());
}

#[test]
fn demo_includes_the_showdown_sample() {
    let out = run(&["demo"], b"");
    assert!(out.code == 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("== Chess Variants Showdown (SPOJ CHE): "),
        "{text}"
    );
}

// ---- The judge against hand-made answers, one piece and one rule at a time. ----

/// Judges `answer` for a one-test input made of `rows` and prices all 1.
fn judge(rows: &[&str], answer: &str) -> Verdict {
    let input = format!("1\n{}\n{}\n1 1 1 1 1 1 1 1\n", rows.len(), rows.join("\n"));
    check(input.as_bytes(), answer.as_bytes(), |_, _| {})
        .unwrap()
        .verdict
}

fn accepted(rows: &[&str], answer: &str) {
    assert_eq!(
        judge(rows, answer),
        Verdict::Accepted,
        "{rows:?} {answer:?}"
    );
}

fn not_in_check(rows: &[&str], answer: &str, row: u8, col: u8) {
    match judge(rows, answer) {
        Verdict::Wrong {
            reason: Rejection::NotInCheck(sq),
            ..
        } => assert_eq!((sq.row + 1, sq.col + 1), (row, col), "{rows:?} {answer:?}"),
        other => panic!("{rows:?} {answer:?}: {other:?}"),
    }
}

#[test]
fn bishop_checks_diagonally_and_is_blocked() {
    let rows = ["#____", "_____", "_____", "_____", "_____"];
    accepted(&rows, "1 1\n1 4 4\n");
    not_in_check(&rows, "1 1\n1 4 1\n", 1, 1);
    // A piece of ours between blocks it.
    not_in_check(&rows, "2 2\n1 4 4\n3 2 2\n", 1, 1);
    // It stops at the first king.
    not_in_check(
        &["#____", "_#___", "_____", "_____", "_____"],
        "1 1\n1 4 4\n",
        1,
        1,
    );
}

#[test]
fn rook_checks_orthogonally_and_is_blocked() {
    let rows = ["#____", "_____", "_____", "_____", "_____"];
    accepted(&rows, "1 1\n2 1 5\n");
    accepted(&rows, "1 1\n2 5 1\n");
    not_in_check(&rows, "1 1\n2 5 5\n", 1, 1);
    not_in_check(&rows, "2 2\n2 1 5\n3 1 3\n", 1, 1);
}

#[test]
fn knight_leaps_over_everything() {
    // The knight on (3,2) jumps over the kings on row 2 onto (1,1); a horse checks those two.
    let rows = ["#____", "##___", "_____", "_____", "_____"];
    accepted(&rows, "2 2\n3 3 2\n6 3 1\n");
    accepted(
        &["#____", "_____", "_____", "_____", "_____"],
        "1 1\n3 3 2\n",
    );
    not_in_check(
        &["#____", "_____", "_____", "_____", "_____"],
        "1 1\n3 3 3\n",
        1,
        1,
    );
}

#[test]
fn gold_general_faces_up() {
    // King above-left of the general: a forward diagonal, checked.
    accepted(&["#__", "___", "___"], "1 1\n4 2 2\n");
    // King below-left: a backward diagonal, not checked.
    not_in_check(&["___", "___", "#__"], "1 1\n4 2 2\n", 3, 1);
    // Straight back and sideways: checked.
    accepted(&["___", "___", "_#_"], "1 1\n4 2 2\n");
    accepted(&["___", "#__", "___"], "1 1\n4 2 2\n");
}

#[test]
fn silver_general_faces_up() {
    accepted(&["#__", "___", "___"], "1 1\n5 2 2\n");
    accepted(&["___", "___", "#__"], "1 1\n5 2 2\n");
    accepted(&["_#_", "___", "___"], "1 1\n5 2 2\n");
    not_in_check(&["___", "#__", "___"], "1 1\n5 2 2\n", 2, 1);
    not_in_check(&["___", "___", "_#_"], "1 1\n5 2 2\n", 3, 2);
}

#[test]
fn horse_is_a_bishop_with_orthogonal_steps() {
    let far = ["#____", "_____", "_____", "_____", "_____"];
    accepted(&far, "1 1\n6 5 5\n");
    accepted(&far, "1 1\n6 1 2\n");
    // Two squares orthogonally: no.
    not_in_check(&far, "1 1\n6 1 3\n", 1, 1);
    // Like a rook? No.
    not_in_check(&far, "1 1\n6 1 5\n", 1, 1);
}

#[test]
fn phoenix_steps_orthogonally_and_jumps_two_diagonally() {
    let rows = ["#____", "_____", "_____", "_____", "_____"];
    // The jump passes over our knight on (2,2).
    accepted(&rows, "2 2\n7 3 3\n3 2 2\n");
    accepted(&rows, "1 1\n7 2 1\n");
    not_in_check(&rows, "1 1\n7 2 2\n", 1, 1);
    not_in_check(&rows, "1 1\n7 4 4\n", 1, 1);
}

#[test]
fn cannon_needs_exactly_one_screen() {
    let rows = ["#____", "_____", "_____", "_____", "_____"];
    // No screen: no check.
    not_in_check(&rows, "1 1\n8 1 4\n", 1, 1);
    // A screen of ours: check.
    accepted(&rows, "2 2\n8 1 4\n2 1 2\n");
    // Two screens: no check (nor do the two knights check it).
    not_in_check(&rows, "3 3\n8 1 5\n3 1 3\n3 1 4\n", 1, 1);
    // A king as the screen; a silver general checks that king.
    accepted(
        &["#____", "#____", "_____", "_____", "_____"],
        "2 2\n8 5 1\n5 3 2\n",
    );
}

#[test]
fn adding_a_piece_can_remove_a_check() {
    // Rook on (1,3) checks (1,1); a knight placed between blocks it.
    let rows = ["#____", "_____", "_____", "_____", "_____"];
    accepted(&rows, "1 1\n2 1 3\n");
    not_in_check(&rows, "2 2\n2 1 3\n3 1 2\n", 1, 1);
}

#[test]
fn format_rules_are_enforced() {
    let rows = ["#_", "__"];
    let reason = |answer: &str| match judge(&rows, answer) {
        Verdict::Wrong { case: 1, reason } => reason,
        other => panic!("{answer:?}: {other:?}"),
    };
    assert!(matches!(
        reason("1 1\n9 2 1\n"),
        Rejection::BadPieceType { found: 9, .. }
    ));
    assert!(matches!(
        reason("1 1\n0 2 1\n"),
        Rejection::BadPieceType { found: 0, .. }
    ));
    assert!(matches!(reason("1 1\n2 3 1\n"), Rejection::OffBoard { .. }));
    assert!(matches!(reason("1 1\n2 0 1\n"), Rejection::OffBoard { .. }));
    assert!(matches!(reason("1 1\n2 1 1\n"), Rejection::OnKing { .. }));
    assert!(matches!(
        reason("2 2\n2 2 1\n3 2 1\n"),
        Rejection::Repeated(_)
    ));
    assert!(matches!(
        reason("0 0\n"),
        Rejection::BadCount { found: 0, .. }
    ));
    assert!(matches!(
        reason("5 5\n"),
        Rejection::BadCount { found: 5, .. }
    ));
    assert!(matches!(
        reason("1 2\n2 2 1\n"),
        Rejection::WrongCost {
            stated: 2,
            actual: 1
        }
    ));
    assert!(matches!(
        reason("2 2\n2 2 1\n"),
        Rejection::Truncated { .. }
    ));
    assert!(matches!(
        reason("1 1\n2 2 1\n6 2 2\n"),
        Rejection::Trailing { .. }
    ));
    assert!(matches!(
        reason("1 1\n2 2 x\n"),
        Rejection::Malformed { .. }
    ));
    assert!(matches!(reason("1 -1\n"), Rejection::Malformed { .. }));
    assert!(matches!(reason(""), Rejection::Truncated { .. }));
    assert_eq!(judge(&rows, "1 1\n2 2 1\n"), Verdict::Accepted);
}

#[test]
fn every_test_is_judged_and_scored() {
    let input = "2\n2\n#_\n__\n1 1 1 1 1 1 1 1\n3\n___\n_#_\n___\n5 5 5 5 5 5 5 5\n";
    let mut seen = Vec::new();
    let report = check(
        input.as_bytes(),
        "1 1\n2 2 1\n1 5\n6 1 2\n".as_bytes(),
        |case, score| seen.push((case, score)),
    )
    .unwrap();
    assert_eq!(report.verdict, Verdict::Accepted);
    assert_eq!(seen, [(1, 0.25), (2, 5.0 / 9.0)]);
    // The second answer is wrong: the first is still scored.
    let report = check(
        input.as_bytes(),
        "1 1\n2 2 1\n1 5\n3 1 2\n".as_bytes(),
        |_, _| {},
    )
    .unwrap();
    assert!(matches!(report.verdict, Verdict::Wrong { case: 2, .. }));
    assert_eq!(report.scores, [0.25]);
}
