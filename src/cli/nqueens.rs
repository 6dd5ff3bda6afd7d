//! `chess-puzzles nqueens list|count|best`.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Subcommand;

use chess_puzzles::nqueens::first_shard::{self, FirstRecord, FirstSpec};
use chess_puzzles::nqueens::shard::{self, Spec};
use chess_puzzles::nqueens::{self, BestOptions, Control, Fix, ListOptions, Problem};

use super::duration::TimeLimit;
use super::gpu;
use super::interrupt;
use super::io::{Failure, Input, Output, Verdict};
use super::progress;
use super::solve::{OutputArgs, SolveArgs, TraceArgs};
use chess_puzzles::output::OutputFormat;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Every placement containing the given queens, one per line, in lexicographic order: the
    /// row (1-based) of the queen of each column, left to right.
    #[command(after_help = super::help::NQUEENS_LIST)]
    List(ListArgs),
    /// The number of placements containing the given queens.
    ///
    /// With --shard I/K, only part I of K of an empty board's count: the K parts are
    /// disjoint and add up to the whole count, so they can run as separate processes or
    /// cluster jobs; `--format json` writes a record for `nqueens merge`.
    ///
    /// Exit code 124 with a message, and no count, when --time-limit runs out.
    #[command(after_help = super::help::NQUEENS_COUNT)]
    Count(CountArgs),
    /// Adds up the shard records of `nqueens count N --shard I/K --format json`, after
    /// checking that exactly the K shards of one count are there, once each, intact; or
    /// merges the records of `nqueens list N --limit 1 --shard I/K --format json` into the
    /// first placement.
    ///
    /// Exit code 1, and no total (no placement), when a record is missing, repeated, foreign
    /// or corrupted, or a shard has not got far enough for the first placement to be known
    /// (each is named on standard error); 2 when an input cannot be read or a line is not a
    /// record.
    Merge(MergeArgs),
    /// The largest sum of weights under n non-attacking queens, for each board of the input:
    /// k, then per board its side n (1..64) and n rows of n weights (0..4294967295). A board
    /// of side 2 or 3 has no placement: it is answered `impossible` (a null score in JSON).
    ///
    /// Each answer is written as soon as it is known. When --time-limit runs out or Ctrl-C
    /// is pressed, the board being solved gets the best placement found so far and the later
    /// ones their first placement, at once (valid placements, `"proven": false` in JSON);
    /// then exit code 124 (time limit) or 130 (Ctrl-C).
    #[command(after_help = super::help::NQUEENS_BEST)]
    Best(BestArgs),
}

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
struct BestArgs {
    #[command(subcommand)]
    kit: Option<BestKit>,
    #[command(flatten)]
    solve: SolveArgs,
    /// Stop searching after this many seconds, counted from the start, and answer with the
    /// best placements found (exit code 124). 0: the first placements; inf: no limit.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    time_limit: Option<TimeLimit>,
}

/// The kit of `nqueens best`: random inputs, and a contestant's program judged against ours.
#[derive(Debug, Subcommand)]
enum BestKit {
    /// Write a random input of weighted boards (the same for the same seed and options).
    Gen(BestGenArgs),
    /// Run your program on generated boards, judge every run, shrink the first failing input
    /// (see `chess-puzzles queens stress --help`; the answers are compared exactly).
    #[cfg(unix)]
    Stress(super::stress::StressArgs<super::stress::ExactJudging>),
    /// Judge your program on a folder of tests (NAME.in, with NAME.out or our answer).
    #[cfg(unix)]
    Judge(super::stress::JudgeArgs<super::stress::ExactJudging>),
}

