//! The runs of short shell scripts under every containment this machine allows.

use super::*;

fn sh(script: &str) -> Resolved {
    Program::new("sh", vec!["-c", script]).resolve().unwrap()
}

fn limits() -> Limits {
    Limits::new(Duration::from_millis(500), Some(256), 1)
}

/// Every containment this machine allows.
fn every_layers() -> Vec<Layers> {
    [
        Containment::Auto,
        Containment::Namespace,
        Containment::Cgroup,
        Containment::Subreaper,
    ]
    .into_iter()
    .filter_map(|c| c.layers().ok())
    .collect()
}

fn go(script: &str, input: &[u8], limits: &Limits, layers: &Layers) -> Outcome {
    run(&sh(script), input, limits, layers, None).unwrap()
}

#[test]
fn output_comes_back_and_a_clean_exit_has_no_limit_verdict() {
    for layers in every_layers() {
        let o = go("cat; echo done", b"abc\n", &limits(), &layers);
        assert_eq!(o.stdout, b"abc\ndone\n", "{layers}");
        assert_eq!(o.exit, Exit::Code(0));
        assert_eq!(o.limit_verdict(&limits()), None);
    }
}

#[test]
fn exit_codes_and_signals_are_runtime_errors() {
    for layers in every_layers() {
        let o = go("exit 3", b"", &limits(), &layers);
        assert_eq!(o.exit, Exit::Code(3));
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::RuntimeError));
        let o = go("kill -SEGV $$", b"", &limits(), &layers);
        assert_eq!(o.exit, Exit::Signal(libc::SIGSEGV), "{layers}");
        assert_eq!(o.exit_text(), "signal 11 (SIGSEGV)");
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::RuntimeError));
    }
}

#[test]
fn a_sleeper_is_idle_too_long_and_killed_with_its_children() {
    for layers in every_layers() {
        let started = Instant::now();
        let o = go("sleep 30 & sleep 30", b"", &limits(), &layers);
        assert!(started.elapsed() < Duration::from_secs(3), "{layers}");
        assert_eq!(o.killed, Some(Killed::Idle));
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::IdleLimit));
    }
}

#[test]
fn a_busy_loop_is_a_time_limit_by_cpu_time() {
    for layers in every_layers() {
        let o = go("while :; do :; done", b"", &limits(), &layers);
        assert_eq!(o.killed, Some(Killed::CpuTime), "{layers}");
        assert!(o.cpu >= Duration::from_millis(500), "{:?}", o.cpu);
        assert!(o.wall < Duration::from_secs(3), "{:?}", o.wall);
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::TimeLimit));
    }
}

#[test]
fn a_detached_child_holding_stdout_neither_stalls_nor_spoils_the_output() {
    for layers in every_layers() {
        let started = Instant::now();
        let o = go(
            "echo answer; setsid sh -c 'sleep 30' & echo more",
            b"",
            &limits(),
            &layers,
        );
        assert!(
            started.elapsed() < Duration::from_millis(900),
            "{layers}: {:?}",
            started.elapsed()
        );
        assert_eq!(o.stdout, b"answer\nmore\n", "{layers}");
        assert_eq!(o.limit_verdict(&limits()), None);
    }
}

#[test]
fn a_flood_of_output_is_cut_at_the_limit() {
    for layers in every_layers() {
        let o = go("yes", b"", &limits(), &layers);
        assert_eq!(o.stdout.len(), 1 << 20);
        assert_eq!(o.killed, Some(Killed::Output), "{layers}");
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::OutputLimit));
    }
}

#[test]
fn a_program_that_never_reads_a_large_input_does_not_block_the_run() {
    let input = vec![b'x'; 4 << 20];
    for layers in every_layers() {
        let o = go("echo ok", &input, &limits(), &layers);
        assert_eq!(o.stdout, b"ok\n");
        assert_eq!(o.limit_verdict(&limits()), None);
        let o = go("wc -c", &input, &limits(), &layers);
        assert_eq!(o.stdout, b"4194304\n", "{layers}");
    }
}

#[test]
fn a_program_that_cannot_execute_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gone");
    std::fs::write(&path, "#!/bin/sh\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let resolved = Program::new(&path, Vec::<String>::new()).resolve().unwrap();
    std::fs::remove_file(&path).unwrap();
    let layers = Containment::Auto.layers().unwrap();
    let e = run(&resolved, b"", &limits(), &layers, None).unwrap_err();
    assert!(
        matches!(&e, StartError::Io { error, .. } if error.kind() == io::ErrorKind::NotFound),
        "{e}"
    );
}

#[test]
fn a_raised_stop_kills_the_program() {
    let stop = AtomicBool::new(true);
    for layers in every_layers() {
        let o = run(&sh("sleep 30"), b"", &limits(), &layers, Some(&stop)).unwrap();
        assert_eq!(o.killed, Some(Killed::Stopped));
    }
}

#[test]
fn the_subreaper_is_always_there_on_linux() {
    if cfg!(target_os = "linux") {
        let layers = Containment::Subreaper.layers().unwrap();
        assert!(layers.subreaper && !layers.pid_namespace && !layers.cgroup);
        assert_eq!(layers.to_string(), "a child subreaper");
    }
}
