//! Throughput of the two 8x8 puzzles on the inputs: 200,000 random `queens` queries
//! (about 64 MB of output) and 100,000 random `sultan` boards (about 19 MB of input).
//! Whole-process comparisons with the C baselines are in `experiments/compare.sh`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use chess_puzzles::input::CaseReader;
use chess_puzzles::{queens, sultan};

/// SplitMix64, so the inputs are the same on every run.
fn numbers(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |bound| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % bound
    }
}

fn queens_input(cases: usize) -> String {
    let mut next = numbers(750);
    let mut text = format!("{cases}\n");
    for _ in 0..cases {
        text.push_str(&format!("{} {}\n", next(8) + 1, next(8) + 1));
    }
    text
}

fn sultan_input(boards: usize) -> String {
    let mut next = numbers(167);
    let mut text = format!("{boards}\n");
    for _ in 0..boards * 8 {
        let row: Vec<String> = (0..8).map(|_| format!("{:2}", next(99) + 1)).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

fn bench(c: &mut Criterion) {
    let input = queens_input(200_000);
    let mut group = c.benchmark_group("queens");
    group.sample_size(10);
    group.throughput(Throughput::Elements(200_000));
    // Checked once, then timed writing to a sink (as to a fast pipe).
    let mut out = Vec::new();
    queens::run(input.as_bytes(), &mut out, &queens::Options::default()).unwrap();
    // Each case has the two heading lines and 4 to 18 placements of 24 bytes.
    assert!(out.len() > 200_000 * (42 + 4 * 24));
    assert_eq!(out.iter().filter(|&&b| b == b'S').count(), 200_000);
    group.bench_function("200k queries", |b| {
        b.iter(|| {
            queens::run(
                input.as_bytes(),
                &mut std::io::sink(),
                &queens::Options::default(),
            )
        })
    });
    group.finish();

    let input = sultan_input(100_000);
    let solver = sultan::Solver::new();
    let mut group = c.benchmark_group("sultan");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(input.len() as u64));
    let mut out = Vec::new();
    let options = sultan::Options::default();
    sultan::run(input.as_bytes(), &mut out, &options).unwrap();
    assert_eq!(out.len(), 100_000 * 6);
    group.bench_function("100k boards", |b| {
        b.iter(|| sultan::run(input.as_bytes(), &mut std::io::sink(), &options))
    });
    // The first board's score, checked against the plain scorer.
    let mut reader =
        sultan::Reader::new(chess_puzzles::input::Scanner::new(input.as_bytes())).unwrap();
    let board = reader.next_case().unwrap().unwrap();
    assert_eq!(solver.best_score(&board), solver.best(&board).score);
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
