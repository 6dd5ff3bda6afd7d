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
