//! `--trace` through the binary: every line of a trace replayed on a board kept by the test
//! (a queen placed only where none attacks, a conflict named with exactly the queens that
//! attack the square, a removal of a queen that is there, a placement of every column), its
//! placements the command's own answers, its limits kept; the tour's layers and path checked
//! against the board; showdown's steps replayed on a board of the test's own to the
//! command line's answers.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common::run;

fn lines(args: &[&str], input: &str) -> Vec<Value> {
    let r = run(args, input.as_bytes());
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout_text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn square(v: &Value) -> (i64, i64) {
    (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
}

fn attacks(a: (i64, i64), b: (i64, i64)) -> bool {
    a != b && (a.0 == b.0 || a.1 == b.1 || (a.0 - b.0).abs() == (a.1 - b.1).abs())
}

/// Replays the lines of one search (from its `start` to its `end`): every step checked on a
/// board of the test's own; returns the placements and the number of steps.
fn replay(lines: &[Value]) -> (Vec<Vec<i64>>, u64) {
    let start = &lines[0];
    assert_eq!(start["event"], "start");
    let n = start["n"].as_i64().unwrap();
    let given: Vec<(i64, i64)> = start["given"]
        .as_array()
        .unwrap()
        .iter()
        .map(square)
        .collect();
    let mut queens = given.clone();
    let mut found = Vec::new();
    let mut steps = 0;
    for line in &lines[1..lines.len() - 1] {
        steps += 1;
        assert_eq!(line["step"].as_u64(), Some(steps), "{line}");
        match line["event"].as_str().unwrap() {
            "place" => {
                let s = square(&line["square"]);
                assert!(queens.iter().all(|&q| !attacks(q, s) && q != s), "{line}");
                queens.push(s);
            }
            "attacked" => {
                let s = square(&line["square"]);
                let mut expected: Vec<(i64, i64)> =
                    queens.iter().copied().filter(|&q| attacks(q, s)).collect();
                expected.sort_by_key(|&(r, c)| (c, r));
                let by: Vec<(i64, i64)> =
                    line["by"].as_array().unwrap().iter().map(square).collect();
                assert!(!by.is_empty());
                assert_eq!(by, expected, "{line}");
            }
            "remove" => {
                let s = square(&line["square"]);
                assert!(!given.contains(&s));
                let i = queens
                    .iter()
                    .position(|&q| q == s)
                    .expect("a queen to remove");
                queens.remove(i);
            }
            "solution" => {
                let rows: Vec<i64> = serde_json::from_value(line["rows"].clone()).unwrap();
                assert_eq!(rows.len() as i64, n);
                assert_eq!(queens.len() as i64, n);
                for &(r, c) in &queens {
                    assert_eq!(rows[(c - 1) as usize], r);
                }
                found.push(rows);
                assert_eq!(line["index"].as_u64(), Some(found.len() as u64));
            }
            other => panic!("unknown event {other}"),
        }
        let s = line.get("square").map(square);
        if let Some((r, c)) = s {
            assert!((1..=n).contains(&r) && (1..=n).contains(&c));
        }
    }
    let end = lines.last().unwrap();
    assert_eq!(end["event"], "end");
    assert_eq!(end["steps"].as_u64(), Some(steps));
    assert_eq!(end["solutions"].as_u64(), Some(found.len() as u64));
    (found, steps)
}

#[test]
fn nqueens_traces_replay_to_the_listing_on_random_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for round in 0..24 {
        let n = rng.random_range(1..=9u32);
        let mut args = vec!["nqueens".to_string(), "list".to_string(), n.to_string()];
        // Up to two given queens that do not attack each other.
        let mut given: Vec<(u32, u32)> = Vec::new();
        for _ in 0..rng.random_range(0..=2) {
            let q = (rng.random_range(1..=n), rng.random_range(1..=n));
            let clash = given
                .iter()
                .any(|&g| attacks((g.0 as i64, g.1 as i64), (q.0 as i64, q.1 as i64)) || g == q);
            if !clash {
                given.push(q);
                args.push("--fix".to_string());
                args.push(format!("{},{}", q.0, q.1));
            }
        }
        let listed = run(&args.iter().map(String::as_str).collect::<Vec<_>>(), b"");
        assert_eq!(listed.code, 0);
        let expected: Vec<Vec<i64>> = listed
            .stdout_text()
            .lines()
            .map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect())
            .collect();
        args.push("--trace".to_string());
        let traced = lines(&args.iter().map(String::as_str).collect::<Vec<_>>(), "");
        let (found, _) = replay(&traced);
        assert_eq!(found, expected, "round {round}: {args:?}");
        let end = traced.last().unwrap();
        assert_eq!(end["complete"], true);
        assert_eq!(end["stopped_by"], Value::Null);
    }
}

