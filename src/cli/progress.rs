//! Progress shown on standard error for long work, only when standard error is a terminal and
//! only once the work has run for a second.

use std::io::{self, IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use chess_puzzles::nqueens::Control;

use indicatif::{ProgressBar, ProgressStyle};

/// How long work runs before a progress display appears.
pub const QUIET_FOR: Duration = Duration::from_secs(1);

/// A writer that counts what passes through and, for long outputs, shows the bytes written and
/// the rate on standard error.
pub struct WriteProgress<'a, W: Write> {
    inner: &'a mut W,
    bytes: u64,
    next_look: u64,
    started: Instant,
    bar: Option<ProgressBar>,
    terminal: bool,
}

impl<'a, W: Write> WriteProgress<'a, W> {
    /// Wraps `inner`.
    pub fn new(inner: &'a mut W) -> WriteProgress<'a, W> {
        WriteProgress {
            inner,
            bytes: 0,
            next_look: 0,
            started: Instant::now(),
            bar: None,
            terminal: io::stderr().is_terminal(),
        }
    }

    fn look(&mut self) {
        // Looking at the clock once per 256 KiB keeps the cost out of the output path.
        self.next_look = self.bytes + (1 << 18);
        if self.bar.is_none() && self.terminal && self.started.elapsed() >= QUIET_FOR {
            let bar = ProgressBar::new_spinner().with_message("generating");
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} {msg}: {bytes} written ({bytes_per_sec}), {elapsed}",
            ) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(self.bytes);
        }
    }
}

impl<W: Write> Write for WriteProgress<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        if self.bytes >= self.next_look {
            self.look();
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for WriteProgress<'_, W> {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// How often a [`with_bar`] display is redrawn.
const REDRAW: Duration = Duration::from_millis(100);

/// Runs `work`; meanwhile, when standard error is a terminal, shows a bar there from `after`
/// on (zero: from the start), which `draw` updates every 100 ms (from another thread). The
/// bar is cleared when the work ends, however it ends, so that a message can follow on a
/// clean line.
pub fn with_bar<T>(
    after: Duration,
    draw: impl Fn(&ProgressBar) + Sync,
    work: impl FnOnce() -> T,
) -> T {
    if !io::stderr().is_terminal() {
        return work();
    }
    let started = Instant::now();
    let (finished, wait) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let draw = &draw;
        scope.spawn(move || {
            let mut shown: Option<ProgressBar> = None;
            loop {
                if shown.is_none() && started.elapsed() >= after {
                    let bar = ProgressBar::new(1);
                    if let Ok(style) = ProgressStyle::with_template("{bar:20} {msg}") {
                        bar.set_style(style);
                    }
                    shown = Some(bar);
                }
                if let Some(bar) = &shown {
                    draw(bar);
                }
                if wait.recv_timeout(REDRAW) != Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                    break;
                }
            }
            if let Some(bar) = shown {
                bar.finish_and_clear();
            }
        });
        let result = work();
        drop(finished);
        result
    })
}

/// A duration for a progress display: `3.2 s`, `2 min 05 s`, `1 h 02 min`.
pub fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{} min {:02} s", (s / 60.0) as u64, (s % 60.0) as u64)
    } else if s < 1e6 {
        format!(
            "{} h {:02} min",
            (s / 3600.0) as u64,
            ((s % 3600.0) / 60.0) as u64
        )
    } else {
        "no limit".to_string()
    }
}

/// Runs `work`; if it lasts over a second and standard error is a terminal, shows a progress
/// bar of `control`'s parts there meanwhile (cleared at the end).
pub fn with_progress<T>(control: &Control, work: impl FnOnce() -> T) -> T {
    if !io::stderr().is_terminal() {
        return work();
    }
    let (finished, wait) = mpsc::channel::<()>();
    thread::scope(|scope| {
        scope.spawn(move || {
            if wait.recv_timeout(Duration::from_secs(1)) != Err(RecvTimeoutError::Timeout) {
                return;
            }
            let bar = ProgressBar::new(control.progress().1);
            if let Ok(style) = ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {percent}%, about {eta} left",
            ) {
                bar.set_style(style);
            }
            loop {
                let (done, total) = control.progress();
                bar.set_length(total);
                bar.set_position(done);
                if wait.recv_timeout(Duration::from_millis(100)) != Err(RecvTimeoutError::Timeout) {
                    break;
                }
            }
            bar.finish_and_clear();
            let _ = io::stderr().flush();
        });
        let result = work();
        drop(finished);
        result
    })
}
