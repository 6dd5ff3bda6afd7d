//! The band join against the backtracker, OEIS A000170, an independent reference and itself.

use super::*;
use crate::core::placements;

/// OEIS A000170 from n = 6.
const A000170: [u128; 11] = [
    4, 40, 92, 352, 724, 2680, 14_200, 73_712, 365_596, 2_279_184, 14_772_512,
];

#[test]
fn counts_match_the_backtracker() {
    for n in MIN_N..=10 {
        let expected = placements::all(n).len() as u128;
        assert_eq!(count(n, &Control::new()), Some(expected), "n = {n}");
    }
}

#[test]
fn counts_match_oeis() {
    for (i, &expected) in A000170.iter().enumerate() {
        let n = MIN_N + i;
        assert_eq!(count(n, &Control::new()), Some(expected), "n = {n}");
    }
}

#[test]
fn every_band_width_gives_the_same_count() {
    for n in MIN_N..=13 {
        let expected = placements::all(n).len() as u128;
        for k in 0..=n / 2 {
            if let Some(band) = Band::new(n, k) {
                let plan = Plan::with_band(band, &Control::new()).unwrap();
                let got = plan.count(0..plan.units(), &Control::new()).unwrap();
                assert!(got.verified());
                assert_eq!(got.count, expected, "n = {n}, band {}", band.width());
            }
        }
    }
}

/// The band's queens of `config` as (row, column), and the side columns.
fn board(band: &Band, config: &Config) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let queens = (0..band.width)
        .map(|i| (usize::from(config.rows[i]), band.first + i))
        .collect();
    let west = (0..band.first).collect();
    let east = (band.first + band.width..band.n).collect();
    (queens, west, east)
}

/// Every kernel, with and without the vectorised completion, in words `W`.
fn workspaces<W: Word>() -> Vec<Workspace<W>> {
    Kernel::available()
        .into_iter()
        .flat_map(|kernel| [Workspace::new(kernel, false), Workspace::new(kernel, true)])
        .collect()
}

/// Checks every configuration of `band` against the reference, with every workspace.
fn check_every_configuration<W: Word>(band: &Band, works: &mut [Workspace<W>]) {
    for config in band.configs() {
        let (queens, west, east) = board(band, &config);
        let expected = reference::count(band.n, &queens, &west, &east);
        for work in works.iter_mut() {
            assert_eq!(
                band.count_config(&config, work),
                expected,
                "n = {}, band {}, {config:?}, {:?}",
                band.n,
                band.width,
                work.kernel
            );
        }
    }
}

#[test]
fn every_configuration_matches_the_reference() {
    // Every band width of small boards, every configuration, every kernel, with and
    // without the vectorised completion, in both words where the side fits them.
    let (mut narrow, mut wide) = (workspaces::<u32>(), workspaces::<u64>());
    for n in MIN_N..=11 {
        for k in 0..=n / 2 {
            let Some(band) = Band::new(n, k) else {
                continue;
            };
            if band.side <= u32::MAX_SIDE {
                check_every_configuration(&band, &mut narrow);
            }
            check_every_configuration(&band, &mut wide);
        }
    }
}

#[test]
fn sampled_configurations_of_larger_boards_match_the_reference() {
    use rand::RngExt;
    let mut rng = crate::judge::rng(3);
    for n in [12, 13, 14, 15, 16] {
        let band = Band::default_for(n).unwrap();
        let configs = band.configs();
        let (mut narrow, mut wide) = (Workspace::<u32>::default(), Workspace::<u64>::default());
        for _ in 0..6 {
            let config = configs[rng.random_range(0..configs.len())];
            let (queens, west, east) = board(&band, &config);
            let expected = reference::count(n, &queens, &west, &east);
            assert_eq!(
                band.count_config(&config, &mut wide),
                expected,
                "n = {n}, {config:?}"
            );
            if band.side <= u32::MAX_SIDE {
                assert_eq!(band.count_config(&config, &mut narrow), expected, "n = {n}");
            }
        }
    }
}