#[test]
fn the_first_eight_queens_placement_is_982_steps_away_and_limits_cut_a_trace() {
    let traced = lines(&["nqueens", "list", "8", "--trace", "--limit", "1"], "");
    let (found, steps) = replay(&traced);
    assert_eq!(found, vec![vec![1, 5, 8, 6, 3, 7, 2, 4]]);
    assert_eq!(steps, 982);
    assert_eq!(traced.last().unwrap()["stopped_by"], "solutions");
    // The whole 8-queens search: 17,868 steps, every one of the 92 placements.
    let whole = lines(&["nqueens", "list", "8", "--trace"], "");
    let (found, steps) = replay(&whole);
    assert_eq!((found.len(), steps), (92, 17_868));
    // The step limit cuts it, and says so.
    let cut = lines(
        &["nqueens", "list", "8", "--trace", "--trace-steps", "500"],
        "",
    );
    let (found, steps) = replay(&cut);
    assert_eq!((found.len(), steps), (0, 500));
    let end = cut.last().unwrap();
    assert_eq!(
        (end["complete"].clone(), end["stopped_by"].clone()),
        (false.into(), "steps".into())
    );
    // A large board: bounded by the default limit.
    let big = run(&["nqueens", "list", "40", "--trace"], b"");
    assert_eq!(big.code, 0);
    assert_eq!(big.stdout_text().lines().count(), 100_000 + 2);
}

