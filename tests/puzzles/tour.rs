//! `chess-puzzles tour` end to end: the statement's sample through the real binary, the answers
//! on thousands of random boards against references written here, hand-made cases, the output
//! formats and the errors on bad input. Every printed path goes through the validator below.

use std::collections::HashMap;

use chess_puzzles::tour::{self, MAX_KNIGHTS, Options};

use crate::common::run;

/// A board as the tests see it: `grid[row][col]` with row 0 = rank 8, as in the input.
pub type Grid = [[u8; 8]; 8];

fn parse_grid(text: &str) -> Grid {
    let mut grid = [[b'.'; 8]; 8];
    for (r, line) in text.lines().filter(|l| !l.is_empty()).enumerate() {
        grid[r].copy_from_slice(line.as_bytes());
    }
    grid
}

fn grid_text(grid: &Grid) -> String {
    grid.iter()
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect()
}

fn judge_input(grids: &[Grid]) -> String {
    let mut text = format!("{}\n", grids.len());
    for g in grids {
        text.push_str(&grid_text(g));
        text.push('\n');
    }
    text
}

fn name(r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + c as u8) as char, 8 - r)
}

/// The squares of `piece` on `grid`, row by row.
pub fn find(grid: &Grid, piece: u8) -> Vec<(usize, usize)> {
    let mut at = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for (c, &cell) in row.iter().enumerate() {
            if cell == piece {
                at.push((r, c));
            }
        }
    }
    at
}

/// Whether two distinct squares are neighbours (a king's step apart).
pub fn touches(a: (usize, usize), b: (usize, usize)) -> bool {
    a != b && a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1
}

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// Every square a queen on `from` can move to: along each direction, over '.' or 'Q' squares
/// (the start square is empty once she has left it).
fn queen_moves(grid: &Grid, from: (usize, usize)) -> Vec<(usize, usize)> {
    let mut moves = Vec::new();
    for (dr, dc) in DIRS {
        let (mut r, mut c) = (from.0 as i32, from.1 as i32);
        loop {
            r += dr;
            c += dc;
            if !(0..8).contains(&r) || !(0..8).contains(&c) {
                break;
            }
            if !matches!(grid[r as usize][c as usize], b'.' | b'Q') {
                break;
            }
            moves.push((r as usize, c as usize));
        }
    }
    moves
}

/// The validator: reads a printed path and checks it against the board without any search.
fn validate(grid: &Grid, path: &str) -> Result<usize, String> {
    let bytes = path.as_bytes();
    if bytes.is_empty() || !bytes.len().is_multiple_of(2) {
        return Err(format!("'{path}' is not a list of squares"));
    }
    let mut stops = Vec::new();
    for pair in bytes.chunks(2) {
        let (f, d) = (pair[0], pair[1]);
        if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&d) {
            return Err(format!("'{path}' has a bad square name"));
        }
        stops.push(((b'8' - d) as usize, (f - b'a') as usize));
    }
    let queen = find(grid, b'Q')[0];
    if stops[0] != queen {
        return Err(format!("'{path}' does not start on the queen"));
    }
    for w in stops.windows(2) {
        let (a, b) = (w[0], w[1]);
        let dr = b.0 as i32 - a.0 as i32;
        let dc = b.1 as i32 - a.1 as i32;
        if (dr == 0 && dc == 0) || !(dr == 0 || dc == 0 || dr.abs() == dc.abs()) {
            return Err(format!("'{path}': {a:?} to {b:?} is not a queen line"));
        }
        let steps = dr.abs().max(dc.abs());
        for i in 1..=steps {
            let r = (a.0 as i32 + dr.signum() * i) as usize;
            let c = (a.1 as i32 + dc.signum() * i) as usize;
            if !matches!(grid[r][c], b'.' | b'Q') {
                return Err(format!("'{path}': {a:?} to {b:?} meets a piece"));
            }
        }
    }
    for k in find(grid, b'N') {
        if !stops.iter().any(|&s| touches(s, k)) {
            return Err(format!("'{path}': the knight {k:?} is not visited"));
        }
    }
    let bishop = find(grid, b'B')[0];
    if !touches(*stops.last().unwrap_or(&queen), bishop) {
        return Err(format!("'{path}' does not end next to the bishop"));
    }
    Ok(stops.len() - 1)
}

