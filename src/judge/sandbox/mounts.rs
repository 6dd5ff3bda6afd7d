//! The file system a sandboxed program sees: a read-only tmpfs root into which the system's
//! directories, the program's folders and the folders a user opened are bound read-only, a
//! tmpfs of limited size at `/tmp` and another at `/dev/shm` (the only places it may write,
//! on no disk, gone with the run), a few devices, a `/proc` of its own (its `sys` read-only,
//! the kernel's memory, keys and timers masked, as container runtimes do), and empty
//! folders over the tests; then `pivot_root` into it.
//!
//! The steps are made by the judge ([`Steps`], paths as C strings) and carried out by the
//! keeper between its `clone` and the program's `execve` ([`Steps::apply`]): only system calls
//! on prepared data there (rustix's, made directly, on `&CStr` paths that it passes as they
//! are), nothing allocates.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags, StatVfsMountFlags};
use rustix::io::Errno;
use rustix::mount::{MountFlags, MountPropagationFlags, UnmountFlags};

/// One step of the setup.
#[derive(Debug)]
enum Step {
    /// No mount event of this namespace reaches the system's (`MS_REC | MS_PRIVATE` on `/`).
    Private,
    /// A tmpfs at the path (`dev`: device files may be used on it; `read_only`: empty for
    /// good), with the mount options `options` (mode, size).
    Tmpfs {
        at: CString,
        dev: bool,
        read_only: bool,
        options: CString,
    },
    /// The step, where what it mounts on exists (a `/proc` file some kernels lack).
    Optional(Box<Step>),
    /// A folder (its parent exists).
    Mkdir(CString),
    /// An empty file, to bind a device onto.
    Touch(CString),
    /// A symbolic link `at` -> `to`.
    Symlink { to: CString, at: CString },
    /// A bind mount of `from` at `at`, read-only unless `write`, keeping the flags the kernel
    /// will not let a user namespace drop (`locked`).
    Bind {
        from: CString,
        at: CString,
        write: bool,
        locked: MountFlags,
    },
    /// A `proc` of the run's PID namespace at the path.
    Proc { at: CString },
    /// The root made read-only, then entered (`pivot_root`), the old root detached, and the
    /// working folder set.
    Enter { root: CString, cwd: CString },
}

/// The steps of one run's file system.
#[derive(Debug, Default)]
pub struct Steps {
    steps: Vec<Step>,
    /// Folders already made inside the root.
    made: Vec<PathBuf>,
    /// Where the root is mounted (outside).
    root: PathBuf,
}

/// A path as a C string (a path holds no NUL byte).
fn c(path: &Path) -> CString {
    CString::new(path.as_os_str().as_bytes()).unwrap_or_default()
}

/// The flags of the mount that holds `path` that a bind mount of it must keep.
fn locked_flags(path: &Path) -> MountFlags {
    let Ok(st) = rustix::fs::statvfs(c(path).as_c_str()) else {
        return MountFlags::empty();
    };
    let mut flags = MountFlags::empty();
    for (st_flag, ms_flag) in [
        (StatVfsMountFlags::NOSUID, MountFlags::NOSUID),
        (StatVfsMountFlags::NODEV, MountFlags::NODEV),
        (StatVfsMountFlags::NOEXEC, MountFlags::NOEXEC),
        (StatVfsMountFlags::NOATIME, MountFlags::NOATIME),
        (StatVfsMountFlags::NODIRATIME, MountFlags::NODIRATIME),
        (StatVfsMountFlags::RELATIME, MountFlags::RELATIME),
    ] {
        if st.f_flag.contains(st_flag) {
            flags |= ms_flag;
        }
    }
    flags
}

impl Steps {
    /// The steps for a root mounted at `root` (an empty folder outside).
    pub fn new(root: &Path) -> Steps {
        let mut steps = Steps {
            root: root.to_path_buf(),
            ..Steps::default()
        };
        steps.steps.push(Step::Private);
        steps.steps.push(Step::Tmpfs {
            at: c(root),
            dev: false,
            read_only: false,
            options: c"mode=0755,size=4m".to_owned(),
        });
        steps
    }

    /// A writable tmpfs of at most `size` (bytes, or a share of the memory: `50%`, and more
    /// options after a comma: `nr_inodes=N`) at `at` (absolute, as the program sees it), which
    /// every user may write (mode 1777, as `/tmp` is).
    pub fn scratch(&mut self, at: &Path, size: &str) {
        self.mkdir_all(at);
        self.steps.push(Step::Tmpfs {
            at: c(&self.inside(at)),
            dev: false,
            read_only: false,
            options: CString::new(format!("mode=1777,size={size}")).unwrap_or_default(),
        });
    }

