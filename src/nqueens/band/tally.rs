//! The sums of a count: a 128-bit count and, summed apart, its residue modulo a prime.

/// The modulus of a [`Tally`]'s residue: the Mersenne prime 2^61 - 1.
pub const RESIDUE_MODULUS: u64 = (1 << 61) - 1;

/// A count and, kept apart, the same count modulo [`RESIDUE_MODULUS`]: every addition is
/// made twice, in 128-bit and in modular arithmetic, so that an overflow or a lost carry
/// anywhere in the sums shows as a count that does not match its residue.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Tally {
    /// The placements counted.
    pub count: u128,
    /// The same, modulo [`RESIDUE_MODULUS`], summed separately.
    pub residue: u64,
}

impl Tally {
    /// Adds `n` placements.
    #[inline]
    pub(crate) fn add(&mut self, n: u64) {
        self.count += u128::from(n);
        self.residue = modular_sum(self.residue, n % RESIDUE_MODULUS);
    }

    /// The tally `factor` times over.
    pub(crate) fn times(self, factor: u64) -> Tally {
        Tally {
            count: self.count * u128::from(factor),
            residue: (u128::from(self.residue) * u128::from(factor) % u128::from(RESIDUE_MODULUS))
                as u64,
        }
    }

    /// The sum of two tallies.
    pub(crate) fn plus(self, other: Tally) -> Tally {
        Tally {
            count: self.count + other.count,
            residue: modular_sum(self.residue, other.residue),
        }
    }

    /// Whether the count matches its residue.
    pub fn verified(&self) -> bool {
        self.count % u128::from(RESIDUE_MODULUS) == u128::from(self.residue)
    }
}

/// `a + b` modulo [`RESIDUE_MODULUS`], for `a, b` below it.
#[inline]
fn modular_sum(a: u64, b: u64) -> u64 {
    let sum = a + b;
    if sum >= RESIDUE_MODULUS {
        sum - RESIDUE_MODULUS
    } else {
        sum
    }
}
