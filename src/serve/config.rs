//! What a server is told: where to listen ([`Config`]) and what it allows each request
//! ([`Limits`]). Every part of the server reads its limits from here; this module depends on
//! nothing else of the server.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

/// The port tried first when none is given.
pub const DEFAULT_PORT: u16 = 8080;

/// How many ports after the requested one are tried when it is taken.
pub const PORTS_TRIED: u16 = 100;

/// What one server allows each request.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest request body, in bytes (413 above it).
    pub max_body: usize,
    /// The longest any solve may take: the cap of showdown's budget and of every count,
    /// listing and `nqueens best`, and the time limit of the other puzzles (504 past it).
    pub max_time: Duration,
    /// How many solves run at once (one per core by default).
    pub solvers: usize,
    /// How many requests may wait for a solver; more are answered 503 at once.
    pub queue: usize,
    /// How long a request waits for a solver before it is answered 503.
    pub queue_wait: Duration,
    /// How long a client may take to send its request body (408 after it).
    pub body_timeout: Duration,
    /// How long a client may take to send a request's headers, counted from the moment the
    /// server waits for them: on a new connection, and on a kept-alive one after its last
    /// answer (so it is also how long an idle connection is kept). The connection is closed
    /// after it.
    pub header_timeout: Duration,
    /// How many connections are open at once; beyond it, new ones wait unaccepted in the
    /// system's queue of the listening socket until one closes.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Limits {
            max_body: 1 << 20,
            max_time: Duration::from_secs(10),
            solvers: cores,
            queue: 64,
            queue_wait: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
            max_connections: 256,
        }
    }
}

/// Where to listen and what to allow.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to bind (loopback by default).
    pub bind: IpAddr,
    /// The port tried first; when it is taken the next ones are tried (see [`PORTS_TRIED`]).
    /// 0 lets the system choose a free one.
    pub port: u16,
    /// The limits of every request.
    pub limits: Limits,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: DEFAULT_PORT,
            limits: Limits::default(),
        }
    }
}
