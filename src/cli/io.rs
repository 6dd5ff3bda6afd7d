//! The command line's conventions: where input comes from, one buffered output, how failures
//! turn into messages and exit codes.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, StdoutLock, Write};
use std::path::PathBuf;
use std::rc::Rc;

use chess_puzzles::error::{InputError, RunError};

/// The exit code of a run whose time limit ran out before every answer was proven.
pub const OUT_OF_TIME: u8 = 124;

/// What a command concluded, when it did not fail.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Verdict {
    /// Success (exit 0).
    Done,
    /// A `check` or `validate` verdict of "wrong" or "invalid" (exit 1).
    Rejected,
    /// `judge`: no test failed, but some could not be judged (exit 2).
    Incomplete,
    /// The time limit ran out before every answer was proven; the best answers found were
    /// written (exit 124, as `timeout` reports a time-out).
    OutOfTime,
    /// Ctrl-C stopped the work; what it held was written (exit 130, see
    /// [`interrupt`](super::interrupt); 143 for SIGTERM and 129 for SIGHUP to `stress` and
    /// `judge`).
    Interrupted,
}

impl Verdict {
    /// The exit code.
    pub fn code(self) -> u8 {
        match self {
            Verdict::Done => 0,
            Verdict::Rejected => 1,
            Verdict::Incomplete => 2,
            Verdict::OutOfTime => OUT_OF_TIME,
            Verdict::Interrupted => super::interrupt::exit_code(),
        }
    }
}

/// Why a command stopped early.
#[derive(Debug)]
pub enum Failure {
    /// An input could not be opened, read or parsed; `name` is its path or `<stdin>`.
    Input { name: String, error: InputError },
    /// The output could not be written.
    Output(io::Error),
    /// The arguments make no sense together.
    Usage(String),
    /// The work failed for a reason outside the input and the arguments (a GPU lost in the
    /// middle of a count, a listed placement that fails its check before it is written): exit
    /// code 1, and no answer written.
    Failed(String),
}

impl Failure {
    /// Wraps a library error about the input called `name`.
    pub fn from_run(name: &str, error: RunError) -> Failure {
        match error {
            RunError::Input(error) => Failure::Input {
                name: name.to_string(),
                error,
            },
            RunError::Output(e) => Failure::Output(e),
            other => Failure::Usage(other.to_string()),
        }
    }

    /// Prints the message (nothing for a closed output pipe) and gives the exit code.
    pub fn report(self) -> u8 {
        let message = match self {
            Failure::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                return 0;
            }
            // Our own flush before reading more input met the closed pipe.
            Failure::Input {
                error: InputError::Io(e),
                ..
            } if e.kind() == io::ErrorKind::BrokenPipe => return 0,
            Failure::Input {
                name,
                error: InputError::Parse(e),
            } => format!("{name}:{e}"),
            Failure::Input { name, error } => format!("{name}: {error}"),
            Failure::Output(e) => format!("cannot write the output: {e}"),
            Failure::Usage(message) => message,
            Failure::Failed(message) => {
                let _ = writeln!(io::stderr(), "error: {message}");
                return 1;
            }
        };
        // If standard error is gone too there is nobody left to tell.
        let _ = writeln!(io::stderr(), "error: {message}");
        2
    }
}

/// Standard output behind one buffer, shared so that reading standard input can flush it first.
#[derive(Clone)]
pub struct Output(Rc<RefCell<BufWriter<StdoutLock<'static>>>>);

impl Output {
    pub fn stdout() -> Output {
        Output(Rc::new(RefCell::new(BufWriter::with_capacity(
            1 << 16,
            io::stdout().lock(),
        ))))
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.borrow_mut().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// An input that may make us wait (standard input, a FIFO, a terminal): the answers written
/// so far are flushed before every read, so that each appears as soon as it is known.
struct Flushing<R> {
    inner: R,
    out: Output,
}

impl<R: Read> Read for Flushing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.out.flush()?;
        // Ctrl-C while we wait ends the program at once: everything written is out.
        let _waiting = super::interrupt::WaitingForInput::start();
        self.inner.read(buf)
    }
}

/// Standard input, read without holding its lock between reads.
struct Stdin;

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        io::stdin().lock().read(buf)
    }
}

/// An input named on the command line: a path, or standard input for none or `-`.
pub struct Input {
    pub name: String,
    pub reader: Box<dyn Read>,
}

impl Input {
    pub fn open(path: Option<&PathBuf>, out: &Output) -> Result<Input, Failure> {
        match path {
            Some(p) if p.as_os_str() != "-" => {
                let name = p.display().to_string();
                match File::open(p) {
                    // A regular file never makes us wait; anything else (a FIFO, a device) may.
                    Ok(file) if file.metadata().is_ok_and(|m| m.is_file()) => Ok(Input {
                        name,
                        reader: Box::new(file),
                    }),
                    Ok(file) => Ok(Input {
                        name,
                        reader: Box::new(Flushing {
                            inner: file,
                            out: out.clone(),
                        }),
                    }),
                    Err(e) => Err(Failure::Input {
                        name,
                        error: InputError::Io(e),
                    }),
                }
            }
            _ => {
                if io::stdin().is_terminal() {
                    // Someone typing, or someone who forgot the file name: say what we wait for.
                    let _ = writeln!(
                        io::stderr(),
                        "waiting for the input on standard input (a terminal): type it, then \
                         press Ctrl-D on an empty line to end it; or give a file name (see --help)"
                    );
                }
                Ok(Input {
                    name: "<stdin>".to_string(),
                    reader: Box::new(Flushing {
                        inner: Stdin,
                        out: out.clone(),
                    }),
                })
            }
        }
    }
}
