//! Command-line arguments and dispatch. The work is done by the library; this layer only turns
//! arguments into options, opens the input and writes to one buffered standard output.

mod demo;
mod duration;
mod gpu;
mod help;
mod interrupt;
mod io;
mod kit;
mod nqueens;
mod progress;
mod prove;
mod queens;
#[cfg(feature = "serve")]
mod serve;
mod showdown;
mod solve;
#[cfg(unix)]
mod stress;
mod sultan;
mod tour;

use std::io::Write;
use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};

pub use io::{Failure, Verdict};

/// Solves four classic chess-board puzzles exactly as their judges expect, and generalises them.
///
/// Each puzzle command reads its judge input from a path, or from standard input when the path
/// is absent or `-`, and writes the judge's output byte for byte (--format judge), boards drawn
/// for people (--format board) or one JSON object per test case (--format json). Each has
/// `gen`, `validate` and `check` for problem setters. `chess-puzzles <command> --help`
/// describes a command's formats and ends with examples.
///
/// Exit codes, the same for every command: 0 success; 1 a check or validate verdict of
/// wrong/invalid; 2 a usage error, an input that cannot be read or parsed, or an output to
/// check that cannot be read, with a message on standard error as
/// `error: <path>:<line>:<column>: expected ..., found ...`; 124 the time limit ran out with
/// work undone (nqueens best and list: what was found is written; nqueens count: no count;
/// showdown --steps: steps not made); 130 stopped by Ctrl-C (the answers held were written; a
/// count writes none). The time limit of showdown (and of showdown --prove) is the budget of
/// an optimiser that answers every test within it, not a cutoff: it ends with 0, and the
/// output says which answers are proven optimal. A closed output pipe ends the program
/// quietly with 0.
#[derive(Debug, Parser)]
#[command(name = "chess-puzzles", version)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// 8 Queens Chess Problem (UVa 750): every 8-queens placement containing a given queen.
    ///
    /// Input: the number of test cases T, then T squares `row column`, each number 1..8 (rows
    /// from the top, columns from the left), whitespace-separated in any layout.
    ///
    /// Output: per case the two heading lines, then every placement holding that queen in
    /// lexicographic order, numbered `%2d`, six spaces, the row of the queen of each column; one
    /// empty line between cases.
    #[command(after_help = help::QUEENS)]
    Queens(queens::Args),
    /// The Sultan's Successors (UVa 167): the best 8-queens sum on each weighted board.
    ///
    /// Input: the number of boards k, then per board 64 weights, row by row (0..4294967295;
    /// the statement's are 1..99), whitespace-separated in any layout.
    ///
    /// Output: the largest sum under eight non-attacking queens, `%5d`, one line per board.
    #[command(after_help = help::SULTAN)]
    Sultan(sultan::Args),
    /// Chess Variants Showdown (SPOJ CHE): the cheapest pieces that check every king (an optimiser).
    ///
    /// Input: the number of tests t, then per test the side n, n rows of n characters (`#` a
    /// king, `_` an empty square), and the eight prices of bishop, rook, knight, gold general,
    /// silver general, horse, phoenix and cannon.
    ///
    /// Output: per test `f g` (the number of pieces and their total price), then f lines
    /// `type row column` (type 1..8 in the order above, rows and columns from 1).
    #[command(after_help = help::SHOWDOWN)]
    Showdown(showdown::Args),
    /// Traveling Queen (POJ 2919): the shortest queen tour past every knight to the bishop.
    ///
    /// Input: the number of scenarios, then per scenario eight rows of eight characters, rank 8
    /// first: `.` empty, `Q` the queen, `B` the bishop, `N` a knight, `P` a pawn.
    ///
    /// Output: per scenario `Scenario #i:`, the squares the queen stands on run together
    /// (`h8h2e5d4b2`) or `impossible`, then an empty line.
    #[command(after_help = help::TOUR)]
    Tour(tour::Args),
    /// General N-queens: any board up to 64x64, given queens; list, count, best weighted sum.
    #[command(after_help = help::NQUEENS)]
    Nqueens(nqueens::Args),
    /// Solves every puzzle's sample (built in) and draws the answers.
    #[command(after_help = help::DEMO)]
    Demo,
    /// A web board for every puzzle and its JSON API, on 127.0.0.1 (Ctrl-C stops).
    #[cfg(feature = "serve")]
    Serve(serve::Args),
    /// Writes the completion script of a shell, made from these very commands and options.
    ///
    /// Install it where the shell looks for completions (see the examples); a new shell then
    /// completes chess-puzzles' commands, options and their values.
    #[command(after_help = help::COMPLETIONS)]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Writes the manual pages, made from these very commands and options.
    ///
    /// Without --dir, the page of chess-puzzles itself on standard output (roff); with --dir,
    /// one page per command (chess-puzzles.1, chess-puzzles-queens.1,
    /// chess-puzzles-queens-check.1, ...) into that directory, created if needed.
    #[command(after_help = help::MAN)]
    Man {
        /// The directory to write every page into.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// Prints a usage error of the argument parser (or the help it was asked for) and gives its
/// exit code, with a tip where the mistake is a usual one: the program of `stress` or `judge`
/// without the `--` before it, `--fix 1 1` for `--fix 1,1`.
pub fn usage(error: clap::Error) -> std::process::ExitCode {
    use clap::error::ErrorKind;
    let words: Vec<String> = std::env::args().skip(1).collect();
    let tip = match error.kind() {
        ErrorKind::UnknownArgument | ErrorKind::TooManyValues | ErrorKind::ArgumentConflict
            if !words.iter().any(|w| w == "--")
                && words.iter().any(|w| w == "stress" || w == "judge") =>
        {
            // The example names the puzzle and the command the user typed.
            let command = words
                .iter()
                .find(|w| *w == "stress" || *w == "judge")
                .map_or("stress", String::as_str);
            let puzzle = words
                .iter()
                .find(|w| ["queens", "sultan", "showdown", "tour"].contains(&w.as_str()))
                .map_or("sultan", String::as_str);
            let example = if command == "judge" {
                format!("chess-puzzles {puzzle} judge TESTS -- python3 sol.py")
            } else {
                format!("chess-puzzles {puzzle} stress --cases 50 -- python3 sol.py")
            };
            Some(format!(
                "tip: put `--` before the program to judge and its arguments: `{example}`"
            ))
        }
        ErrorKind::UnknownArgument | ErrorKind::InvalidValue | ErrorKind::ValueValidation => words
            .windows(3)
            .find(|w| {
                w[0] == "--fix"
                    && w[1].bytes().all(|b| b.is_ascii_digit())
                    && w[2].bytes().all(|b| b.is_ascii_digit())
            })
            .map(|w| {
                format!(
                    "tip: --fix takes the queen's square as one value, ROW,COL: `--fix {},{}`",
                    w[1], w[2]
                )
            }),
        _ => None,
    };
    let code = error.exit_code();
    let text = error.render().to_string();
    match tip {
        Some(tip) => {
            // The tip goes after clap's first line, which names the mistake.
            let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
            eprint!("{first}\n\n  {tip}\n{rest}");
        }
        None if error.use_stderr() => eprint!("{text}"),
        None => print!("{text}"),
    }
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(2))
}