/// Reference 1: breadth-first search over (square, visited knights) states where each state
/// keeps the lexicographically smallest path (as the judge's string) among its shortest ones.
/// A prefix of the first shortest path is the first shortest path to its own state, so the
/// smallest label among the goal states of the first goal layer is the answer.
fn reference_labels(grid: &Grid) -> Option<String> {
    let knights = find(grid, b'N');
    let bishop = find(grid, b'B')[0];
    let queen = find(grid, b'Q')[0];
    let all = (1usize << knights.len()) - 1;
    let touched = |sq: (usize, usize)| -> usize {
        knights
            .iter()
            .enumerate()
            .filter(|&(_, &k)| touches(sq, k))
            .map(|(i, _)| 1 << i)
            .sum()
    };
    let is_goal = |sq: (usize, usize), mask: usize| mask == all && touches(sq, bishop);
    let start = (queen, touched(queen));
    let mut labels: HashMap<((usize, usize), usize), String> = HashMap::new();
    labels.insert(start, name(queen.0, queen.1));
    let mut layer = vec![start];
    loop {
        let goals: Vec<&String> = layer
            .iter()
            .filter(|&&(sq, m)| is_goal(sq, m))
            .map(|s| &labels[s])
            .collect();
        if let Some(best) = goals.into_iter().min() {
            return Some(best.clone());
        }
        let mut next: HashMap<((usize, usize), usize), String> = HashMap::new();
        for state in &layer {
            let label = &labels[state];
            for to in queen_moves(grid, state.0) {
                let s2 = (to, state.1 | touched(to));
                if labels.contains_key(&s2) {
                    continue;
                }
                let candidate = format!("{label}{}", name(to.0, to.1));
                let slot = next.entry(s2).or_insert_with(|| candidate.clone());
                if candidate < *slot {
                    *slot = candidate;
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        layer = next.keys().copied().collect();
        labels.extend(next);
    }
}

/// Reference 2: every whole path of 0, 1, 2, ... moves, each length in lexicographic order, the
/// first valid one wins. Exponential, so only up to `max_moves`; `Err(())` when no path of at
/// most `max_moves` moves is valid.
fn reference_whole_paths(grid: &Grid, max_moves: usize) -> Result<String, ()> {
    fn extend(grid: &Grid, path: &mut Vec<(usize, usize)>, left: usize) -> bool {
        if left == 0 {
            let text: String = path.iter().map(|&(r, c)| name(r, c)).collect();
            return validate(grid, &text).is_ok();
        }
        let mut moves = queen_moves(grid, *path.last().unwrap());
        moves.sort_by_key(|&(r, c)| name(r, c));
        for m in moves {
            path.push(m);
            if extend(grid, path, left - 1) {
                return true;
            }
            path.pop();
        }
        false
    }
    let queen = find(grid, b'Q')[0];
    for moves in 0..=max_moves {
        let mut path = vec![queen];
        if extend(grid, &mut path, moves) {
            return Ok(path.iter().map(|&(r, c)| name(r, c)).collect());
        }
    }
    Err(())
}

/// A small deterministic generator.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_grid(rng: &mut Xorshift, knights: usize, pawns: usize) -> Grid {
    let mut grid = [[b'.'; 8]; 8];
    let mut place = |piece: u8, rng: &mut Xorshift| loop {
        let i = rng.below(64);
        if grid[i / 8][i % 8] == b'.' {
            grid[i / 8][i % 8] = piece;
            return;
        }
    };
    place(b'Q', rng);
    place(b'B', rng);
    for _ in 0..knights {
        place(b'N', rng);
    }
    for _ in 0..pawns {
        place(b'P', rng);
    }
    grid
}

/// Splits judge output into the answers: `Some(path)` or `None` for `impossible`, checking the
/// headings and the empty line after every scenario.
fn split_answers(output: &str, count: usize) -> Vec<Option<String>> {
    let lines: Vec<&str> = output.split('\n').collect();
    assert_eq!(lines.len(), 3 * count + 1, "three lines per scenario");
    assert_eq!(lines[3 * count], "", "output ends with a newline");
    (0..count)
        .map(|i| {
            assert_eq!(lines[3 * i], format!("Scenario #{}:", i + 1));
            assert_eq!(
                lines[3 * i + 2],
                "",
                "an empty line after scenario {}",
                i + 1
            );
            match lines[3 * i + 1] {
                "impossible" => None,
                path => Some(path.to_string()),
            }
        })
        .collect()
}

/// Solves the boards through the library's judge writer.
fn solve_all(grids: &[Grid]) -> Vec<Option<String>> {
    let mut out = Vec::new();
    tour::run(judge_input(grids).as_bytes(), &mut out, &Options::default())
        .expect("the input is valid");
    split_answers(&String::from_utf8(out).expect("UTF-8"), grids.len())
}

fn solve_one(board: &str) -> Option<String> {
    let grid = parse_grid(board);
    let answer = solve_all(&[grid]).remove(0);
    if let Some(path) = &answer {
        validate(&grid, path).unwrap_or_else(|e| panic!("{e}\n{board}"));
    }
    answer
}

#[test]
fn sample_byte_for_byte_through_the_binary() {
    let input = std::fs::read("tests/data/tour/sample.in").expect("sample input");
    let expected = std::fs::read("tests/data/tour/sample.out").expect("sample output");
    let out = run(&["tour"], &input);
    assert!(out.code == 0);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&expected)
    );
    let from_file = run(&["tour", "tests/data/tour/sample.in"], b"");
    assert_eq!(from_file.stdout, expected);
}