#[test]
fn queens_and_sultan_traces_find_the_judges_answers() {
    let input = "3\n1 1\n5 4\n8 8\n";
    let traced = lines(&["queens", "--trace"], input);
    let answers = lines(&["queens", "--format", "json"], input);
    for (case, answer) in answers.iter().enumerate() {
        let case = case as u64 + 1;
        let mine: Vec<Value> = traced
            .iter()
            .filter(|l| l["case"] == case)
            .cloned()
            .collect();
        let (found, _) = replay(&mine);
        let expected: Vec<Vec<i64>> = serde_json::from_value(answer["solutions"].clone()).unwrap();
        assert_eq!(found, expected, "case {case}");
    }
    // Sultan: the sums are the weights under the queens, the best is the judge's answer.
    let weights: Vec<u64> = (0..64).map(|i| (i * 37 + 11) % 97).collect();
    let rows: Vec<String> = weights
        .chunks(8)
        .map(|r| r.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    let input = format!("1\n{}\n", rows.join("\n"));
    let traced = lines(&["sultan", "--trace"], &input);
    let (found, _) = replay(&traced);
    assert_eq!(found.len(), 92);
    let mut on_board: Vec<(i64, i64)> = Vec::new();
    for line in &traced[1..traced.len() - 1] {
        match line["event"].as_str().unwrap() {
            "place" => on_board.push(square(&line["square"])),
            "remove" => on_board.retain(|&q| q != square(&line["square"])),
            _ => {}
        }
        if line["event"] != "attacked" {
            let sum: u64 = on_board
                .iter()
                .map(|&(r, c)| weights[((r - 1) * 8 + c - 1) as usize])
                .sum();
            assert_eq!(line["sum"].as_u64(), Some(sum), "{line}");
        }
    }
    let answer = run(&["sultan"], input.as_bytes()).stdout_text();
    let best = traced.last().unwrap()["best"].as_u64().unwrap();
    assert_eq!(answer.trim(), best.to_string());
}

#[test]
fn tour_traces_give_layers_then_the_path_of_the_answer() {
    let input = std::fs::read_to_string("tests/data/tour/many-knights.in").unwrap_or_default();
    let sample = std::fs::read_to_string("tests/data/tour/sample.in").unwrap();
    for input in [sample.as_str(), input.as_str()]
        .into_iter()
        .filter(|i| !i.is_empty())
    {
        let traced = lines(&["tour", "--trace"], input);
        let answers = lines(&["tour", "--format", "json"], input);
        for answer in &answers {
            let case = &answer["case"];
            let mine: Vec<&Value> = traced.iter().filter(|l| &l["case"] == case).collect();
            let end = mine.last().unwrap();
            assert_eq!(end["path"], answer["path"]);
            assert_eq!(end["moves"], answer["moves"]);
            let layers: Vec<&&Value> = mine.iter().filter(|l| l["event"] == "layer").collect();
            let moves: Vec<&&Value> = mine.iter().filter(|l| l["event"] == "move").collect();
            // Each layer's squares are new or reached again, counts that add up; the goal
            // layer, and it alone, says so.
            let mut seen = std::collections::BTreeSet::new();
            for (d, layer) in layers.iter().enumerate() {
                let names = |key: &str| -> Vec<String> {
                    layer[key]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| s.as_str().unwrap().to_string())
                        .collect()
                };
                let (squares, new, again) = (names("squares"), names("new"), names("again"));
                assert_eq!(new.len() + again.len(), squares.len(), "{layer}");
                assert!(new.iter().all(|s| !seen.contains(s)), "{layer}");
                assert!(again.iter().all(|s| seen.contains(s)), "{layer}");
                seen.extend(squares);
                let goal = answer["path"].is_array() && d + 1 == layers.len();
                assert_eq!(layer["goal"] == true, goal, "{layer}");
            }
            if let Some(path) = answer["path"].as_array() {
                // One layer per move count, the path's square d in layer d.
                assert_eq!(layers.len(), path.len());
                for (d, sq) in path.iter().enumerate() {
                    assert_eq!(layers[d]["moves"].as_u64(), Some(d as u64));
                    let squares = layers[d]["squares"].as_array().unwrap();
                    assert!(squares.contains(sq), "move {d}: {sq}");
                    assert_eq!(&moves[d]["square"], sq);
                }
                // By the last move every knight has been visited.
                let knights = mine[0]["knights"].as_array().unwrap().len();
                let visited = moves.last().unwrap()["visited"].as_array().unwrap().len();
                assert_eq!(visited, knights);
            } else {
                assert!(moves.is_empty());
            }
        }
    }
}

/// A showdown board read from a trace, with the statement's rules written out here (not the
/// crate's movement data): which pieces check which king.
struct Showdown {
    n: i64,
    kings: Vec<(i64, i64)>,
    prices: Vec<u64>,
    pieces: std::collections::BTreeMap<(i64, i64), u64>,
}

impl Showdown {
    fn occupied(&self, s: (i64, i64)) -> bool {
        self.kings.contains(&s) || self.pieces.contains_key(&s)
    }

