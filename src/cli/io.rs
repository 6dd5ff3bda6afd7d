//! The command line's conventions: where input comes from, one buffered output, how failures
//! turn into messages and exit codes.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufWriter, Read, StdoutLock, Write};
use std::path::PathBuf;
use std::process::ExitCode;
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
    /// The time limit ran out before every answer was proven; the best answers found were
    /// written (exit 124, as `timeout` reports a time-out).
    OutOfTime,
    /// Ctrl-C stopped the work; what it held was written (exit 130, see
    /// [`interrupt`](super::interrupt)).
    Interrupted,
}

impl Verdict {
    pub fn exit_code(self) -> ExitCode {
        match self {
            Verdict::Done => ExitCode::SUCCESS,
            Verdict::Rejected => ExitCode::from(1),
            Verdict::OutOfTime => ExitCode::from(OUT_OF_TIME),
            Verdict::Interrupted => ExitCode::from(super::interrupt::EXIT_CODE),
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
    pub fn report(self) -> ExitCode {
        let message = match self {
            Failure::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                return ExitCode::SUCCESS;
            }
            // Our own flush before reading more input met the closed pipe.
            Failure::Input {
                error: InputError::Io(e),
                ..
            } if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
            Failure::Input {
                name,
                error: InputError::Parse(e),
            } => format!("{name}:{e}"),
            Failure::Input { name, error } => format!("{name}: {error}"),
            Failure::Output(e) => format!("cannot write the output: {e}"),
            Failure::Usage(message) => message,
        };
        // If standard error is gone too there is nobody left to tell.
        let _ = writeln!(io::stderr(), "error: {message}");
        ExitCode::from(2)
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

/// Standard input that flushes the answers written so far before it waits for more input, so
/// that every answer appears as soon as it is known.
struct FlushingStdin {
    out: Output,
}

impl Read for FlushingStdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.out.flush()?;
        let _waiting = super::interrupt::WaitingForInput::start();
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
                    Ok(file) => Ok(Input {
                        name,
                        reader: Box::new(file),
                    }),
                    Err(e) => Err(Failure::Input {
                        name,
                        error: InputError::Io(e),
                    }),
                }
            }
            _ => Ok(Input {
                name: "<stdin>".to_string(),
                reader: Box::new(FlushingStdin { out: out.clone() }),
            }),
        }
    }
}
