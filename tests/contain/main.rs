//! A local judge you can trust with any program: `stress` and `judge` through the real binary
//! on hostile and careless programs (a new session, a double fork, signals ignored, a child
//! left holding standard output, sleeping, burning CPU, floods of output, control bytes, a
//! missing interpreter, crashes), each checked for its verdict, its time, and that no process
//! of it is left, under every containment this machine allows (the fallback, a child
//! subreaper alone, always); signals to `stress` and `judge` themselves; fair limits under
//! load and the same report with one job or two; memory; the reports; the folders `judge`
//! reads; default tests that reach the statement's largest inputs; UVa 750's input layout.
//!
//! The programs are sh scripts, Python 3, Java (`java File.java`) and C compiled with the
//! address sanitizer (gcc). Outside CI a missing python3, java or gcc skips its tests with a
//! message; under CI=true it fails them (.ci/run installs them).

#![cfg(target_os = "linux")]

#[path = "../common/mod.rs"]
mod common;

mod escape;
mod hostile;
mod largest;
mod limits;
mod procs;
mod reports;
mod sandbox;
mod signals;
mod verdicts;