    /// The occupied squares strictly between two squares of one line.
    fn between(&self, a: (i64, i64), b: (i64, i64)) -> usize {
        let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs());
        let (sr, sc) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
        (1..steps)
            .filter(|&i| self.occupied((a.0 + i * sr, a.1 + i * sc)))
            .count()
    }

    /// Does a piece of type `t` (1..8) on `from` check `to`? "Forward" is up (row 1).
    fn checks(&self, t: u64, from: (i64, i64), to: (i64, i64)) -> bool {
        let (dr, dc) = (to.0 - from.0, to.1 - from.1);
        let (ar, ac) = (dr.abs(), dc.abs());
        let diagonal = ar == ac && ar > 0;
        let straight = (ar == 0) != (ac == 0);
        let clear = || self.between(from, to) == 0;
        match t {
            1 => diagonal && clear(),
            2 => straight && clear(),
            3 => ar * ac == 2,
            4 => ar <= 1 && ac <= 1 && ar + ac > 0 && !(dr == 1 && ac == 1),
            5 => ar <= 1 && ac <= 1 && dr != 0 && !(dr == 1 && dc == 0),
            6 => (diagonal && clear()) || ar + ac == 1,
            7 => ar + ac == 1 || (ar == 2 && ac == 2),
            8 => straight && self.between(from, to) == 1,
            _ => panic!("type {t}"),
        }
    }

    fn unchecked(&self) -> Vec<(i64, i64)> {
        self.kings
            .iter()
            .copied()
            .filter(|&k| !self.pieces.iter().any(|(&p, &t)| self.checks(t, p, k)))
            .collect()
    }

    fn cost(&self) -> u64 {
        self.pieces
            .values()
            .map(|&t| self.prices[t as usize - 1])
            .sum()
    }

    /// The cheapest price of a piece that could check king `k` from an empty square of the
    /// board with no piece on it (a cannon may use a king as its screen, or an empty square
    /// between for one).
    fn cheapest_for(&self, k: (i64, i64)) -> u64 {
        let mut best = u64::MAX;
        for r in 1..=self.n {
            for c in 1..=self.n {
                let s = (r, c);
                if self.occupied(s) {
                    continue;
                }
                for t in 1..=8u64 {
                    let reaches = if t == 8 {
                        let straight = (s.0 == k.0) != (s.1 == k.1);
                        let gap = (k.0 - s.0).abs().max((k.1 - s.1).abs());
                        straight
                            && (self.between(s, k) == 1 || (self.between(s, k) == 0 && gap >= 2))
                    } else {
                        self.checks(t, s, k)
                    };
                    if reaches {
                        best = best.min(self.prices[t as usize - 1]);
                    }
                }
            }
        }
        best
    }
}

fn squares(v: &Value) -> Vec<(i64, i64)> {
    let mut s: Vec<(i64, i64)> = v.as_array().unwrap().iter().map(square).collect();
    s.sort();
    s
}

fn board_of(v: &Value) -> std::collections::BTreeMap<(i64, i64), u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let at = (p["row"].as_i64().unwrap(), p["col"].as_i64().unwrap());
            (at, p["type"].as_u64().unwrap())
        })
        .collect()
}