#[derive(Debug, clap::Args)]
struct BestGenArgs {
    #[command(flatten)]
    seed: super::kit::Seed,
    /// How many boards.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    cases: u64,
    /// Board sides: a side N or a range A-B within 1-64, A <= B (large sides take long to
    /// solve).
    #[arg(long, value_name = "N|A-B", default_value = "1-8", value_parser = side_range)]
    size: (usize, usize),
    /// The largest weight (each is drawn from 0 to it; see --planted).
    #[arg(long, value_name = "W", default_value_t = 99)]
    weights: u32,
    /// Plant a best placement in each board: its squares weigh the largest weight, the others
    /// at most a twentieth of it, so that the answer is proven at once on any side up to 64
    /// (random weights on sides above 24 or so take minutes).
    #[arg(long)]
    planted: bool,
}

/// A side `N` or a range `A-B` of sides, `A <= B`, each within 1..=MAX_N.
fn side_range(text: &str) -> Result<(usize, usize), String> {
    let side = |t: &str| -> Option<usize> {
        let n: usize = t
            .parse()
            .ok()
            .filter(|_| t.bytes().all(|b| b.is_ascii_digit()))?;
        (1..=nqueens::MAX_N).contains(&n).then_some(n)
    };
    match chess_puzzles::judge::span::parse(text, side) {
        Some((a, b)) if a <= b => Ok((a, b)),
        _ => Err(format!(
            "expected a side 1..{} or a range A-B with A <= B, found '{text}'",
            nqueens::MAX_N
        )),
    }
}

fn best_gen_options(g: BestGenArgs) -> nqueens::generator::GenOptions {
    nqueens::generator::GenOptions {
        seed: g.seed.seed,
        boards: g.cases,
        sides: g.size,
        max_weight: g.weights,
        planted: g.planted,
    }
}

fn best_generate(g: BestGenArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut out = out;
    nqueens::generator::generate(best_gen_options(g), &mut out).map_err(Failure::Output)
}

/// `nqueens best` for the stress tester and the local judge.
#[cfg(unix)]
struct Best;

#[cfg(unix)]
impl super::stress::Stressed for Best {
    type Judging = super::stress::ExactJudging;
    type Subject = nqueens::stress::Best;

    fn subject(judging: &Self::Judging) -> nqueens::stress::Best {
        nqueens::stress::Best {
            tolerance: judging.tolerance,
        }
    }

    fn gen_options(
        words: &[String],
        _: &Self::Judging,
    ) -> Result<nqueens::generator::GenOptions, Failure> {
        super::stress::parse_gen(words, |g| Ok(best_gen_options(g)))
    }
}

/// The board and its given queens.
#[derive(Debug, clap::Args)]
struct ProblemArgs {
    /// The board side, 1..64.
    n: u64,
    /// A queen every placement must contain, as ROW,COL (1-based; repeat for more queens).
    #[arg(long = "fix", value_name = "ROW,COL")]
    fixes: Vec<Fix>,
}

impl ProblemArgs {
    fn problem(&self) -> Result<Problem, Failure> {
        Problem::new(self.n, &self.fixes).map_err(|e| Failure::Usage(e.to_string()))
    }
}

