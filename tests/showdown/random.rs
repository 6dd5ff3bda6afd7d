//! The optimiser on random boards: every answer checked by a literal reading of the rules
//! written here (independent of the crate's movement data and judge), and on small boards
//! compared with a brute-force search for the true optimum.

use chess_puzzles::core::pieces::PieceKind;
use chess_puzzles::core::{Square, SquareSet};
use std::sync::atomic::AtomicBool;

use chess_puzzles::showdown::board::Board;
use chess_puzzles::showdown::bounds::Relaxation;
use chess_puzzles::showdown::candidates::Candidates;
use chess_puzzles::showdown::construction::{greedy, prune};
use chess_puzzles::showdown::exhaustive::{Outcome, complete, optimum};
use chess_puzzles::showdown::judge::verify;
use chess_puzzles::showdown::local_search::{Limits, Search};
use chess_puzzles::showdown::solver::{Budget, solve, solve_all};
use chess_puzzles::showdown::{Instance, Placement};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A board as a grid: 0 empty, 1 king, 2 one of our pieces.
struct Grid {
    n: usize,
    cells: Vec<u8>,
}

impl Grid {
    fn at(&self, r: i32, c: i32) -> Option<u8> {
        let n = self.n as i32;
        (r >= 0 && c >= 0 && r < n && c < n).then(|| self.cells[(r * n + c) as usize])
    }

    /// The number of occupied squares strictly between two squares of one line.
    fn between(&self, (r0, c0): (i32, i32), (r1, c1): (i32, i32)) -> usize {
        let steps = (r1 - r0).abs().max((c1 - c0).abs());
        let (sr, sc) = ((r1 - r0).signum(), (c1 - c0).signum());
        (1..steps)
            .filter(|&i| self.at(r0 + i * sr, c0 + i * sc) != Some(0))
            .count()
    }
}

/// The statement's rules, literally: does `kind` on `from` capture on `to`?
fn captures(grid: &Grid, kind: PieceKind, from: (i32, i32), to: (i32, i32)) -> bool {
    let dr = to.0 - from.0; // > 0: the target is further down (the generals' backwards)
    let dc = to.1 - from.1;
    let (ar, ac) = (dr.abs(), dc.abs());
    if ar == 0 && ac == 0 {
        return false;
    }
    let diagonal = ar == ac;
    let straight = ar == 0 || ac == 0;
    let clear = || grid.between(from, to) == 0;
    match kind {
        PieceKind::Bishop => diagonal && clear(),
        PieceKind::Rook => straight && clear(),
        PieceKind::Knight => ar * ac == 2,
        PieceKind::GoldGeneral => ar <= 1 && ac <= 1 && !(dr == 1 && ac == 1),
        PieceKind::SilverGeneral => ar <= 1 && ac <= 1 && dr != 0 && !(dr == 1 && dc == 0),
        PieceKind::Horse => (diagonal && clear()) || ar + ac == 1,
        PieceKind::Phoenix => ar + ac == 1 || (ar == 2 && ac == 2),
        PieceKind::Cannon => straight && grid.between(from, to) == 1,
    }
}

/// True when the pieces stand on distinct empty squares and check every king.
fn literally_valid(instance: &Instance, pieces: &[Placement]) -> bool {
    let n = instance.side();
    let mut cells = vec![0u8; n * n];
    for sq in instance.kings().iter() {
        cells[sq.index(n)] = 1;
    }
    for p in pieces {
        let i = p.square.index(n);
        if usize::from(p.square.row) >= n || usize::from(p.square.col) >= n || cells[i] != 0 {
            return false;
        }
        cells[i] = 2;
    }
    let grid = Grid { n, cells };
    !pieces.is_empty()
        && instance.kings().iter().all(|k| {
            pieces.iter().any(|p| {
                captures(
                    &grid,
                    p.kind,
                    (i32::from(p.square.row), i32::from(p.square.col)),
                    (i32::from(k.row), i32::from(k.col)),
                )
            })
        })
}

fn random_instance(
    rng: &mut impl Rng,
    n: usize,
    density: f64,
    costs: [u32; 8],
) -> Option<Instance> {
    let mut kings = SquareSet::new(n);
    for r in 0..n {
        for c in 0..n {
            if rng.random_bool(density) {
                kings.insert(Square::new(r as u8, c as u8));
            }
        }
    }
    Instance::new(n, kings, costs).ok()
}