/// Runs the command and flushes its output.
pub fn run(cli: Cli) -> Result<Verdict, Failure> {
    let mut out = io::Output::stdout();
    let verdict = match cli.command {
        Command::Queens(args) => kit::run(args, &mut out),
        Command::Sultan(args) => kit::run(args, &mut out),
        Command::Showdown(args) => kit::run(args, &mut out),
        Command::Tour(args) => kit::run(args, &mut out),
        Command::Nqueens(args) => nqueens::run(args, &mut out),
        Command::Demo => demo::run(&mut out),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args, &mut out),
        Command::Completions { shell } => completions(shell, &mut out),
        Command::Man { dir } => man(dir, &mut out),
    }?;
    out.flush().map_err(Failure::Output)?;
    Ok(verdict)
}

/// The program's exit code `code`, once everything is written. When a MILP solve of the proof
/// mode was left running (it did not stop at its deadline, see
/// `showdown::prove::solves_left_running`), the process ends here at once (`_exit`) with its
/// output flushed, so that no C++ static of the solver is torn down while it still works.
pub fn exit(code: u8) -> std::process::ExitCode {
    #[cfg(all(feature = "milp", unix))]
    if chess_puzzles::showdown::prove::solves_left_running() {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        // Safety: `_exit` ends the process without running anything more; every output was
        // flushed above.
        unsafe { libc::_exit(i32::from(code)) }
    }
    std::process::ExitCode::from(code)
}

/// `chess-puzzles completions SHELL`: the script, generated from the argument definitions.
fn completions(shell: clap_complete::Shell, out: &mut io::Output) -> Result<Verdict, Failure> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "chess-puzzles", &mut script);
    if shell == clap_complete::Shell::Bash {
        // clap_complete's bash script names the state of a subcommand `chess__puzzles__subcmd__x`
        // while walking the words but labels its case arms `chess__subcmd__puzzles__subcmd__x`
        // when the program's name has a hyphen, so nothing past the first word completed
        // (clap-rs/clap issue 6421). Spell the arms as the walk does.
        let text =
            String::from_utf8_lossy(&script).replace("chess__subcmd__puzzles", "chess__puzzles");
        script = text.into_bytes();
    }
    out.write_all(&script).map_err(Failure::Output)?;
    Ok(Verdict::Done)
}

/// `chess-puzzles man [--dir DIR]`: the manual pages, generated from the argument definitions.
fn man(dir: Option<PathBuf>, out: &mut io::Output) -> Result<Verdict, Failure> {
    let command = Cli::command();
    let Some(dir) = dir else {
        clap_mangen::Man::new(command)
            .render(out)
            .map_err(Failure::Output)?;
        return Ok(Verdict::Done);
    };
    let cannot = |e: std::io::Error| Failure::Input {
        name: dir.display().to_string(),
        error: chess_puzzles::error::InputError::Io(e),
    };
    std::fs::create_dir_all(&dir).map_err(cannot)?;
    clap_mangen::generate_to(command, &dir).map_err(cannot)?;
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .map_err(cannot)?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("chess-puzzles") && name.ends_with(".1"))
        .collect();
    pages.sort();
    for page in pages {
        writeln!(out, "{}", dir.join(page).display()).map_err(Failure::Output)?;
    }
    Ok(Verdict::Done)
}