#[derive(Debug, clap::Args)]
struct ListArgs {
    #[command(flatten)]
    problem: ProblemArgs,
    /// Stop after this many placements.
    #[arg(long, value_name = "K")]
    limit: Option<u64>,
    /// Stop after this many seconds (exit code 124, the placements found so far written).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    time_limit: Option<TimeLimit>,
    /// How to write the placements (`judge`: plain text, one placement per line; there is no
    /// judge for nqueens; `svg`: the boards drawn as one SVG document).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
    /// With --format svg: one SVG file per placement, DIR/nqueens-<index>.svg, instead of one
    /// document on standard output.
    #[arg(long, value_name = "DIR")]
    svg_dir: Option<PathBuf>,
    #[command(flatten)]
    trace: TraceArgs,
    /// With --limit 1, search only shard I of K (0 <= I < K <= 1000000000) of an empty board's
    /// first placement: its prefixes (the rows of the first --depth columns) numbered I,
    /// I + K, I + 2K, ... in lexicographic order, until one holds a placement; `--format
    /// json` writes a record for `nqueens merge`.
    #[arg(long, value_name = "I/K")]
    shard: Option<Spec>,
    /// With --shard: the columns of a prefix (1..N; default: two fifths of N, more for many
    /// shards). Every shard of one search must use the same.
    #[arg(long, value_name = "D", requires = "shard")]
    depth: Option<u64>,
    /// With --shard: keep the shard's record in FILE while it runs (rewritten whole every few
    /// seconds and at the end), and resume from it when it is there.
    #[arg(long, value_name = "FILE", requires = "shard")]
    record: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct CountArgs {
    #[command(flatten)]
    problem: ProblemArgs,
    /// Threads to count with (default: one per core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Give up after this many seconds (exit code 124, no count; Ctrl-C: exit code 130).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    time_limit: Option<TimeLimit>,
    /// Count only shard I of K (0 <= I < K <= 1000000000) of an empty board.
    #[arg(long, value_name = "I/K")]
    shard: Option<Spec>,
    /// Where to count: on the CPU's cores, or on a GPU (an empty board of side 6 to 27;
    /// the best adapter found through Vulkan, Metal or Direct3D 12).
    #[arg(long, value_enum, default_value_t)]
    device: Device,
    /// With --device gpu: say on standard error what the GPU did (the adapter and its
    /// driver, the kernels' choices, configurations, batches, the time in each kernel, the
    /// host's own work and the time the GPU sat idle).
    #[arg(long)]
    stats: bool,
    /// With --device gpu: count on a software device (one that runs the kernels on the CPU,
    /// such as Mesa's lavapipe) where no GPU is found; without it, a software device is
    /// refused (as with the environment variable CHESS_PUZZLES_GPU_ALLOW_SOFTWARE=1).
    #[arg(long)]
    allow_software: bool,
    /// How to write the count (`judge`: the plain number, there is no judge for nqueens; with
    /// --shard, json writes the record for `nqueens merge`).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// The device that counts.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
enum Device {
    /// The CPU's cores (--threads).
    #[default]
    Cpu,
    /// A GPU.
    Gpu,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// Files of shard records, one JSON object per line (standard input when none or `-`).
    inputs: Vec<PathBuf>,
    /// How to write the total (`judge`: the plain number; there is no judge for nqueens).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    match args.command {
        Command::List(args) => list(args, out),
        Command::Count(args) => count(args, out),
        Command::Merge(args) => merge(args, out),
        Command::Best(args) => best(args, out),
    }
}

/// The control of a run with an optional time limit, counted from `started` (see
/// [`TimeLimit`] for the values allowed).
fn control(time_limit: Option<TimeLimit>, started: Instant) -> Result<Control, Failure> {
    Ok(time_limit
        .and_then(|limit| limit.deadline(started))
        .map_or_else(Control::new, Control::with_deadline))
}

fn best(args: BestArgs, out: &mut Output) -> Result<Verdict, Failure> {
    match args.kit {
        Some(BestKit::Gen(g)) => {
            best_generate(g, &mut super::progress::WriteProgress::new(out))?;
            return Ok(Verdict::Done);
        }
        #[cfg(unix)]
        Some(BestKit::Stress(s)) => return super::stress::stress::<Best>(s, out),
        #[cfg(unix)]
        Some(BestKit::Judge(j)) => return super::stress::judge::<Best>(j, out),
        None => {}
    }
    let started = Instant::now();
    let control = control(args.time_limit, started)?.with_interrupt(interrupt::install());
    let input = Input::open(args.solve.input.as_ref(), out)?;
    let options = BestOptions {
        format: args.solve.output.format,
    };
    let run = args.solve.output.write(out, "nqueens", |writer| {
        progress::with_bar(
            progress::QUIET_FOR,
            |bar| {
                let (done, total) = control.progress();
                bar.set_length(total.max(1));
                bar.set_position(done);
                bar.set_message(format!(
                    "{done}/{total} boards answered, {} elapsed",
                    progress::human(started.elapsed())
                ));
            },
            || nqueens::run_best_watched(input.reader, &mut &mut *writer, &options, &control),
        )
        .map_err(|e| Failure::from_run(&input.name, e))
    })?;
    let boards = |k: u64| format!("{k} board{}", if k == 1 { "" } else { "s" });
    if control.interrupted() {
        eprintln!(
            "interrupted: nqueens best answered {}, {} of them with the best placement found \
             so far (not proven the best)",
            boards(run.boards),
            run.unproven
        );
        return Ok(Verdict::Interrupted);
    }
    if run.unproven > 0 {
        eprintln!(
            "time limit reached after {:.1} s: {} of {} answered with the best placement \
             found, not proven the best",
            started.elapsed().as_secs_f64(),
            run.unproven,
            boards(run.boards)
        );
        return Ok(Verdict::OutOfTime);
    }
    Ok(Verdict::Done)
}

fn list(args: ListArgs, out: &mut Output) -> Result<Verdict, Failure> {
    if let Some(spec) = args.shard {
        return list_shard(args, spec, out);
    }
    let problem = args.problem.problem()?;
    let started = Instant::now();
    let control = control(args.time_limit, started)?;
    let output = OutputArgs {
        format: args.format,
        svg_dir: args.svg_dir,
    };
    args.trace.check(&output)?;
    if args.trace.trace {
        let options = nqueens::trace::TraceOptions {
            max_steps: args.trace.trace_steps,
            solutions: args.limit,
        };
        let ended =
            nqueens::trace::trace(&problem, out, &options, &control).map_err(Failure::Output)?;
        if ended.stopped_by == Some(chess_puzzles::core::trace::StoppedBy::Time) {
            out.flush().map_err(Failure::Output)?;
            eprintln!(
                "time limit reached after {:.1} s: {} steps written, the trace is incomplete",
                started.elapsed().as_secs_f64(),
                ended.traced.steps
            );
            return Ok(Verdict::OutOfTime);
        }
        return Ok(Verdict::Done);
    }
    let options = ListOptions {
        format: args.format,
        limit: args.limit,
    };
    let listed = output.write(out, "nqueens", |out| {
        nqueens::list_until(&problem, &mut &mut *out, &options, &control).map_err(|e| {
            if e.kind() == io::ErrorKind::InvalidData
                && e.to_string().starts_with(nqueens::INVALID_PLACEMENT)
            {
                Failure::Failed(e.to_string())
            } else {
                Failure::Output(e)
            }
        })
    })?;
    if listed.stopped {
        out.flush().map_err(Failure::Output)?;
        eprintln!(
            "time limit reached after {:.1} s: {} placement{} written, the listing is incomplete",
            started.elapsed().as_secs_f64(),
            listed.written,
            if listed.written == 1 { "" } else { "s" }
        );
        return Ok(Verdict::OutOfTime);
    }
    Ok(Verdict::Done)
}

fn count(args: CountArgs, out: &mut Output) -> Result<Verdict, Failure> {
    let problem = args.problem.problem()?;
    if args.shard.is_some() && !problem.given().is_empty() {
        return Err(Failure::Usage(
            "--shard splits the count of an empty board; it cannot be combined with --fix"
                .to_string(),
        ));
    }
    if args.shard.is_some() && args.format == OutputFormat::Svg {
        return Err(Failure::Usage(
            "--format svg draws boards; a shard is a part of a count, with no board to draw"
                .to_string(),
        ));
    }
    if args.shard.is_some() && problem.n() > nqueens::band::MAX_N {
        return Err(Failure::Usage(format!(
            "--shard splits boards of side up to {} (the band join's limit), found {}",
            nqueens::band::MAX_N,
            problem.n()
        )));
    }
    if args.stats && args.device != Device::Gpu {
        return Err(Failure::Usage(
            "--stats tells what the GPU did; it needs --device gpu".to_string(),
        ));
    }
    if args.allow_software && args.device != Device::Gpu {
        return Err(Failure::Usage(
            "--allow-software lets a software device count on --device gpu; it needs \
             --device gpu"
                .to_string(),
        ));
    }
    if args.device == Device::Gpu {
        if !problem.given().is_empty() {
            return Err(Failure::Usage(
                "--device gpu counts empty boards; it cannot be combined with --fix".to_string(),
            ));
        }
        gpu::check_side(problem.n())?;
    }
    let started = Instant::now();
    // The GPU is opened before anything else starts (its driver may be slow to load).
    let gpu = match args.device {
        Device::Gpu => Some(gpu::open(args.allow_software)?),
        Device::Cpu => None,
    };
    let control = control(args.time_limit, started)?.with_interrupt(interrupt::install());
    let cpu_before = cpu_seconds();
    let result = match &gpu {
        Some(gpu) => gpu::count(gpu, problem.n(), args.shard, &control, args.stats)?,
        None => {
            let mut pool = rayon::ThreadPoolBuilder::new();
            if let Some(t) = args.threads {
                pool = pool.num_threads(usize::from(t));
            }
            let pool = pool
                .build()
                .map_err(|e| Failure::Usage(format!("cannot start the counting threads: {e}")))?;
            progress::with_progress(&control, || {
                pool.install(|| match args.shard {
                    Some(spec) => {
                        shard::count(problem.n(), spec, &control).map(|c| (c.tally.count, Some(c)))
                    }
                    None => nqueens::count(&problem, &control).map(|count| (count, None)),
                })
            })
        }
    };
    let Some((count, counted)) = result else {
        let (done, total) = control.progress();
        let share = if total == 0 {
            0.0
        } else {
            100.0 * done as f64 / total as f64
        };
        if control.interrupted() {
            eprintln!(
                "interrupted: nqueens count stopped after {:.1} s with {share:.0}% of the count \
                 done; no count written",
                started.elapsed().as_secs_f64()
            );
            return Ok(Verdict::Interrupted);
        }
        eprintln!(
            "time limit reached after {:.1} s with {share:.0}% of the count done; no count \
             written",
            started.elapsed().as_secs_f64()
        );
        return Ok(Verdict::OutOfTime);
    };
    match (args.shard, counted) {
        (Some(spec), Some(counted)) => {
            if !counted.tally.verified() {
                return Err(Failure::Usage(format!(
                    "internal error: the count {count} of shard {spec} fails its residue {} \
                     (an overflow in the sums); no record written",
                    counted.tally.residue
                )));
            }
            let record = shard::Record::new(problem.n(), spec, counted, cpu_seconds() - cpu_before);
            #[cfg(feature = "gpu")]
            let record = match &gpu {
                Some(gpu) => record.on_device(gpu.adapter().to_string()),
                None => record,
            };
            match args.format {
                OutputFormat::Judge => writeln!(out, "{count}"),
                OutputFormat::Json => out.write_all(record.to_json_line().as_bytes()),
                OutputFormat::Board | OutputFormat::Svg => writeln!(
                    out,
                    "{n}x{n} board, shard {} of {}: {count} placement{}",
                    spec.index(),
                    spec.shards(),
                    if count == 1 { "" } else { "s" },
                    n = problem.n()
                ),
            }
            .map_err(Failure::Output)?;
        }
        _ => nqueens::write_count(out, &problem, count, args.format).map_err(Failure::Output)?,
    }
    Ok(Verdict::Done)
}

fn merge(args: MergeArgs, out: &mut Output) -> Result<Verdict, Failure> {
    let paths: Vec<Option<&PathBuf>> = if args.inputs.is_empty() {
        vec![None]
    } else {
        args.inputs.iter().map(Some).collect()
    };
    let mut inputs = paths
        .into_iter()
        .map(|p| Input::open(p, out).map(|i| (i.name, i.reader)))
        .collect::<Result<Vec<_>, Failure>>()?;
    // The first record says which search: a first-placement record names its search.
    if let Some((name, reader)) = inputs.first_mut() {
        let (head, first) = first_line(reader)
            .map_err(|error| Failure::Usage(format!("{name}: cannot read: {error}")))?;
        let rest = std::mem::replace(reader, Box::new(io::empty()));
        *reader = Box::new(io::Cursor::new(head).chain(rest));
        if first {
            return merge_first(args.format, inputs, out);
        }
    }
    if args.format == OutputFormat::Svg {
        return Err(Failure::Usage(
            "--format svg draws boards; a merged count has no board to draw".to_string(),
        ));
    }
    let merged = shard::merge(inputs).map_err(|e| Failure::Usage(e.to_string()))?;
    let merged = match merged {
        Ok(merged) => merged,
        Err(problems) => {
            let mut err = io::stderr().lock();
            for p in &problems {
                let _ = writeln!(err, "rejected: {p}");
            }
            let _ = writeln!(err, "rejected: no total written");
            return Ok(Verdict::Rejected);
        }
    };
    let count = merged.count;
    match args.format {
        OutputFormat::Judge => writeln!(out, "{count}"),
        OutputFormat::Json => {
            let line = serde_json::json!({
                "n": merged.n,
                "given": [],
                "count": count,
                "shards": merged.shards,
                "cpu_seconds": merged.cpu_seconds,
            });
            writeln!(out, "{line}")
        }
        OutputFormat::Board | OutputFormat::Svg => writeln!(
            out,
            "{n}x{n} board, no queen given: {count} placement{} ({} shards merged, {:.1} s of CPU)",
            if count == 1 { "" } else { "s" },
            merged.shards,
            merged.cpu_seconds,
            n = merged.n
        ),
    }
    .map_err(Failure::Output)?;
    Ok(Verdict::Done)
}

/// Reads up to the first line that is not blank (at most a record's longest line): the bytes
/// read, and whether that line is a first-placement record (it has `"search":"first"`).
fn first_line(reader: &mut Box<dyn io::Read>) -> io::Result<(Vec<u8>, bool)> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    let mut line_start = 0;
    loop {
        if head.len() > shard::MAX_LINE + 1 {
            return Ok((head, false));
        }
        match reader.read(&mut byte) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        head.push(byte[0]);
        if byte[0] == b'\n' {
            if head[line_start..].iter().all(u8::is_ascii_whitespace) {
                line_start = head.len();
                continue;
            }
            break;
        }
    }
    let line = String::from_utf8_lossy(&head[line_start..]);
    let first = serde_json::from_str::<serde_json::Value>(line.trim())
        .ok()
        .is_some_and(|v| v.get("search").and_then(|s| s.as_str()) == Some(first_shard::SEARCH));
    Ok((head, first))
}

