//! Speed of the showdown optimiser's parts on a fixed, seeded benchmark test (a 25x25 board):
//! the exact incremental check counts, the plain greedy, the lower bound and a fixed number of
//! local-search steps; and the local search on a dense board (24x24, three kings in four
//! squares, a nearly free bishop) of the dense benchmark set. Every result is verified before
//! it is timed.

use std::hint::black_box;
use std::time::Duration;

use chess_puzzles::input::{CaseReader, Scanner};
use chess_puzzles::showdown::board::Board;
use chess_puzzles::showdown::bounds::Relaxation;
use chess_puzzles::showdown::candidates::Candidates;
use chess_puzzles::showdown::judge::verify;
use chess_puzzles::showdown::solver::{Budget, plain_greedy, solve};
use chess_puzzles::showdown::{Instance, Reader};
use criterion::{Criterion, criterion_group, criterion_main};

/// The largest test of the first benchmark file.
fn instance() -> Instance {
    let text = include_str!("../experiments/showdown/set/set1_02.in");
    let mut reader = Reader::new(Scanner::new(text.as_bytes())).expect("benchmark file");
    let mut best: Option<Instance> = None;
    while let Some(i) = reader.next_case().expect("benchmark file") {
        if best.as_ref().is_none_or(|b| i.side() > b.side()) {
            best = Some(i);
        }
    }
    best.expect("a test")
}

/// Test `number` (from 1) of a dense benchmark file.
fn dense_test(text: &str, number: usize) -> Instance {
    let mut reader = Reader::new(Scanner::new(text.as_bytes())).expect("benchmark file");
    let mut found = None;
    for _ in 0..number {
        found = reader.next_case().expect("benchmark file");
    }
    found.expect("a test")
}

fn benches(c: &mut Criterion) {
    let instance = instance();
    let candidates = Candidates::new(instance.kings());

    let greedy = plain_greedy(&instance).expect("greedy answer");
    assert!(verify(&instance, &greedy.answer.pieces).is_ok());
    c.bench_function("showdown plain greedy 25x25", |b| {
        b.iter(|| plain_greedy(black_box(&instance)))
    });

    let relaxation = Relaxation::new(&instance, &candidates);
    let bound = relaxation.lower_bound(greedy.answer.cost, 300, None);
    assert!(bound <= greedy.answer.cost);
    c.bench_function("showdown lower bound 300 iterations", |b| {
        b.iter(|| relaxation.lower_bound(black_box(greedy.answer.cost), 300, None))
    });

    // Placing and removing every piece of the greedy answer, counts kept exact.
    let cells: Vec<_> = {
        let board = Board::new(&instance);
        greedy
            .answer
            .pieces
            .iter()
            .map(|p| (p.kind, board.cell(p.square)))
            .collect()
    };
    c.bench_function("showdown place and remove the greedy answer", |b| {
        let mut board = Board::new(&instance);
        let mut scratch = Vec::new();
        b.iter(|| {
            for &(kind, cell) in &cells {
                board.place(kind, cell, &mut scratch);
            }
            assert_eq!(board.unchecked(), 0);
            for &(_, cell) in &cells {
                board.remove(cell, &mut scratch);
            }
        })
    });

    let budget = Budget {
        time: Duration::from_secs(60),
        steps: Some(20_000),
    };
    let solved = solve(&instance, &budget, 1).expect("answer");
    assert!(verify(&instance, &solved.answer.pieces).is_ok());
    assert!(solved.answer.cost <= greedy.answer.cost);
    let mut group = c.benchmark_group("showdown");
    group.sample_size(10);
    group.bench_function("solve 25x25, 20000 steps per thread", |b| {
        b.iter(|| solve(black_box(&instance), &budget, 1))
    });
    let dense = dense_test(
        include_str!("../experiments/showdown/dense/dense1_01.in"),
        3,
    );
    let dense_budget = Budget {
        time: Duration::from_secs(60),
        steps: Some(100_000),
    };
    let solved = solve(&dense, &dense_budget, 1).expect("answer");
    assert!(verify(&dense, &solved.answer.pieces).is_ok());
    group.bench_function("solve dense 24x24, 100000 steps per thread", |b| {
        b.iter(|| solve(black_box(&dense), &dense_budget, 1))
    });
    group.finish();
}

criterion_group!(showdown, benches);
criterion_main!(showdown);
