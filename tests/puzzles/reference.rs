//! References written here, independently of the crate, that the puzzles' tests compare the
//! binary's answers with, and the random numbers of their test data.

/// Every permutation of `0..n` in lexicographic order (a plain recursive reference).
fn permutations(n: usize) -> Vec<Vec<u8>> {
    fn go(prefix: &mut Vec<u8>, left: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left.is_empty() {
            out.push(prefix.clone());
            return;
        }
        for i in 0..left.len() {
            let v = left.remove(i);
            prefix.push(v);
            go(prefix, left, out);
            prefix.pop();
            left.insert(i, v);
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), &mut (0..n as u8).collect(), &mut out);
    out
}

/// Every placement of n queens (`rows[col]` = row, from 0), found by trying every permutation,
/// in lexicographic order.
pub fn placements(n: usize) -> Vec<Vec<u8>> {
    permutations(n)
        .into_iter()
        .filter(|p| non_attacking(p))
        .collect()
}

/// True when the queens of `rows` (`rows[col]` = row, from 0) are on the board and attack no
/// one: checked square pair by square pair.
pub fn non_attacking<R: Copy + Into<usize>>(rows: &[R]) -> bool {
    let n = rows.len();
    let rows: Vec<usize> = rows.iter().map(|&r| r.into()).collect();
    rows.iter().all(|&r| r < n)
        && (0..n)
            .all(|a| (a + 1..n).all(|b| rows[a] != rows[b] && rows[a].abs_diff(rows[b]) != b - a))
}

/// A small deterministic random generator for test data (SplitMix64).
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> TestRng {
        TestRng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
}