#[test]
fn thousands_of_random_boards_match_the_state_reference() {
    let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
    let grids: Vec<Grid> = (0..3000)
        .map(|i| {
            let knights = [0, 1, 2, 2, 3, 3, 4, 4, 5, 6][i % 10];
            let pawns = rng.below(36);
            random_grid(&mut rng, knights, pawns)
        })
        .collect();
    let answers = solve_all(&grids);
    let mut found = 0;
    for (grid, answer) in grids.iter().zip(&answers) {
        let expected = reference_labels(grid);
        assert_eq!(answer, &expected, "\n{}", grid_text(grid));
        if let Some(path) = answer {
            validate(grid, path).unwrap_or_else(|e| panic!("{e}\n{}", grid_text(grid)));
            found += 1;
        }
    }
    // Both kinds of answer are well represented.
    assert!(found > 1000 && found < 2900, "{found} of 3000 possible");
}

#[test]
fn boards_with_more_knights_match_the_state_reference() {
    let mut rng = Xorshift(0x1234_5678_9abc_def1);
    let grids: Vec<Grid> = (0..150)
        .map(|i| {
            let pawns = rng.below(12);
            random_grid(&mut rng, 7 + i % 4, pawns)
        })
        .collect();
    for (grid, answer) in grids.iter().zip(solve_all(&grids)) {
        assert_eq!(answer, reference_labels(grid), "\n{}", grid_text(grid));
        if let Some(path) = &answer {
            validate(grid, path).unwrap_or_else(|e| panic!("{e}\n{}", grid_text(grid)));
        }
    }
}

#[test]
fn short_answers_match_whole_path_enumeration() {
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    let grids: Vec<Grid> = (0..600)
        .map(|i| {
            let pawns = 20 + rng.below(25);
            random_grid(&mut rng, i % 4, pawns)
        })
        .collect();
    let answers = solve_all(&grids);
    let mut compared = 0;
    for (grid, answer) in grids.iter().zip(&answers) {
        match reference_whole_paths(grid, 3) {
            Ok(path) => {
                compared += 1;
                assert_eq!(
                    answer.as_deref(),
                    Some(path.as_str()),
                    "\n{}",
                    grid_text(grid)
                );
            }
            Err(()) => {
                let moves = answer.as_deref().map(|p| validate(grid, p).expect("valid"));
                assert!(moves.is_none_or(|m| m > 3), "\n{}", grid_text(grid));
            }
        }
    }
    assert!(compared > 100, "only {compared} boards with short answers");
}

