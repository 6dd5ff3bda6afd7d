//! Every input the fuzzers keep, replayed through the code each target runs (`fuzz/harness.rs`):
//! the seeds of the corpora (`fuzz/seeds/<target>/`) and every crash or time-out ever found
//! (`fuzz/regressions/<target>/`). Each must finish without a panic within 10 s.

#[path = "../../fuzz/harness.rs"]
mod harness;

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// What a target does with one input.
type Target = fn(&[u8]);

/// Every target, the server's when it is built (the default feature `serve`).
fn targets() -> Vec<(&'static str, Target)> {
    let mut targets: Vec<(&str, Target)> = vec![
        ("solve", harness::solve),
        ("validate", harness::validate),
        ("check", harness::check),
        ("merge", harness::merge),
    ];
    #[cfg(feature = "serve")]
    targets.push(("serve", harness::serve));
    targets
}

/// The files of `dir`, sorted (none when it does not exist).
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut all: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    all.sort();
    all
}

#[test]
fn every_kept_fuzz_input_runs_cleanly_and_in_time() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut replayed = 0;
    for (target, run) in targets() {
        for kind in ["seeds", "regressions"] {
            for path in files(&root.join(kind).join(target)) {
                let data = std::fs::read(&path).unwrap();
                let (done, finished) = mpsc::channel();
                let worker = std::thread::spawn(move || {
                    run(&data);
                    let _ = done.send(());
                });
                match finished.recv_timeout(Duration::from_secs(10)) {
                    Ok(()) => {}
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        panic!("{} took over 10 s", path.display())
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        let panic = worker.join().expect_err("the worker panicked");
                        let message = panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        panic!("{}: {message}", path.display());
                    }
                }
                worker.join().unwrap();
                replayed += 1;
            }
        }
    }
    let seeds = if cfg!(feature = "serve") { 55 } else { 32 };
    assert!(replayed >= seeds, "the seeds at least: {replayed}");
}

/// The `serve` target sends requests to every route of the API (every endpoint of
/// `chess_puzzles::api`, and the routes `src/serve/routes.rs` adds by name), and a seed of its
/// corpus picks each.
#[cfg(feature = "serve")]
#[test]
fn the_serve_target_reaches_every_route() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let routes = std::fs::read_to_string(root.join("src/serve/routes.rs")).unwrap();
    let served: std::collections::BTreeSet<String> = routes
        .split(".route(\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .chain(
            chess_puzzles::api::Endpoint::ALL
                .iter()
                .map(|e| e.route().to_string()),
        )
        .map(|route| format!("/api{route}"))
        .collect();
    assert!(served.len() >= 15, "{served:?}");
    let fuzzed: std::collections::BTreeSet<String> = harness::ENDPOINTS
        .iter()
        .map(|(_, path)| path.to_string())
        .filter(|p| p.starts_with("/api/") && p != "/api/no-such-endpoint")
        .collect();
    assert_eq!(
        fuzzed, served,
        "the serve target's endpoints against the server's routes"
    );
    let picked: std::collections::BTreeSet<usize> = files(&root.join("fuzz/seeds/serve"))
        .iter()
        .filter_map(|p| std::fs::read(p).unwrap().first().copied())
        .map(|b| usize::from(b) % harness::ENDPOINTS.len())
        .collect();
    assert_eq!(
        picked.len(),
        harness::ENDPOINTS.len(),
        "a seed for every endpoint: {picked:?}"
    );
}
