use super::*;
use crate::core::SquareSet;
use crate::showdown::Instance;
use crate::showdown::construction::{greedy, prune};
use crate::showdown::judge::verify;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A random board of a side in `sides` with kings at a density drawn from `densities`, one
/// piece nearly free and the others dear (so that replacing by a cheaper kind pays); None
/// when the draw is not a valid instance.
fn random_instance(
    rng: &mut ChaCha8Rng,
    sides: std::ops::RangeInclusive<usize>,
    densities: std::ops::Range<f64>,
) -> Option<Instance> {
    let n = rng.random_range(sides);
    let density = rng.random_range(densities);
    let mut kings = SquareSet::new(n);
    for sq in SquareSet::full(n).iter() {
        if rng.random_bool(density) {
            kings.insert(sq);
        }
    }
    let mut costs = [0u32; 8];
    for c in &mut costs {
        *c = rng.random_range(1000..100_000);
    }
    costs[rng.random_range(0..8)] = rng.random_range(1..50);
    Instance::new(n, kings, costs).ok()
}

/// A random board of a side in `sides` (kings at a density of 20% to 80%, prices as in
/// [`random_instance`]), its candidates and a randomised greedy answer without its
/// redundant pieces; None when the draw is not a valid instance or the greedy reaches a
/// dead end.
fn random_start(
    rng: &mut ChaCha8Rng,
    sides: std::ops::RangeInclusive<usize>,
) -> Option<(Instance, Candidates, Board)> {
    let instance = random_instance(rng, sides, 0.2..0.8)?;
    let candidates = Candidates::new(instance.kings());
    let mut board = Board::new(&instance);
    if !greedy(&mut board, &candidates, 0.3, rng, None) {
        return None;
    }
    prune(&mut board);
    Some((instance, candidates, board))
}

/// Taking a piece away or replacing it by a cheaper one, and kicks, keep the exact check
/// counts (against a full recount) and the cost, and every answer the search records
/// passes the judge at its cost.
#[test]
fn cheaper_replacements_and_kicks_keep_the_counts_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (mut downs, mut kicks, mut searched) = (0, 0, 0);
    while searched < 40 {
        let Some((instance, candidates, board)) = random_start(&mut rng, 4..=11) else {
            continue;
        };
        searched += 1;
        let mut search = Search::new(board, &candidates, ChaCha8Rng::seed_from_u64(rng.random()));
        let stop = AtomicBool::new(false);
        let one = Limits::new(1, None, 0);
        for step in 0..600 {
            if step % 50 == 49 && !search.best.is_empty() {
                search.kick();
                kicks += 1;
                search.board.assert_consistent(&instance);
                assert!(search.board.cost() < search.best_cost);
            }
            if search.board.piece_count() > 0 && rng.random_range(0..4) == 0 {
                let before: Vec<_> = search.board.placements();
                assert!(search.remove_best());
                let after = search.board.placements();
                if after.len() == before.len() {
                    // A replacement: one square holds a cheaper piece, the rest is kept.
                    let changed: Vec<_> =
                        before.iter().zip(&after).filter(|(a, b)| a != b).collect();
                    assert_eq!(changed.len(), 1);
                    let (old, new) = changed[0];
                    assert_eq!(old.square, new.square);
                    assert!(instance.cost(new.kind) < instance.cost(old.kind));
                    downs += 1;
                } else {
                    assert_eq!(after.len() + 1, before.len());
                }
                search.board.assert_consistent(&instance);
            }
            search.resume(&one, &stop);
            search.board.assert_consistent(&instance);
            assert_eq!(verify(&instance, search.best()), Ok(search.best_cost()));
        }
    }
    assert!(
        downs > 0 && kicks > 0,
        "{downs} replacements, {kicks} kicks"
    );
}

