//! The program to judge, resolved once before its first run: the file found on `PATH`, its
//! `#!` interpreter checked, its arguments and environment made ready for `execve`, so that a
//! program that cannot start is named before any run and for what it is.

use std::ffi::{CString, OsStr, OsString};
use std::fmt;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The program to judge: a path or a name looked up on `PATH`, and its arguments.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Program {
    /// The program.
    pub path: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
}

impl Program {
    /// The program `path` with the arguments `args`.
    pub fn new<S: Into<OsString>>(path: impl Into<OsString>, args: Vec<S>) -> Program {
        Program {
            path: path.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// Finds the program's file (on `PATH` when its name has no `/`), checks that it can be
    /// executed and that the interpreter its `#!` line names exists, and makes its arguments
    /// and the current environment ready for every run.
    pub fn resolve(&self) -> Result<Resolved, StartError> {
        let name = self.path.to_string_lossy().into_owned();
        if self.path.is_empty() {
            return Err(StartError::NotFound { program: name });
        }
        let file = if self.path.as_bytes().contains(&b'/') {
            PathBuf::from(&self.path)
        } else {
            on_path(&self.path).ok_or_else(|| StartError::NotOnPath {
                program: name.clone(),
            })?
        };
        let metadata = std::fs::metadata(&file).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => StartError::NotFound {
                program: name.clone(),
            },
            _ => StartError::Io {
                program: name.clone(),
                error: e,
            },
        })?;
        if metadata.is_dir() {
            return Err(StartError::Directory { program: name });
        }
        if metadata.permissions().mode() & 0o111 == 0 {
            return Err(StartError::NotExecutable {
                program: name,
                script: shebang(&file).is_some() || looks_like_script(&file),
            });
        }
        if let Some(line) = shebang(&file)
            && shebang_ends_in_cr(&file)
        {
            return Err(StartError::CarriageReturn {
                program: name,
                line,
            });
        }
        if let Some(line) = shebang(&file)
            && let Some(missing) = missing_interpreter(&line)
        {
            return Err(StartError::MissingInterpreter {
                program: name,
                interpreter: missing,
                line,
            });
        }
        let c = |s: &OsStr| CString::new(s.as_bytes()).map_err(|_| StartError::NulByte);
        let mut argv = vec![c(&self.path)?];
        for a in &self.args {
            argv.push(c(a)?);
        }
        let env = std::env::vars_os()
            .filter(|(k, _)| KEPT.contains(&k.as_bytes()) || k.as_bytes().starts_with(b"LC_"))
            .filter_map(|(k, v)| pair(&k, &v))
            .collect();
        Ok(Resolved {
            program: self.clone(),
            file: c(file.as_os_str())?,
            argv,
            env,
            view: View::default(),
        })
    }
}

impl fmt::Display for Program {
    /// The command line, words separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.to_string_lossy())?;
        for a in &self.args {
            write!(f, " {}", a.to_string_lossy())?;
        }
        Ok(())
    }
}

/// The variables of the judge's environment a program is given (with `LC_*`): what finds
/// its interpreter and sets its language, nothing that could hold a secret (tokens, keys,
/// agents' sockets). More are passed by name ([`Resolved::pass_env`]).
pub const KEPT: [&[u8]; 5] = [b"PATH", b"HOME", b"LANG", b"LANGUAGE", b"TZ"];

/// `NAME=VALUE` as a C string; `None` when either holds a NUL byte (it cannot be passed).
fn pair(name: &OsStr, value: &OsStr) -> Option<CString> {
    let mut pair = name.as_bytes().to_vec();
    pair.push(b'=');
    pair.extend_from_slice(value.as_bytes());
    CString::new(pair).ok()
}

/// A program ready to run: the file to execute, its argument vector and environment.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The program as it was given.
    pub program: Program,
    pub(super) file: CString,
    pub(super) argv: Vec<CString>,
    pub(super) env: Vec<CString>,
    /// What the program sees in a sandbox.
    pub(super) view: View,
}

/// What a sandboxed program is shown of the file system besides the system's folders.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// Folders shown read-only, each with why.
    pub shown: Vec<(PathBuf, String)>,
    /// Folders hidden, wherever they lie (the tests).
    pub hidden: Vec<PathBuf>,
    /// The working folder (shown), or `None` for the scratch folder.
    pub cwd: Option<PathBuf>,
}

impl Resolved {
    /// The file executed: its path as found.
    pub fn file(&self) -> PathBuf {
        PathBuf::from(std::ffi::OsStr::from_bytes(self.file.as_bytes()))
    }

    /// The arguments after the program's name.
    pub fn args(&self) -> Vec<PathBuf> {
        self.program.args.iter().map(PathBuf::from).collect()
    }

    /// The interpreter its `#!` line names, when it has one.
    pub fn interpreter(&self) -> Option<PathBuf> {
        let line = shebang(&self.file())?;
        line.trim_start_matches("#!")
            .split_whitespace()
            .next()
            .map(PathBuf::from)
    }

