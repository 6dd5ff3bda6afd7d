//! `sultan` for the stress tester and the local judge ([`crate::judge::stress`]).

use crate::judge::compare::Tolerance;
use crate::judge::stress::{self, Judged, Planned, Subject};

use super::generator::{self, GenOptions, Kind};
use super::{Board, Options, Reader, validate};

/// The Sultan's Successors judged with the checker's tolerance.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Sultan {
    /// What the comparison forgives.
    pub tolerance: Tolerance,
}

impl Subject for Sultan {
    type Case = Board;
    type Gen = GenOptions;

    fn name(&self) -> &'static str {
        "sultan"
    }

    fn case_name(&self) -> &'static str {
        "board"
    }

    /// Small boards and weights first, then the statement's ends: boards of 1s and 99s only,
    /// boards of 99s, many boards.
    fn defaults(&self) -> Vec<Planned<GenOptions>> {
        let plan = |args: &str, boards: u64, weights: (u32, u32), kind: Kind| {
            Planned::new(
                args,
                GenOptions {
                    seed: 0,
                    boards,
                    min_weight: weights.0,
                    max_weight: weights.1,
                    kind,
                },
            )
        };
        vec![
            plan("--cases 1", 1, (1, 99), Kind::Random),
            plan("--cases 2 --weights 1-9", 2, (1, 9), Kind::Random),
            plan("--cases 3 --kind distinct", 3, (1, 99), Kind::Distinct),
            plan("--cases 2 --kind extreme", 2, (1, 99), Kind::Extreme),
            plan("--cases 2 --kind ties", 2, (1, 99), Kind::Ties),
            plan("--cases 4", 4, (1, 99), Kind::Random),
            plan("--cases 3 --weights 90-99", 3, (90, 99), Kind::Random),
            plan("--cases 20 --kind extreme", 20, (1, 99), Kind::Extreme),
        ]
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<Vec<u8>, String> {
        stress::capped(|mut out| generator::generate(GenOptions { seed, ..*options }, &mut out))
    }

    fn valid(&self, input: &[u8]) -> bool {
        validate::validate(input).is_ok()
    }

    fn reference(&self, input: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        super::run(input, &mut out, &Options::default()).map_err(|e| e.to_string())?;
        Ok(out)
    }

    fn judge(&self, _: &[u8], expected: &[u8], actual: &[u8]) -> Judged {
        stress::judge_exact(expected, actual, self.tolerance)
    }

    fn cases(&self, input: &[u8]) -> Result<Vec<Board>, String> {
        let scanner = crate::input::Scanner::new(input);
        stress::read_all(Reader::new(scanner).map_err(|e| e.to_string())?)
    }

    fn write_input(&self, cases: &[Board]) -> Vec<u8> {
        generator::write_input(cases).into_bytes()
    }

    fn smaller(&self, case: &Board) -> Vec<Board> {
        generator::smaller(case)
    }

    fn measure(&self, cases: &[Board]) -> Option<String> {
        let most = cases
            .iter()
            .flat_map(|b| b.weights.iter().flatten())
            .max()?;
        Some(format!("weights up to {most}"))
    }
}
