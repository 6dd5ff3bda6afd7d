//! The kernels on a device against their twin, word for word, and the counts against the
//! CPU's and OEIS A000170. On CI the device is Mesa's software Vulkan device (lavapipe),
//! which `.ci/run` installs; elsewhere, without a device, these tests say so and pass.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::counter::{self, Kernels, Stats, Twin};
use super::layout::{BATCH_WORDS, Shape, Tables, Tuning, Work};
use super::twin;
use super::*;
use crate::nqueens::band::{Band, Config};

/// OEIS A000170 from n = 6.
const A000170: [u128; 11] = [
    4, 40, 92, 352, 724, 2680, 14_200, 73_712, 365_596, 2_279_184, 14_772_512,
];

/// Every variant of the kernels: tables, work and checks.
fn variants() -> Vec<Tuning> {
    let mut all = Vec::new();
    for tables in [Tables::Padded, Tables::Strided] {
        for work in [Work::Queue, Work::Stride] {
            for checks in [false, true] {
                all.push(Tuning {
                    tables,
                    work,
                    checks,
                    ..Tuning::default()
                });
            }
        }
    }
    all
}

/// The device (a software one allowed), or `None` (after saying why) where there is none
/// and this is not CI.
fn gpu() -> Option<Gpu> {
    gpu_with(Tuning::default())
}