    fn inside(&self, path: &Path) -> PathBuf {
        self.root.join(path.strip_prefix("/").unwrap_or(path))
    }

    /// Makes the folder `path` (absolute, as the program sees it) and its parents inside.
    fn mkdir_all(&mut self, path: &Path) {
        let mut at = PathBuf::from("/");
        for part in path.components().skip(1) {
            at.push(part);
            if !self.made.contains(&at) {
                self.made.push(at.clone());
                self.steps.push(Step::Mkdir(c(&self.inside(&at))));
            }
        }
    }

    /// Shows the folder (or file) `path` at the same place, read-only (or writable with
    /// `write`); a symbolic link is shown as the same link.
    pub fn bind(&mut self, path: &Path, write: bool) {
        if let Ok(to) = std::fs::read_link(path) {
            if let Some(parent) = path.parent() {
                self.mkdir_all(parent);
            }
            self.steps.push(Step::Symlink {
                to: c(&to),
                at: c(&self.inside(path)),
            });
            return;
        }
        if std::fs::metadata(path).is_ok_and(|m| !m.is_dir()) {
            // A file alone (a program kept in /tmp): bound onto an empty file.
            if let Some(parent) = path.parent() {
                self.mkdir_all(parent);
            }
            self.steps.push(Step::Touch(c(&self.inside(path))));
        } else {
            self.mkdir_all(path);
        }
        self.steps.push(Step::Bind {
            from: c(path),
            at: c(&self.inside(path)),
            write,
            locked: locked_flags(path),
        });
    }

    /// A `/dev` with the devices every program may need, and the links to `/proc/self/fd`.
    pub fn devices(&mut self) {
        let dev = Path::new("/dev");
        self.mkdir_all(dev);
        self.steps.push(Step::Tmpfs {
            at: c(&self.inside(dev)),
            dev: true,
            read_only: false,
            options: c"mode=0755,size=4m".to_owned(),
        });
        for name in ["null", "zero", "full", "random", "urandom"] {
            let path = dev.join(name);
            if path.exists() {
                self.steps.push(Step::Touch(c(&self.inside(&path))));
                self.steps.push(Step::Bind {
                    from: c(&path),
                    at: c(&self.inside(&path)),
                    write: true,
                    locked: locked_flags(&path),
                });
            }
        }
        for (name, to) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            self.steps.push(Step::Symlink {
                to: c(Path::new(to)),
                at: c(&self.inside(&dev.join(name))),
            });
        }
    }

    /// A `/proc` of the run's own, with what container runtimes keep from their programs
    /// read-only (`/proc/sys`, `sysrq-trigger`, ...) or masked (the kernel's memory, the keys,
    /// the timers; after [`Steps::devices`], whose `/dev/null` masks them).
    pub fn proc(&mut self) {
        let proc = Path::new("/proc");
        self.mkdir_all(proc);
        self.steps.push(Step::Proc {
            at: c(&self.inside(proc)),
        });
        let flags = MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC;
        for name in ["sys", "sysrq-trigger", "irq", "bus", "fs"] {
            let at = c(&self.inside(&proc.join(name)));
            self.steps.push(Step::Optional(Box::new(Step::Bind {
                from: at.clone(),
                at,
                write: false,
                locked: flags,
            })));
        }
        let null = c(&self.inside(Path::new("/dev/null")));
        for name in [
            "kcore",
            "keys",
            "key-users",
            "timer_list",
            "sched_debug",
            "latency_stats",
            "kallsyms",
            "kmsg",
        ] {
            self.steps.push(Step::Optional(Box::new(Step::Bind {
                from: null.clone(),
                at: c(&self.inside(&proc.join(name))),
                write: false,
                locked: flags,
            })));
        }
        for name in ["acpi", "scsi"] {
            self.steps.push(Step::Optional(Box::new(Step::Tmpfs {
                at: c(&self.inside(&proc.join(name))),
                dev: false,
                read_only: true,
                options: c"mode=0555,size=4k".to_owned(),
            })));
        }
    }

    /// An empty read-only folder over `path`, which lies inside a folder shown.
    pub fn hide(&mut self, path: &Path) {
        self.steps.push(Step::Tmpfs {
            at: c(&self.inside(path)),
            dev: false,
            read_only: true,
            options: c"mode=0755,size=4k".to_owned(),
        });
    }

    /// The last step: the root entered, `cwd` the working folder.
    pub fn enter(&mut self, cwd: &Path) {
        self.steps.push(Step::Enter {
            root: c(&self.root),
            cwd: c(cwd),
        });
    }

    /// Carries the steps out; on failure, the step's number and `errno`. Only system calls on
    /// the prepared steps: callable between a fork and an exec.
    pub fn apply(&self) -> Result<(), (usize, i32)> {
        for (i, step) in self.steps.iter().enumerate() {
            if let Err(error) = apply_one(step) {
                return Err((i, error.raw_os_error()));
            }
        }
        Ok(())
    }

    /// What step `i` does, for an error message.
    pub fn describe(&self, i: usize) -> String {
        let shown = |p: &CString| p.to_string_lossy().into_owned();
        match self.steps.get(i) {
            Some(Step::Private) => "making the mounts private".to_string(),
            Some(Step::Tmpfs { at, .. }) => format!("mounting a tmpfs at {}", shown(at)),
            Some(Step::Mkdir(at)) => format!("making the folder {}", shown(at)),
            Some(Step::Touch(at)) => format!("making the file {}", shown(at)),
            Some(Step::Symlink { at, .. }) => format!("making the link {}", shown(at)),
            Some(Step::Bind { from, .. }) => format!("showing {} to the program", shown(from)),
            Some(Step::Proc { .. }) => "mounting a /proc of its own".to_string(),
            Some(Step::Optional(_)) => format!("masking a part of /proc (step {i})"),
            Some(Step::Enter { .. }) => "entering the sandbox's root".to_string(),
            None => format!("step {i}"),
        }
    }
}

