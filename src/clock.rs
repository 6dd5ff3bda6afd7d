//! The clock that every time limit of the library reads.
//!
//! `std::time::Instant::now()` panics in a browser (WebAssembly on `wasm32-unknown-unknown`
//! has no system clock), so the library reads its clock through this module: there
//! [`Instant`] is the `web-time` crate's, which reads `performance.now()`, and everywhere
//! else it *is* `std::time::Instant` (the same type, so natively nothing changes). A program
//! that gives the library a deadline on the web makes it with `chess_puzzles::clock::Instant`.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use web_time::Instant;
