//! `chess-puzzles nqueens count --device gpu` through the real binary: counts against OEIS
//! A000170, shards counted on the GPU merged with shards counted on the CPU, the time limit,
//! and every refusal (a board the GPU does not count, given queens, no device). On CI the
//! device is Mesa's software Vulkan device, which `.ci/run` installs; elsewhere, without a
//! device, the tests that need one say so and pass.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{ALLOW_SOFTWARE_GPU, Run, command, run};

/// Whether the binary finds a GPU; under CI=true it must.
fn has_gpu() -> bool {
    let out = run(&["nqueens", "count", "6", "--device", "gpu"], b"");
    if out.code == 0 {
        return true;
    }
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("no usable GPU"), "{}", out.stderr);
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI has no GPU device: {}",
        out.stderr
    );
    eprintln!("skipped: {}", out.stderr.trim());
    false
}

fn stdout(out: &Run) -> String {
    assert!(out.code == 0, "exit {:?}: {}", out.code, out.stderr);
    assert!(!out.stderr.contains("XDG_RUNTIME_DIR"), "{}", out.stderr);
    out.stdout_text()
}

#[test]
fn counts_match_oeis_a000170() {
    if !has_gpu() {
        return;
    }
    for (n, expected) in [(6, 4), (8, 92), (10, 724), (12, 14_200), (13, 73_712)] {
        let out = run(
            &["nqueens", "count", &n.to_string(), "--device", "gpu"],
            b"",
        );
        assert_eq!(stdout(&out), format!("{expected}\n"), "n = {n}");
    }
    let json = stdout(&run(
        &[
            "nqueens", "count", "11", "--device", "gpu", "--format", "json",
        ],
        b"",
    ));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["count"], 2680);
}

#[test]
fn stats_say_what_the_gpu_did() {
    if !has_gpu() {
        return;
    }
    let out = run(
        &["nqueens", "count", "12", "--device", "gpu", "--stats"],
        b"",
    );
    assert_eq!(stdout(&out), "14200\n");
    let line = out.stderr.trim();
    assert!(line.starts_with("gpu: "), "{line}");
    // N = 12 counts the 30 configurations of its band (two columns, one per symmetry orbit)
    // in one batch.
    assert!(line.contains("; 30 configurations in 1 batch, "), "{line}");
    assert!(line.contains("0 units counted again on the CPU"), "{line}");
    assert!(line.contains(" s in all"), "{line}");
    // The adapter and its driver, the kernels' choices (the defaults), and the wall time
    // split into the host's own work and the GPU's idle time.
    assert!(line.contains(", driver "), "{line}");
    assert!(
        line.contains("; kernels tables=padded,work=queue,checks=off; "),
        "{line}"
    );
    assert!(line.contains("; host's own work "), "{line}");
    assert!(
        line.contains(" ns a unit), listing the configurations "),
        "{line}"
    );
    // The software device runs 16 workgroups of the pairing kernel at a time.
    assert!(
        line.contains(" of the pairs (16 workgroups each); "),
        "{line}"
    );
}

#[test]
fn the_pairing_kernels_workgroups_can_be_set() {
    if !has_gpu() {
        return;
    }
    for (workgroups, said) in [("1", "1 workgroup each"), ("3", "3 workgroups each")] {
        let out = command()
            .args(["nqueens", "count", "11", "--device", "gpu", "--stats"])
            .env("CHESS_PUZZLES_GPU_WORKGROUPS", workgroups)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "2680\n");
        assert!(stderr.contains(said), "{stderr}");
    }
}

/// The records of shards `shards` of `n`'s count in `k` parts, counted on `device`.
fn records(n: usize, k: u64, shards: std::ops::Range<u64>, device: &str) -> String {
    shards
        .map(|i| {
            stdout(&run(
                &[
                    "nqueens",
                    "count",
                    &n.to_string(),
                    "--shard",
                    &format!("{i}/{k}"),
                    "--format",
                    "json",
                    "--device",
                    device,
                ],
                b"",
            ))
        })
        .collect()
}

#[test]
fn gpu_shards_merge_with_cpu_shards() {
    if !has_gpu() {
        return;
    }
    for (n, k, expected) in [(12, 6, 14_200u64), (14, 10, 365_596)] {
        let gpu = records(n, k, 0..k / 2, "gpu");
        let cpu = records(n, k, k / 2..k, "cpu");
        for line in gpu.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(record["device"].is_string(), "{line}");
        }
        for line in cpu.lines() {
            assert!(!line.contains("\"device\""), "{line}");
        }
        let merged = stdout(&run(
            &["nqueens", "merge"],
            format!("{gpu}{cpu}").as_bytes(),
        ));
        assert_eq!(merged, format!("{expected}\n"), "n = {n}");
        // Each GPU shard is the CPU's, count for count.
        let all_cpu = records(n, k, 0..k / 2, "cpu");
        for (g, c) in gpu.lines().zip(all_cpu.lines()) {
            let (g, c): (serde_json::Value, serde_json::Value) = (
                serde_json::from_str(g).unwrap(),
                serde_json::from_str(c).unwrap(),
            );
            assert_eq!(
                (&g["count"], &g["residue"], &g["side"]),
                (&c["count"], &c["residue"], &c["side"])
            );
        }
    }
    // A shard of a larger board, its band narrowed for many shards (the software device's
    // buffers are too small for the default band's partial sides at 19).
    let gpu = records(19, 1000, 537..538, "gpu");
    let cpu = records(19, 1000, 537..538, "cpu");
    let (g, c): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&gpu).unwrap(),
        serde_json::from_str(&cpu).unwrap(),
    );
    assert_eq!(g["count"], c["count"]);
    assert!(c["count"].as_u64().unwrap() > 0);
}