/// The device, its kernels made with `tuning`.
fn gpu_with(tuning: Tuning) -> Option<Gpu> {
    let options = Options {
        allow_software: true,
        tuning,
    };
    match Gpu::open_with(&options) {
        Ok(gpu) => Some(gpu),
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI has no GPU device for the kernels' tests: {e}")
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

#[test]
fn counts_every_default_band_from_6_to_13() {
    let Some(gpu) = gpu() else { return };
    for n in MIN_N..=13 {
        let plan = Plan::new(n, &Control::new()).unwrap();
        let tally = gpu
            .count(&plan, 0..plan.units(), &Control::new())
            .unwrap()
            .unwrap();
        assert!(tally.verified());
        assert_eq!(
            tally.count,
            A000170[n - MIN_N],
            "n = {n} on {}",
            gpu.adapter()
        );
    }
}

#[test]
fn counts_every_band_width_to_12() {
    let Some(gpu) = gpu() else { return };
    for n in MIN_N..=12 {
        for k in 0..=n / 2 {
            let Some(band) = Band::new(n, k) else {
                continue;
            };
            let plan = Plan::with_band(band, &Control::new()).unwrap();
            let tally = gpu
                .count(&plan, 0..plan.units(), &Control::new())
                .unwrap()
                .unwrap();
            assert_eq!(
                tally.count,
                A000170[n - MIN_N],
                "n = {n}, band {}",
                band.width()
            );
        }
    }
}

#[test]
fn random_ranges_of_larger_boards_match_the_cpu() {
    let Some(gpu) = gpu() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(39);
    // The default bands to 18; beyond, the narrower bands of shards (the software device's
    // buffers hold 128 MB, less than a configuration's partial sides of 9 columns at 19).
    for (n, shards) in [
        (14, 1),
        (15, 1),
        (16, 1),
        (17, 1),
        (18, 1),
        (19, 1000),
        (20, 2000),
        (21, 20_000),
    ] {
        let plan = Plan::for_shards(n, shards, &Control::new()).unwrap();
        for _ in 0..2 {
            // A few hundred units somewhere, crossing configurations where they are few.
            let len = rng.random_range(1..=400u64.min(plan.units()));
            let start = rng.random_range(0..=plan.units() - len);
            let range = start..start + len;
            let cpu = plan.count(range.clone(), &Control::new()).unwrap();
            let on_gpu = gpu
                .count(&plan, range.clone(), &Control::new())
                .unwrap()
                .unwrap();
            assert_eq!(on_gpu, cpu, "n = {n}, units {range:?}");
        }
    }
}

#[test]
fn a_list_too_long_for_the_buffer_is_counted_on_the_cpu() {
    let Some(gpu) = gpu() else { return };
    let plan = Plan::new(13, &Control::new()).unwrap();
    let mut kernels = gpu
        .kernels_with(plan.band(), 20, &Tuning::default())
        .unwrap();
    let (tally, stats) = counter::count_whole(&mut kernels, &plan);
    assert_eq!(tally.count, A000170[13 - MIN_N]);
    assert!(stats.units_on_cpu > 0, "{stats:?}");
}

#[test]
fn loops_cut_short_by_the_device_are_flagged_and_counted_again() {
    // One workgroup of the pairing kernel takes every item of a dispatch in turn: on Mesa's
    // software device, 1,386 items of n = 13 run its invocations past the limit of 65,535 loop
    // iterations, which cuts their loops short. Such a dispatch must be flagged (never give
    // wrong pairs unflagged), and the count done again smaller must be right.
    let Some(gpu) = gpu() else { return };
    let band = Band::with_side(13, 6).unwrap();
    let plan = Plan::with_band(band, &Control::new()).unwrap();
    let one = Tuning {
        workgroups: Some(1),
        ..Tuning::default()
    };
    let mut kernels = gpu.kernels_with(&band, 16_384, &one).unwrap();
    let shape = *kernels.shape();
    let batch = configs(&plan, 3);
    let mut tables = Vec::new();
    for (config, _) in &batch {
        shape.push_tables(&band, config, &mut tables);
    }
    let k = batch.len();
    let totals = kernels.partial_totals(&tables, k).unwrap().unwrap();
    let counts = twin::count_partials(&shape, &tables, k);
    let (starts, _) = twin::scan(&shape, &counts, k);
    let (table, items, base) = batch_table(&batch, &totals);
    assert!(kernels.write_partials(&table, k, base as usize).unwrap());
    let partials = twin::write_partials(&shape, &tables, &table, &starts, k, base as usize);
    let input = twin::PairInputs {
        tables: &tables,
        counts: &counts,
        starts: &starts,
        batch: &table,
        partials: &partials,
        configs: k,
    };
    let mut flagged = 0;
    for first in (0..items).step_by(1386) {
        let range = first..(first + 1386).min(items);
        match kernels.pairs_for_tests(range.clone()) {
            Some((got, tally)) => {
                let expected = twin::count_pairs(&shape, &input, range.clone());
                assert_eq!(tally, twin::tally_pairs(&input, range.clone(), &expected));
                assert_eq!(got, expected);
            }
            None => flagged += 1,
        }
    }
    // Mesa's software device has the limit (llvmpipe, the back end of lavapipe, as of Mesa
    // 22.3 on CI); a GPU has none.
    let llvmpipe = gpu.adapter().name.starts_with("llvmpipe");
    if llvmpipe {
        assert!(
            flagged > 0,
            "llvmpipe cut none of the long dispatches short"
        );
    }
    // The whole count on one workgroup: right, with the dispatches cut short done again.
    let (tally, stats) = counter::count_whole(&mut kernels, &plan);
    assert_eq!(tally.count, A000170[13 - MIN_N]);
    if llvmpipe {
        assert!(stats.cut_dispatches > 0, "{stats:?}");
    }
}

/// The batch table of `batch` (configurations and their numbers of row sets) whose segments
/// hold `totals` partial sides: per configuration its first item, its first row set, where
/// its sides' partial sides start and its mirror flag, then the number of items; with the
/// number of items and of partial sides.
fn batch_table(batch: &[(Config, u64)], totals: &[u32]) -> (Vec<u32>, u32, u32) {
    let mut table = vec![0u32; (batch.len() + 1) * BATCH_WORDS];
    let (mut items, mut base) = (0u32, 0u32);
    for (c, (config, sets)) in batch.iter().enumerate() {
        let at = c * BATCH_WORDS;
        table[at..at + 5].copy_from_slice(&[
            items,
            0,
            base,
            base + totals[2 * c],
            u32::from(config.mirrored()),
        ]);
        items += *sets as u32;
        base += totals[2 * c] + totals[2 * c + 1];
    }
    table[batch.len() * BATCH_WORDS] = items;
    (table, items, base)
}

/// Up to `count` configurations of `plan`'s band, with their numbers of row sets, whose
/// partial sides fit 64 MB each (the software device's buffers hold 128 MB; at n = 21 the
/// first configurations of sides of 9 take about 70 MB, at n = 23 18 to 29 MB).
fn configs(plan: &Plan, count: usize) -> Vec<(Config, u64)> {
    let shape = Shape::new(plan.band(), 16_384);
    let mut out = Vec::new();
    plan.walk(0..plan.units(), |_, config, sets| {
        let mut tables = Vec::new();
        shape.push_tables(plan.band(), &config, &mut tables);
        let partials: u32 = twin::count_partials(&shape, &tables, 1).iter().sum();
        if partials as usize * 8 <= 64 << 20 {
            out.push((config, sets.end - sets.start));
        }
        if out.len() == count {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    out
}

#[test]
fn each_kernel_matches_its_twin_word_for_word() {
    let Some(gpu) = gpu() else { return };
    let cases = [
        (8, 3, 3),
        (11, 4, 3),
        (13, 6, 3),
        (16, 7, 3),
        (18, 8, 2),
        (23, 9, 1),
    ];
    matches_the_twin(&gpu, &cases, 4000);
}

#[test]
fn every_variant_matches_the_twin_word_for_word() {
    for tuning in variants() {
        let Some(gpu) = gpu_with(tuning) else { return };
        // Tiles of one word and of several, whole and cut short (sides of 4 to 9).
        matches_the_twin(&gpu, &[(11, 4, 2), (16, 7, 2), (23, 9, 1)], 1500);
    }
}

/// The kernels of `gpu` against their twin on configurations of each `(n, side, count)`,
/// the pairs of at most `most` items each.
fn matches_the_twin(gpu: &Gpu, cases: &[(usize, usize, usize)], most: u32) {
    let tuning = *gpu.tuning();
    for &(n, side, count) in cases {
        let band = Band::with_side(n, side).unwrap();
        let plan = Plan::with_band(band, &Control::new()).unwrap();
        let mut kernels = gpu.kernels(&band).unwrap();
        let shape = *kernels.shape();
        let batch = configs(&plan, count);
        let mut tables = Vec::new();
        for (config, _) in &batch {
            shape.push_tables(&band, config, &mut tables);
        }
        let k = batch.len();
        let totals = kernels.partial_totals(&tables, k).unwrap().unwrap();
        let counts = twin::count_partials(&shape, &tables, k);
        let (starts, twin_totals) = twin::scan(&shape, &counts, k);
        assert_eq!(totals, twin_totals, "totals, n = {n}");
        assert_eq!(
            kernels.read_for_tests("counts", counts.len()),
            counts,
            "n = {n}"
        );
        assert_eq!(
            kernels.read_for_tests("starts", starts.len()),
            starts,
            "n = {n}"
        );
        // The batch table, and every partial side written.
        let (table, items, base) = batch_table(&batch, &totals);
        assert!(kernels.write_partials(&table, k, base as usize).unwrap());
        let partials = twin::write_partials(&shape, &tables, &table, &starts, k, base as usize);
        let on_gpu = kernels.read_for_tests("partials", 2 * base as usize);
        let mut on_gpu: Vec<[u32; 2]> = on_gpu.chunks_exact(2).map(|w| [w[0], w[1]]).collect();
        let mut expected = partials.clone();
        // Within a group the threads race: compare each group sorted.
        for seg in 0..2 * k {
            for g in 0..shape.groups {
                let i = seg * shape.groups + g;
                let start = (table[(seg / 2) * BATCH_WORDS + 2 + seg % 2] + starts[i]) as usize;
                let range = start..start + counts[i] as usize;
                on_gpu[range.clone()].sort_unstable();
                expected[range].sort_unstable();
            }
        }
        // Every group was written whole: the write pass's cursors end at the counts.
        let cursors = kernels.read_for_tests("counts", counts.len());
        assert_eq!(
            cursors, counts,
            "the partial sides written per group, n = {n}"
        );
        assert_eq!(on_gpu.len(), expected.len(), "partial sides, n = {n}");
        if let Some(i) = (0..on_gpu.len()).find(|&i| on_gpu[i] != expected[i]) {
            panic!(
                "partial sides, n = {n}: {} of {} differ, the first at {i}: {:x?} on the device, \
                 {:x?} by the twin",
                (0..on_gpu.len())
                    .filter(|&i| on_gpu[i] != expected[i])
                    .count(),
                on_gpu.len(),
                on_gpu[i],
                expected[i]
            );
        }
        // The pairs of every item.
        let input = twin::PairInputs {
            tables: &tables,
            counts: &counts,
            starts: &starts,
            batch: &table,
            partials: &partials,
            configs: k,
        };
        // Every item of the small bands, the first few thousand of the larger: each item's
        // pairs, and the dispatch's sums per configuration.
        // A dispatch the software device cut short (a workgroup taking many items from the
        // queue runs past its loop limit) is done again in halves, as the host does.
        let mut at = 0;
        let mut size = 777;
        while at < items.min(most) {
            let end = (at + size).min(items);
            let Some((got, tally)) = kernels.pairs_for_tests(at..end) else {
                assert!(size > 1, "one item cut short, n = {n}, {tuning:?}");
                size = size.div_ceil(2);
                continue;
            };
            let expected = twin::count_pairs(&shape, &input, at..end);
            assert_eq!(
                got, expected,
                "pairs, n = {n}, items {at}..{end}, {tuning:?}"
            );
            assert_eq!(
                tally,
                twin::tally_pairs(&input, at..end, &expected),
                "sums, n = {n}, items {at}..{end}, {tuning:?}"
            );
            at = end;
        }
    }
}

#[test]
fn the_twin_matches_the_cpu_on_random_ranges() {
    let mut rng = ChaCha8Rng::seed_from_u64(139);
    for n in [14, 16, 18, 19, 21] {
        let plan = Plan::new(n, &Control::new()).unwrap();
        let len = rng.random_range(1..=100u64);
        let start = rng.random_range(0..=plan.units() - len);
        let shape = Shape::new(plan.band(), 16_384);
        let mut twin = Twin::new(shape, 16, usize::MAX);
        let got = counter::count(
            &mut twin,
            &plan,
            start..start + len,
            &Control::new(),
            &mut Stats::default(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            got,
            plan.count(start..start + len, &Control::new()).unwrap(),
            "n = {n}"
        );
    }
}

/// The default band's shape at `n`.
fn default_shape(n: usize) -> Shape {
    Shape::new(Plan::new(n, &Control::new()).unwrap().band(), 16_384)
}

#[test]
fn the_padded_tables_take_no_bank_conflict_and_cost_less_than_the_pairs() {
    // At N = 21 (sides of 9, 34 footprint bits, 7 chunks) a unit's lists hold about 1,000 to
    // 1,250 sides each (EXPERIMENTS.md); every size from one word to many tiles is checked.
    let shape = default_shape(21);
    for (wn, en) in [
        (1, 1),
        (31, 33),
        (700, 512),
        (1_100, 1_100),
        (1_250, 1_014),
        (5_872, 5_872),
    ] {
        let padded = twin::unit_traffic(&shape, Tables::Padded, wn, en);
        for (phase, t) in [
            ("tile", padded.tile),
            ("planes", padded.planes),
            ("masks", padded.masks),
            ("pairs", padded.pairs),
        ] {
            assert_eq!(t.wavefronts, t.minimum, "{phase}, {wn} x {en}: {t:?}");
        }
        let strided = twin::unit_traffic(&shape, Tables::Strided, wn, en);
        assert!(
            strided.planes.wavefronts > strided.planes.minimum,
            "{wn} x {en}"
        );
        assert!(
            strided.masks.wavefronts > strided.masks.minimum,
            "{wn} x {en}"
        );
        assert_eq!(strided.pairs, padded.pairs);
        if wn >= 700 {
            // Where the pairs are many, the padded build costs less than the pair loop.
            assert!(
                padded.build().wavefronts < padded.pairs.wavefronts,
                "{wn} x {en}: {padded:?}"
            );
        }
        if (wn, en) == (1_100, 1_100) {
            // At the mean list lengths of N = 21, the strided build cost more than the pairs.
            assert!(
                strided.build().wavefronts > padded.pairs.wavefronts,
                "{wn} x {en}: {strided:?}"
            );
        }
    }
}

#[test]
fn the_traffic_model_sees_a_conflict_where_there_is_one() {
    let mut t = twin::Traffic::default();
    // Lanes 32 words apart: one bank, 32 wavefronts; one word for all lanes: a broadcast.
    t.access((0..32).map(|i| 32 * i));
    assert_eq!((t.accesses, t.wavefronts, t.minimum), (1, 32, 1));
    t.access((0..32).map(|_| 5));
    assert_eq!((t.accesses, t.wavefronts, t.minimum), (2, 33, 2));
    // 64-bit loads by 32 lanes, consecutive: two wavefronts, the least there can be.
    t.access((0..32).flat_map(|i| [2 * i, 2 * i + 1]));
    assert_eq!((t.accesses, t.wavefronts, t.minimum), (3, 35, 4));
}

/// Workgroup-memory wavefronts per unit and phase, both layouts, over units sampled from
/// configurations of N = 19 to 21 (their real list lengths): the table of EXPERIMENTS.md.
/// `cargo test --release --lib traffic_table -- --ignored --nocapture` (a minute or two).
#[test]
#[ignore]
fn traffic_table() {
    let mut rng = ChaCha8Rng::seed_from_u64(45);
    println!(
        "| N | units | west / east (mean) | layout | tile | planes | masks | build | pairs | \
         build / pairs |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for n in [19, 20, 21] {
        let plan = Plan::new(n, &Control::new()).unwrap();
        let shape = Shape::new(plan.band(), 16_384);
        let mut all = Vec::new();
        plan.walk(0..plan.units(), |_, config, sets| {
            all.push((config, sets));
            std::ops::ControlFlow::Continue(())
        });
        let mut sizes = Vec::new();
        for _ in 0..3 {
            let (config, sets) = all[rng.random_range(0..all.len())].clone();
            let mut tables = Vec::new();
            shape.push_tables(plan.band(), &config, &mut tables);
            let counts = twin::count_partials(&shape, &tables, 1);
            let (starts, totals) = twin::scan(&shape, &counts, 1);
            let total = (totals[0] + totals[1]) as usize;
            let table = [
                0,
                sets.start as u32,
                0,
                totals[0],
                u32::from(config.mirrored()),
                0,
                0,
                0,
                (sets.end - sets.start) as u32,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
            ];
            let partials = twin::write_partials(&shape, &tables, &table, &starts, 1, total);
            let input = twin::PairInputs {
                tables: &tables,
                counts: &counts,
                starts: &starts,
                batch: &table,
                partials: &partials,
                configs: 1,
            };
            for _ in 0..40 {
                let index = sets.start + rng.random_range(0..sets.end - sets.start);
                let west = crate::nqueens::gpu::layout::unrank(index as u32, shape.side as u32);
                let east = ((1u32 << shape.free) - 1) ^ west;
                let w = twin::side_list(&shape, &input, 0, 0, west).len();
                let e = twin::side_list(&shape, &input, 0, 1, east).len();
                sizes.push((w, e));
            }
        }
        let units = sizes.len() as u64;
        let (mw, me) = (
            sizes.iter().map(|s| s.0).sum::<usize>() as u64 / units,
            sizes.iter().map(|s| s.1).sum::<usize>() as u64 / units,
        );
        for tables in [Tables::Strided, Tables::Padded] {
            let mut sum = twin::UnitTraffic::default();
            for &(w, e) in &sizes {
                let t = twin::unit_traffic(&shape, tables, w, e);
                sum.tile = sum.tile.plus(t.tile);
                sum.planes = sum.planes.plus(t.planes);
                sum.masks = sum.masks.plus(t.masks);
                sum.pairs = sum.pairs.plus(t.pairs);
            }
            let per = |t: twin::Traffic| t.wavefronts / units;
            println!(
                "| {n} | {units} | {mw} / {me} | {tables:?} | {} | {} | {} | {} | {} | {:.2} |",
                per(sum.tile),
                per(sum.planes),
                per(sum.masks),
                per(sum.build()),
                per(sum.pairs),
                sum.build().wavefronts as f64 / sum.pairs.wavefronts as f64
            );
        }
    }
}
