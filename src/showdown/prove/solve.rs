//! The HiGHS plumbing: one solve of the model ([`solve_model`]) on a thread of its own
//! (HiGHS's pool of threads belongs to the thread that solves), its options set from the time
//! left once the model is handed over (presolve, symmetry detection and the feasibility jump
//! left out when there is too little of it for the model's size), the warm start, and a
//! callback ([`on_event`]) that keeps the improving solutions, records the dual bound, and
//! stops the solve at the deadline or on an interrupt. A solve that does not stop in time is
//! left running ([`solves_left_running`]).

use std::ffi::{c_char, c_int, c_void};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use highs::{HighsModelStatus, RowProblem, Sense};

use crate::showdown::model::Model;

/// Why a MILP solve failed (a proof then ends with what it has).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProveError {
    /// HiGHS refused the model or failed while solving it.
    #[error("the MILP solver failed: {0}")]
    Solver(String),
}

/// The slowest rate at which HiGHS's presolve was seen to work through a model (a 100x100
/// board with 2% kings: 1.4 million nonzeros, 2.3 to 2.4 s when it did not stop at its time
/// limit, one of its steps not looking at the clock; 0.9 s when it did). A model handed over
/// with less time left than this rate allows is solved without presolve.
const PRESOLVE_SURE_NONZEROS_PER_SECOND: f64 = 5.0e5;
/// About the slowest rate at which HiGHS's symmetry detection and feasibility jump (a primal
/// heuristic run once before the root LP, whose work limit is a multiple of the nonzeros)
/// work through a model, neither looking at the clock: on the same board, with 0.78 s left at
/// the hand-over, the feasibility jump ran 9 to 13 s in some runs and symmetry detection
/// seconds in others. A model handed over with less time left than this rate allows is solved
/// without them (the warm start is an answer already).
const HURRIED_NONZEROS_PER_SECOND: f64 = 1.0e5;

/// The name of a status that ends a proof (in [`Ending::Stopped`](super::Ending::Stopped)).
pub(super) fn status_name(status: HighsModelStatus) -> &'static str {
    match status {
        HighsModelStatus::Infeasible => "infeasible",
        HighsModelStatus::Unbounded => "unbounded",
        HighsModelStatus::ReachedIterationLimit => "iteration limit",
        HighsModelStatus::ReachedSolutionLimit => "solution limit",
        HighsModelStatus::SolveError => "solve error",
        HighsModelStatus::ModelError => "model error",
        _ => "other status",
    }
}

/// One solve of the model.
pub(super) struct Round {
    pub(super) status: HighsModelStatus,
    /// The solver's dual bound (a lower bound of the model's optimum).
    pub(super) dual_bound: f64,
    /// True when the solver reports no gap left.
    pub(super) gap_closed: bool,
    /// The final solution's column values, if there is one.
    pub(super) last: Option<Vec<f64>>,
    /// Every improving solution seen during the solve (filled in by the waiting thread).
    pub(super) solutions: Vec<Vec<f64>>,
}

/// What the solver's callback and the thread waiting for the solve share.
struct Shared {
    /// Raised by the waiting thread (an interrupt, or a solve left running).
    stop: AtomicBool,
    /// The solve stops here too, should HiGHS's own clock run late.
    deadline: Instant,
    columns: usize,
    /// Every improving solution seen during the solve.
    solutions: Mutex<Vec<Vec<f64>>>,
    /// The last dual bound the solver reported (a lower bound of the model's optimum), as
    /// the bits of an `f64`; minus infinity before the first.
    dual_bound: AtomicU64,
}

