//! The band join that counts empty boards (`nqueens::band`), one thread: whole counts of
//! N = 14 to 16 (asserted against OEIS A000170), one shard of N = 17, and the kernels that
//! count disjoint footprint pairs, each against the plain one, on random lists of the sizes
//! the join meets (64 x 64 at N = 16, 300 x 300 at N = 18). Whole-process comparisons with
//! the fastest public counter are in the README (`nqueens` section).

use criterion::{Criterion, criterion_group, criterion_main};

use rand::RngExt;

use chess_puzzles::judge;
use chess_puzzles::nqueens::band::{self, kernel::Kernel};
use chess_puzzles::nqueens::{Control, shard};

fn bench(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let mut group = c.benchmark_group("nqueens band");
    group.sample_size(10);

    // OEIS A000170.
    for (n, expected) in [(14usize, 365_596u128), (15, 2_279_184), (16, 14_772_512)] {
        group.bench_function(format!("count {n}"), |b| {
            b.iter(|| {
                let count = pool.install(|| band::count(n, &Control::new()));
                assert_eq!(count, Some(expected));
            })
        });
    }

    // One shard in eight of N = 17: the eight add up to 95,815,104 (tested elsewhere).
    let spec = shard::Spec::new(3, 8).expect("shard 3 of 8");
    group.bench_function("count 17, shard 3/8", |b| {
        b.iter(|| {
            let count = pool.install(|| shard::count(17, spec, &Control::new()));
            assert!(count.is_some_and(|c| c > 0));
        })
    });

    // Footprints of 30 bits with about 12 set, like the join's.
    let mut rng = judge::rng(18);
    let mut list = |len: usize| -> Vec<u32> {
        (0..len)
            .map(|_| (0..12).fold(0u32, |f, _| f | 1 << rng.random_range(0..30)))
            .collect()
    };
    for (wl, el) in [(64, 64), (300, 300)] {
        let (w, e) = (list(wl), list(el));
        let expected = Kernel::Plain.disjoint_pairs(&w, &e);
        for kernel in Kernel::available() {
            group.bench_function(format!("kernel {kernel:?} {wl}x{el}"), |b| {
                b.iter(|| assert_eq!(kernel.disjoint_pairs(&w, &e), expected))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
