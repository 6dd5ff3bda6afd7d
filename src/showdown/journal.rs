//! What the optimiser did to a board, kept while it runs, for `showdown --trace` ([`trace`]):
//! the lower bound and what it counts, the construction of the first answer piece by piece,
//! the exact search's outcome, and the moves of the local search whose answer was kept, up to
//! that answer. Kept only when asked for ([`Recorder`]), and bounded: a search keeps at most
//! the recorder's limit of moves.
//!
//! [`trace`]: super::trace

use std::collections::HashMap;
use std::sync::Mutex;

use crate::core::Square;
use crate::core::pieces::PieceKind;

use super::{Instance, Placement};

/// Which part of the optimiser changed a square.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Phase {
    /// The plain greedy: the lowest price per newly checked king.
    Greedy,
    /// The greedy cut short by its deadline, completed by leaps and steps.
    Leaps,
    /// The simple answer (a horse beside each king, or a leap onto it).
    Fallback,
    /// Pieces no king needs, taken away, the dearest first.
    Prune,
    /// A move of the local search.
    Search,
}

impl Phase {
    /// The phase's name in a trace.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Greedy => "greedy",
            Phase::Leaps => "leaps",
            Phase::Fallback => "fallback",
            Phase::Prune => "prune",
            Phase::Search => "search",
        }
    }
}

/// Why a search put a whole board in place of its own.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Why {
    /// The search starts from its own randomised greedy answer.
    Start,
    /// Back to the best answer with a region of it cleared.
    Kick,
    /// A new randomised greedy answer, after long without improvement.
    Restart,
    /// A region of the best answer checked again by the exact branch and bound, cheaper.
    Polish,
    /// The trace's limit on steps: the moves after it are not written, the board is the answer.
    Limit,
    /// No search was recorded for this test (no time was left for it): the answer.
    Answer,
}

impl Why {
    /// The reason's name in a trace.
    pub fn name(self) -> &'static str {
        match self {
            Why::Start => "start",
            Why::Kick => "kick",
            Why::Restart => "restart",
            Why::Polish => "polish",
            Why::Limit => "limit",
            Why::Answer => "answer",
        }
    }
}

/// One change of a board.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Step {
    /// The square now holds this piece, or none.
    Set(Phase, Square, Option<PieceKind>),
    /// The board is replaced by the jump of this index in [`Moves::jumps`].
    Jump(u32),
}

/// A bounded list of changes of one board.
#[derive(Clone, Debug, Default)]
pub struct Moves {
    /// The changes, in order.
    pub steps: Vec<Step>,
    /// The boards that [`Step::Jump`] puts in place, with why.
    pub jumps: Vec<(Why, Vec<Placement>)>,
    /// At most this many steps are kept.
    limit: usize,
    /// A change came after the limit (and was not kept).
    pub full: bool,
}

impl Moves {
    /// An empty list that keeps at most `limit` changes.
    pub fn new(limit: usize) -> Moves {
        Moves {
            limit,
            ..Moves::default()
        }
    }

    /// Keeps a change of one square, when there is room.
    pub fn set(&mut self, phase: Phase, square: Square, kind: Option<PieceKind>) {
        if self.room() {
            self.steps.push(Step::Set(phase, square, kind));
        }
    }

    /// Keeps a whole new board, when there is room.
    pub fn jump(&mut self, why: Why, pieces: Vec<Placement>) {
        if self.room() {
            self.steps.push(Step::Jump(self.jumps.len() as u32));
            self.jumps.push((why, pieces));
        }
    }

    fn room(&mut self) -> bool {
        if self.steps.len() >= self.limit {
            self.full = true;
        }
        !self.full
    }
}

/// The lower bound of a test and what it counts.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct BoundWhy {
    /// The bound: the larger of the two below.
    pub value: u64,
    /// Every king needs a piece that checks it: the dearest of the kings' cheapest checkers.
    pub simple: u64,
    /// The king whose cheapest checker is the dearest, and that checker.
    pub simple_king: Option<(Square, PieceKind)>,
    /// The Lagrangian bound of the covering relaxation, when it was computed.
    pub relaxation: Option<u64>,
}

/// What the exact search of a small board concluded.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Exact {
    /// It found the cheapest answer and proved it (the bound rises to its cost).
    Optimal(u64, Vec<Placement>),
    /// It ran out of nodes or time before it could conclude.
    Unfinished,
}

/// The local search whose answer was kept: its moves up to that answer.
#[derive(Clone, Debug)]
pub struct Searched {
    /// Which of the test's searches (from 0).
    pub index: usize,
    /// How many searches the test ran.
    pub of: usize,
    /// The board it started from.
    pub start: Vec<Placement>,
    /// Its moves up to its best answer (or up to the limit, [`Moves::full`]).
    pub moves: Moves,
    /// The moves shown stop before its best answer (the limit was reached first).
    pub cut: bool,
}

/// Everything kept of one test's run.
#[derive(Clone, Debug)]
pub struct Story {
    /// The test.
    pub instance: Instance,
    /// The most changes kept of one board.
    pub limit: usize,
    /// The lower bound and why.
    pub bound: BoundWhy,
    /// The first answer, built on the empty board.
    pub construction: Moves,
    /// The exact search, when it ran.
    pub exact: Option<Exact>,
    /// The search whose answer was kept, when one improved on the first answer or ran.
    pub search: Option<Searched>,
}

/// Where the optimiser leaves the story of each test (see [`Story`]) when a trace is asked for.
#[derive(Debug)]
pub struct Recorder {
    /// The most changes kept of one board (the construction, or one search).
    pub limit: usize,
    stories: Mutex<HashMap<usize, Story>>,
}

impl Recorder {
    /// A recorder that keeps at most `limit` changes of each board.
    pub fn new(limit: usize) -> Recorder {
        Recorder {
            limit,
            stories: Mutex::new(HashMap::new()),
        }
    }

    /// Keeps the story of test `i` (from 0).
    pub fn keep(&self, i: usize, story: Story) {
        if let Ok(mut stories) = self.stories.lock() {
            stories.insert(i, story);
        }
    }

    /// Takes the story of test `i` (from 0), when one was kept.
    pub fn take(&self, i: usize) -> Option<Story> {
        self.stories.lock().ok()?.remove(&i)
    }
}
