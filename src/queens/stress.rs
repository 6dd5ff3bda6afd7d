//! `queens` for the stress tester and the local judge ([`crate::judge::stress`]).

use crate::core::Square;
use crate::judge::compare::Tolerance;
use crate::judge::stress::{self, Judged, Planned, Subject};
use crate::output::OutputFormat;

use super::generator::{self, GenOptions, Kind};
use super::{Options, Reader, Style, validate};

/// 8 Queens judged: the checker's tolerance and the layout of input and output (the
/// statement's, or UVa 750's with its empty lines).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Queens {
    /// What the comparison forgives.
    pub tolerance: Tolerance,
    /// The layout of the inputs generated and of the answers expected.
    pub layout: Style,
}

impl Subject for Queens {
    type Case = Square;
    type Gen = GenOptions;

    fn name(&self) -> &'static str {
        "queens"
    }

    fn case_name(&self) -> &'static str {
        "case"
    }

    /// A few random squares, the squares of the fewest and of the most placements, and every
    /// square of the board.
    fn defaults(&self) -> Vec<Planned<GenOptions>> {
        let uva = if self.layout == Style::Uva {
            " --uva"
        } else {
            ""
        };
        let plan = |cases: u64, kind: Kind, args: &str| {
            Planned::new(
                &format!("{args}{uva}"),
                GenOptions {
                    cases,
                    kind,
                    layout: self.layout,
                    seed: 0,
                },
            )
        };
        vec![
            plan(5, Kind::Random, "--cases 5"),
            plan(1, Kind::Random, "--cases 1"),
            plan(3, Kind::Fewest, "--cases 3 --kind fewest"),
            plan(4, Kind::Most, "--cases 4 --kind most"),
            plan(6, Kind::Random, "--cases 6"),
            plan(64, Kind::All, "--kind all"),
        ]
    }

    fn generate(&self, options: &GenOptions, seed: u64) -> Result<Vec<u8>, String> {
        stress::capped(|mut out| generator::generate(GenOptions { seed, ..*options }, &mut out))
    }

    fn valid(&self, input: &[u8]) -> bool {
        match self.layout {
            Style::Statement => validate::validate(input).is_ok(),
            Style::Uva => validate::validate_uva(input).is_ok(),
        }
    }

    fn reference(&self, input: &[u8]) -> Result<Vec<u8>, String> {
        let options = Options {
            format: OutputFormat::Judge,
            style: self.layout,
        };
        let mut out = Vec::new();
        super::run(input, &mut out, &options).map_err(|e| e.to_string())?;
        Ok(out)
    }

    /// The exact comparison; an answer laid out as UVa 750 lays it out (an empty line after
    /// the headings) while the statement's layout is judged says so, and names `--uva`.
    fn judge(&self, input: &[u8], expected: &[u8], actual: &[u8]) -> Judged {
        let judged = stress::judge_exact(expected, actual, self.tolerance);
        if self.layout == Style::Uva || judged == Judged::Accepted {
            return judged;
        }
        let uva = Queens {
            layout: Style::Uva,
            ..*self
        };
        let Ok(uva_answer) = uva.reference(input) else {
            return judged;
        };
        if stress::judge_exact(&uva_answer, actual, self.tolerance) != Judged::Accepted {
            return judged;
        }
        let hint = " (the answer is right in UVa 750's layout, with an empty line after the \
                    headings: judge with --uva for that layout)";
        match judged {
            Judged::Presentation(r) => Judged::Presentation(r + hint),
            Judged::Wrong(r) => Judged::Wrong(r + hint),
            Judged::Accepted => Judged::Accepted,
        }
    }

    fn cases(&self, input: &[u8]) -> Result<Vec<Square>, String> {
        let scanner = crate::input::Scanner::new(input);
        stress::read_all(Reader::new(scanner).map_err(|e| e.to_string())?)
    }

    fn write_input(&self, cases: &[Square]) -> Vec<u8> {
        generator::write_input_in(cases, self.layout).into_bytes()
    }

    /// A query is one square: every one is as small as another.
    fn smaller(&self, _: &Square) -> Vec<Square> {
        Vec::new()
    }
}
