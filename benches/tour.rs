//! `tour` on 100 random scenarios with 14 knights (the statement's maximum) and 0..=10 pawns.
//!
//! Besides timing the library, the run writes the same input to `target/tour-bench.in`, so the
//! whole program can be timed side by side with the C++ baseline (`experiments/baselines/tour.cpp`):
//!
//! ```text
//! cargo bench --bench tour
//! g++ -O2 -o target/tour-baseline experiments/baselines/tour.cpp
//! hyperfine -N 'target/release/chess-puzzles tour target/tour-bench.in' \
//!              'target/tour-baseline target/tour-bench.in'
//! ```

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};

use chess_puzzles::tour::{self, Options, Scenario, Solver, check_path, random};

/// The benchmark's scenarios: fixed by the seed.
fn scenarios() -> Vec<Scenario> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2919);
    (0..100)
        .map(|_| {
            let pawns = rng.random_range(0..=10);
            random::scenario(&mut rng, 14, pawns).expect("16 to 26 pieces fit")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let list = scenarios();
    let input = random::judge_input(&list);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/target/tour-bench.in");
    if let Err(e) = std::fs::write(path, &input) {
        eprintln!("could not write {path}: {e}");
    }

    // The answers are checked before anything is timed: every path is valid, and the mix of
    // possible and impossible scenarios is the one this seed gives.
    let mut solver = Solver::new();
    let mut possible = 0;
    for s in &list {
        if let Some(p) = solver.solve(s) {
            check_path(s, &p).expect("a valid path");
            possible += 1;
        }
    }
    eprintln!("{possible} of {} scenarios possible", list.len());
    assert!(possible > 0);

    c.bench_function("tour: 100 random scenarios, 14 knights", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(4096);
            tour::run(black_box(input.as_bytes()), &mut out, &Options::default())
                .expect("valid input");
            out
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
