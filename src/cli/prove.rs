//! `chess-puzzles showdown --prove`: proofs of optimality with the MILP solver (cargo feature
//! `milp`). Without the feature the flag is refused with the build command to use.

use chess_puzzles::showdown::Options;

use super::io::{Failure, Output, Verdict};

/// The build that has the proof mode.
#[cfg(not(feature = "milp"))]
const BUILD: &str = "cargo build --release --features milp";

/// How the proof models a test.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum ProofModel {
    /// The exact rules for every king from the start (proves more on the benchmark sets).
    #[default]
    Exact,
    /// The covering relaxation first, then the exact rules for the kings its answer leaves
    /// unchecked, solved again until its answer is valid.
    Lazy,
}

#[derive(Debug, clap::Args)]
pub struct ProveArgs {
    /// Prove each answer optimal, or give a certified lower bound and the gap, with the MILP
    /// solver HiGHS (a build with `--features milp`). The time limit is then 60 seconds per
    /// test unless given.
    #[arg(long)]
    pub prove: bool,
    /// How the proof models each test.
    #[arg(long, value_enum, default_value_t, requires = "prove")]
    pub proof_model: ProofModel,
}

/// Runs the proof mode, or refuses it in a build without the feature.
#[cfg(not(feature = "milp"))]
pub fn run(
    _args: &ProveArgs,
    _options: Options,
    _time_given: bool,
    _input: Option<&std::path::PathBuf>,
    _out: &mut Output,
) -> Result<Verdict, Failure> {
    Err(Failure::Usage(format!(
        "--prove needs the MILP solver, which this build lacks: build with `{BUILD}` (needs cmake, a C++ compiler and libclang)"
    )))
}

/// Runs the proof mode.
#[cfg(feature = "milp")]
pub fn run(
    args: &ProveArgs,
    options: Options,
    time_given: bool,
    input_path: Option<&std::path::PathBuf>,
    out: &mut Output,
) -> Result<Verdict, Failure> {
    use std::io::{IsTerminal, Write};

    use chess_puzzles::output::OutputFormat;
    use chess_puzzles::showdown::prove::{self, Ending, Event, ProofTime, Scheme};
    use indicatif::{ProgressBar, ProgressStyle};

    use super::io::Input;

    let input = Input::open(input_path, out)?;
    // The shared Ctrl-C handler (src/cli/interrupt.rs): the first Ctrl-C ends the proof with
    // what it has.
    let interrupt = super::interrupt::install();
    let scheme = match args.proof_model {
        ProofModel::Lazy => Scheme::Lazy,
        ProofModel::Exact => Scheme::Exact,
    };
    // Without a time limit, a minute per test.
    let time = if time_given {
        ProofTime::Whole(options.time_limit)
    } else {
        ProofTime::PerTest(prove::DEFAULT_TIME_PER_TEST)
    };
    let report_lines = options.format == OutputFormat::Judge;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template(
            "showdown --prove {bar:20} {pos}/{len} tests {elapsed} {msg}",
        ) {
            bar.set_style(style);
        }
        bar
    });
    let mut stderr = std::io::stderr();
    // The tests under way (several when proven side by side) and what each is doing.
    let mut under_way: std::collections::BTreeMap<u64, String> = Default::default();
    let show = |bar: &ProgressBar, under_way: &std::collections::BTreeMap<u64, String>| {
        let message: Vec<String> = under_way
            .iter()
            .map(|(case, what)| format!("test {case}: {what}"))
            .collect();
        bar.set_message(message.join("; "));
    };
    let result = prove::run(
        input.reader,
        out,
        &options,
        scheme,
        time,
        interrupt,
        |event| match event {
            Event::Started { case, total } => {
                under_way.insert(case, "searching".to_string());
                if let Some(bar) = &bar {
                    bar.set_length(total);
                    show(bar, &under_way);
                }
            }
            Event::Working { case, progress } => {
                under_way.insert(
                    case,
                    format!(
                        "cost {}, bound {}, gap {}",
                        progress.cost,
                        progress.lower_bound,
                        gap(progress.cost, progress.lower_bound)
                    ),
                );
                if let Some(bar) = &bar {
                    show(bar, &under_way);
                }
            }
            Event::Ended { case } => {
                under_way.remove(&case);
                if let Some(bar) = &bar {
                    show(bar, &under_way);
                }
            }
            Event::Done { case, proof } => {
                let s = &proof.solution;
                let how = match &proof.ending {
                    Ending::Optimal => "optimal".to_string(),
                    Ending::TimeLimit => "time limit".to_string(),
                    Ending::Interrupted => "interrupted".to_string(),
                    Ending::Stopped(why) => format!("stopped: {why}"),
                    Ending::TooLarge { nonzeros, left } => format!(
                        "no MILP: its {nonzeros} nonzeros are more than the solver takes in \
                         within the {:.1} s that were left, which went to the optimiser",
                        left.as_secs_f64()
                    ),
                };
                let line = format!(
                    "test {case}: cost {}, lower bound {}, gap {} ({how}; {} MILP solves, exact rules for {} of {} kings)",
                    s.answer.cost,
                    s.lower_bound,
                    gap(s.answer.cost, s.lower_bound),
                    proof.rounds,
                    proof.exact_kings,
                    proof.kings,
                );
                if let Some(bar) = &bar {
                    bar.set_position(case);
                    show(bar, &under_way);
                    if report_lines {
                        bar.println(&line);
                    }
                } else if report_lines {
                    let _ = writeln!(stderr, "{line}");
                }
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    result.map_err(|e| Failure::from_run(&input.name, e))?;
    if super::interrupt::requested() {
        eprintln!("interrupted: every test answered, the proofs cut short are not optimal");
        return Ok(Verdict::Interrupted);
    }
    Ok(Verdict::Done)
}

/// The gap between an answer's cost and a lower bound, in percent of the cost.
#[cfg(feature = "milp")]
fn gap(cost: u64, bound: u64) -> String {
    if cost == 0 {
        return "0%".to_string();
    }
    format!(
        "{:.4}%",
        100.0 * cost.saturating_sub(bound) as f64 / cost as f64
    )
}
