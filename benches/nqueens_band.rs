//! The band join that counts empty boards (`nqueens::band`), one thread: whole counts of
//! N = 14 to 18 (asserted against OEIS A000170; the small end of the counting table of
//! `docs/counting.md`), one shard of N = 17 and of N = 20 (sides of 9 columns), and the
//! kernels that count disjoint footprint pairs, each against the plain one, on random lists
//! of the sizes the join meets (64 x 64 at N = 16, 300 x 300 at N = 18, 700 x 700 of 34-bit
//! footprints at N = 21). Whole-process comparisons with the fastest public counter are in
//! `docs/counting.md`.

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
    for (n, expected) in [
        (14usize, 365_596u128),
        (15, 2_279_184),
        (16, 14_772_512),
        (17, 95_815_104),
        (18, 666_090_624),
    ] {
        group.bench_function(format!("count {n}"), |b| {
            b.iter(|| {
                let count = pool.install(|| band::count(n, &Control::new()));
                assert_eq!(count, Some(expected));
            })
        });
    }

    // One shard in eight of N = 17, one in 200 of N = 20: the shards add up to the whole
    // count (tested elsewhere).
    for (n, index, shards) in [(17usize, 3u64, 8u64), (20, 57, 200)] {
        let spec = shard::Spec::new(index, shards).expect("a shard");
        group.bench_function(format!("count {n}, shard {spec}"), |b| {
            b.iter(|| {
                let counted = pool.install(|| shard::count(n, spec, &Control::new()));
                assert!(counted.is_some_and(|c| c.tally.count > 0 && c.tally.verified()));
            })
        });
    }

    // Footprints of 30 bits (u32) or 34 bits (u64) with about 12 set, like the join's.
    let mut rng = judge::rng(18);
    let mut list = |len: usize, bits: u32| -> Vec<u64> {
        (0..len)
            .map(|_| (0..12).fold(0u64, |f, _| f | 1 << rng.random_range(0..bits)))
            .collect()
    };
    for (wl, el) in [(64, 64), (300, 300)] {
        let (w, e) = (list(wl, 30), list(el, 30));
        let (w, e): (Vec<u32>, Vec<u32>) = (
            w.iter().map(|&f| f as u32).collect(),
            e.iter().map(|&f| f as u32).collect(),
        );
        let expected = Kernel::Plain.disjoint_pairs(&w, &e);
        for kernel in Kernel::available() {
            group.bench_function(format!("kernel {kernel:?} u32 {wl}x{el}"), |b| {
                b.iter(|| assert_eq!(kernel.disjoint_pairs(&w, &e), expected))
            });
        }
    }
    let (w, e) = (list(700, 34), list(700, 34));
    let expected = Kernel::Plain.disjoint_pairs(&w, &e);
    for kernel in Kernel::available() {
        group.bench_function(format!("kernel {kernel:?} u64 700x700"), |b| {
            b.iter(|| assert_eq!(kernel.disjoint_pairs(&w, &e), expected))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
