//! A slow, independent count of one configuration, for the tests: every west side and every
//! east side listed with their rows and whole diagonals, paired through a map of row sets.

use std::collections::HashMap;

/// Every way to put one queen on each of `columns` without attacking `band` or each other:
/// per way, its rows, its row + column diagonals and its row - column diagonals (shifted).
fn sides(n: usize, band: &[(usize, usize)], columns: &[usize]) -> Vec<(u64, u128, u128)> {
    let mut out = Vec::new();
    let mut start = (0u64, 0u128, 0u128);
    for &(r, c) in band {
        start.0 |= 1 << r;
        start.1 |= 1 << (r + c);
        start.2 |= 1 << (r + n - c);
    }
    let mut stack = vec![(0usize, start)];
    while let Some((i, (rows, sum, diff))) = stack.pop() {
        if i == columns.len() {
            out.push((rows, sum, diff));
            continue;
        }
        let c = columns[i];
        for r in 0..n {
            let (rb, sb, db) = (1u64 << r, 1u128 << (r + c), 1u128 << (r + n - c));
            if rows & rb == 0 && sum & sb == 0 && diff & db == 0 {
                stack.push((i + 1, (rows | rb, sum | sb, diff | db)));
            }
        }
    }
    out
}

/// The placements of an `n`x`n` board with queens on `band` (row, column), the band being the
/// columns between `west` and `east`.
pub fn count(n: usize, band: &[(usize, usize)], west: &[usize], east: &[usize]) -> u64 {
    let (mut band_rows, mut band_sum, mut band_diff) = (0u64, 0u128, 0u128);
    for &(r, c) in band {
        band_rows |= 1 << r;
        band_sum |= 1 << (r + c);
        band_diff |= 1 << (r + n - c);
    }
    let mut by_rows: HashMap<u64, Vec<(u128, u128)>> = HashMap::new();
    for (rows, sum, diff) in sides(n, band, west) {
        by_rows
            .entry(rows)
            .or_default()
            .push((sum & !band_sum, diff & !band_diff));
    }
    let all = (1u64 << n) - 1;
    let mut count = 0;
    for (rows, sum, diff) in sides(n, band, east) {
        let (sum, diff) = (sum & !band_sum, diff & !band_diff);
        // The west must take exactly the rows neither the band nor this east side takes.
        let wanted = (all & !rows) | band_rows;
        if let Some(list) = by_rows.get(&wanted) {
            count += list
                .iter()
                .filter(|(s, d)| s & sum == 0 && d & diff == 0)
                .count() as u64;
        }
    }
    count
}