/// `nqueens merge` of first-placement records.
fn merge_first(
    format: OutputFormat,
    inputs: Vec<(String, Box<dyn io::Read>)>,
    out: &mut Output,
) -> Result<Verdict, Failure> {
    let merged = first_shard::merge_records(inputs).map_err(|e| Failure::Usage(e.to_string()))?;
    let merged = match merged {
        Ok(merged) => merged,
        Err(problems) => {
            let mut err = io::stderr().lock();
            for p in &problems {
                let _ = writeln!(err, "rejected: {p}");
            }
            let _ = writeln!(err, "rejected: no first placement written");
            return Ok(Verdict::Rejected);
        }
    };
    let n = merged.n as usize;
    // A placement that is not one is a bug: never written.
    if let Some(rows) = &merged.rows
        && !(rows.len() == n && chess_puzzles::core::placements::is_non_attacking(rows))
    {
        return Err(Failure::Failed(format!(
            "{} {rows:?}, which is not a placement of {n} queens; nothing written",
            nqueens::INVALID_PLACEMENT
        )));
    }
    let problem = Problem::new(merged.n, &[]).map_err(|e| Failure::Usage(e.to_string()))?;
    match (format, &merged.rows) {
        (OutputFormat::Json, rows) => {
            let line = serde_json::json!({
                "n": merged.n,
                "rows": rows.as_ref().map(|r| r.iter().map(|&x| u64::from(x) + 1).collect::<Vec<_>>()),
                "depth": merged.depth,
                "prefix": merged.prefix,
                "shards": merged.shards,
                "nodes": merged.nodes,
                "cpu_seconds": merged.cpu_seconds,
            });
            writeln!(out, "{line}").map_err(Failure::Output)?;
        }
        (format, Some(rows)) => {
            let listing = nqueens::writer::Listing::new(&problem, rows);
            chess_puzzles::output::write_case(&mut *out, format, 1, &listing)
                .map_err(Failure::Output)?;
        }
        (OutputFormat::Board | OutputFormat::Svg, None) => {
            nqueens::list(
                &problem,
                &mut *out,
                &ListOptions {
                    format,
                    limit: Some(0),
                },
            )
            .map_err(Failure::Output)?;
        }
        (_, None) => {}
    }
    if merged.rows.is_none() {
        eprintln!(
            "N = {}: no placement (every prefix of the {} shards refuted)",
            merged.n, merged.shards
        );
    }
    Ok(Verdict::Done)
}