    /// The program `env` finds on `PATH` for a `#!/usr/bin/env NAME` line, as it finds it
    /// here: the interpreter the program runs with.
    pub fn env_target(&self) -> Option<PathBuf> {
        let line = shebang(&self.file())?;
        let mut words = line.trim_start_matches("#!").split_whitespace();
        let interpreter = words.next()?;
        if Path::new(interpreter).file_name()? != "env" {
            return None;
        }
        let target = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
        if target.contains('/') {
            return Some(PathBuf::from(target));
        }
        on_path(OsStr::new(target))
    }

    /// The same program, shown `view` when sandboxed (its file then named by its whole path,
    /// which does not depend on the working folder).
    pub fn with_view(mut self, view: View) -> Resolved {
        if let Ok(whole) = self.file().canonicalize()
            && let Ok(c) = CString::new(whole.as_os_str().as_bytes())
        {
            self.file = c;
        }
        self.view = view;
        // Its home is the run's own /tmp: the judge's is not shown.
        let _ = self.set_env(OsStr::new("HOME"), Some(OsStr::new("/tmp")));
        self
    }

    /// What it is shown in a sandbox.
    pub fn view(&self) -> &View {
        &self.view
    }

    /// The variable `NAME` of the judge's environment given to the program too (left out
    /// when the judge has none), or `NAME=VALUE` set; a later one replaces an earlier one of
    /// the same name.
    pub fn pass_env(mut self, spec: &OsStr) -> Result<Resolved, StartError> {
        let bytes = spec.as_bytes();
        let (name, value) = match bytes.iter().position(|&b| b == b'=') {
            Some(i) => (
                OsStr::from_bytes(&bytes[..i]),
                Some(OsStr::from_bytes(&bytes[i + 1..]).to_os_string()),
            ),
            None => (spec, std::env::var_os(spec)),
        };
        if name.is_empty() {
            return Err(StartError::NulByte);
        }
        self.set_env(name, value.as_deref())?;
        Ok(self)
    }

    /// Sets (or with `None` removes) the variable `name` of the program's environment.
    pub(super) fn set_env(
        &mut self,
        name: &OsStr,
        value: Option<&OsStr>,
    ) -> Result<(), StartError> {
        let mut prefix = name.as_bytes().to_vec();
        prefix.push(b'=');
        self.env.retain(|p| !p.as_bytes().starts_with(&prefix));
        if let Some(value) = value {
            self.env.push(pair(name, value).ok_or(StartError::NulByte)?);
        }
        Ok(())
    }

    /// The value of the variable `name` in the program's environment.
    pub fn env_var(&self, name: &str) -> Option<&str> {
        self.env
            .iter()
            .find_map(|p| p.to_str().ok()?.strip_prefix(name)?.strip_prefix('='))
    }
}

/// Why a program cannot be started.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// No such file.
    #[error("cannot run the program '{program}': No such file or directory")]
    NotFound {
        /// The program as given.
        program: String,
    },
    /// A name without `/` that no directory of `PATH` holds.
    #[error("cannot run the program '{program}': not found on PATH")]
    NotOnPath {
        /// The program as given.
        program: String,
    },
    /// A directory.
    #[error("cannot run the program '{program}': it is a directory")]
    Directory {
        /// The program as given.
        program: String,
    },
    /// A file without execute permission.
    #[error(
        "cannot run the program '{program}': it is not executable{}",
        if *script { " (chmod +x it, or name its interpreter first: python3 sol.py)" } else { " (chmod +x it)" }
    )]
    NotExecutable {
        /// The program as given.
        program: String,
        /// True when it looks like a script.
        script: bool,
    },
    /// The interpreter named by the script's `#!` line does not exist.
    #[error(
        "cannot run the program '{program}': its interpreter '{interpreter}' (from its first line '{line}') is not installed"
    )]
    MissingInterpreter {
        /// The program as given.
        program: String,
        /// The interpreter that is missing.
        interpreter: String,
        /// The `#!` line.
        line: String,
    },
    /// The script's `#!` line ends with a carriage return (Windows line ends): the system
    /// would look for an interpreter whose name ends with it.
    #[error(
        "cannot run the program '{program}': its first line '{line}' ends with a carriage return (Windows line ends), so the system looks for an interpreter whose name ends with '\\r' (convert the file: sed -i 's/\\r$//' {program})"
    )]
    CarriageReturn {
        /// The program as given.
        program: String,
        /// The `#!` line, without its carriage return.
        line: String,
    },
    /// The sandbox could not be set up for the run.
    #[error("cannot run the program '{program}' in the sandbox: {step}: {error}")]
    Sandbox {
        /// The program as given.
        program: String,
        /// The step that failed.
        step: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// A NUL byte in the program's name or an argument.
    #[error("cannot run the program: a NUL byte in its name or arguments")]
    NulByte,
    /// The system refused to start it (the reason is the system's).
    #[error("cannot run the program '{program}': {error}")]
    Io {
        /// The program as given.
        program: String,
        /// What the system said.
        error: std::io::Error,
    },
}