fn random_costs(rng: &mut impl Rng) -> [u32; 8] {
    match rng.random_range(0..4) {
        0 => [rng.random_range(1..=1000); 8],
        1 => std::array::from_fn(|_| 1 + (9.0 * rng.random::<f64>().powi(3)) as u32),
        2 => std::array::from_fn(|_| rng.random_range(1..=1_000_000)),
        _ => {
            let cheap = rng.random_range(0..8);
            std::array::from_fn(|i| {
                if i == cheap {
                    rng.random_range(1..=10)
                } else {
                    rng.random_range(10_000..=1_000_000)
                }
            })
        }
    }
}

#[test]
fn hundreds_of_random_answers_are_valid() {
    let mut rng = ChaCha8Rng::seed_from_u64(2018);
    let mut solved = 0;
    while solved < 300 {
        let n = rng.random_range(1..=14usize);
        let density = rng.random_range(0.0..0.95);
        let costs = random_costs(&mut rng);
        let Some(instance) = random_instance(&mut rng, n, density, costs) else {
            continue;
        };
        let budget = Budget {
            time: std::time::Duration::from_secs(5),
            steps: Some(300),
        };
        let seed = rng.random();
        match solve(&instance, &budget, seed) {
            Ok(solution) => {
                let pieces = &solution.answer.pieces;
                assert!(
                    literally_valid(&instance, pieces),
                    "{instance:?} {pieces:?}"
                );
                assert_eq!(verify(&instance, pieces), Ok(solution.answer.cost));
                assert!(solution.lower_bound <= solution.answer.cost);
                solved += 1;
            }
            // Only boards with a king that has no empty neighbour may have no answer.
            Err(e) => {
                let kings: Vec<Square> = instance.kings().iter().collect();
                assert!(
                    kings.iter().any(|k| (0..n * n)
                        .map(|i| Square::from_index(i, n))
                        .filter(|s| s.is_neighbour(*k))
                        .all(|s| instance.is_king(s))),
                    "{e}: {instance:?}"
                );
            }
        }
    }
}

/// With a step count the answers (the pieces, not only their cost) depend on the seed alone,
/// also where a search meets the lower bound while the other runs on.
#[test]
fn the_same_seed_and_steps_give_the_same_answers() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let budget = Budget {
        time: std::time::Duration::from_secs(5),
        steps: Some(2000),
    };
    let mut solved = 0;
    while solved < 12 {
        let costs = random_costs(&mut rng);
        let n = rng.random_range(11..=14);
        let Some(instance) = random_instance(&mut rng, n, 0.3, costs) else {
            continue;
        };
        solved += 1;
        let a = solve(&instance, &budget, 99).unwrap();
        for _ in 0..2 {
            let b = solve(&instance, &budget, 99).unwrap();
            assert_eq!(a.answer, b.answer, "{instance:?}");
        }
    }
}

/// A brute-force search over every arrangement, square by square (each empty or one of the
/// eight pieces).
struct Brute<'a> {
    instance: &'a Instance,
    empties: Vec<Square>,
    max_pieces: usize,
    chosen: Vec<Placement>,
    limit: u64,
    best: Option<u64>,
}

impl Brute<'_> {
    fn go(&mut self, i: usize, cost: u64) {
        if cost >= self.limit {
            return;
        }
        if literally_valid(self.instance, &self.chosen) {
            self.limit = cost;
            self.best = Some(cost);
            return;
        }
        if i == self.empties.len() || self.chosen.len() == self.max_pieces {
            return;
        }
        self.go(i + 1, cost);
        for kind in PieceKind::ALL {
            self.chosen.push(Placement {
                kind,
                square: self.empties[i],
            });
            self.go(i + 1, cost + u64::from(self.instance.cost(kind)));
            self.chosen.pop();
        }
    }
}

/// The least cost of an arrangement of at most `max_pieces` pieces costing less than `below`.
fn brute_force(instance: &Instance, below: u64, max_pieces: usize) -> Option<u64> {
    let n = instance.side();
    let mut brute = Brute {
        instance,
        empties: (0..n * n)
            .map(|i| Square::from_index(i, n))
            .filter(|&s| !instance.is_king(s))
            .collect(),
        max_pieces,
        chosen: Vec::new(),
        limit: below,
        best: None,
    };
    brute.go(0, 0);
    brute.best
}

