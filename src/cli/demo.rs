//! `chess-puzzles demo`: every puzzle's sample, solved and drawn.

use std::io::Write;

use chess_puzzles::error::RunError;
use chess_puzzles::output::OutputFormat;
use chess_puzzles::sample::Sample;
use chess_puzzles::{queens, showdown, sultan, tour};

use super::io::{Failure, Output, Verdict};

/// Answers a whole input in the given format.
type Solve = fn(&[u8], &mut Vec<u8>, OutputFormat) -> Result<(), RunError>;

/// How the demo judges an answer.
enum Judging {
    /// The judge accepts only the statement's exact output.
    Exact,
    /// Any valid answer is accepted and scored: the puzzle's own judge gives the total score of
    /// an output for an input, or `None` when the output is not valid.
    Scored(fn(&[u8], &[u8]) -> Option<f64>),
}

/// One puzzle in the demo.
struct Entry {
    command: &'static str,
    /// The judge the puzzle is known by, e.g. `UVa 750`.
    judge: &'static str,
    /// The puzzle's title, as its statement gives it.
    title: &'static str,
    /// What it asks, in a few words.
    summary: &'static str,
    sample: Sample,
    judging: Judging,
    solve: Solve,
}

const ENTRIES: &[Entry] = &[
    Entry {
        command: "queens",
        judge: "UVa 750",
        title: "8 Queens Chess Problem",
        summary: "every placement with one queen given",
        sample: queens::SAMPLE,
        judging: Judging::Exact,
        solve: |input, out, format| {
            let options = queens::Options {
                format,
                ..Default::default()
            };
            queens::run(input, out, &options)
        },
    },
    Entry {
        command: "sultan",
        judge: "UVa 167",
        title: "The Sultan's Successors",
        summary: "the best 8-queens sum on a weighted board",
        sample: sultan::SAMPLE,
        judging: Judging::Exact,
        solve: |input, out, format| sultan::run(input, out, &sultan::Options { format }),
    },
    Entry {
        command: "showdown",
        judge: "SPOJ CHE",
        title: "Chess Variants Showdown",
        summary: "the cheapest pieces that check every king",
        sample: showdown::SAMPLE,
        judging: Judging::Scored(|input, output| {
            let report = showdown::judge::check(input, output, |_, _| {}).ok()?;
            (report.verdict == showdown::judge::Verdict::Accepted).then_some(report.total)
        }),
        solve: |input, out, format| {
            let options = showdown::Options {
                format,
                time_limit: std::time::Duration::from_secs(1),
                ..Default::default()
            };
            showdown::run(input, out, &options)
        },
    },
    Entry {
        command: "tour",
        judge: "POJ 2919",
        title: "Traveling Queen",
        summary: "the shortest queen tour past every knight to the bishop",
        sample: tour::SAMPLE,
        judging: Judging::Exact,
        solve: |input, out, format| tour::run(input, out, &tour::Options { format }),
    },
];

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("    {l}\n")
            }
        })
        .collect()
}

pub fn run(out: &mut Output) -> Result<Verdict, Failure> {
    let mut text =
        String::from("chess-puzzles demo: the sample of every puzzle, solved and drawn\n");
    for entry in ENTRIES {
        let solve = |format| -> Result<String, Failure> {
            let mut buf = Vec::new();
            (entry.solve)(entry.sample.input.as_bytes(), &mut buf, format)
                .map_err(|e| Failure::from_run(&format!("<{} sample>", entry.command), e))?;
            Ok(String::from_utf8_lossy(&buf).into_owned())
        };
        let judge = solve(OutputFormat::Judge)?;
        let board = solve(OutputFormat::Board)?;
        let input = entry.sample.input.as_bytes();
        let verdict = match &entry.judging {
            Judging::Exact if judge == entry.sample.output => {
                "identical to the statement's sample output".to_string()
            }
            Judging::Exact => "DIFFERS from the statement's sample output".to_string(),
            Judging::Scored(score) => {
                match (
                    score(input, judge.as_bytes()),
                    score(input, entry.sample.output.as_bytes()),
                ) {
                    (Some(ours), Some(theirs)) => format!(
                        "valid by `{} check`, score {ours:.6}; the statement's answer scores {theirs:.6}",
                        entry.command
                    ),
                    _ => format!("REJECTED by `{} check`", entry.command),
                }
            }
        };
        text.push_str(&format!(
            "\n== {} ({}): {} ==\n\n`chess-puzzles {}` on the statement's sample input:\n{}\nanswer ({verdict}):\n{}\nas boards (--format board):\n{}",
            entry.title,
            entry.judge,
            entry.summary,
            entry.command,
            indent(entry.sample.input),
            indent(&judge),
            indent(&board),
        ));
    }
    out.write_all(text.as_bytes()).map_err(Failure::Output)?;
    Ok(Verdict::Done)
}
