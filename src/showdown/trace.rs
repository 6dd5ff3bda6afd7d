//! `showdown --trace`: the optimiser's run told as JSON Lines: every time a test's best cost
//! or its lower bound changes, a `cost` line with the seconds since the clock started (once
//! the input was read), then each test's answer as `--format json` writes it, marked
//! `"event":"answer"`. The web board draws the cost over time from these lines.
//!
//! ```text
//! {"event":"cost","case":1,"seconds":0.0012,"cost":11,"bound":7}
//! {"event":"cost","case":1,"seconds":0.31,"cost":9,"bound":7}
//! {"event":"answer","case":1,"side":12,"kings":30,"cost":9,...,"pieces":[...]}
//! ```
//!
//! The changes are those of the run: the first answer (greedy), every better answer of the
//! local searches, the bound, the final answer. A trace holds at most
//! [`MAX_POINTS`](super::progress::MAX_POINTS) `cost` lines.
//!
//! ```
//! use chess_puzzles::showdown::{trace, Options, SAMPLE};
//!
//! let mut out = Vec::new();
//! trace::trace(SAMPLE.input.as_bytes(), &mut out, &Options::default()).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.lines().next().unwrap().starts_with(r#"{"event":"cost","case":1,"seconds":"#));
//! assert!(text.lines().last().unwrap().starts_with(r#"{"event":"answer","case":1,"#));
//! ```

use std::io::{self, Read, Write};

use serde::Serialize;

use crate::error::RunError;
use crate::output::OutputFormat;

use super::progress::{CostPoint, Progress};
use super::{Ending, Options, run_watched};

/// One `cost` line.
#[derive(Debug, Serialize)]
struct CostLine {
    event: &'static str,
    case: u64,
    seconds: f64,
    cost: u64,
    bound: u64,
}

/// The writer `run_watched` answers into: before each answer line, the changes recorded so
/// far; the answer marked as one.
struct Lines<'a, W: Write> {
    out: &'a mut W,
    progress: &'a Progress,
    line: Vec<u8>,
}

impl<W: Write> Lines<'_, W> {
    /// Writes the changes recorded since the last call.
    fn costs(&mut self) -> io::Result<()> {
        let (points, _) = self.progress.take_points();
        for CostPoint {
            seconds,
            test,
            cost,
            bound,
        } in points
        {
            let line = CostLine {
                event: "cost",
                case: test as u64 + 1,
                // Microseconds are enough, and keep the lines short.
                seconds: (seconds * 1e6).round() / 1e6,
                cost,
                bound,
            };
            serde_json::to_writer(&mut *self.out, &line).map_err(io::Error::from)?;
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }
}

impl<W: Write> Write for Lines<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.line.extend_from_slice(buf);
        while let Some(end) = self.line.iter().position(|&b| b == b'\n') {
            let rest = self.line.split_off(end + 1);
            let line = std::mem::replace(&mut self.line, rest);
            self.costs()?;
            // Every answer line is a JSON object: `{"case":...`.
            self.out.write_all(b"{\"event\":\"answer\",")?;
            self.out
                .write_all(line.strip_prefix(b"{").unwrap_or(&line))?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Answers `input` as [`run`](super::run) does with `options` (in JSON, whatever
/// `options.format`), writing the run's changes of cost and bound before each answer (see
/// the [module docs](self)).
pub fn trace<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &Options,
) -> Result<Ending, RunError> {
    let progress = Progress::recording();
    let options = Options {
        format: OutputFormat::Json,
        ..options.clone()
    };
    let mut lines = Lines {
        out,
        progress: &progress,
        line: Vec::new(),
    };
    let ending = run_watched(input, &mut lines, &options, &progress)?;
    lines.costs().map_err(RunError::Output)?;
    lines.out.flush().map_err(RunError::Output)?;
    Ok(ending)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::showdown::generator::{self, GenOptions};

    #[test]
    fn costs_come_down_to_each_answer_and_never_under_its_bound() {
        let mut input = Vec::new();
        let options = GenOptions {
            seed: 3,
            tests: 2,
            ..GenOptions::default()
        };
        generator::generate(options, &mut input).unwrap();
        let mut out = Vec::new();
        let options = Options {
            steps: Some(2000),
            ..Options::default()
        };
        trace(&input[..], &mut out, &options).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let answers: Vec<_> = lines.iter().filter(|l| l["event"] == "answer").collect();
        assert_eq!(answers.len(), 2);
        for answer in answers {
            let case = &answer["case"];
            let costs: Vec<_> = lines
                .iter()
                .filter(|l| l["event"] == "cost" && &l["case"] == case)
                .collect();
            assert!(!costs.is_empty());
            let last = costs.last().unwrap();
            assert_eq!(last["cost"], answer["cost"]);
            for c in &costs {
                assert!(c["bound"].as_u64() <= c["cost"].as_u64());
            }
            assert!(
                costs
                    .windows(2)
                    .all(|w| w[0]["seconds"].as_f64() <= w[1]["seconds"].as_f64())
            );
        }
    }
}
