//! The console examples of the README and of every page of `docs/`, run as a user runs them
//! after `cargo install --path .`: each `$ command` line through `sh` with the binary on PATH,
//! its output compared byte for byte with the lines the page shows under it (a last line `...`
//! means the output goes on).
//!
//! The binary is the one cargo built for the tests, or the one named by the environment
//! variable `CHESS_PUZZLES_BIN` (CI sets it to the binary `cargo install --locked --path .`
//! installed).

use std::path::PathBuf;
use std::process::Command;

use crate::common::ALLOW_SOFTWARE_GPU;

/// One `$ command` of a console block and the output shown under it.
struct Example {
    line: usize,
    command: String,
    output: String,
    goes_on: bool,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut all: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            all.push(Example {
                line: i + 1,
                command: command.to_string(),
                output: String::new(),
                goes_on: false,
            });
        } else if let Some(last) = all.last_mut() {
            if line == "..." {
                last.goes_on = true;
            } else {
                last.output.push_str(line);
                last.output.push('\n');
            }
        }
    }
    all
}

fn binary() -> PathBuf {
    std::env::var_os("CHESS_PUZZLES_BIN")
        .map_or_else(|| PathBuf::from(crate::common::BIN), PathBuf::from)
}

/// The README and the pages of `docs/`, by name.
fn pages(root: &str) -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(format!("{root}/docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(format!("{root}/{name}")).unwrap();
            (name, text)
        })
        .collect()
}

#[test]
fn every_console_example_of_the_readme_reproduces() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut ran = 0;
    for (name, text) in pages(root) {
        let count = run_examples(root, &name, &text);
        if name == "README.md" {
            assert!(count >= 12, "the README's console examples run: {count}");
        }
        ran += count;
    }
    assert!(ran >= 12);
}

/// Whether `bin` finds a GPU to count on; under CI=true it must.
fn gpu_available(bin: &std::path::Path) -> bool {
    let got = Command::new(bin)
        .args(["nqueens", "count", "6", "--device", "gpu"])
        .env(ALLOW_SOFTWARE_GPU.0, ALLOW_SOFTWARE_GPU.1)
        .output()
        .unwrap();
    let found = got.status.success();
    assert!(
        found || std::env::var("CI").as_deref() != Ok("true"),
        "CI has no GPU device: {}",
        String::from_utf8_lossy(&got.stderr)
    );
    found
}

/// Runs the console examples of the page `name`; returns how many ran.
fn run_examples(root: &str, name: &str, text: &str) -> usize {
    let found = examples(text);
    let bin = binary();
    assert!(bin.is_file(), "{}", bin.display());
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for example in found {
        // The web board's examples start a server or talk to one (`cargo run -- serve`,
        // `curl`): tests/serve/api.rs covers them; the Slurm examples need a cluster
        // (.ci/slurm.sh starts one); every other example runs here.
        let direct = example.command.starts_with("chess-puzzles ")
            || example.command.contains("| chess-puzzles ");
        if !direct {
            assert!(
                example.command.contains("serve")
                    || example.command.contains("curl ")
                    || example.command.starts_with("deploy/slurm/")
                    || example.command.starts_with("cat /tmp/runs/"),
                "{name} line {}: {} runs no chess-puzzles command",
                example.line,
                example.command
            );
            continue;
        }
        // An example on a GPU runs where there is one: on CI, Mesa's software device.
        if example.command.contains("--device gpu") && !gpu_available(&bin) {
            eprintln!("skipped (no GPU): {name} line {}", example.line);
            continue;
        }
        ran += 1;
        let got = Command::new("sh")
            .args(["-c", &example.command])
            .current_dir(root)
            .env("PATH", &path)
            .env(ALLOW_SOFTWARE_GPU.0, ALLOW_SOFTWARE_GPU.1)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&got.stdout);
        // A command that fails on purpose says so in a shell comment: `# exit code 1`.
        let code = example
            .command
            .rsplit_once("# exit code ")
            .and_then(|(_, code)| code.trim().parse::<i32>().ok())
            .unwrap_or(0);
        assert_eq!(
            got.status.code(),
            Some(code),
            "{name} line {}: {}: {}",
            example.line,
            example.command,
            String::from_utf8_lossy(&got.stderr)
        );
        if example.goes_on {
            assert!(
                stdout.starts_with(&example.output),
                "{name} line {}: {}\n--- {name}\n{}--- got\n{stdout}",
                example.line,
                example.command,
                example.output
            );
        } else {
            assert_eq!(
                stdout, example.output,
                "{name} line {}: {}",
                example.line, example.command
            );
        }
    }
    ran
}
