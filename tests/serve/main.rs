//! `chess-puzzles serve`, the web board and its JSON API (the default feature `serve`): the
//! API against the command line, the connection limits, a load test, and every view in a real
//! browser (ignored unless asked for: `.ci/serve.sh`).
#![cfg(feature = "serve")]

#[path = "../common/mod.rs"]
mod common;

mod api;
mod browser;
mod limits;
mod load;
mod server;
mod stop;
mod traces;
