//! `nqueens best` for the stress tester and the local judge ([`crate::judge::stress`]).

use crate::clock::Instant;
use std::time::Duration;

use crate::judge::compare::Tolerance;
use crate::judge::stress::{self, Judged, Planned, Subject};
use crate::output::OutputFormat;

use super::best::Weights;
use super::generator::{self, GenOptions};
use super::{BestOptions, BestReader, Control};

/// How long our answer to one input may take: a board whose best placement is not proven in
/// this time (a large random board, while shrinking) is not used.
pub const REFERENCE_TIME: Duration = Duration::from_secs(1);

/// The best weighted placement judged with the checker's tolerance.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Best {
    /// What the comparison forgives.
    pub tolerance: Tolerance,
}

impl Subject for Best {
    type Case = Weights;
    type Gen = GenOptions;

    fn name(&self) -> &'static str {
        "nqueens best"
    }

    fn case_name(&self) -> &'static str {
        "board"
    }

    /// Small random boards first, then boards up to the largest side, 64, each with a planted
    /// best placement.
    fn defaults(&self) -> Vec<Planned<GenOptions>> {
        let plan = |args: &str, boards: u64, sides: (usize, usize), max_weight: u32, planted| {
            Planned::new(
                args,
                GenOptions {
                    seed: 0,
                    boards,
                    sides,
                    max_weight,
                    planted,
                },
            )
        };
        vec![
            plan("--cases 1 --size 1-6", 1, (1, 6), 99, false),
            plan("--cases 2 --size 4-7 --weights 9", 2, (4, 7), 9, false),
            plan("--cases 3 --size 1-5", 3, (1, 5), 99, false),
            plan("--cases 1 --size 6-8 --weights 1", 1, (6, 8), 1, false),
            plan("--cases 2 --size 5-8", 2, (5, 8), 99, false),
            plan("--cases 2 --size 9-32 --planted", 2, (9, 32), 99, true),
            plan("--cases 1 --size 60-64 --planted", 1, (60, 64), 99, true),
            plan(
                "--cases 2 --size 33-64 --planted --weights 1000",
                2,
                (33, 64),
                1000,
                true,
            ),
        ]
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<Vec<u8>, String> {
        stress::capped(|mut out| generator::generate(GenOptions { seed, ..*options }, &mut out))
    }

    fn valid(&self, input: &[u8]) -> bool {
        self.cases(input).is_ok()
    }

    /// Fails when a board is not proven within [`REFERENCE_TIME`].
    fn reference(&self, input: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let options = BestOptions {
            format: OutputFormat::Judge,
        };
        let control = Control::with_deadline(Instant::now() + REFERENCE_TIME);
        let run = super::run_best_watched(input, &mut out, &options, &control)
            .map_err(|e| e.to_string())?;
        if run.unproven > 0 {
            return Err(format!(
                "a best placement not proven within {} s",
                REFERENCE_TIME.as_secs()
            ));
        }
        Ok(out)
    }

    fn judge(&self, _: &[u8], expected: &[u8], actual: &[u8]) -> Judged {
        stress::judge_exact(expected, actual, self.tolerance)
    }

    fn cases(&self, input: &[u8]) -> Result<Vec<Weights>, String> {
        let scanner = crate::input::Scanner::new(input);
        stress::read_all(BestReader::new(scanner).map_err(|e| e.to_string())?)
    }

    fn write_input(&self, cases: &[Weights]) -> Vec<u8> {
        generator::write_input(cases).into_bytes()
    }

    fn smaller(&self, case: &Weights) -> Vec<Weights> {
        generator::smaller(case)
    }

    fn measure(&self, cases: &[Weights]) -> Option<String> {
        let side = cases.iter().map(Weights::n).max()?;
        Some(format!("largest side {side}"))
    }
}