/// Replays one test's lines (from its `start` to its `answer`) on a board of the test's own,
/// every step's cost, checked and lost kings recomputed; returns the board reached, the
/// answer line and whether a jump to the answer was needed.
fn replay_showdown(lines: &[Value]) -> (Showdown, Value, bool) {
    let start = &lines[0];
    assert_eq!(start["event"], "start");
    let mut board = Showdown {
        n: start["side"].as_i64().unwrap(),
        kings: squares(&start["kings"]),
        prices: start["prices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect(),
        pieces: Default::default(),
    };
    let mut steps = 0;
    let mut bound_line = None;
    let mut exact_bound = None;
    let mut jumped_to_answer = false;
    let end = &lines[lines.len() - 2];
    let answer = &lines[lines.len() - 1];
    assert_eq!(end["event"], "end");
    assert_eq!(answer["event"], "answer");
    for line in &lines[1..lines.len() - 2] {
        steps += 1;
        assert_eq!(line["step"].as_u64(), Some(steps), "{line}");
        let before = board.unchecked();
        let event = line["event"].as_str().unwrap();
        match event {
            "bound" => {
                let simple = line["simple"].as_u64().unwrap();
                let t = line["type"].as_u64().unwrap();
                let king = square(&line["king"]);
                assert!(board.kings.contains(&king), "{line}");
                assert_eq!(simple, board.prices[t as usize - 1], "{line}");
                assert_eq!(simple, board.cheapest_for(king), "{line}");
                let most = board
                    .kings
                    .iter()
                    .map(|&k| board.cheapest_for(k))
                    .max()
                    .unwrap();
                assert_eq!(simple, most, "{line}: the dearest king's cheapest checker");
                let relaxation = line["relaxation"].as_u64().unwrap_or(0);
                assert_eq!(
                    line["bound"].as_u64(),
                    Some(simple.max(relaxation)),
                    "{line}"
                );
                bound_line = line["bound"].as_u64();
                continue;
            }
            "search" => continue,
            "exact" if line["outcome"] == "unfinished" => continue,
            "exact" | "jump" => {
                if event == "exact" {
                    exact_bound = line["bound"].as_u64();
                }
                if line["why"] == "limit" || line["why"] == "answer" {
                    jumped_to_answer = true;
                }
                board.pieces = board_of(&line["pieces"]);
                assert_eq!(squares(&line["open"]), board.unchecked(), "{line}");
            }
            "add" | "remove" | "swap" => {
                let at = square(&line["square"]);
                let t = line["type"].as_u64().unwrap();
                match event {
                    "add" => {
                        assert!(!board.occupied(at), "{line}");
                        board.pieces.insert(at, t);
                    }
                    "remove" => assert_eq!(board.pieces.remove(&at), Some(t), "{line}"),
                    _ => {
                        let from = line["from_type"].as_u64();
                        assert_eq!(board.pieces.insert(at, t), from, "{line}");
                        assert_ne!(from, Some(t), "{line}");
                    }
                }
                let after = board.unchecked();
                let checked: Vec<_> = before
                    .iter()
                    .filter(|k| !after.contains(k))
                    .copied()
                    .collect();
                let lost: Vec<_> = after
                    .iter()
                    .filter(|k| !before.contains(k))
                    .copied()
                    .collect();
                assert_eq!(squares(&line["checked"]), checked, "{line}");
                assert_eq!(squares(&line["lost"]), lost, "{line}");
            }
            other => panic!("unexpected event {other}: {line}"),
        }
        assert_eq!(line["cost"].as_u64(), Some(board.cost()), "{line}");
        assert_eq!(
            line["unchecked"].as_u64(),
            Some(board.unchecked().len() as u64),
            "{line}"
        );
    }
    assert_eq!(end["steps"].as_u64(), Some(steps));
    assert_eq!(end["complete"].as_bool(), Some(!jumped_to_answer), "{end}");
    // The bound line is the bound the answer reports, unless the exact search raised it.
    match bound_line {
        Some(bound) => {
            assert_eq!(
                answer["lower_bound"].as_u64(),
                Some(exact_bound.unwrap_or(bound))
            );
            assert!(bound <= answer["cost"].as_u64().unwrap());
        }
        // Past the step limit a test has no step but the jump to its answer.
        None => assert!(jumped_to_answer && steps == 1),
    }
    (board, answer.clone(), jumped_to_answer)
}

/// The tests of a showdown trace, each from its `start` line to its `answer`.
fn showdown_cases(lines: &[Value]) -> Vec<&[Value]> {
    let mut cases = Vec::new();
    let mut from = 0;
    for (i, l) in lines.iter().enumerate() {
        if l["event"] == "answer" {
            cases.push(&lines[from..=i]);
            from = i + 1;
        }
    }
    assert_eq!(from, lines.len());
    cases
}

#[test]
fn showdown_traces_replay_to_the_command_lines_answers() {
    // Small boards (the exact search), middling ones (the local search), the sample.
    let mut inputs = vec![std::fs::read_to_string("tests/data/showdown/sample.in").unwrap()];
    for (seed, size) in [("1", "8-10"), ("4", "12-14")] {
        let input = run(
            &[
                "showdown", "gen", "--seed", seed, "--cases", "4", "--size", size,
            ],
            b"",
        );
        assert_eq!(input.code, 0, "{}", input.stderr);
        inputs.push(input.stdout_text());
    }
    let mut moves = 0;
    let mut seen = std::collections::BTreeSet::new();
    // 20,000 steps on the larger boards: kicks and large-neighbourhood moves (jumps) too.
    for (input, steps) in inputs.iter().zip(["300", "3000", "20000"]) {
        let traced = lines(
            &["showdown", "--trace", "--steps", steps, "--seed", "5"],
            input,
        );
        let plain = lines(
            &[
                "showdown", "--format", "json", "--steps", steps, "--seed", "5",
            ],
            input,
        );
        for l in &traced {
            let detail = l["outcome"].as_str().or(l["why"].as_str()).unwrap_or("");
            seen.insert(format!("{} {detail}", l["event"]));
        }
        let cases = showdown_cases(&traced);
        assert_eq!(cases.len(), plain.len());
        for (case, plain) in cases.iter().zip(&plain) {
            moves += case.iter().filter(|l| l["phase"] == "search").count();
            let (board, answer, jumped) = replay_showdown(case);
            assert!(!jumped, "no limit reached");
            assert_eq!(board.pieces, board_of(&plain["pieces"]));
            assert!(board.unchecked().is_empty());
            assert_eq!(board.cost(), plain["cost"].as_u64().unwrap());
            let mut answer = answer;
            answer.as_object_mut().unwrap().remove("event");
            assert_eq!(&answer, plain);
        }
    }
    assert!(moves > 0, "some local search moves were traced");
    for event in [
        r#""exact" optimal"#,
        r#""exact" unfinished"#,
        r#""jump" kick"#,
        r#""search" "#,
    ] {
        assert!(seen.contains(event), "{event} in {seen:?}");
    }
    // A small step limit: the tests cut short jump to their answers.
    let input = &inputs[1];
    let traced = lines(
        &[
            "showdown",
            "--trace",
            "--steps",
            "3000",
            "--trace-steps",
            "10",
        ],
        input,
    );
    let cases = showdown_cases(&traced);
    let (mut steps, mut cut) = (0, 0);
    for case in &cases {
        let (board, answer, jumped) = replay_showdown(case);
        cut += u64::from(jumped);
        assert_eq!(board.pieces, board_of(&answer["pieces"]));
        steps += case[case.len() - 2]["steps"].as_u64().unwrap();
    }
    // Ten steps, then one jump to the answer for each test cut short.
    assert!(cut >= 3 && steps <= 10 + cut, "{steps} steps, {cut} cut");
}

#[test]
fn bad_showdown_trace_options_exit_2() {
    for args in [
        &["showdown", "--trace", "--greedy"][..],
        &["showdown", "--trace-steps", "5"],
        &["showdown", "--trace", "--trace-steps", "x"],
        &["showdown", "--trace", "--format", "board"],
    ] {
        let r = run(args, b"1\n2\n#_\n__\n1 1 1 1 1 1 1 1\n");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout_text());
        assert!(r.stdout.is_empty());
        assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
    }
}

#[test]
fn a_trace_is_json_lines_only() {
    for args in [
        &["nqueens", "list", "6", "--trace", "--format", "svg"][..],
        &["nqueens", "list", "6", "--trace", "--format", "board"],
        &["queens", "--trace", "--format", "board"],
        &["queens", "--trace", "--uva"],
        &["sultan", "--trace", "--format", "svg"],
        &["tour", "--trace", "--format", "board"],
        &["showdown", "--trace", "--format", "svg"],
        &["nqueens", "list", "6", "--trace-steps", "5"],
    ] {
        let r = run(args, b"1\n1 1\n");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout_text());
        assert!(r.stdout.is_empty());
        assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
    }
}
