//! Hostile and careless programs through `stress` and `judge`, under every containment this
//! machine allows: the verdict, the time, and no process left.

use std::sync::OnceLock;
use std::time::Duration;

use crate::common::scratch;
use crate::procs::{Mark, containments, json, json_lines};

/// The containments to test, probed once; the path in force is printed.
pub fn every() -> &'static [(&'static str, Vec<String>)] {
    static FOUND: OnceLock<Vec<(&'static str, Vec<String>)>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let found = containments();
        for (asked, names) in &found {
            eprintln!("--containment {asked}: {}", names.join(" + "));
        }
        found
    })
}

/// One hostile program: a script for `sh -c`, the verdict it deserves, and the most
/// wall-clock seconds its run of `stress` may take.
struct Hostile {
    name: &'static str,
    script: &'static str,
    verdict: &'static str,
    seconds: f64,
}

/// With `--time-limit 0.5` (so an idle limit of 1 s).
const HOSTILE: &[Hostile] = &[
    Hostile {
        name: "a child in a new session",
        script: "setsid sh -c 'sleep 300; :' & exec \"$CP\" queens",
        verdict: "AC",
        seconds: 3.0,
    },
    Hostile {
        name: "a double fork",
        script: "(sh -c 'sleep 300; :' &); exec \"$CP\" queens",
        verdict: "AC",
        seconds: 3.0,
    },
    Hostile {
        name: "a detached child holding standard output",
        script: "setsid sh -c 'sleep 300; :' & \"$CP\" queens",
        verdict: "AC",
        seconds: 3.0,
    },
    Hostile {
        name: "a child in a new process group",
        script: "set -m; sh -c 'sleep 300; :' & set +m; \"$CP\" queens",
        verdict: "AC",
        seconds: 3.0,
    },
    Hostile {
        name: "TERM, INT and HUP ignored while burning CPU",
        script: "trap '' TERM INT HUP; while :; do :; done",
        verdict: "TLE",
        seconds: 4.0,
    },
    Hostile {
        name: "TERM, INT and HUP ignored by a sleeping family",
        script: "trap '' TERM INT HUP; setsid sh -c \"trap '' TERM INT HUP; sleep 300; :\" & sleep 300",
        verdict: "ILE",
        seconds: 5.0,
    },
    Hostile {
        name: "sleeping",
        script: "sleep 300",
        verdict: "ILE",
        seconds: 5.0,
    },
    Hostile {
        name: "burning CPU in a child it waits for",
        script: "sh -c 'while :; do :; done'; :",
        verdict: "TLE",
        seconds: 4.0,
    },
    Hostile {
        name: "a flood of output",
        script: "yes",
        verdict: "OLE",
        seconds: 4.0,
    },
    Hostile {
        name: "a crash",
        script: "kill -SEGV $$",
        verdict: "RE",
        seconds: 3.0,
    },
];

#[test]
fn every_hostile_program_gets_its_verdict_in_time_and_leaves_nothing() {
    for (containment, names) in every() {
        for h in HOSTILE {
            let mark = Mark::new("hostile");
            let (run, took) = mark.run(&[
                "queens",
                "stress",
                "--cases",
                "2",
                "--gen-args",
                "--cases 1",
                "--time-limit",
                "0.5",
                "--output-limit",
                "1",
                "--format",
                "json",
                "--containment",
                containment,
                "--",
                "sh",
                "-c",
                h.script,
            ]);
            let what = format!("{} under {}", h.name, names.join("+"));
            let r = json(&run);
            assert_eq!(r["verdict"], h.verdict, "{what}: {r}");
            assert_eq!(run.code, if h.verdict == "AC" { 0 } else { 1 }, "{what}");
            assert!(
                took.as_secs_f64() < h.seconds,
                "{what}: took {took:?}, at most {} s",
                h.seconds
            );
            match h.verdict {
                "TLE" => {
                    let cpu = r["cpu_seconds"].as_f64().unwrap();
                    assert!((0.5..1.6).contains(&cpu), "{what}: CPU {cpu} s");
                    assert!(r["reason"].as_str().unwrap().starts_with("CPU time"), "{r}");
                }
                "ILE" => {
                    let wall = r["wall_seconds"].as_f64().unwrap();
                    assert!((1.0..2.5).contains(&wall), "{what}: wall {wall} s");
                    assert!(
                        r["reason"].as_str().unwrap().starts_with("idle too long"),
                        "{r}"
                    );
                }
                "RE" => assert_eq!(r["reason"], "signal 11 (SIGSEGV)"),
                _ => {}
            }
            mark.assert_none_left(Duration::from_secs(1), &what);
        }
    }
}