#[test]
fn small_boards_reach_the_true_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut done = 0;
    while done < 60 {
        let n = rng.random_range(2..=4usize);
        let kings_wanted = rng.random_range(1..=if n == 4 { 2 } else { 3 });
        let mut kings = SquareSet::new(n);
        while kings.count() < kings_wanted {
            kings.insert(Square::new(
                rng.random_range(0..n) as u8,
                rng.random_range(0..n) as u8,
            ));
        }
        let Ok(instance) = Instance::new(n, kings, random_costs(&mut rng)) else {
            continue;
        };
        let budget = Budget {
            time: std::time::Duration::from_secs(5),
            steps: Some(500),
        };
        let solution = solve(&instance, &budget, rng.random()).unwrap();
        let cost = solution.answer.cost;
        assert!(literally_valid(&instance, &solution.answer.pieces));
        // Every minimal answer has at most two pieces per king (a checker and a screen).
        let cheaper = brute_force(&instance, cost, 2 * kings_wanted);
        assert_eq!(cheaper, None, "{instance:?}: ours {cost}");
        // The exact search agrees.
        let candidates = Candidates::new(instance.kings());
        match optimum(&instance, &candidates, None, u64::MAX, None) {
            Outcome::Optimal(best, pieces) => {
                assert_eq!(best, cost, "{instance:?}");
                assert!(literally_valid(&instance, &pieces));
            }
            other => panic!("{other:?}"),
        }
        done += 1;
    }
}

/// The covering relaxation's bound, rounded up to a multiple of the prices' greatest common
/// divisor, never passes the exact optimum; on boards whose prices share a factor the rounding
/// is what lets the bound meet it.
#[test]
fn the_rounded_bound_never_passes_the_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let (mut done, mut rounded_up, mut met) = (0, 0, 0);
    while done < 150 {
        let n = rng.random_range(3..=7usize);
        // Prices with a common factor: equal ones, or any, times a factor.
        let factor = rng.random_range(1..=50u32);
        let costs = random_costs(&mut rng).map(|c| c.min(20_000) * factor);
        let density = rng.random_range(0.1..0.6);
        let Some(instance) = random_instance(&mut rng, n, density, costs) else {
            continue;
        };
        let candidates = Candidates::new(instance.kings());
        let Outcome::Optimal(best, _) = optimum(&instance, &candidates, None, 200_000, None) else {
            continue;
        };
        let relaxation = Relaxation::new(&instance, &candidates);
        let bound = relaxation.lower_bound(best, 300, None);
        let unit = instance.cost_unit();
        assert_eq!(bound % unit, 0, "{instance:?}");
        assert!(
            bound <= best,
            "{instance:?}: bound {bound} above the optimum {best}"
        );
        assert!(best % unit == 0);
        if unit > 1 && bound > 0 {
            rounded_up += 1;
        }
        if bound == best {
            met += 1;
        }
        done += 1;
    }
    // Not a vacuous test: prices with a factor were drawn, and bounds met optima.
    assert!(rounded_up > 50 && met > 10, "{rounded_up} {met}");
}

#[test]
fn a_cheap_cannon_uses_a_screen() {
    // One king in a corner of an empty 6x6 board; the cannon costs 1, the rest 1000: two
    // cannons (one the other's screen) cost 2, and nothing cheaper exists.
    let mut kings = SquareSet::new(6);
    kings.insert(Square::new(0, 0));
    let instance = Instance::new(6, kings, [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1]).unwrap();
    let budget = Budget {
        time: std::time::Duration::from_secs(5),
        steps: Some(1000),
    };
    let solution = solve(&instance, &budget, 1).unwrap();
    assert_eq!(solution.answer.cost, 2);
    assert!(solution.optimal());
    assert!(literally_valid(&instance, &solution.answer.pieces));
}

/// A greedy answer, pruned, on a board of the instance.
fn greedy_board(
    instance: &Instance,
    candidates: &Candidates,
    rng: &mut ChaCha8Rng,
) -> Option<Board> {
    let mut board = Board::new(instance);
    if !greedy(&mut board, candidates, 0.3, rng, None) {
        return None;
    }
    prune(&mut board);
    Some(board)
}

#[test]
fn completing_a_board_checks_every_king_for_less() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut completed = 0;
    for _ in 0..400 {
        let n = rng.random_range(3..=10usize);
        let density = rng.random_range(0.05..0.8);
        let costs = random_costs(&mut rng);
        let Some(instance) = random_instance(&mut rng, n, density, costs) else {
            continue;
        };
        let candidates = Candidates::new(instance.kings());
        let Some(mut board) = greedy_board(&instance, &candidates, &mut rng) else {
            continue;
        };
        // Take some pieces away; any completion cheaper than twice what they cost will do.
        let mut removed = 0u64;
        let mut scratch = Vec::new();
        let cells: Vec<usize> = board.piece_cells().collect();
        for p in cells {
            if rng.random_bool(0.4)
                && let Some(kind) = board.piece_at(p)
            {
                removed += u64::from(instance.cost(kind));
                board.remove(p, &mut scratch);
            }
        }
        if board.unchecked() == 0 {
            continue;
        }
        let rest = board.cost();
        let below = 2 * removed + 1;
        if let Some((added, pieces)) = complete(board, &candidates, below, 3000, None) {
            assert!(added < below);
            assert!(
                literally_valid(&instance, &pieces),
                "{instance:?} {pieces:?}"
            );
            assert_eq!(verify(&instance, &pieces), Ok(rest + added));
            completed += 1;
        }
    }
    assert!(completed > 50, "{completed}");
}

