//! Shrinking a failing input to a smallest one that still fails, on parsed test cases: first
//! fewer test cases (each case alone, then delta debugging over the list: halves, quarters,
//! ... and their complements), then, case by case, smaller instances offered by the puzzle
//! (a smaller board, fewer pieces or kings), taken greedily whenever they still fail.
//!
//! The caller decides what "still fails" means (in the stress tester: the program gives the
//! same kind of verdict again) and may refuse to try a candidate (one the statement does not
//! allow); the number of tries is bounded.
//!
//! ```
//! use chess_puzzles::judge::shrink::{shrink, Trial};
//!
//! // "Fails" when the cases hold a 7 and a number above 100.
//! let fails = |cases: &[u32]| -> Result<Trial, ()> {
//!     let bad = cases.contains(&7) && cases.iter().any(|&c| c > 100);
//!     Ok(if bad { Trial::Fails } else { Trial::Passes })
//! };
//! let halve = |&c: &u32| if c > 1 { vec![c / 2] } else { vec![] };
//! let shrunk = shrink(vec![3, 7, 500, 2, 9], halve, fails, 1000).unwrap();
//! assert_eq!(shrunk.cases, vec![7, 125]);
//! ```

/// What one try of a candidate found.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Trial {
    /// The candidate fails the same way: it is kept.
    Fails,
    /// It does not.
    Passes,
    /// It was not tried (not a valid input): it does not count against the bound.
    Skipped,
}

/// A shrunk input.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Shrunk<C> {
    /// The smallest failing list of cases found.
    pub cases: Vec<C>,
    /// How many candidates were tried.
    pub tries: usize,
    /// True when the bound on tries stopped the shrinking before no smaller input failed.
    pub cut_short: bool,
}

/// Shrinks `cases`, a failing input, with at most `max_tries` tries of `fails`; `smaller(case)`
/// lists smaller instances of one case, each strictly smaller by some measure (so that the
/// greedy descent ends). `fails` may stop everything with an error (Ctrl-C, a program that
/// can no longer be started).
pub fn shrink<C: Clone, E>(
    cases: Vec<C>,
    smaller: impl Fn(&C) -> Vec<C>,
    mut fails: impl FnMut(&[C]) -> Result<Trial, E>,
    max_tries: usize,
) -> Result<Shrunk<C>, E> {
    let mut state = State {
        tries: 0,
        max_tries,
        cut_short: false,
    };
    let mut try_cases = |state: &mut State, candidate: &[C]| -> Result<bool, E> {
        if state.tries >= state.max_tries {
            state.cut_short = true;
            return Ok(false);
        }
        match fails(candidate)? {
            Trial::Fails => {
                state.tries += 1;
                Ok(true)
            }
            Trial::Passes => {
                state.tries += 1;
                Ok(false)
            }
            Trial::Skipped => Ok(false),
        }
    };
    let mut cases = cases;
    // Fewer cases: one case alone, the usual way a bug shows.
    if cases.len() > 1 {
        for i in 0..cases.len() {
            let one = [cases[i].clone()];
            if try_cases(&mut state, &one)? {
                cases = one.to_vec();
                break;
            }
        }
    }
    // Delta debugging: chunks of the list, then their complements, ever finer.
    let mut chunks = 2;
    while cases.len() >= 2 && !state.cut_short {
        let size = cases.len().div_ceil(chunks);
        let parts: Vec<Vec<C>> = cases.chunks(size).map(<[C]>::to_vec).collect();
        let mut reduced = false;
        for part in &parts {
            if part.len() < cases.len() && try_cases(&mut state, part)? {
                cases = part.clone();
                chunks = 2;
                reduced = true;
                break;
            }
        }
        if !reduced && parts.len() > 2 {
            for skip in 0..parts.len() {
                let rest: Vec<C> = parts
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != skip)
                    .flat_map(|(_, p)| p.iter().cloned())
                    .collect();
                if try_cases(&mut state, &rest)? {
                    cases = rest;
                    chunks = (chunks - 1).max(2);
                    reduced = true;
                    break;
                }
            }
        }
        if !reduced {
            if chunks >= cases.len() {
                break;
            }
            chunks = (chunks * 2).min(cases.len());
        }
    }
    // Smaller cases, greedily: the first smaller instance that still fails replaces the case.
    for i in 0..cases.len() {
        'descend: while !state.cut_short {
            for candidate in smaller(&cases[i]) {
                let mut trial = cases.clone();
                trial[i] = candidate;
                if try_cases(&mut state, &trial)? {
                    cases = trial;
                    continue 'descend;
                }
                if state.cut_short {
                    break;
                }
            }
            break;
        }
    }
    Ok(Shrunk {
        cases,
        tries: state.tries,
        cut_short: state.cut_short,
    })
}

struct State {
    tries: usize,
    max_tries: usize,
    cut_short: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never(_: &u32) -> Vec<u32> {
        Vec::new()
    }

    #[test]
    fn a_single_failing_case_is_found_first() {
        let fails = |c: &[u32]| -> Result<Trial, ()> {
            Ok(if c.contains(&4) {
                Trial::Fails
            } else {
                Trial::Passes
            })
        };
        let shrunk = shrink(vec![1, 2, 3, 4, 5], never, fails, 100).unwrap();
        assert_eq!(shrunk.cases, vec![4]);
        assert_eq!(shrunk.tries, 4);
        assert!(!shrunk.cut_short);
    }

    #[test]
    fn two_cases_needed_together_are_both_kept() {
        let fails = |c: &[u32]| -> Result<Trial, ()> {
            Ok(if c.contains(&2) && c.contains(&7) {
                Trial::Fails
            } else {
                Trial::Passes
            })
        };
        let shrunk = shrink((0..10).collect(), never, fails, 1000).unwrap();
        assert_eq!(shrunk.cases, vec![2, 7]);
    }

    #[test]
    fn skipped_candidates_are_not_tried_and_the_bound_holds() {
        let fails = |c: &[u32]| -> Result<Trial, ()> {
            Ok(match c {
                [x] if x % 2 == 1 => Trial::Skipped,
                _ if c.iter().sum::<u32>() >= 10 => Trial::Fails,
                _ => Trial::Passes,
            })
        };
        let less = |&c: &u32| (1..=2).filter(|&d| d <= c).map(|d| c - d).collect();
        let shrunk = shrink(vec![3, 40], less, fails, 1000).unwrap();
        assert_eq!(shrunk.cases, vec![10]);
        let cut = shrink(vec![3, 40], less, fails, 5).unwrap();
        assert!(cut.cut_short);
        assert_eq!(cut.tries, 5);
    }

    #[test]
    fn an_error_stops_the_shrinking() {
        let fails = |_: &[u32]| -> Result<Trial, &str> { Err("stopped") };
        assert_eq!(shrink(vec![1, 2], never, fails, 10), Err("stopped"));
    }
}
