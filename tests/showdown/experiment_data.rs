//! The committed experiment data of `showdown` agree with the judge and with each other:
//! every best answer in `experiments/showdown/best/` is valid, and no lower bound or proven
//! optimum in the `optima*.tsv` files (MILP runs and the proof mode) is above a valid answer.
//! A bound above a valid answer would be a wrong proof; an optimum below a bound, a wrong
//! bound.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use chess_puzzles::showdown::judge::{Verdict, check};

/// The folder of showdown's experiments: the benchmark sets, best answers and bounds.
fn experiments() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/showdown")
}

/// The input file an answer file `NAME.in.out` of `best/` answers.
fn input_of(answer: &Path) -> PathBuf {
    let name = answer.file_name().unwrap().to_str().unwrap();
    let input = name.strip_suffix(".out").unwrap();
    let dir = if input.starts_with("dense") {
        "dense"
    } else {
        "set"
    };
    experiments().join(dir).join(input)
}

/// The cost of each test's answer in a judge-format answer file.
fn answer_costs(text: &str) -> Vec<u64> {
    let mut lines = text.lines();
    let mut costs = Vec::new();
    while let Some(head) = lines.next() {
        let mut fields = head.split_whitespace();
        let pieces: usize = fields.next().unwrap().parse().unwrap();
        costs.push(fields.next().unwrap().parse().unwrap());
        for _ in 0..pieces {
            lines.next().unwrap();
        }
    }
    costs
}

/// Every best answer, keyed by (input file name, test number from 1).
fn best_answers() -> HashMap<(String, usize), u64> {
    let mut best = HashMap::new();
    let mut files = 0;
    for entry in fs::read_dir(experiments().join("best")).unwrap() {
        let path = entry.unwrap().path();
        let input = input_of(&path);
        let answers = fs::read(&path).unwrap();
        let report = check(fs::File::open(&input).unwrap(), &answers[..], |_, _| {}).unwrap();
        assert_eq!(report.verdict, Verdict::Accepted, "{}", path.display());
        let costs = answer_costs(std::str::from_utf8(&answers).unwrap());
        assert_eq!(costs.len(), report.scores.len(), "{}", path.display());
        let name = input.file_name().unwrap().to_str().unwrap().to_string();
        for (i, cost) in costs.into_iter().enumerate() {
            best.insert((name.clone(), i + 1), cost);
        }
        files += 1;
    }
    assert_eq!(
        files, 10,
        "8 files of the 120-test set and 2 of the dense set"
    );
    best
}

/// Every line of the `optima*.tsv` files: (TSV file name, its fields).
fn optima_rows() -> Vec<(String, Vec<String>)> {
    let mut rows = Vec::new();
    for entry in fs::read_dir(experiments()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !(name.starts_with("optima") && name.ends_with(".tsv")) {
            continue;
        }
        for line in fs::read_to_string(&path).unwrap().lines().skip(1) {
            rows.push((name.clone(), line.split('\t').map(str::to_string).collect()));
        }
    }
    rows
}

#[test]
fn the_best_answers_are_valid_and_no_bound_is_above_them() {
    let best = best_answers();
    assert_eq!(best.len(), 150);
    let rows = optima_rows();
    let key_of = |f: &[String]| (f[0].clone(), f[1].parse::<usize>().unwrap());
    let bound_of = |f: &[String]| f[6].parse::<f64>().unwrap();
    // (file, test) -> proven optimum, from every line that says so.
    let mut optima: HashMap<(String, usize), u64> = HashMap::new();
    for (name, f) in &rows {
        let key = key_of(f);
        let answer = best[&key];
        let bound = bound_of(f);
        // The bounds are the solver's, with its tolerances: 10^-6 relative room.
        assert!(
            bound <= answer as f64 * (1.0 + 1e-6),
            "{name}: {key:?}: bound {bound} above the valid answer {answer}"
        );
        if f[4] == "Optimal" {
            let optimum: u64 = f[5].parse().unwrap();
            assert!(
                optimum <= answer,
                "{name}: {key:?}: optimum {optimum} > {answer}"
            );
            assert!((bound - optimum as f64).abs() < 1.0, "{name}: {key:?}");
            if let Some(&other) = optima.get(&key) {
                assert_eq!(other, optimum, "{name}: {key:?}: two proofs disagree");
            }
            optima.insert(key, optimum);
        }
    }
    assert!(
        rows.len() >= 150 && optima.len() >= 100,
        "{} rows, {} proofs",
        rows.len(),
        optima.len()
    );
    // A proven optimum is never below any bound of the same test either.
    for (name, f) in &rows {
        let key = key_of(f);
        if let Some(&optimum) = optima.get(&key) {
            let bound = bound_of(f);
            assert!(
                bound <= optimum as f64 * (1.0 + 1e-6),
                "{name}: {key:?}: bound {bound} above the optimum {optimum}"
            );
        }
    }
}
