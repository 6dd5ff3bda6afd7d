//! How a long computation is stopped and watched: a stop request, a deadline, Ctrl-C, and
//! progress in parts done out of parts known.

use crate::clock::Instant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Shared between a long computation and whoever watches it: a stop request, an optional
/// deadline, and progress (parts done out of parts known).
#[derive(Default)]
pub struct Control {
    stop: AtomicBool,
    deadline: Option<Instant>,
    /// Raised from outside (Ctrl-C), looked at with the stop request.
    interrupt: Option<&'static AtomicBool>,
    /// Raised when the work is no longer wanted (a web client gone), looked at with the stop
    /// request.
    cancel: Option<Arc<AtomicBool>>,
    done: AtomicU64,
    total: AtomicU64,
    /// Told of the progress each time parts finish ([`Control::with_observer`]).
    observer: Option<Box<Observer>>,
}

/// What [`Control::with_observer`] calls.
type Observer = dyn Fn(u64, u64) + Send + Sync;

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("stop", &self.stop)
            .field("deadline", &self.deadline)
            .field("interrupt", &self.interrupt)
            .field("cancel", &self.cancel)
            .field("done", &self.done)
            .field("total", &self.total)
            .field("observer", &self.observer.is_some())
            .finish()
    }
}

impl Control {
    /// No deadline, nothing done yet.
    pub fn new() -> Control {
        Control::default()
    }

    /// Stops by itself at `deadline`.
    pub fn with_deadline(deadline: Instant) -> Control {
        Control {
            deadline: Some(deadline),
            ..Control::default()
        }
    }

    /// Stops also as soon as `flag` is raised (by a Ctrl-C handler, say).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use chess_puzzles::nqueens::Control;
    ///
    /// static FLAG: AtomicBool = AtomicBool::new(false);
    /// let control = Control::new().with_interrupt(&FLAG);
    /// assert!(!control.should_stop());
    /// FLAG.store(true, Ordering::Relaxed);
    /// assert!(control.should_stop());
    /// ```
    pub fn with_interrupt(self, flag: &'static AtomicBool) -> Control {
        Control {
            interrupt: Some(flag),
            ..self
        }
    }

    /// Stops also as soon as `flag` is raised: a flag shared with whoever waits for the work
    /// (a server's request, raised when its client goes away).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use chess_puzzles::nqueens::Control;
    ///
    /// let flag = Arc::new(AtomicBool::new(false));
    /// let control = Control::new().with_cancel(flag.clone());
    /// assert!(!control.should_stop());
    /// flag.store(true, Ordering::Relaxed);
    /// assert!(control.should_stop());
    /// ```
    pub fn with_cancel(self, flag: Arc<AtomicBool>) -> Control {
        Control {
            cancel: Some(flag),
            ..self
        }
    }

    /// Calls `observer(done, total)` each time parts of the work finish, on the thread that
    /// finished them: for a watcher that cannot look from another thread (a browser's one
    /// thread). It should return at once.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// use chess_puzzles::nqueens::{self, Control, Problem};
    ///
    /// static DONE: AtomicU64 = AtomicU64::new(0);
    /// let control = Control::new().with_observer(|done, _total| DONE.store(done, Ordering::Relaxed));
    /// let problem = Problem::new(8, &[]).unwrap();
    /// assert_eq!(nqueens::count(&problem, &control), Some(92));
    /// assert_eq!(DONE.load(Ordering::Relaxed), control.progress().0);
    /// ```
    pub fn with_observer(self, observer: impl Fn(u64, u64) + Send + Sync + 'static) -> Control {
        Control {
            observer: Some(Box::new(observer)),
            ..self
        }
    }

    /// True when the flag of [`Control::with_interrupt`] was raised.
    pub fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Asks the computation to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once a stop was asked for or the deadline passed. The computation calls this often
    /// enough to stop within milliseconds.
    pub fn should_stop(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.interrupted()
            || self
                .cancel
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.stop();
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop();
            return true;
        }
        false
    }

    /// Parts done and parts known so far.
    pub fn progress(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Announces `parts` more parts of work.
    pub fn add_total(&self, parts: u64) {
        self.total.fetch_add(parts, Ordering::Relaxed);
    }

    /// Reports `parts` parts finished.
    pub fn add_done(&self, parts: u64) {
        let done = self.done.fetch_add(parts, Ordering::Relaxed) + parts;
        if let Some(observer) = &self.observer {
            observer(done, self.total.load(Ordering::Relaxed));
        }
    }
}