/// Carries one step out (an optional step whose place does not exist counts as done). Only
/// system calls on prepared C strings: callable between a fork and an exec.
fn apply_one(step: &Step) -> rustix::io::Result<()> {
    match step {
        Step::Private => rustix::mount::mount_change(
            c"/",
            MountPropagationFlags::REC | MountPropagationFlags::PRIVATE,
        ),
        Step::Tmpfs {
            at,
            dev,
            read_only,
            options,
        } => {
            let mut flags = MountFlags::NOSUID;
            flags.set(MountFlags::NODEV, !*dev);
            flags.set(MountFlags::RDONLY, *read_only);
            rustix::mount::mount(c"tmpfs", at.as_c_str(), c"tmpfs", flags, options.as_c_str())
        }
        Step::Optional(step) => match apply_one(step) {
            Err(Errno::NOENT) => Ok(()),
            done => done,
        },
        Step::Mkdir(at) => match rustix::fs::mkdir(at.as_c_str(), Mode::from_raw_mode(0o755)) {
            Err(Errno::EXIST) => Ok(()),
            made => made,
        },
        // The file is closed as it is dropped.
        Step::Touch(at) => rustix::fs::open(
            at.as_c_str(),
            OFlags::CREATE | OFlags::WRONLY | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o644),
        )
        .map(drop),
        Step::Symlink { to, at } => match rustix::fs::symlink(to.as_c_str(), at.as_c_str()) {
            Err(Errno::EXIST) => Ok(()),
            made => made,
        },
        Step::Bind {
            from,
            at,
            write,
            locked,
        } => {
            rustix::mount::mount_bind(from.as_c_str(), at.as_c_str())?;
            if *write {
                return Ok(());
            }
            // A remount with `MS_BIND` reads no data: the empty string rustix passes is
            // ignored.
            let flags = MountFlags::BIND | MountFlags::RDONLY | MountFlags::NOSUID | *locked;
            rustix::mount::mount_remount(at.as_c_str(), flags, c"")
        }
        // `hidepid=2` (invisible): a process the program may not trace is not shown, so the
        // keeper (not dumpable) and its command line, the judge's, are out of sight.
        Step::Proc { at } => rustix::mount::mount(
            c"proc",
            at.as_c_str(),
            c"proc",
            MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC,
            c"hidepid=2",
        ),
        Step::Enter { root, cwd } => {
            let flags =
                MountFlags::BIND | MountFlags::RDONLY | MountFlags::NOSUID | MountFlags::NODEV;
            rustix::mount::mount_remount(root.as_c_str(), flags, c"")?;
            rustix::process::chdir(root.as_c_str())?;
            rustix::process::pivot_root(c".", c".")?;
            rustix::mount::unmount(c".", UnmountFlags::DETACH)?;
            rustix::process::chdir(cwd.as_c_str())
        }
    }
}
