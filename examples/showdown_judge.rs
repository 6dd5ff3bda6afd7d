//! Solving Chess Variants Showdown (SPOJ CHE) boards with the optimiser, then judging the
//! answers with the library's own judge: their validity, cost and score (cost / n², lower is
//! better).
//!
//! The input is the statement's sample, embedded in the library, plus a second board built
//! here. Both are small enough for the exact search to prove its answer optimal, and the local
//! search runs a fixed number of steps instead of a time, so the output is the same on every
//! machine.
//!
//! Run it with `cargo run --release --example showdown_judge`.

use std::process::ExitCode;
use std::time::Duration;

use chess_puzzles::input::{CaseReader, Scanner};
use chess_puzzles::output::{self, OutputFormat};
use chess_puzzles::showdown::judge::{self, Verdict};
use chess_puzzles::showdown::solver::{self, Budget};
use chess_puzzles::showdown::writer::Solved;
use chess_puzzles::showdown::{self, Reader, piece_number};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // A judge input: the number of tests, then each board (its side, its rows with `#` for a
    // king and `_` for an empty square) and the eight pieces' prices in the statement's order
    // (`PieceKind::ALL`: bishop, rook, knight, gold general, silver general, horse, phoenix,
    // cannon).
    let sample = showdown::SAMPLE.input;
    let board = sample.split_once('\n').map_or("", |(_, rest)| rest);
    let extra = "4\n#__#\n____\n____\n#__#\n3 2 5 1 4 9 9 9\n";
    let input = format!("2\n{board}{extra}");

    // The reader checks each test (located errors: `line:column: expected ..., found ...`)
    // and hands out validated `Instance`s one at a time.
    let mut reader = Reader::new(Scanner::new(input.as_bytes()))?;
    let mut answers = Vec::new();
    let mut case = 0;
    while let Some(instance) = reader.next_case()? {
        case += 1;
        // One test's effort: 2000 local-search steps per thread, the time only a safety net.
        // With a time alone, the answer of a large board would depend on the machine's speed.
        let budget = Budget {
            time: Duration::from_secs(10),
            steps: Some(2000),
        };
        let solution = solver::solve(&instance, &budget, 7)?;
        let answer = &solution.answer;
        println!(
            "test {case}: {n}x{n}, {kings} kings: cost {cost} (lower bound {bound}, {proof}), score {score:.4}",
            n = instance.side(),
            kings = instance.king_count(),
            cost = answer.cost,
            bound = solution.lower_bound,
            proof = if solution.optimal() {
                "optimal"
            } else {
                "not proven optimal"
            },
            score = answer.score(&instance),
        );
        for p in &answer.pieces {
            // Squares are 0-based inside the library, 1-based in the judge's format.
            println!(
                "  piece {} ({}) on row {}, column {}",
                piece_number(p.kind),
                p.kind.name(),
                p.square.row + 1,
                p.square.col + 1
            );
        }
        // `verify` is the judge's rule for one test: every king in check on the final board.
        // It returns the total price.
        assert_eq!(judge::verify(&instance, &answer.pieces), Ok(answer.cost));
        // The answer in the judge's format, written as the program writes it.
        let solved = Solved::new(&instance, &solution, false);
        output::write_case(&mut answers, OutputFormat::Judge, case, &solved)?;
    }
    let answers = String::from_utf8(answers)?;
    print!("the answer file:\n{answers}");

    // `check` judges a whole answer file against the input, as `chess-puzzles showdown check`
    // does: a verdict, and the score of each valid test.
    let report = judge::check(input.as_bytes(), answers.as_bytes(), |_, _| {})?;
    println!(
        "verdict: {}, scores {:?}, total {:.4}",
        report.verdict, report.scores, report.total
    );

    // The judge accepts any valid answer, not only the cheapest: the statement's own answer to
    // its sample costs 4 (score 0.16) where the optimiser found 3.
    let report = judge::check(
        sample.as_bytes(),
        showdown::SAMPLE.output.as_bytes(),
        |_, _| {},
    )?;
    println!(
        "the statement's sample answer: {}, scores {:?}",
        report.verdict, report.scores
    );

    // A wrong answer is a verdict, not an error: one rook in the corner leaves most kings of
    // the sample unchecked, and the judge names the test and the first such king (1-based
    // row and column).
    let report = judge::check(sample.as_bytes(), "1 1\n2 1 1\n".as_bytes(), |_, _| {})?;
    if let Verdict::Wrong { case, reason } = &report.verdict {
        println!("one rook: test {case} rejected: {reason}");
    }
    Ok(())
}