#[test]
fn judge_leaves_nothing_either() {
    let dir = scratch("hostile-judge");
    for name in ["a", "b", "c"] {
        std::fs::write(dir.path().join(format!("{name}.in")), "1\n1 1\n").unwrap();
    }
    let folder = dir.path().to_str().unwrap();
    for (containment, names) in every() {
        for h in HOSTILE {
            let mark = Mark::new("hostile-judge");
            let (run, took) = mark.run(&[
                "queens",
                "judge",
                "--time-limit",
                "0.5",
                "--output-limit",
                "1",
                "--jobs",
                "2",
                "--format",
                "json",
                "--containment",
                containment,
                folder,
                "--",
                "sh",
                "-c",
                h.script,
            ]);
            let what = format!("judge: {} under {}", h.name, names.join("+"));
            let lines = json_lines(&run);
            assert_eq!(lines.len(), 4, "{what}: {}", run.stdout_text());
            for line in &lines[..3] {
                assert_eq!(line["verdict"], h.verdict, "{what}: {line}");
            }
            assert!(
                took.as_secs_f64() < 2.0 * h.seconds,
                "{what}: took {took:?}"
            );
            mark.assert_none_left(Duration::from_secs(1), &what);
        }
    }
}

#[test]
fn a_right_answer_with_a_child_holding_stdout_is_accepted_at_once() {
    for (containment, names) in every() {
        let mark = Mark::new("holder");
        // The child writes nothing, but keeps the pipe open for five minutes.
        let (run, took) = mark.run(&[
            "sultan",
            "stress",
            "--cases",
            "20",
            "--containment",
            containment,
            "--",
            "sh",
            "-c",
            "sh -c 'sleep 300; :' & exec \"$CP\" sultan",
        ]);
        assert_eq!(
            run.code,
            0,
            "{}: {}{}",
            names.join("+"),
            run.stdout_text(),
            run.stderr
        );
        assert_eq!(run.stdout_text(), "accepted: 20 runs (seeds 0..19)\n");
        assert!(took < Duration::from_secs(8), "{took:?}");
        mark.assert_none_left(Duration::from_secs(1), "holder");
    }
}

#[test]
fn the_containment_in_force_is_reported_and_the_fallback_always_works() {
    let all = every();
    let auto = &all.iter().find(|(c, _)| *c == "auto").unwrap().1;
    let fallback = &all.iter().find(|(c, _)| *c == "subreaper").unwrap().1;
    // The subreaper alone, with at most a process limit of the sandbox's parts.
    assert_eq!(fallback[0], "subreaper", "{fallback:?}");
    assert!(
        fallback[1..].iter().all(|p| p.starts_with("process-limit")) && fallback.len() <= 2,
        "{fallback:?}"
    );
    // Auto takes the namespace when one can be made, the subreaper otherwise, and a cgroup
    // when one can be made.
    let namespace = all.iter().any(|(c, _)| *c == "namespace");
    let cgroup = all.iter().any(|(c, _)| *c == "cgroup");
    assert_eq!(
        auto.contains(&"pid-namespace".to_string()),
        namespace,
        "{auto:?}"
    );
    assert_eq!(
        auto.contains(&"subreaper".to_string()),
        !namespace,
        "{auto:?}"
    );
    assert_eq!(auto.contains(&"cgroup".to_string()), cgroup, "{auto:?}");
    eprintln!(
        "in force here by default: {} (PID namespace {}, cgroup {})",
        auto.join(" + "),
        if namespace {
            "allowed"
        } else {
            "not allowed: the subreaper fallback"
        },
        if cgroup { "made" } else { "cannot be made" }
    );
}
