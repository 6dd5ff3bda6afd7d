//! Fair limits and bounded resources: TLE by CPU time whatever the load, the same report with
//! one job or two, no descriptor or thread kept by a run (10,000 runs under `ulimit -n 64`),
//! about one copy of the output held.

use std::process::{Command, Stdio};

use std::time::Duration;

use serde_json::Value;

use crate::common::BIN;
use crate::procs::{Mark, PASSED_WORDS, have, json};

/// A Python program that answers sultan right after `cpu` seconds of CPU time, or (with
/// `wrong_from`) answers one too many on boards whose best sum is at least that.
fn sultan_program(cpu: f64, wrong_from: u32) -> String {
    format!(
        r#"import sys, time, itertools
w = sys.stdin.read().split()
k = int(w[0])
out = []
for b in range(k):
    g = [[int(x) for x in w[1 + 64 * b + 8 * r: 1 + 64 * b + 8 * r + 8]] for r in range(8)]
    best = max(sum(g[r][p[r]] for r in range(8)) for p in itertools.permutations(range(8))
               if all(abs(p[i] - p[j]) != j - i for i in range(8) for j in range(i + 1, 8)))
    out.append("%5d" % (best + (1 if best >= {wrong_from} else 0)))
t = time.process_time()
while time.process_time() - t < {cpu}:
    pass
print("\n".join(out))
"#
    )
}

fn write_program(name: &str, text: &str) -> crate::common::TempFile {
    crate::common::temp_file(name, text)
}

#[test]
fn a_program_under_its_cpu_limit_is_accepted_on_loaded_cores() {
    if !have("python3") {
        return;
    }
    // Four CPU burners beside two jobs on this machine's cores: each run gets a fraction of a
    // core, and its wall-clock time passes the idle limit while it computes.
    let burners: Vec<_> = (0..4)
        .map(|_| {
            Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .stdin(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let program = write_program("busy.py", &sultan_program(0.35, u32::MAX));
    let mark = Mark::new("loaded");
    let (run, _) = mark.run(&[
        "sultan",
        "stress",
        "--cases",
        "6",
        "--gen-args",
        "--cases 1",
        "--time-limit",
        "0.6",
        "--jobs",
        "2",
        "--format",
        "json",
        "--",
        "python3",
        program.to_str().unwrap(),
    ]);
    for mut b in burners {
        let _ = b.kill();
        let _ = b.wait();
    }
    assert_eq!(run.code, 0, "{}{}", run.stdout_text(), run.stderr);
    assert_eq!(json(&run)["verdict"], "AC");
    mark.assert_none_left(Duration::from_secs(1), "loaded");
}

/// The report without the figures that measure time (the fields, and those in the reason).
fn stable(mut r: Value) -> Value {
    for field in ["cpu_seconds", "wall_seconds"] {
        r.as_object_mut().unwrap().remove(field);
    }
    let reason = r["reason"].as_str().unwrap_or_default().to_string();
    if reason.starts_with("CPU time ") {
        r["reason"] = Value::from(reason.split(" over ").nth(1).unwrap_or_default());
    }
    r
}

#[test]
fn the_same_seed_gives_the_same_report_with_one_job_or_two() {
    if !have("python3") {
        return;
    }
    // Slow on every board (0.15 s of CPU), wrong on boards whose best sum is 700 or more: the
    // runs are judged side by side, the first failure in run order is the one reported, and
    // the shrinking is the same.
    let program = write_program("slow_wrong.py", &sultan_program(0.15, 700));
    let mut reports = Vec::new();
    for jobs in ["1", "2"] {
        let mark = Mark::new("jobs");
        let (run, _) = mark.run(&[
            "sultan",
            "stress",
            "--seed",
            "11",
            "--time-limit",
            "1",
            "--jobs",
            jobs,
            "--format",
            "json",
            "--",
            "python3",
            program.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 1, "--jobs {jobs}: {}", run.stderr);
        let r = json(&run);
        assert_eq!(r["verdict"], "WA", "{r}");
        reports.push(stable(r));
    }
    assert_eq!(reports[0], reports[1]);
    // The same with a time limit that a board's CPU time passes: TLE is decided by CPU time,
    // so the failing run and the shrinking are the same.
    let program = write_program("too_slow.py", &sultan_program(0.7, u32::MAX));
    let mut reports = Vec::new();
    for jobs in ["1", "2"] {
        let (run, _) = Mark::new("jobs-tle").run(&[
            "sultan",
            "stress",
            "--seed",
            "3",
            "--cases",
            "4",
            "--time-limit",
            "0.5",
            "--shrink-runs",
            "3",
            "--jobs",
            jobs,
            "--format",
            "json",
            "--",
            "python3",
            program.to_str().unwrap(),
        ]);
        let r = json(&run);
        assert_eq!(r["verdict"], "TLE", "{r}");
        assert_eq!(r["run"], 1, "{r}");
        reports.push(stable(r));
    }
    assert_eq!(reports[0], reports[1]);
}

#[test]
fn ten_thousand_runs_with_detached_children_need_no_more_descriptors() {
    // 64 descriptors for the whole process: a run that kept one, or a thread, would run out
    // long before the end. Every run leaves a sleeping child holding standard output.
    let mark = Mark::new("ten-thousand");
    let script = format!(
        "ulimit -n 64 && exec '{BIN}' queens stress {PASSED_WORDS} --cases 10000 --jobs 2 --gen-args '--cases 1' \
         -- sh -c 'sh -c \"sleep 300; :\" & exec \"$CP\" queens'"
    );
    let (run, took) = mark.run_shell(&script);
    assert_eq!(run.code, 0, "{}{}", run.stdout_text(), run.stderr);
    assert_eq!(run.stdout_text(), "accepted: 10000 runs (seeds 0..9999)\n");
    eprintln!("10,000 runs with detached children: {took:?}");
    mark.assert_none_left(Duration::from_secs(2), "ten thousand runs");
}

#[test]
fn a_60_mb_line_is_held_about_once() {
    // A right answer on one query followed by a 60 MB line: a wrong answer, the report shows
    // its size and the start of it, and the peak memory of the binary stays near one copy.
    let mark = Mark::new("memory");
    let script = "\"$CP\" queens; head -c 60000000 /dev/zero | tr '\\0' x";
    let (run, _) = mark.run(&[
        "queens",
        "stress",
        "--cases",
        "1",
        "--gen-args",
        "--cases 1",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        script,
    ]);
    let r = json(&run);
    assert_eq!(r["verdict"], "WA", "{r}");
    assert!(r["actual_output"]["bytes"].as_u64().unwrap() > 60_000_000);
    assert!(
        r.to_string().len() < 10_000,
        "the report repeats the output"
    );
    let peak = mark.peak_memory(&[
        "queens",
        "stress",
        "--cases",
        "1",
        "--gen-args",
        "--cases 1",
        "--",
        "sh",
        "-c",
        script,
    ]);
    eprintln!("peak memory with a 60 MB line: {} MB", peak >> 20);
    assert!(peak < 100 << 20, "peak memory {} MB", peak >> 20);
}