/// While a search explores, its moves may take the board above the best answer's cost, by
/// less than [`SLACK`] of it, and do; the counts stay exact, every answer recorded passes
/// the judge at its cost, and without exploration no move leaves the board at or above
/// the best answer's cost.
#[test]
fn exploring_moves_stay_within_the_slack() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let (mut above, mut searched) = (0, 0);
    while searched < 30 {
        let Some((instance, candidates, board)) = random_start(&mut rng, 6..=14) else {
            continue;
        };
        searched += 1;
        let mut search = Search::new(board, &candidates, ChaCha8Rng::seed_from_u64(rng.random()));
        let stop = AtomicBool::new(false);
        let explore = Limits {
            explore_steps: 1,
            ..Limits::new(1, None, 0)
        };
        let plain = Limits::new(1, None, 0);
        for step in 0..800 {
            let best = search.best_cost;
            let before = search.board.cost();
            let exploring = step < 400;
            search.resume(if exploring { &explore } else { &plain }, &stop);
            search.board.assert_consistent(&instance);
            assert_eq!(verify(&instance, search.best()), Ok(search.best_cost()));
            let cost = search.board.cost();
            if cost > before {
                // A move that added to the board: within the slack, or below the best.
                let room = if exploring {
                    (best as f64 * SLACK) as u64
                } else {
                    0
                };
                assert!(cost < best + room, "cost {cost}, best {best}, room {room}");
                if cost >= best {
                    above += 1;
                }
            }
        }
    }
    assert!(above > 0, "no exploring move went above the best answer");
}

/// The valuations `remove_best` keeps from one call to the next and the list of unchecked
/// kings stay equal to fresh ones (both are compared with a fresh computation at every use
/// in test builds: see `remove_best` and `random_unchecked`) through long searches with
/// kicks, restarts and large-neighbourhood moves on larger boards with sliders and
/// cannons, and most valuations are indeed kept.
#[test]
fn kept_valuations_and_the_unchecked_kings_stay_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut kept, mut valued, mut searched) = (0usize, 0usize, 0);
    while searched < 12 {
        let Some(instance) = random_instance(&mut rng, 10..=18, 0.15..0.8) else {
            continue;
        };
        let candidates = Candidates::new(instance.kings());
        let mut board = Board::new(&instance);
        if !greedy(&mut board, &candidates, 0.3, &mut rng, None) {
            continue;
        }
        searched += 1;
        let mut search = Search::new(board, &candidates, ChaCha8Rng::seed_from_u64(rng.random()));
        let stop = AtomicBool::new(false);
        let some = Limits::new(50, None, 0);
        for round in 0..80 {
            search.mark_stale();
            let pieces: Vec<usize> = search.board.piece_cells().collect();
            valued += pieces.len();
            kept += pieces.iter().filter(|&&p| !search.stale[p]).count();
            search.resume(&some, &stop);
            match round % 20 {
                7 => search.kick(),
                13 => search.restart(Deadline::NEVER),
                17 => {
                    search.polish_with(3, 2, 6, 500, Deadline::NEVER);
                }
                _ => {}
            }
            search.board.assert_consistent(&instance);
            assert_eq!(verify(&instance, search.best()), Ok(search.best_cost()));
        }
    }
    assert!(
        kept * 4 > valued,
        "only {kept} of {valued} valuations were kept between calls"
    );
}

/// A search that meets its target stops, and raises the shared stop flag only when told
/// to (not with a fixed number of steps, whose answers must not depend on which search
/// met it first); one that does not meet it leaves the flag alone.
#[test]
fn meeting_the_target_raises_the_stop_flag_only_when_told() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut met = 0;
    while met < 10 {
        let Some((_, candidates, board)) = random_start(&mut rng, 6..=12) else {
            continue;
        };
        let seed = rng.random();
        let search = || Search::new(board.clone(), &candidates, ChaCha8Rng::seed_from_u64(seed));
        let never = AtomicBool::new(false);
        let first = search().run(&Limits::new(3_000, None, 0), &never);
        assert!(!never.load(Ordering::Relaxed));
        if first.cost >= board.cost() {
            continue;
        }
        met += 1;
        // The same search (same seed) meets a target of its own best within as many steps.
        for stop_others in [false, true] {
            let stop = AtomicBool::new(false);
            let limits = Limits {
                stop_others,
                ..Limits::new(3_000, None, first.cost)
            };
            let found = search().run(&limits, &stop);
            assert_eq!(found.cost, first.cost);
            assert!(found.steps <= first.steps);
            assert_eq!(stop.load(Ordering::Relaxed), stop_others);
        }
    }
}