#[test]
fn large_neighbourhood_moves_keep_the_best_answer_valid_and_never_dearer() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut improved = 0;
    let mut tried = 0;
    while tried < 60 {
        let n = rng.random_range(5..=12usize);
        let density = rng.random_range(0.1..0.8);
        let costs = random_costs(&mut rng);
        let Some(instance) = random_instance(&mut rng, n, density, costs) else {
            continue;
        };
        let candidates = Candidates::new(instance.kings());
        let Some(board) = greedy_board(&instance, &candidates, &mut rng) else {
            continue;
        };
        tried += 1;
        let before = board.cost();
        let search_rng = ChaCha8Rng::seed_from_u64(rng.random());
        let mut search = Search::new(board, &candidates, search_rng);
        let cost = search.polish(40, None, 0);
        assert!(cost <= before);
        assert_eq!(cost, search.best_cost());
        assert!(literally_valid(&instance, search.best()));
        assert_eq!(verify(&instance, search.best()), Ok(cost));
        improved += usize::from(cost < before);
        // The local search goes on from the polished answer and keeps it valid.
        let limits = Limits::new(500, None, 0);
        let after = search.resume(&limits, &AtomicBool::new(false));
        assert!(after <= cost);
        assert_eq!(verify(&instance, search.best()), Ok(after));
    }
    assert!(improved > 0);
}

#[test]
fn a_search_resumed_in_parts_is_the_same_as_one_run() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut compared = 0;
    while compared < 20 {
        let costs = random_costs(&mut rng);
        let Some(instance) = random_instance(&mut rng, 11, 0.35, costs) else {
            continue;
        };
        let candidates = Candidates::new(instance.kings());
        let Some(board) = greedy_board(&instance, &candidates, &mut rng) else {
            continue;
        };
        let seed = rng.random();
        let stop = AtomicBool::new(false);
        // Without exploration (which each call starts anew).
        let limits = |steps| Limits::new(steps, None, 0);
        let mut whole = Search::new(board.clone(), &candidates, ChaCha8Rng::seed_from_u64(seed));
        whole.resume(&limits(3000), &stop);
        let mut parts = Search::new(board, &candidates, ChaCha8Rng::seed_from_u64(seed));
        parts.resume(&limits(1000), &stop);
        parts.resume(&limits(2000), &stop);
        assert_eq!(whole.best_cost(), parts.best_cost());
        assert_eq!(whole.best(), parts.best());
        compared += 1;
    }
}

#[test]
fn a_whole_input_is_answered_in_order_within_its_time() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut instances = Vec::new();
    while instances.len() < 8 {
        let n = rng.random_range(2..=14usize);
        let density = rng.random_range(0.05..0.85);
        let costs = random_costs(&mut rng);
        if let Some(i) = random_instance(&mut rng, n, density, costs) {
            instances.push(i);
        }
    }
    // With the clock: every answer valid, in order, and the whole within its time (with room
    // for a loaded machine).
    let start = std::time::Instant::now();
    let mut seen = Vec::new();
    solve_all(
        &instances,
        std::time::Duration::from_millis(800),
        None,
        5,
        |case, solved| {
            let solution = solved.map_err(|e| e.to_string())?;
            let instance = &instances[case - 1];
            assert!(literally_valid(instance, &solution.answer.pieces));
            assert_eq!(
                verify(instance, &solution.answer.pieces),
                Ok(solution.answer.cost)
            );
            assert!(solution.lower_bound <= solution.answer.cost);
            seen.push(case);
            Ok::<(), String>(())
        },
    )
    .unwrap();
    assert_eq!(seen, (1..=instances.len()).collect::<Vec<_>>());
    assert!(start.elapsed() < std::time::Duration::from_millis(2500));
    // With a step count: the same answers every time.
    let answers = || {
        let mut costs = Vec::new();
        solve_all(
            &instances,
            std::time::Duration::ZERO,
            Some(2000),
            5,
            |_, solved| {
                costs.push(solved.map(|s| s.answer).map_err(|e| e.to_string())?);
                Ok::<(), String>(())
            },
        )
        .unwrap();
        costs
    };
    assert_eq!(answers(), answers());
}
