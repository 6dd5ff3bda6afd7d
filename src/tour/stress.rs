//! `tour` for the stress tester and the local judge ([`crate::judge::stress`]).

use crate::error::plural;
use crate::judge::compare::Tolerance;
use crate::judge::stress::{self, Judged, Planned, Subject};

use super::generator::{self, GenOptions, Kind, Knights};
use super::{Options, Reader, Scenario, validate};

/// Traveling Queen judged with the checker's tolerance.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Tour {
    /// What the comparison forgives.
    pub tolerance: Tolerance,
}

impl Subject for Tour {
    type Case = Scenario;
    type Gen = GenOptions;

    fn name(&self) -> &'static str {
        "tour"
    }

    fn case_name(&self) -> &'static str {
        "scenario"
    }

    /// Few knights first, then every family, up to the statement's 14 knights and boards
    /// crowded with pawns.
    fn defaults(&self) -> Vec<Planned<GenOptions>> {
        let plan = |args: &str, scenarios: u64, knights: &str, pawns: f64, kind: Kind| {
            Planned::new(
                args,
                GenOptions {
                    seed: 0,
                    scenarios,
                    knights: knights.parse::<Knights>().unwrap_or_default(),
                    pawns,
                    kind,
                },
            )
        };
        vec![
            plan("--cases 1 --knights 2-5", 1, "2-5", 0.1, Kind::Random),
            plan("--cases 2 --knights 2-5", 2, "2-5", 0.1, Kind::Random),
            plan("--cases 2 --kind fewest", 2, "2-14", 0.1, Kind::Fewest),
            plan(
                "--cases 2 --kind impossible --knights 2-4",
                2,
                "2-4",
                0.1,
                Kind::Impossible,
            ),
            plan(
                "--cases 2 --kind start-alone --knights 2-4",
                2,
                "2-4",
                0.1,
                Kind::StartAlone,
            ),
            plan(
                "--cases 1 --kind crowded --knights 2-4",
                1,
                "2-4",
                0.1,
                Kind::Crowded,
            ),
            plan(
                "--cases 3 --knights 2-6 --pawns 0.2",
                3,
                "2-6",
                0.2,
                Kind::Random,
            ),
            plan("--cases 2 --kind most", 2, "2-14", 0.1, Kind::Most),
            plan(
                "--cases 2 --kind crowded --knights 10-14",
                2,
                "10-14",
                0.1,
                Kind::Crowded,
            ),
            plan(
                "--cases 3 --knights 12-14 --pawns 0.2",
                3,
                "12-14",
                0.2,
                Kind::Random,
            ),
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

    fn cases(&self, input: &[u8]) -> Result<Vec<Scenario>, String> {
        let scanner = crate::input::Scanner::new(input);
        stress::read_all(Reader::new(scanner).map_err(|e| e.to_string())?)
    }

    fn write_input(&self, cases: &[Scenario]) -> Vec<u8> {
        generator::write_input(cases).into_bytes()
    }

    fn smaller(&self, case: &Scenario) -> Vec<Scenario> {
        generator::smaller(case)
    }

    fn measure(&self, cases: &[Scenario]) -> Option<String> {
        let knights: usize = cases.iter().map(|s| s.knights().len()).sum();
        let pawns: usize = cases.iter().map(|s| s.pawns().iter().count()).sum();
        Some(format!(
            "{}, {}",
            plural(knights as u64, "knight"),
            plural(pawns as u64, "pawn")
        ))
    }
}