/// `nqueens list N --limit 1 --shard I/K`: one shard of the first placement's search.
fn list_shard(args: ListArgs, spec: Spec, out: &mut Output) -> Result<Verdict, Failure> {
    let problem = args.problem.problem()?;
    if args.limit != Some(1) {
        return Err(Failure::Usage(
            "--shard splits the search for the first placement; it needs --limit 1".to_string(),
        ));
    }
    if !problem.given().is_empty() {
        return Err(Failure::Usage(
            "--shard splits the first placement of an empty board; it cannot be combined with \
             --fix"
                .to_string(),
        ));
    }
    if args.format == OutputFormat::Svg || args.svg_dir.is_some() || args.trace.trace {
        return Err(Failure::Usage(
            "--shard writes a shard's record or its placement; it cannot be combined with \
             --format svg, --svg-dir or --trace"
                .to_string(),
        ));
    }
    let n = problem.n();
    let depth = args
        .depth
        .unwrap_or_else(|| first_shard::default_depth(n, spec.shards()) as u64);
    let fspec = FirstSpec::new(n as u64, depth, spec)
        .map_err(|e| Failure::Usage(format!("--depth: {e}")))?;
    // A record to resume from.
    let before = match &args.record {
        Some(path) if path.exists() => {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::Usage(format!("{name}: cannot read: {e}")))?;
            let record = first_shard::read_record(&name, &text)
                .map_err(|e| Failure::Usage(format!("--record {e}")))?;
            if let Some(r) = &record
                && (r.n, r.depth, r.shard, r.shards, r.version.as_str())
                    != (n as u64, depth, spec.index(), spec.shards(), shard::VERSION)
            {
                return Err(Failure::Usage(format!(
                    "--record {name}:1:1: expected the record of shard {spec} of N = {n} with \
                     prefixes of {depth} columns (version {}), found one of shard {}/{} of N = \
                     {} with prefixes of {} columns (version {})",
                    shard::VERSION,
                    r.shard,
                    r.shards,
                    r.n,
                    r.depth,
                    r.version
                )));
            }
            record
        }
        _ => None,
    };
    let save = |record: &FirstRecord| -> Result<(), Failure> {
        let Some(path) = &args.record else {
            return Ok(());
        };
        let mut temporary = path.clone().into_os_string();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, record.to_json_line())
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| Failure::Usage(format!("--record {}: cannot write: {e}", path.display())))
    };
    let record = match before.as_ref().filter(|r| r.ended()) {
        Some(ended) => ended.clone(),
        None => {
            let started = Instant::now();
            let control = control(args.time_limit, started)?.with_interrupt(interrupt::install());
            let cpu_before = cpu_seconds();
            let done = before.as_ref().map_or(0, |r| r.done);
            let finish = |run: &first_shard::ShardRun| {
                let record = FirstRecord::new(&fspec, run, cpu_seconds() - cpu_before);
                match &before {
                    Some(b) => record.resumed(b),
                    None => record,
                }
            };
            let mut last_save = Instant::now();
            let mut failed = None;
            let run = progress::with_bar(
                progress::QUIET_FOR,
                |bar| {
                    let refuted = done + control.progress().0;
                    bar.set_length(1);
                    bar.set_message(format!(
                        "shard {spec} of N = {n}: {refuted} of its prefixes of {depth} columns \
                         refuted, {} elapsed",
                        progress::human(started.elapsed())
                    ));
                },
                || {
                    first_shard::search(&fspec, done, &control, |run| {
                        if failed.is_none() && last_save.elapsed() >= CHECKPOINT_EVERY {
                            failed = save(&finish(run)).err();
                            last_save = Instant::now();
                        }
                    })
                },
            );
            if let Some(failure) = failed {
                return Err(failure);
            }
            finish(&run)
        }
    };
    // A placement that is not one is a bug: never written.
    if let Some(rows) = &record.rows {
        let rows0: Vec<u8> = rows.iter().map(|&r| r.saturating_sub(1) as u8).collect();
        if rows.len() != n || !chess_puzzles::core::placements::is_non_attacking(&rows0) {
            return Err(Failure::Failed(format!(
                "{} {rows:?}, which is not a placement of {n} queens; nothing written",
                nqueens::INVALID_PLACEMENT
            )));
        }
    }
    save(&record)?;
    match args.format {
        OutputFormat::Json => out.write_all(record.to_json_line().as_bytes()),
        OutputFormat::Judge => match &record.rows {
            Some(rows) => {
                let line: Vec<String> = rows.iter().map(u64::to_string).collect();
                writeln!(out, "{}", line.join(" "))
            }
            None => Ok(()),
        },
        OutputFormat::Board | OutputFormat::Svg => writeln!(
            out,
            "{n}x{n} board, shard {} of {}, prefixes of {depth} columns: {}",
            spec.index(),
            spec.shards(),
            match (&record.rows, record.outcome.as_str()) {
                (Some(rows), _) => format!(
                    "{} (prefix number {}, the first of its prefixes that holds one)",
                    rows.iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                    record.next
                ),
                (None, "none") => format!("no placement ({} prefixes refuted)", record.done),
                _ => format!("{} of its prefixes refuted so far", record.done),
            }
        ),
    }
    .map_err(Failure::Output)?;
    out.flush().map_err(Failure::Output)?;
    if record.ended() {
        return Ok(Verdict::Done);
    }
    let kept = args
        .record
        .as_ref()
        .map(|p| format!("; the record is in {}", p.display()))
        .unwrap_or_default();
    let stopped = if interrupt::requested() {
        "interrupted"
    } else {
        "time limit reached"
    };
    eprintln!(
        "{stopped}: shard {spec} of N = {n} refuted {} of its prefixes (up to number {}, not \
         included) and found no placement yet{kept}",
        record.done, record.next
    );
    Ok(if interrupt::requested() {
        Verdict::Interrupted
    } else {
        Verdict::OutOfTime
    })
}

/// How often a running shard rewrites its `--record` file.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// The CPU time of this process so far (user and system), in seconds; the wall time since
/// start where the system cannot tell.
fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage writes a `rusage` into the pointer it is given, which points to
        // one (zeroed) on our stack.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } == 0 {
            // SAFETY: getrusage succeeded, so it filled the whole struct.
            let usage = unsafe { usage.assume_init() };
            let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
            return seconds(usage.ru_utime) + seconds(usage.ru_stime);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}