impl Shared {
    fn stops(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    fn dual_bound(&self) -> f64 {
        f64::from_bits(self.dual_bound.load(Ordering::Relaxed))
    }

    fn take_solutions(&self) -> Vec<Vec<f64>> {
        self.solutions
            .lock()
            .map(|mut s| std::mem::take(&mut *s))
            .unwrap_or_default()
    }
}

/// HiGHS's callback: keeps improving solutions, records the dual bound, stops on interrupt
/// or at the deadline.
///
/// # Safety
/// Called by HiGHS during `Highs_run` with `user` the `Shared` given to `Highs_setCallback`,
/// which outlives the run; `out` and `input` are HiGHS's valid data for this call.
unsafe extern "C" fn on_event(
    kind: c_int,
    _message: *const c_char,
    out: *const highs_sys::HighsCallbackDataOut,
    input: *mut highs_sys::HighsCallbackDataIn,
    user: *mut c_void,
) {
    if user.is_null() || out.is_null() {
        return;
    }
    // Safety: see the function's doc.
    let (shared, out) = unsafe { (&*(user as *const Shared), &*out) };
    if kind == highs_sys::kHighsCallbackMipImprovingSolution as c_int {
        let size = usize::try_from(out.mip_solution_size).unwrap_or(0);
        if !out.mip_solution.is_null() && size == shared.columns {
            // Safety: HiGHS hands a solution of `mip_solution_size` values.
            let values = unsafe { std::slice::from_raw_parts(out.mip_solution, size) };
            if let Ok(mut solutions) = shared.solutions.lock() {
                solutions.push(values.to_vec());
            }
        }
    } else if kind == highs_sys::kHighsCallbackSimplexInterrupt as c_int {
        if shared.stops() && !input.is_null() {
            // Safety: `input` is HiGHS's valid input data for this call.
            unsafe { (*input).user_interrupt = 1 };
        }
    } else if kind == highs_sys::kHighsCallbackMipInterrupt as c_int {
        if shared.stops() && !input.is_null() {
            // Safety: `input` is HiGHS's valid input data for this call.
            unsafe { (*input).user_interrupt = 1 };
        }
        if out.mip_dual_bound.is_finite() {
            shared
                .dual_bound
                .store(out.mip_dual_bound.to_bits(), Ordering::Relaxed);
        }
    }
}

/// Raised when a solve was left running past its deadline (see [`solve_model`]).
static LEFT_RUNNING: AtomicBool = AtomicBool::new(false);

/// True when a MILP solve was left running on its own thread because it did not stop in
/// time (some of HiGHS's steps never look at the clock). HiGHS may then still be working
/// when the process ends: a program should end with `_exit` once its output is flushed, so
/// that no C++ static is torn down under the solver.
pub fn solves_left_running() -> bool {
    LEFT_RUNNING.load(Ordering::SeqCst)
}

/// How long a solve is waited for once its deadline has passed (or the interrupt has been
/// raised) before it is left to end on its own thread. On the statement's boards HiGHS
/// stops within milliseconds of either; on large models some of its steps never look at
/// the clock and ran seconds late.
const LATE_GRACE: Duration = Duration::from_millis(100);
/// How often the waiting thread looks at the solve, the interrupt and the clock.
const WAIT_POLL: Duration = Duration::from_millis(10);
/// How often the dual bound is reported while a solve runs.
const REPORT_EVERY: Duration = Duration::from_millis(200);

/// Solves the model by HiGHS from the warm start `warm`, until `deadline`: the solver's own
/// time limit is what is left once the model is handed over, which on the largest boards
/// (millions of rows) takes seconds. With `threads` above 1, HiGHS's parallel tree search.
///
/// The solve runs on a thread of its own (HiGHS's pool of threads belongs to the thread
/// that solves; a new one each solve). The calling thread waits, reports the dual bound to
/// `on_bound`, passes `interrupt` on, and once the deadline (or the interrupt) is
/// [`LATE_GRACE`] behind it, returns with what the solve has reported so far (its
/// solutions and its last dual bound), leaving the solver to stop on its own; see
/// [`solves_left_running`].
pub(super) fn solve_model(
    model: &Model,
    warm: &[f64],
    deadline: Instant,
    seed: u64,
    threads: NonZeroU32,
    interrupt: &AtomicBool,
    on_bound: &mut dyn FnMut(f64),
) -> Result<Round, ProveError> {
    let mut problem = RowProblem::default();
    let cols: Vec<highs::Col> = model
        .columns()
        .iter()
        .map(|c| {
            if c.integer {
                problem.add_integer_column(c.cost, 0.0..=c.upper)
            } else {
                problem.add_column(c.cost, 0.0..=c.upper)
            }
        })
        .collect();
    for row in model.rows() {
        problem.add_row(
            row.lower..=row.upper,
            row.entries.iter().map(|&(c, a)| (cols[c], a)),
        );
    }
    drop(cols);
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(interrupt.load(Ordering::Relaxed)),
        deadline,
        columns: model.columns().len(),
        solutions: Mutex::new(Vec::new()),
        dual_bound: AtomicU64::new(f64::NEG_INFINITY.to_bits()),
    });
    let job = SolveJob {
        problem,
        warm: warm.to_vec(),
        deadline,
        seed,
        threads,
        nonzeros: model.nonzeros(),
    };
    let (sender, receiver) = mpsc::channel();
    let theirs = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("highs".into())
        .spawn(move || {
            let ended = job.run(&theirs);
            let _ = sender.send(ended);
        })
        .map_err(|e| ProveError::Solver(format!("no thread for the solver: {e}")))?;

    let mut last_report = Instant::now();
    let mut reported = f64::NEG_INFINITY;
    let mut stopping_since: Option<Instant> = None;
    loop {
        let received = receiver.recv_timeout(WAIT_POLL);
        let now = Instant::now();
        let bound = shared.dual_bound();
        if bound != reported && (received.is_ok() || now - last_report >= REPORT_EVERY) {
            reported = bound;
            last_report = now;
            on_bound(bound);
        }
        match received {
            Ok(ended) => {
                let mut round = ended?;
                round.dual_bound = round.dual_bound.max(shared.dual_bound());
                round.solutions = shared.take_solutions();
                return Ok(round);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(ProveError::Solver(
                    "the solver's thread ended without a result".into(),
                ));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let interrupted = interrupt.load(Ordering::Relaxed);
        if interrupted {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if interrupted || now >= deadline {
            let since = *stopping_since.get_or_insert(now);
            if now - since >= LATE_GRACE {
                shared.stop.store(true, Ordering::Relaxed);
                LEFT_RUNNING.store(true, Ordering::SeqCst);
                return Ok(Round {
                    status: if interrupted {
                        HighsModelStatus::ReachedInterrupt
                    } else {
                        HighsModelStatus::ReachedTimeLimit
                    },
                    dual_bound: shared.dual_bound(),
                    gap_closed: false,
                    last: None,
                    solutions: shared.take_solutions(),
                });
            }
        }
    }
}

/// A model handed to the solver's thread, with how to solve it.
struct SolveJob {
    problem: RowProblem,
    warm: Vec<f64>,
    deadline: Instant,
    seed: u64,
    threads: NonZeroU32,
    nonzeros: usize,
}

impl SolveJob {
    /// Hands the model to HiGHS and solves it (on the solver's thread), `shared` its
    /// callback's data.
    fn run(self, shared: &Shared) -> Result<Round, ProveError> {
        let failed = |what: &str| ProveError::Solver(what.to_string());
        let mut highs = self
            .problem
            .try_optimise(Sense::Minimise)
            .map_err(|e| ProveError::Solver(format!("{e:?}")))?;
        highs.make_quiet();
        let options: [(&str, f64); 2] = [("mip_rel_gap", 0.0), ("mip_abs_gap", 0.0)];
        for (name, value) in options {
            highs
                .try_set_option(name, value)
                .map_err(|_| failed(name))?;
        }
        highs
            .try_set_option("random_seed", (self.seed % (i32::MAX as u64)) as i32)
            .map_err(|_| failed("random_seed"))?;
        highs.set_threads(self.threads);
        if self.threads.get() > 1 {
            highs
                .try_set_option("parallel", "on")
                .map_err(|_| failed("parallel"))?;
        }
        highs
            .try_set_solution(Some(&self.warm), None, None, None)
            .map_err(|e| ProveError::Solver(format!("warm start: {e:?}")))?;
        let time = self.deadline.saturating_duration_since(Instant::now());
        highs
            .try_set_option("time_limit", time.as_secs_f64().max(0.001))
            .map_err(|_| failed("time_limit"))?;
        let nonzeros = self.nonzeros as f64;
        if nonzeros > PRESOLVE_SURE_NONZEROS_PER_SECOND * time.as_secs_f64() {
            highs
                .try_set_option("presolve", "off")
                .map_err(|_| failed("presolve"))?;
        }
        if nonzeros > HURRIED_NONZEROS_PER_SECOND * time.as_secs_f64() {
            for option in ["mip_detect_symmetry", "mip_heuristic_run_feasibility_jump"] {
                highs
                    .try_set_option(option, false)
                    .map_err(|_| failed(option))?;
            }
        }

        let ptr = highs.as_mut_ptr();
        // Safety: `shared` outlives the solve below, which is the only time HiGHS calls the
        // callback, and the callback only reads it or locks its mutex; `ptr` is the live
        // model's.
        unsafe {
            highs_sys::Highs_setCallback(
                ptr,
                Some(on_event),
                shared as *const Shared as *mut c_void,
            );
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackMipImprovingSolution);
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackMipInterrupt);
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackSimplexInterrupt);
        }
        let solved = highs
            .try_solve()
            .map_err(|e| ProveError::Solver(format!("{e:?}")))?;
        let status = solved.status();
        let dual_bound = solved
            .double_info_value(c"mip_dual_bound")
            .unwrap_or(f64::NEG_INFINITY);
        let primal = solved.objective_value();
        let gap = solved.mip_gap();
        let has_solution = solved.primal_solution_status() == highs::HighsSolutionStatus::Feasible;
        let last = has_solution.then(|| solved.get_solution().columns().to_vec());
        let gap_closed = status == HighsModelStatus::Optimal
            && has_solution
            && (gap <= 1e-9 || primal - dual_bound < 0.5);
        Ok(Round {
            status,
            dual_bound,
            gap_closed,
            last,
            solutions: Vec::new(),
        })
    }
}