#[test]
fn the_start_alone_when_it_already_touches_everything() {
    let board = "........\n........\n...N....\n...QB...\n...N....\n........\n........\n........\n";
    assert_eq!(solve_one(board).as_deref(), Some("d5"));
    // Even boxed in.
    let boxed = "........\n..PPP...\n..PNPP..\n..PQBP..\n..PNPP..\n..PPP...\n........\n........\n";
    assert_eq!(solve_one(boxed).as_deref(), Some("d5"));
}

#[test]
fn a_boxed_in_queen_goes_nowhere() {
    let board = "N.......\n........\n........\n..PPP...\n..PQP...\n..PPP..B\n........\n.......N\n";
    assert_eq!(solve_one(board), None);
}

#[test]
fn a_knight_sealed_off_by_pawns_makes_it_impossible() {
    let board = "Q.......\n........\n........\n....B...\n........\n.....PPP\n.....PNP\n.N...PPP\n";
    assert_eq!(solve_one(board), None);
}

#[test]
fn an_unreachable_bishop_makes_it_impossible() {
    let board = "Q......N\n........\n........\n.N......\n........\n........\n......PP\n......PB\n";
    assert_eq!(solve_one(board), None);
}

#[test]
fn passing_a_knight_or_the_bishop_does_not_count() {
    // The queen on a1 slides along rank 1; the knight on d2 is visited only by stopping on
    // c1, d1 or e1 (or another neighbour), and the bishop must be touched at the end.
    let board = "........\n........\n........\n........\n........\n........\n...N...B\nQ.......\n";
    let path = solve_one(board).expect("possible");
    let grid = parse_grid(board);
    assert_eq!(validate(&grid, &path), Ok(2));
    assert_eq!(Some(path), reference_labels(&grid));
    // The bishop touched first, a knight left over: the tour must end at the bishop again.
    let board = "........\n........\n........\n........\n........\n........\nN.....P.\nQB....PN\n";
    let path = solve_one(board).expect("possible");
    let grid = parse_grid(board);
    assert!(validate(&grid, &path).expect("valid") >= 1);
    assert_eq!(Some(path), reference_labels(&grid));
}

#[test]
fn a_path_back_through_the_start_square() {
    // A wall of pawns on rank 4 with the queen in its only gap, e4. The knight on a5 is above
    // the wall, the bishop on h1 below it. Above, e4 is reached only down the e-file (d5 and
    // f5 are pawns); below, it is left only towards d3 (e3 and f3 are pawns): she must go up,
    // come back and stop on e4 again, then go down.
    let board = "........\n........\n........\nN..P.P..\nPPPPQPPP\n....PP..\n........\n.......B\n";
    let path = solve_one(board).expect("possible");
    let grid = parse_grid(board);
    assert_eq!(Some(path.clone()), reference_labels(&grid));
    assert!(path.starts_with("e4"), "{path}");
    assert!(path[2..].contains("e4"), "{path} stops on e4 again");
}

#[test]
fn knights_in_the_corners() {
    let board = "N......N\n........\n........\n...Q....\n........\n........\n......B.\nN......N\n";
    let path = solve_one(board).expect("possible");
    let grid = parse_grid(board);
    assert_eq!(Some(path), reference_labels(&grid));
}

