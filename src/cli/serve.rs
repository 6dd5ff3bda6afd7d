//! `chess-puzzles serve`: the web board on a local port.

use std::io::Write;
use std::net::IpAddr;
use std::time::Duration;

use chess_puzzles::serve::{self, Config, DEFAULT_PORT, Limits};

use super::io::{Failure, Output, Verdict};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The port to listen on; when it is taken, the next free one of the 100 that follow
    /// (0: any free port).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines use the
    /// server (a warning says so).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    bind: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// The largest request body accepted, in bytes (413 above it).
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_body)]
    max_body: usize,
    /// The longest any solve may take, in seconds: showdown's budget and every count are
    /// capped there (504 past it).
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().max_time.as_secs_f64())]
    max_time: f64,
    /// How many solves run at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    solvers: Option<u16>,
    /// How many requests may wait for a solver (up to 5 s each); more are answered 503.
    #[arg(long, value_name = "N", default_value_t = Limits::default().queue)]
    queue: usize,
    /// How long a client may take to send a request's headers, in seconds, counted from the
    /// moment the server waits for them (also how long an idle connection is kept open); the
    /// connection is closed after it.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().header_timeout.as_secs_f64())]
    header_timeout: f64,
    /// How many connections may be open at once; more wait, not accepted, until one closes
    /// (at most the open-file limit, `ulimit -n`, less 64 for the server's own files)
    /// [default: 256, or that limit when lower].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: Option<u32>,
}

/// Files the server keeps open besides its connections (standard streams, the listening
/// socket, the runtime's own), with room to spare.
const OWN_FILES: u64 = 64;

/// The soft limit of open files (`ulimit -n`), where the system tells it.
fn open_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // Safety: `limit` is valid for writes for the whole call.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0
            && limit.rlim_cur != libc::RLIM_INFINITY
        {
            // `rlim_t` is `u64` on Linux, not on every Unix.
            #[allow(clippy::unnecessary_cast)]
            return Some(limit.rlim_cur as u64);
        }
        None
    }
    #[cfg(not(unix))]
    {
        None
    }
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    let max_time = Duration::try_from_secs_f64(args.max_time)
        .ok()
        .filter(|d| !d.is_zero() && *d <= Duration::from_secs(24 * 3600))
        .ok_or_else(|| {
            Failure::Usage(format!(
                "--max-time: expected a number of seconds above 0 and at most a day, found {}",
                args.max_time
            ))
        })?;
    let header_timeout = Duration::try_from_secs_f64(args.header_timeout)
        .ok()
        .filter(|d| !d.is_zero() && *d <= Duration::from_secs(3600))
        .ok_or_else(|| {
            Failure::Usage(format!(
                "--header-timeout: expected a number of seconds above 0 and at most an hour, \
                 found {}",
                args.header_timeout
            ))
        })?;
    let most = open_file_limit().map(|files| (files, files.saturating_sub(OWN_FILES).max(1)));
    let max_connections = match (args.max_connections, most) {
        (Some(n), Some((files, most))) if u64::from(n) > most => {
            return Err(Failure::Usage(format!(
                "--max-connections: expected at most {most} (the open-file limit, {files}, less \
                 {OWN_FILES} for the server's own files; raise it with `ulimit -n`), found {n}"
            )));
        }
        (Some(n), _) => n as usize,
        (None, Some((_, most))) => Limits::default().max_connections.min(most as usize),
        (None, None) => Limits::default().max_connections,
    };
    if args.max_body == 0 {
        return Err(Failure::Usage(
            "--max-body: expected a number of bytes above 0, found 0".to_string(),
        ));
    }
    if !args.bind.is_loopback() {
        eprintln!(
            "warning: listening on {}: other machines can use this server (there is no \
             authentication); the default, 127.0.0.1, keeps it to this machine",
            args.bind
        );
    }
    let config = Config {
        bind: args.bind,
        port: args.port,
        limits: Limits {
            max_body: args.max_body,
            max_time,
            solvers: args.solvers.map_or(Limits::default().solvers, usize::from),
            queue: args.queue,
            header_timeout,
            max_connections,
            ..Limits::default()
        },
    };
    let open = args.open;
    let mut written = Ok(());
    serve::run(config, |url| {
        written =
            writeln!(out, "chess-puzzles serve: {url} (Ctrl-C stops)").and_then(|()| out.flush());
        if open {
            open_browser(url);
        }
    })
    .map_err(|e| Failure::Usage(e.to_string()))?;
    written.map_err(Failure::Output)?;
    Ok(Verdict::Done)
}

/// Asks the desktop to open `url`; a failure is only a warning (the URL is printed anyway).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("warning: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