#[test]
fn a_record_altered_after_the_gpu_wrote_it_is_rejected() {
    if !has_gpu() {
        return;
    }
    let gpu = records(10, 2, 0..1, "gpu");
    let cpu = records(10, 2, 1..2, "cpu");
    let altered = gpu.replacen("\"device\":\"", "\"device\":\"x", 1);
    let out = run(&["nqueens", "merge"], format!("{altered}{cpu}").as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("corrupted record"), "{}", out.stderr);
}

#[test]
fn a_time_limit_and_ctrl_c_stop_a_gpu_count() {
    if !has_gpu() {
        return;
    }
    let out = run(
        &[
            "nqueens",
            "count",
            "17",
            "--device",
            "gpu",
            "--time-limit",
            "0.5",
        ],
        b"",
    );
    assert_eq!(out.code, 124, "{}", out.stderr);
    assert!(out.stderr.contains("time limit reached"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
    let child = command()
        .args(["nqueens", "count", "17", "--device", "gpu"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Instant::now();
    // SAFETY: kill sends a signal to the child we started; no memory is involved.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "{:?}",
        sent.elapsed()
    );
    assert!(err.contains("interrupted: nqueens count"), "{err}");
    assert!(out.stdout.is_empty());
}

/// Runs `args` (with `env`), expects exit code 2 and a message naming `what`.
fn refused(args: &[&str], env: &[(&str, &str)], what: &str) {
    let mut cmd = command();
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(what), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn what_the_gpu_does_not_count_is_refused() {
    for n in ["5", "28", "64"] {
        refused(
            &["nqueens", "count", n, "--device", "gpu"],
            &[],
            &format!("--device gpu counts empty boards of side 6 to 27, found {n}"),
        );
    }
    refused(
        &["nqueens", "count", "8", "--fix", "1,1", "--device", "gpu"],
        &[],
        "cannot be combined with --fix",
    );
    refused(
        &["nqueens", "count", "8", "--stats"],
        &[],
        "--stats tells what the GPU did; it needs --device gpu",
    );
    refused(
        &["nqueens", "count", "8", "--device", "tpu"],
        &[],
        "invalid value 'tpu'",
    );
}

#[test]
fn a_bad_workgroups_setting_is_refused() {
    for value in ["0", "65536", "many", "-1", ""] {
        refused(
            &["nqueens", "count", "8", "--device", "gpu"],
            &[("CHESS_PUZZLES_GPU_WORKGROUPS", value)],
            "CHESS_PUZZLES_GPU_WORKGROUPS must be a whole number from 1 to 65535",
        );
    }
}

#[test]
fn no_driver_is_named() {
    // A Vulkan loader told to look for drivers where there are none finds no adapter.
    refused(
        &["nqueens", "count", "8", "--device", "gpu"],
        &[
            ("VK_DRIVER_FILES", "/nonexistent/icd.json"),
            ("VK_ICD_FILENAMES", "/nonexistent/icd.json"),
        ],
        "no usable GPU: no adapter",
    );
}

#[test]
fn a_software_device_counts_only_when_allowed() {
    if !has_gpu() {
        return;
    }
    // The adapter the tests count on (a software device may: see `common::command`).
    let out = run(
        &["nqueens", "count", "8", "--device", "gpu", "--stats"],
        b"",
    );
    let stats = out.stderr.clone();
    assert_eq!(stdout(&out), "92\n");
    assert!(stats.contains(", driver "), "{stats}");
    if !stats.contains("software)") {
        eprintln!("skipped: a GPU counts here, so nothing is refused: {stats}");
        return;
    }
    let refused = command()
        .env_remove(ALLOW_SOFTWARE_GPU.0)
        .args(["nqueens", "count", "8", "--device", "gpu"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(refused.stdout.is_empty());
    assert!(
        stderr.contains("only a software device") && stderr.contains("--allow-software"),
        "{stderr}"
    );
    // Asked for on the command line, it counts.
    let allowed = command()
        .env_remove(ALLOW_SOFTWARE_GPU.0)
        .args([
            "nqueens",
            "count",
            "8",
            "--device",
            "gpu",
            "--allow-software",
        ])
        .output()
        .unwrap();
    assert_eq!(allowed.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&allowed.stdout), "92\n");
    // A value of the variable that means neither is refused, naming it.
    let bad = command()
        .env(ALLOW_SOFTWARE_GPU.0, "yes")
        .args(["nqueens", "count", "8", "--device", "gpu"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains(ALLOW_SOFTWARE_GPU.0));
}

#[test]
fn every_variant_of_the_kernels_counts_right() {
    if !has_gpu() {
        return;
    }
    for tuning in [
        "tables=strided,work=stride,checks=on",
        "tables=padded,work=queue,checks=off",
        "tables=padded,work=stride,checks=off,items=300",
        "tables=strided,work=queue,checks=off,workgroups=3",
    ] {
        let out = command()
            .env("CHESS_PUZZLES_GPU_TUNING", tuning)
            .args(["nqueens", "count", "12", "--device", "gpu", "--stats"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{tuning}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "14200\n", "{tuning}");
        // --stats names the choices as the variable takes them.
        let named = tuning
            .split(',')
            .filter(|c| !c.starts_with("items") && !c.starts_with("workgroups"));
        for choice in named {
            assert!(stderr.contains(choice), "{tuning}: {stderr}");
        }
    }
    // A choice that does not exist: exit 2, naming the choices.
    let out = command()
        .env("CHESS_PUZZLES_GPU_TUNING", "tables=round")
        .args(["nqueens", "count", "12", "--device", "gpu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("strided, padded"));
}

#[test]
fn the_sitting_script_runs_end_to_end() {
    if !has_gpu() {
        return;
    }
    // The first sitting on a GPU, at small sizes, on whatever device the tests count on,
    // through the script that readies a bare GPU machine for it (here the loader and a
    // driver are there already: it checks the adapter and runs the sitting).
    let out_dir = tempfile::tempdir().unwrap();
    // A machine with many libraries lists more than a pipe holds: an `ldconfig` first in
    // PATH lists the real ones and then 256 KiB more, as a CI machine with a browser does
    // (the script once read the list through `grep -q` under pipefail and lost the loader).
    let bin = tempfile::tempdir().unwrap();
    let wrapper = bin.path().join("ldconfig");
    let real = ["/usr/sbin/ldconfig", "/sbin/ldconfig"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("ldconfig");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nif [ \"$1\" = -p ]; then {real} -p; head -c 262144 /dev/zero | tr '\\0' '#'; echo; else exec {real} \"$@\"; fi\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let ran = sitting_script()
        .env("PATH", path)
        .args([
            "--allow-software",
            "--out",
            out_dir.path().to_str().unwrap(),
            "--check-n",
            "8",
            "--shard-n",
            "11",
            "--shard-k",
            "4",
            "--variants-n",
            "8",
            "--sweep",
            "2",
            "16",
            "--best-n",
            "9",
            "--projection-n",
            "10",
            "--projection-k",
            "2",
            "--other",
            "echo 724",
            "--other-n",
            "10",
            "--budget",
            "300",
        ])
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("gpu_sitting.sh: adapter: "), "{stderr}");
    let table = std::fs::read_to_string(out_dir.path().join("sitting.md")).unwrap();
    assert_eq!(String::from_utf8_lossy(&ran.stdout), table);
    // Every step ran, every count was right (a wrong one stops the sitting), nothing skipped.
    for step in 1..=8 {
        assert!(
            table.contains(&format!("\n| {step} | ")),
            "step {step}:\n{table}"
        );
    }
    assert!(
        !table.contains("skipped") && !table.contains("FAILED"),
        "{table}"
    );
    // Eight variants and the fastest of them; the other counter's count checked.
    assert_eq!(table.matches("| 4 | N = 8, tables=").count(), 8, "{table}");
    assert!(table.contains("| 8 | other, N = 10 | right |"), "{table}");
    let stats = std::fs::read_to_string(out_dir.path().join("stats.txt")).unwrap();
    assert!(stats.lines().count() >= 15, "{stats}");
    assert!(stats.lines().all(|l| l.contains(": gpu: ")), "{stats}");
}

/// `experiments/nqueens/gpu_sitting.sh` from the repository's root, on the tests' binary, a
/// software device allowed only by its option.
fn sitting_script() -> std::process::Command {
    let mut script = std::process::Command::new("bash");
    script
        .arg("experiments/nqueens/gpu_sitting.sh")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("BIN", crate::common::BIN)
        .env_remove(ALLOW_SOFTWARE_GPU.0);
    script
}

#[test]
fn the_sitting_script_refuses_a_software_device() {
    if !has_gpu() {
        return;
    }
    let probe = run(
        &["nqueens", "count", "6", "--device", "gpu", "--stats"],
        b"",
    );
    if !probe.stderr.contains("software)") {
        return; // a GPU: the sitting would run, for minutes
    }
    // A sitting on a software device measures nothing of a GPU: refused before it starts,
    // naming the device, unless --allow-software.
    let out_dir = tempfile::tempdir().unwrap();
    let ran = sitting_script()
        .args(["--out", out_dir.path().to_str().unwrap()])
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("software device"), "{stderr}");
    assert!(ran.stdout.is_empty(), "{stderr}");
    assert!(!out_dir.path().join("sitting.md").exists());
}