#[test]
fn fourteen_knights_and_more() {
    let board = "N.N.N.N.\n........\nN.N.N.N.\n........\nN.N.N.N.\n........\n.N.N.Q..\n.......B\n";
    let path = solve_one(board).expect("possible");
    let grid = parse_grid(board);
    assert_eq!(find(&grid, b'N').len(), 14);
    let moves = validate(&grid, &path).expect("valid");
    assert!(moves >= 5, "{moves}");
    // As many knights as the engine accepts, in stripes: even files of ranks 8, 5 and 2, odd
    // files of ranks 7, 4 and 1; the queen on a4, the bishop on g1.
    let mut grid = [[b'.'; 8]; 8];
    let spots: Vec<(usize, usize)> = [0, 3, 6]
        .iter()
        .flat_map(|&r| (0..8).step_by(2).map(move |c| (r, c)))
        .chain(
            [1, 4, 7]
                .iter()
                .flat_map(|&r| (1..8).step_by(2).map(move |c| (r, c))),
        )
        .collect();
    assert!(MAX_KNIGHTS <= spots.len());
    for &(r, c) in &spots[..MAX_KNIGHTS] {
        grid[r][c] = b'N';
    }
    grid[4][0] = b'Q';
    grid[7][6] = b'B';
    let path = solve_all(&[grid]).remove(0).expect("possible");
    validate(&grid, &path).expect("valid");
}

#[test]
fn the_hardest_boards_found_for_20_to_24_knights() {
    // Boards found by a random local search for the most stored layer pairs, and the stripes
    // above: each answer goes through the validator.
    let input = std::fs::read_to_string("tests/data/tour/many-knights.in").expect("input");
    let out = run(&["tour", "tests/data/tour/many-knights.in"], b"");
    assert!(out.code == 0);
    let answers = split_answers(&String::from_utf8(out.stdout).expect("UTF-8"), 4);
    let rows: Vec<&str> = input.lines().skip(1).filter(|l| !l.is_empty()).collect();
    let boards: Vec<Grid> = rows.chunks(8).map(|b| parse_grid(&b.join("\n"))).collect();
    assert_eq!(boards.len(), 4);
    for (grid, answer) in boards.iter().zip(answers) {
        let knights = find(grid, b'N').len();
        assert!((20..=MAX_KNIGHTS).contains(&knights), "{knights}");
        let path = answer.expect("possible");
        validate(grid, &path).unwrap_or_else(|e| panic!("{e}\n{}", grid_text(grid)));
    }
}

#[test]
fn board_and_json_formats() {
    let input = std::fs::read("tests/data/tour/sample.in").expect("sample input");
    let out = run(&["tour", "--format", "json"], &input);
    assert!(out.code == 0);
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["moves"], 4);
    assert_eq!(
        lines[0]["path"],
        serde_json::json!(["h8", "h2", "e5", "d4", "b2"])
    );
    assert_eq!(lines[1]["possible"], false);
    assert!(lines[1]["path"].is_null());

    let out = run(&["tour", "--format", "board"], &input);
    assert!(out.code == 0);
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        text.contains("Scenario 1: 4 moves: h8 h2 e5 d4 b2"),
        "{text}"
    );
    assert!(text.contains("impossible"));
    assert_eq!(
        text.matches('♞').count(),
        4 + 2,
        "four knights and the legends"
    );
    assert!(text.contains("8 · · · · · · · ♛"), "{text}");
    assert!(text.contains("2 · 4 ♝ · · · · 1"), "{text}");
}

