//! `showdown` for the stress tester and the local judge ([`crate::judge::stress`]): any valid
//! answer is accepted, or, with a ratio, one whose cost per test is at most that many times
//! ours.

use std::time::Duration;

use crate::error::plural;
use crate::judge::stress::{self, Judged, Planned, Subject};

use super::generator::{self, Costs, Densities, GenOptions, Kind, Sizes};
use super::judge::{self, Verdict};
use super::{Instance, Options, Reader, validate};

/// The local-search steps per test of our answers: the same answers on every machine.
pub const REFERENCE_STEPS: u64 = 2000;

/// Chess Variants Showdown judged: every answer must be valid; with a ratio, its cost also
/// at most that many times ours.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Showdown {
    /// Fail an answer whose cost is above this many times our answer's (at least 1).
    pub ratio: Option<f64>,
}

impl Subject for Showdown {
    type Case = Instance;
    type Gen = GenOptions;

    fn name(&self) -> &'static str {
        "showdown"
    }

    fn case_name(&self) -> &'static str {
        "test"
    }

    /// Small boards of every kind first, then the statement's largest: 15 boards of 25x25,
    /// and 25x25 boards with as many kings as fit.
    fn defaults(&self) -> Vec<Planned<GenOptions>> {
        let plan = |args: &str, tests: u64, sizes: &str, costs: Costs, kind: Kind| {
            Planned::new(
                args,
                GenOptions {
                    seed: 0,
                    tests,
                    sizes: sizes.parse::<Sizes>().unwrap_or_default(),
                    densities: Densities::default(),
                    costs,
                    kind,
                },
            )
        };
        vec![
            plan(
                "--cases 1 --size 2-6",
                1,
                "2-6",
                Costs::Random,
                Kind::Random,
            ),
            plan(
                "--cases 2 --kind smallest",
                2,
                "2-25",
                Costs::Random,
                Kind::Smallest,
            ),
            plan(
                "--cases 2 --kind sparse --size 3-8",
                2,
                "3-8",
                Costs::Random,
                Kind::Sparse,
            ),
            plan(
                "--cases 2 --kind dense --size 3-6",
                2,
                "3-6",
                Costs::Random,
                Kind::Dense,
            ),
            plan(
                "--cases 3 --size 2-8 --costs skewed",
                3,
                "2-8",
                Costs::Skewed,
                Kind::Random,
            ),
            plan(
                "--cases 2 --kind one-cheap --size 3-8",
                2,
                "3-8",
                Costs::Random,
                Kind::OneCheap,
            ),
            plan(
                "--cases 2 --kind expensive-small",
                2,
                "2-25",
                Costs::Random,
                Kind::ExpensiveSmall,
            ),
            plan(
                "--cases 2 --kind dense --size 25",
                2,
                "25",
                Costs::Random,
                Kind::Dense,
            ),
            plan("--kind largest", 15, "2-25", Costs::Random, Kind::Largest),
        ]
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<Vec<u8>, String> {
        stress::capped(|mut out| generator::generate(GenOptions { seed, ..*options }, &mut out))
    }

    fn valid(&self, input: &[u8]) -> bool {
        validate::validate(input).is_ok()
    }

    fn reference(&self, input: &[u8]) -> Result<Vec<u8>, String> {
        let options = Options {
            time_limit: Duration::from_secs(5),
            steps: Some(REFERENCE_STEPS),
            ..Options::default()
        };
        let mut out = Vec::new();
        super::run(input, &mut out, &options).map_err(|e| e.to_string())?;
        Ok(out)
    }

    fn judge(&self, input: &[u8], expected: &[u8], actual: &[u8]) -> Judged {
        let report = match judge::check(input, actual, |_, _| {}) {
            Ok(report) => report,
            Err(e) => return Judged::Wrong(e.to_string()),
        };
        if let Verdict::Wrong { case, reason } = &report.verdict {
            return Judged::Wrong(format!("test {case}: {reason}"));
        }
        let Some(r) = self.ratio else {
            return Judged::Accepted;
        };
        let Ok(ours) = judge::check(input, expected, |_, _| {}) else {
            return Judged::Accepted;
        };
        for (i, (theirs, ours)) in report.scores.iter().zip(&ours.scores).enumerate() {
            // The scores are the costs over n²: their ratio is the costs' ratio.
            if *theirs > r * ours * (1.0 + 1e-12) {
                return Judged::Wrong(format!(
                    "test {}: cost {:.3} times the reference's, above the ratio {r}",
                    i + 1,
                    theirs / ours
                ));
            }
        }
        Judged::Accepted
    }

    fn cases(&self, input: &[u8]) -> Result<Vec<Instance>, String> {
        let scanner = crate::input::Scanner::new(input);
        stress::read_all(Reader::new(scanner).map_err(|e| e.to_string())?)
    }

    fn write_input(&self, cases: &[Instance]) -> Vec<u8> {
        generator::write_input(cases).into_bytes()
    }

    fn smaller(&self, case: &Instance) -> Vec<Instance> {
        generator::smaller(case)
    }

    fn measure(&self, cases: &[Instance]) -> Option<String> {
        let side = cases.iter().map(Instance::side).max()?;
        let kings: usize = cases.iter().map(Instance::king_count).sum();
        Some(format!(
            "largest side {side}, {}",
            plural(kings as u64, "king")
        ))
    }
}