/// Every configuration of `band` (not only one per orbit), each counted for itself.
fn every_config(band: &Band) -> Vec<Config> {
    fn walk(b: &Band, c: usize, rows: &mut [u8; MAX_BAND], out: &mut Vec<Config>) {
        if c == b.width {
            out.push(Config {
                rows: *rows,
                weight: 1,
                mirrored: false,
            });
            return;
        }
        for r in 0..b.n {
            let ok = (0..c).all(|p| {
                let q = usize::from(rows[p]);
                q != r && q.abs_diff(r) != c - p
            });
            if ok {
                rows[c] = r as u8;
                walk(b, c + 1, rows, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(band, 0, &mut [0; MAX_BAND], &mut out);
    out
}

#[test]
fn wide_sides_agree_with_a_wider_band() {
    // Sides of 9 columns (u64 words, 18 free rows, footprints of up to 34 bits): the
    // placements with the middle queens of n = 19 and 20 on given rows, counted by a band
    // of one or two columns, and as the sum over the bands of three or four columns (sides
    // of 8) that have those middle queens: two decompositions of the same placements.
    for (n, middle) in [(19usize, &[5u8][..]), (20, &[3, 11][..])] {
        let k = 1 - n % 2;
        let (wide, narrow) = (Band::new(n, k).unwrap(), Band::new(n, k + 1).unwrap());
        assert_eq!((wide.side, narrow.side), (9, 8));
        let mut rows = [0u8; MAX_BAND];
        rows[..middle.len()].copy_from_slice(middle);
        let config = Config {
            rows,
            weight: 1,
            mirrored: false,
        };
        let mut work = Workspace::<u64>::default();
        let by_wide = wide.count_config(&config, &mut work);
        let mut narrow_work = Workspace::<u32>::default();
        let by_narrow: u64 = every_config(&narrow)
            .iter()
            .filter(|c| &c.rows[1..1 + middle.len()] == middle)
            .map(|c| narrow.count_config(c, &mut narrow_work))
            .sum();
        assert!(by_wide > 0);
        assert_eq!(by_wide, by_narrow, "n = {n}, middle {middle:?}");
    }
}

#[test]
fn orbit_weights_cover_every_configuration() {
    // The weights of the canonical configurations add up to all configurations.
    for n in [6, 7, 10, 11] {
        for k in 1..=2 {
            let Some(band) = Band::new(n, k) else {
                continue;
            };
            let all = every_config(&band).len() as u64;
            let weighted: u64 = band.configs().iter().map(Config::weight).sum();
            assert_eq!(weighted, all, "n = {n}, k = {k}");
        }
    }
}

#[test]
fn shards_add_up_to_the_whole_count() {
    use rand::RngExt;
    let mut rng = crate::judge::rng(11);
    for n in [8, 9, 12, 13] {
        let plan = Plan::new(n, &Control::new()).unwrap();
        let whole = plan.count(0..plan.units(), &Control::new()).unwrap().count;
        let units = plan.units();
        let mut counts = vec![1, 2, 3, 7, 100, units - 1, units, units + 5];
        counts.extend((0..4).map(|_| rng.random_range(1..=units + 10)));
        for shards in counts {
            let mut sum = Tally::default();
            let mut next = 0;
            for i in 0..shards {
                let range = plan.shard(i, shards);
                // Consecutive, disjoint, covering.
                assert_eq!(range.start, next, "n = {n}, {i} of {shards}");
                next = range.end;
                let part = plan.count(range, &Control::new()).unwrap();
                assert!(part.verified());
                sum = sum.plus(part);
            }
            assert_eq!(next, units);
            assert_eq!(sum.count, whole, "n = {n}, {shards} shards");
            assert!(sum.verified());
        }
    }
}

#[test]
fn row_sets_are_numbered_in_order() {
    for s in 2..=MAX_SIDE {
        let band = Band {
            n: 2 * s + 2,
            first: s,
            width: 2,
            side: s,
        };
        let mut set = (1u32 << s) - 1;
        for i in 0..band.row_sets() {
            assert_eq!(unrank(i, s), set, "s = {s}, set {i}");
            assert_eq!(set.count_ones() as usize, s);
            set = next_set(set);
        }
        assert!(set >= 1 << (2 * s), "s = {s}: the last set is the largest");
    }
}

#[test]
fn stops_when_asked() {
    let control = Control::new();
    control.stop();
    assert_eq!(count(14, &control), None);
}

#[test]
fn out_of_range_sides_are_refused() {
    assert_eq!(count(5, &Control::new()), None);
    assert_eq!(count(MAX_N + 1, &Control::new()), None);
    assert!(Band::new(12, 0).is_none());
    assert!(Band::new(12, 5).is_none());
}
