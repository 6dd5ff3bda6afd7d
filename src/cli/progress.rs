//! Progress shown on standard error for long work, only when standard error is a terminal and
//! only once the work has run for a second.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

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
