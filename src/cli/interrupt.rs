//! Ctrl-C (SIGINT) for long work that holds a best answer so far: the first Ctrl-C asks the
//! work to stop and write what it has; a second one, or one while the program waits for
//! input, ends the program at once.
//!
//! How a command uses it:
//!
//! 1. Call [`install`] when the long work begins (not at program start: commands that do not
//!    install it keep the default Ctrl-C, which ends them at once). It returns the flag that
//!    Ctrl-C raises, `&'static AtomicBool`.
//! 2. Hand the flag to the library's stop control, which polls it together with its deadline
//!    (`showdown::Options::stop`, `nqueens::Control::with_interrupt`), so the work returns
//!    within milliseconds with the best it holds.
//! 3. When the work has returned, ask [`requested`]: if true, clear the progress bar, write
//!    what was found (it is valid, but not proven), say on standard error what was
//!    interrupted (`interrupted: ...`), and return `Verdict::Interrupted`, whose exit code is
//!    [`EXIT_CODE`] (130, the shells' code for SIGINT).
//!
//! The command line's verdicts and inputs (`io`) use this module, never the other way round.
//!
//! While the program is blocked reading its input (a terminal or a pipe that has not sent
//! everything yet), Ctrl-C ends it at once with exit code 130: the answers written so far
//! were flushed before the read began (see [`WaitingForInput`]). A second Ctrl-C does the
//! same when the work is slow to stop.

use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

/// The exit code of a run ended by Ctrl-C: 128 + SIGINT, as the shells report it.
pub const EXIT_CODE: u8 = 130;

/// The signal that stopped the work (SIGINT unless [`install_for_runs`] saw another).
static SIGNAL: AtomicI32 = AtomicI32::new(2);

/// The exit code of work stopped by a signal: 128 + the signal (130 for Ctrl-C, 143 for
/// SIGTERM, 129 for SIGHUP), as the shells report it.
pub fn exit_code() -> u8 {
    128u8.saturating_add(SIGNAL.load(Ordering::Relaxed).clamp(0, 127) as u8)
}

/// For `stress` and `judge`, whose runs must all end with them: Ctrl-C, SIGTERM (`timeout`,
/// a cancelled job) and SIGHUP (a closed terminal) raise `stop`, which ends the run in
/// progress and the work; a second one calls `before_exit` (which kills every run in
/// progress at once) and ends the program with 128 + the signal. Returns false when the
/// handlers cannot be installed (the signals then keep their default effect).
#[cfg(unix)]
pub fn install_for_runs(stop: &'static AtomicBool, before_exit: fn()) -> bool {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return false;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if stop.swap(true, Ordering::SeqCst) {
                before_exit();
                let _ = writeln!(std::io::stderr(), "\ninterrupted");
                std::process::exit(128 + signal);
            }
            SIGNAL.store(signal, Ordering::SeqCst);
            STOP.store(true, Ordering::SeqCst);
        }
    });
    true
}

/// Raised by the first Ctrl-C once [`install`] has run.
static STOP: AtomicBool = AtomicBool::new(false);
/// How many reads of input are blocked now (see [`WaitingForInput`]).
static WAITING: AtomicUsize = AtomicUsize::new(0);
/// Whether the handler could be installed.
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// Installs the Ctrl-C handler (once per process; later calls only return the flag) and
/// returns the flag it raises. If the handler cannot be installed, Ctrl-C keeps its default
/// effect (the program ends at once) and the flag is never raised.
pub fn install() -> &'static AtomicBool {
    INSTALLED.get_or_init(|| ctrlc::set_handler(on_interrupt).is_ok());
    &STOP
}

/// True once Ctrl-C asked the work to stop.
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

fn on_interrupt() {
    if WAITING.load(Ordering::SeqCst) > 0 || STOP.swap(true, Ordering::SeqCst) {
        // Waiting for input (nothing is being computed) or asked a second time: end now.
        let _ = writeln!(std::io::stderr(), "\ninterrupted");
        std::process::exit(i32::from(EXIT_CODE));
    }
}

/// Marks a blocking read of input: while one is alive, Ctrl-C ends the program at once.
/// Whoever reads must have flushed the answers written so far before (the command line's
/// inputs that may wait do).
pub struct WaitingForInput(());

impl WaitingForInput {
    /// Marks the start of a read; the mark ends when the value is dropped.
    pub fn start() -> WaitingForInput {
        WAITING.fetch_add(1, Ordering::SeqCst);
        WaitingForInput(())
    }
}

impl Drop for WaitingForInput {
    fn drop(&mut self) {
        WAITING.fetch_sub(1, Ordering::SeqCst);
    }
}