/// The first executable file called `name` in a directory of `PATH`.
fn on_path(name: &OsStr) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| {
            std::fs::metadata(candidate)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The first line of `file` when it starts with `#!` (at most 256 bytes of it).
fn shebang(file: &Path) -> Option<String> {
    let mut head = [0u8; 256];
    let n = std::fs::File::open(file).ok()?.read(&mut head).ok()?;
    let head = &head[..n];
    if !head.starts_with(b"#!") {
        return None;
    }
    let end = head.iter().position(|&b| b == b'\n').unwrap_or(head.len());
    Some(
        String::from_utf8_lossy(&head[..end])
            .trim_end_matches('\r')
            .to_string(),
    )
}

/// True when the `#!` line of `file` ends with `\r\n`.
fn shebang_ends_in_cr(file: &Path) -> bool {
    let mut head = [0u8; 256];
    let Ok(n) = std::fs::File::open(file).and_then(|mut f| f.read(&mut head)) else {
        return false;
    };
    let head = &head[..n];
    head.starts_with(b"#!")
        && head
            .iter()
            .position(|&b| b == b'\n')
            .is_some_and(|end| end > 0 && head[end - 1] == b'\r')
}

/// True when the name of `file` ends like a script's (`.py`, `.sh`, ...).
fn looks_like_script(file: &Path) -> bool {
    file.extension().is_some_and(|e| {
        ["py", "sh", "rb", "pl", "js", "php", "lua"]
            .iter()
            .any(|x| e == *x)
    })
}

/// The interpreter a `#!` line names that is not there: the interpreter itself, or the
/// program that `env` is asked to find on `PATH`.
fn missing_interpreter(line: &str) -> Option<String> {
    let mut words = line.trim_start_matches("#!").split_whitespace();
    let interpreter = words.next()?;
    if !Path::new(interpreter).exists() {
        return Some(interpreter.to_string());
    }
    if Path::new(interpreter)
        .file_name()
        .is_some_and(|n| n == "env")
    {
        // `#!/usr/bin/env -S python3 -u` and `#!/usr/bin/env python3`: the first word that is
        // not an option is the program env looks for.
        let target = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
        if !target.contains('/') && on_path(OsStr::new(target)).is_none() {
            return Some(target.to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(text: &str, mode: u32) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sol.py");
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        (dir, path)
    }

    #[test]
    fn a_first_line_with_windows_line_ends_is_named_before_any_run() {
        let (_dir, path) = script("#!/bin/sh\r\necho 1\r\n", 0o755);
        let e = Program::new(&path, Vec::<String>::new())
            .resolve()
            .unwrap_err();
        assert!(
            matches!(&e, StartError::CarriageReturn { line, .. } if line == "#!/bin/sh"),
            "{e}"
        );
        let (_dir, path) = script("#!/bin/sh\necho 1\r\n", 0o755);
        assert!(Program::new(&path, Vec::<String>::new()).resolve().is_ok());
    }

    #[test]
    fn a_missing_interpreter_is_named_from_the_first_line() {
        let (_dir, path) = script("#!/usr/bin/no-such-python3\nprint(1)\n", 0o755);
        let e = Program::new(&path, Vec::<String>::new())
            .resolve()
            .unwrap_err();
        assert!(
            matches!(&e, StartError::MissingInterpreter { interpreter, .. } if interpreter == "/usr/bin/no-such-python3"),
            "{e}"
        );
        let (_dir, path) = script("#!/usr/bin/env no-such-python3 -u\nprint(1)\n", 0o755);
        let e = Program::new(&path, Vec::<String>::new())
            .resolve()
            .unwrap_err();
        assert!(
            matches!(&e, StartError::MissingInterpreter { interpreter, .. } if interpreter == "no-such-python3"),
            "{e}"
        );
    }

    #[test]
    fn files_that_cannot_run_are_named_for_what_they_are() {
        let (_dir, path) = script("print(1)\n", 0o644);
        let e = Program::new(&path, Vec::<String>::new())
            .resolve()
            .unwrap_err();
        assert!(
            matches!(e, StartError::NotExecutable { script: true, .. }),
            "{e}"
        );
        let e = Program::new("/nonexistent/x", Vec::<String>::new())
            .resolve()
            .unwrap_err();
        assert!(matches!(e, StartError::NotFound { .. }), "{e}");
        let e = Program::new("no-such-program-anywhere", Vec::<String>::new())
            .resolve()
            .unwrap_err();
        assert!(matches!(e, StartError::NotOnPath { .. }), "{e}");
        let e = Program::new("/", Vec::<String>::new())
            .resolve()
            .unwrap_err();
        assert!(matches!(e, StartError::Directory { .. }), "{e}");
        assert!(Program::new("sh", vec!["-c", "true"]).resolve().is_ok());
    }
}
