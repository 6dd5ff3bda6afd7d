//! The command line as a user meets it, through the real binary: the conventions every command
//! shares (demo, help, usage errors), the wording of help and messages, one meaning per exit
//! code, shell completions and manual pages, and the console examples of the README and docs.

#[path = "../common/mod.rs"]
mod common;

mod completions;
mod conventions;
mod exit_codes;
mod readme;
mod svg;
mod trace;
mod usability;
