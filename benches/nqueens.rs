//! The three `nqueens` questions in the library, one thread: counting an empty board
//! (n = 12..14), counting with given queens (a 30x30 board with half its queens given), and the
//! best weighted placement of random 20x20 boards with weights 1..99. Whole-process comparisons
//! with the baseline counter are in the README (`nqueens` section).

use criterion::{Criterion, criterion_group, criterion_main};

use rand::RngExt;

use chess_puzzles::judge;
use chess_puzzles::nqueens::best::{self, Weights};
use chess_puzzles::nqueens::{self, Control, Fix, Problem};

/// A placement of n queens for n not 2 or 3 modulo 6 (the explicit construction of
/// Hoffman, Loessi and Moore, 1969): the row (1-based) of the queen of each column.
fn constructed(n: u64) -> Vec<u64> {
    let mut rows = vec![0; n as usize];
    for i in 1..=n / 2 {
        rows[(2 * i - 1) as usize] = i;
        rows[(2 * i - 2) as usize] = n / 2 + i;
    }
    rows
}

fn bench(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let mut group = c.benchmark_group("nqueens");
    group.sample_size(10);

    // OEIS A000170.
    for (n, expected) in [(12u64, 14_200u128), (13, 73_712), (14, 365_596)] {
        let problem = Problem::new(n, &[]).expect("an empty board");
        group.bench_function(format!("count {n}"), |b| {
            b.iter(|| {
                let count = pool.install(|| nqueens::count(&problem, &Control::new()));
                assert_eq!(count, Some(expected));
            })
        });
    }

    // Half the queens of a known placement of a 30x30 board given, every other column.
    let full = constructed(30);
    let fixes: Vec<Fix> = (0..30)
        .step_by(2)
        .map(|c| Fix {
            row: full[c],
            col: c as u64 + 1,
        })
        .collect();
    let problem = Problem::new(30, &fixes).expect("non-attacking given queens");
    group.bench_function("count 30, 15 given", |b| {
        b.iter(|| {
            let count = pool.install(|| nqueens::count(&problem, &Control::new()));
            // The construction itself completes the given queens.
            assert!(count.is_some_and(|c| c >= 1));
        })
    });

    // Seeded, so the boards are the same on every run.
    let mut rng = judge::rng(20);
    let boards: Vec<Weights> = (0..5)
        .map(|_| {
            let weights = (0..400).map(|_| rng.random_range(1..=99u32)).collect();
            Weights::new(20, weights).expect("a 20x20 board")
        })
        .collect();
    group.bench_function("best 5 random 20x20", |b| {
        b.iter(|| {
            for board in &boards {
                let best = best::solve(board, &Control::new()).expect("no time limit");
                // At most one queen per row, each weight at most 99.
                assert!(best.score <= 20 * 99 && best.score >= 20);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