/// Runs the binary on bad input: exit 2, a located message, no panic. Returns the message.
fn rejected(input: &str) -> String {
    let out = run(&["tour"], input.as_bytes());
    let err = out.stderr;
    assert_eq!(out.code, 2, "{input}\n{err}");
    assert!(err.starts_with("error: <stdin>:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn bad_input_is_located() {
    let rows = [
        ".......Q", "...P.P..", "...PNP..", "..NP.P..", "........", "........", "..B.....",
        "........",
    ];
    let board = |rows: &[&str]| rows.iter().map(|r| format!("{r}\n")).collect::<String>();
    let with = |i: usize, row: &str| {
        let mut r = rows;
        r[i] = row;
        format!("1\n{}", board(&r))
    };
    // A row that is not 8 squares.
    assert!(rejected(&with(3, "..NP.P.")).contains("<stdin>:5:1:"));
    assert!(rejected(&with(3, "..NP.P...")).contains("<stdin>:5:1:"));
    // A character other than . Q B P N.
    assert!(rejected(&with(4, "...k....")).contains("<stdin>:6:4:"));
    // Not exactly one Q and one B.
    assert!(rejected(&with(4, "..Q.....")).contains("<stdin>:6:3:"));
    assert!(rejected(&with(4, "B.......")).contains("<stdin>:8:3:"));
    assert!(rejected(&with(0, "........")).contains("<stdin>:2:1:"));
    assert!(rejected(&with(6, "........")).contains("<stdin>:2:1:"));
    // Too few rows: at the end of input, or an empty line inside a board.
    assert!(rejected(&format!("1\n{}", board(&rows[..7]))).contains("<stdin>:9:1:"));
    let short = format!("2\n{}\n{}", board(&rows[..7]), board(&rows));
    assert!(rejected(&short).contains("<stdin>:9:1:"));
    // More knights than the engine handles.
    let crowded: String = (0..8)
        .map(|r| {
            if r == 7 {
                "QB......\n".to_string()
            } else {
                "NNNN....\n".to_string()
            }
        })
        .collect();
    let err = rejected(&format!("1\n{crowded}"));
    assert!(
        err.contains(&format!("at most {MAX_KNIGHTS} knights")),
        "{err}"
    );
    // A count of scenarios that the input does not hold, in either direction.
    assert!(rejected(&format!("2\n{}", board(&rows))).contains("found end of input"));
    assert!(rejected(&format!("1\n{}{}", board(&rows), board(&rows))).contains("<stdin>:10:1:"));
    assert!(rejected("x\n").contains("<stdin>:1:1:"));
    assert!(rejected("").contains("<stdin>:1:1:"));
    assert!(rejected("99999999999999999999999\n").contains("<stdin>:1:1:"));
}

#[test]
fn tolerated_layouts() {
    let sample = std::fs::read_to_string("tests/data/tour/sample.in").expect("sample");
    let expected = std::fs::read("tests/data/tour/sample.out").expect("sample output");
    let crlf = sample.replace('\n', "  \r\n");
    let packed = sample.replace("\n\n", "\n");
    for input in [crlf, packed] {
        let out = run(&["tour"], input.as_bytes());
        assert!(out.code == 0, "{}", out.stderr);
        assert_eq!(out.stdout, expected);
    }
}

mod properties {
    use super::*;
    use chess_puzzles::tour::Scenario;
    use proptest::prelude::*;

    /// A board: each square empty, a pawn or a knight (at most five knights), then the queen
    /// and the bishop on two distinct squares.
    fn grids() -> impl Strategy<Value = Grid> {
        (
            proptest::collection::vec(
                prop_oneof![6 => Just(b'.'), 3 => Just(b'P'), 1 => Just(b'N')],
                64,
            ),
            0..64usize,
            1..64usize,
        )
            .prop_map(|(cells, q, b_offset)| {
                let mut grid = [[b'.'; 8]; 8];
                let mut knights = 0;
                for (i, &cell) in cells.iter().enumerate() {
                    let cell = if cell == b'N' && knights == 5 {
                        b'.'
                    } else {
                        cell
                    };
                    knights += usize::from(cell == b'N');
                    grid[i / 8][i % 8] = cell;
                }
                let b = (q + b_offset) % 64;
                grid[q / 8][q % 8] = b'Q';
                grid[b / 8][b % 8] = b'B';
                grid
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn rows_round_trip_and_answers_match_the_reference(grid in grids()) {
            let text = grid_text(&grid);
            let scenario = Scenario::parse(&text).expect("a valid board");
            prop_assert_eq!(scenario.to_rows(), text);
            let answer = solve_all(&[grid]).remove(0);
            if let Some(path) = &answer {
                prop_assert!(validate(&grid, path).is_ok());
            }
            prop_assert_eq!(answer, reference_labels(&grid));
        }
    }
}
