//! Ways out of the sandbox, each tried by a hostile program as root and as an ordinary user
//! (CI runs this module again as one): the host's settings, its secrets, its keyrings, new
//! namespaces and mounts, time and memory hidden in workers left running, files left on the
//! host, its unix sockets, the judge's environment, another interpreter than outside. A test
//! of a host setting only opens it for writing and never writes, so that a broken build
//! cannot harm the machine it runs on. Every test is bounded in processes, memory and time.

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::scratch;
use crate::procs::{Mark, have};
use crate::sandbox::{has, judge, tests};

/// A Python program kept outside the tests' folder, and the script that runs it.
fn python(dir: &Path, name: &str, source: &str) -> String {
    let program = dir.join(name);
    std::fs::write(&program, source).unwrap();
    format!("exec python3 {}", program.display())
}

/// The JSON lines of a Python program `(name, source)` kept in `own` (outside the tests'
/// folder), judged with `own` shown read-only and the options `extra`.
fn judge_python(
    mark: &Mark,
    tests: &Path,
    own: &Path,
    (name, source): (&str, &str),
    extra: &[&str],
) -> Vec<serde_json::Value> {
    let script = python(own, name, source);
    let mut args = vec!["--read-only", own.to_str().unwrap()];
    args.extend_from_slice(extra);
    judge(mark, tests, &args, &script).1
}

/// The reason of a wrong answer whose first line is `found`.
fn found(found: &str) -> String {
    format!("1:1: expected 'SOLN       COLUMN', found '{found}'")
}

#[test]
fn no_host_setting_can_be_opened_for_writing_nor_a_secret_read() {
    if !has("mount-namespace") || !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("settings");
    // Opened for writing and closed at once: nothing is ever written.
    let script = python(
        own.path(),
        "settings.py",
        "import os, sys\nsys.stdin.read()\nopened = []\n\
         for p in ['/proc/sys/kernel/core_pattern', '/proc/sys/kernel/domainname',\n\
                   '/proc/sys/kernel/hostname', '/proc/sys/vm/drop_caches', '/proc/sys/kernel/panic',\n\
                   '/proc/sys/vm/overcommit_memory', '/proc/sys/fs/file-max', '/proc/sysrq-trigger']:\n\
         \x20   try:\n\
         \x20       os.close(os.open(p, os.O_WRONLY))\n\
         \x20       opened.append(p)\n\
         \x20   except OSError:\n\
         \x20       pass\n\
         for p in ['/etc/shadow', '/etc/gshadow', '/proc/kcore', '/proc/keys']:\n\
         \x20   try:\n\
         \x20       with open(p, 'rb') as f:\n\
         \x20           if f.read(1):\n\
         \x20               opened.append(p)\n\
         \x20   except OSError:\n\
         \x20       pass\n\
         print(' '.join(opened) or 'none')\n",
    );
    let opened = own.path().to_str().unwrap();
    let mark = Mark::new("settings");
    for extra in [
        &["--read-only", opened][..],
        &["--sandbox", "strict", "--read-only", opened],
    ] {
        let (_, lines) = judge(&mark, dir.path(), extra, &script);
        if extra.contains(&"strict") && lines.len() < 3 {
            // Strict mode where the system lacks a part: refused, which is right.
            continue;
        }
        assert_eq!(lines[0]["reason"], found("none"), "{extra:?}: {}", lines[0]);
    }
    mark.assert_none_left(Duration::from_secs(1), "settings");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn keyrings_mounts_namespaces_and_tracing_are_refused() {
    if !has("seccomp") || !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("calls");
    // x86-64 system call numbers; each call is tried once and named when it works.
    let script = python(
        own.path(),
        "calls.py",
        "import ctypes, os, sys\nsys.stdin.read()\n\
         libc = ctypes.CDLL(None, use_errno=True)\nworked = []\n\
         def call(name, *args):\n\
         \x20   if libc.syscall(*args) >= 0:\n\
         \x20       worked.append(name)\n\
         call('add_key', 248, b'user', b'cp-escape', b'x', 1, -4)\n\
         call('keyctl', 250, 0, -4, 0)\n\
         call('request_key', 249, b'user', b'cp-escape', None, -4)\n\
         call('unshare-user', 272, 0x10000000)\n\
         call('unshare-mount', 272, 0x00020000)\n\
         call('mount', 165, b'none', b'/tmp', b'tmpfs', 0, None)\n\
         call('ptrace', 101, 0, 0, 0, 0)\n\
         call('bpf', 321, 0, None, 0)\n\
         call('perf_event_open', 298, None, 0, -1, -1, 0)\n\
         call('userfaultfd', 323, 0)\n\
         call('io_uring_setup', 425, 1, None)\n\
         call('sethostname', 170, b'x', 1)\n\
         call('socket-vsock', 41, 40, 1, 0)\n\
         call('socket-packet', 41, 17, 3, 0)\n\
         call('memfd_secret', 447, 0)\n\
         call('prlimit-keeper', 302, 1, 7, None, ctypes.create_string_buffer(16))\n\
         child = libc.syscall(56, 0x00800000 | 17, 0, 0, 0, 0)\n\
         if child == 0:\n\
         \x20   os._exit(0)\n\
         if child > 0:\n\
         \x20   worked.append('clone-untraced')\n\
         \x20   os.waitpid(child, 0)\n\
         print(' '.join(worked) or 'none')\n",
    );
    let opened = own.path().to_str().unwrap();
    let mark = Mark::new("calls");
    let (_, lines) = judge(&mark, dir.path(), &["--read-only", opened], &script);
    assert_eq!(lines[0]["reason"], found("none"), "{}", lines[0]);
    // The host's name is not the program's to read either.
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &[],
        "cat >/dev/null; cat /proc/sys/kernel/hostname",
    );
    assert_eq!(lines[0]["reason"], found("sandbox"), "{}", lines[0]);
    // Nor the judge's command line, through its keeper's (pid 1 of the run, not shown).
    if has("own-proc") {
        let (_, lines) = judge(
            &mark,
            dir.path(),
            &[],
            "cat >/dev/null; tr '\\0' ' ' < /proc/1/cmdline 2>/dev/null || echo hidden",
        );
        assert_eq!(lines[0]["reason"], found("hidden"), "{}", lines[0]);
    }
    // A clone into new namespaces is refused too, an ordinary one works (sh forks).
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &[],
        "cat >/dev/null; unshare --user --map-root-user true 2>/dev/null && echo unshared; \
         unshare --mount true 2>/dev/null && echo mounted; (echo child); :",
    );
    assert_eq!(lines[0]["reason"], found("child"), "{}", lines[0]);
    mark.assert_none_left(Duration::from_secs(1), "calls");
}

#[test]
fn workers_left_running_have_their_cpu_time_counted() {
    // The program sleeps while a worker it double-forked burns the CPU, then answers right
    // and exits: the worker's time is the run's (3 s of sleep leave the worker 0.5 s of CPU
    // time even on a busy machine).
    let dir = tests();
    let mark = Mark::new("workers-cpu");
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &["--time-limit", "0.5"],
        "(sh -c 'while :; do :; done' &); sleep 3; exec \"$CP\" queens",
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "TLE", "{line}");
        assert!(line["cpu_seconds"].as_f64().unwrap() > 0.5, "{line}");
    }
    mark.assert_none_left(Duration::from_secs(1), "workers-cpu");
}

#[test]
fn children_the_kernel_reaps_itself_have_their_cpu_time_counted() {
    if !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("reaped-cpu");
    // With SIGCHLD ignored, each child is reaped by the kernel as it ends and its time is
    // added to no parent's: 60 children of 25 ms of CPU each, two at a time (a wait returns
    // once both are gone), 1.5 s in all under a limit of 0.5 s, then the right answer. The
    // wall-clock limit is far away: only the CPU time can end it.
    let program = (
        "reaped.py",
        "import os, signal, time\n\
         signal.signal(signal.SIGCHLD, signal.SIG_IGN)\n\
         for _ in range(30):\n\
         \x20   for _ in range(2):\n\
         \x20       if os.fork() == 0:\n\
         \x20           start = time.process_time()\n\
         \x20           while time.process_time() - start < 0.025:\n\
         \x20               pass\n\
         \x20           os._exit(0)\n\
         \x20   try:\n\
         \x20       os.wait()\n\
         \x20   except ChildProcessError:\n\
         \x20       pass\n\
         os.execvp(os.environ['CP'], [os.environ['CP'], 'queens'])\n",
    );
    let mark = Mark::new("reaped-cpu");
    let lines = judge_python(
        &mark,
        dir.path(),
        own.path(),
        program,
        &["--time-limit", "0.5", "--idle-limit", "30"],
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "TLE", "{line}");
        assert!(line["cpu_seconds"].as_f64().unwrap() >= 0.5, "{line}");
    }
    mark.assert_none_left(Duration::from_secs(1), "reaped-cpu");
}

#[test]
fn a_thread_that_executes_neither_hides_cpu_time_nor_ends_the_program() {
    if !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("exec-thread");
    // Children the kernel reaps itself, each burning 50 ms in its first thread and then
    // replaced by an `execve` from a second thread (which ends the first): 30 of them, 1.5 s
    // in all under a limit of 0.5 s.
    let hide = (
        "hide.py",
        "import os, signal, threading, time\n\
         signal.signal(signal.SIGCHLD, signal.SIG_IGN)\n\
         for _ in range(30):\n\
         \x20   if os.fork() == 0:\n\
         \x20       start = time.process_time()\n\
         \x20       while time.process_time() - start < 0.05:\n\
         \x20           pass\n\
         \x20       threading.Thread(target=os.execv, args=('/bin/true', ['true'])).start()\n\
         \x20       time.sleep(5)\n\
         \x20   time.sleep(0.06)\n\
         os.execvp(os.environ['CP'], [os.environ['CP'], 'queens'])\n",
    );
    let mark = Mark::new("exec-thread");
    let args = ["--time-limit", "0.5", "--idle-limit", "30"];
    let lines = judge_python(&mark, dir.path(), own.path(), hide, &args);
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "TLE", "{line}");
    }
    // An honest program whose helper thread executes the answer: the threads the `execve`
    // ends are not the program's end.
    let honest = (
        "honest.py",
        "import os, threading\n\
         cp = os.environ['CP']\n\
         threading.Thread(target=os.execv, args=(cp, [cp, 'queens'])).start()\n\
         threading.Event().wait()\n",
    );
    let lines = judge_python(&mark, dir.path(), own.path(), honest, &args);
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "AC", "{line}");
    }
    mark.assert_none_left(Duration::from_secs(1), "exec-thread");
}

#[test]
fn a_child_its_parent_left_unreaped_is_counted_once() {
    if !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("unreaped");
    // A child burns 0.6 s and ends; its parent never waits for it and executes the answer,
    // which ends with the child still a zombie: it comes to the keeper a second time.
    let program = (
        "unreaped.py",
        "import os, time\n\
         if os.fork() == 0:\n\
         \x20   start = time.process_time()\n\
         \x20   while time.process_time() - start < 0.6:\n\
         \x20       pass\n\
         \x20   os._exit(0)\n\
         time.sleep(1.5)\n\
         os.execvp(os.environ['CP'], [os.environ['CP'], 'queens'])\n",
    );
    let mark = Mark::new("unreaped");
    let lines = judge_python(
        &mark,
        dir.path(),
        own.path(),
        program,
        &["--time-limit", "1", "--idle-limit", "10"],
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "AC", "{line}");
        let cpu = line["cpu_seconds"].as_f64().unwrap();
        assert!((0.55..0.95).contains(&cpu), "{line}");
    }
    mark.assert_none_left(Duration::from_secs(1), "unreaped");
}

#[test]
fn a_memory_cgroup_full_of_pipes_is_a_memory_limit_not_a_lost_keeper() {
    let memory_cgroup = crate::sandbox::parts()
        .iter()
        .any(|p| p == "memory-limit-cgroup");
    if !memory_cgroup || !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("pipes-oom");
    // Two processes, each filling 28 pipes of 1 MiB: kernel memory the cgroup counts and no
    // resident set shows (the keeper's is larger), under a limit of 32 MiB.
    let program = (
        "pipes.py",
        "import fcntl, os, time\n\
         os.fork()\n\
         held = []\n\
         for _ in range(28):\n\
         \x20   r, w = os.pipe()\n\
         \x20   fcntl.fcntl(w, 1031, 1 << 20)\n\
         \x20   os.set_blocking(w, False)\n\
         \x20   try:\n\
         \x20       os.write(w, b'x' * (1 << 20))\n\
         \x20   except BlockingIOError:\n\
         \x20       pass\n\
         \x20   held.append((r, w))\n\
         time.sleep(2)\n",
    );
    let mark = Mark::new("pipes-oom");
    let lines = judge_python(
        &mark,
        dir.path(),
        own.path(),
        program,
        &["--memory-limit", "32"],
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "MLE", "{line}");
    }
    mark.assert_none_left(Duration::from_secs(1), "pipes-oom");
}

#[test]
fn workers_left_holding_memory_have_it_counted() {
    if !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("workers-memory");
    // Two workers of 160 MiB each, double-forked (their parents gone), alive while the
    // program answers right under a limit of 256 MiB.
    let script = python(
        own.path(),
        "hold.py",
        "import os, sys, time\n\
         for _ in range(2):\n\
         \x20   if os.fork() == 0:\n\
         \x20       if os.fork() == 0:\n\
         \x20           held = bytearray(160 << 20)\n\
         \x20           for i in range(0, len(held), 4096):\n\
         \x20               held[i] = 1\n\
         \x20           time.sleep(30)\n\
         \x20       os._exit(0)\n\
         \x20   os.wait()\n\
         time.sleep(1.5)\n\
         os.execvp(os.environ['CP'], [os.environ['CP'], 'queens'])\n",
    );
    let opened = own.path().to_str().unwrap();
    let mark = Mark::new("workers-memory");
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &["--read-only", opened, "--time-limit", "3"],
        &script,
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "MLE", "{line}");
    }
    mark.assert_none_left(Duration::from_secs(1), "workers-memory");
}

/// The run folders of the judges on this machine, in the system's temporary folder.
fn run_folders() -> Vec<std::path::PathBuf> {
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("chess-puzzles-box-")
        })
        .map(|e| e.path())
        .collect()
}

/// True when a file called `name` lies anywhere under `dir` (no link followed).
fn lies_under(dir: &Path, name: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.filter_map(Result::ok).any(|e| {
        e.file_name().to_string_lossy() == name
            || (e.file_type().is_ok_and(|t| t.is_dir()) && lies_under(&e.path(), name))
    })
}

#[test]
fn nothing_a_program_writes_reaches_the_hosts_disk_nor_stays() {
    if !has("mount-namespace") {
        return;
    }
    let dir = tests();
    let mark = Mark::new("scratch");
    let name = format!("cp-escape-{}", std::process::id());
    // A folder it makes unwritable, 8 MiB in it, and a wait while the test looks for it.
    let script = format!(
        "cat >/dev/null; mkdir -p /tmp/d/e && head -c 8M /dev/zero > /tmp/d/e/{name} && \
         mkdir /dev/shm/s && head -c 1M /dev/zero > /dev/shm/s/{name} && \
         chmod 555 /tmp/d/e /tmp/d /dev/shm/s && sleep 1 && echo written"
    );
    let mut command = mark.command(&[
        "queens",
        "judge",
        "--format",
        "json",
        dir.path().to_str().unwrap(),
        "--",
        "sh",
        "-c",
        &script,
    ]);
    let mut child = command.spawn().unwrap();
    let until = Instant::now() + Duration::from_millis(1500);
    while Instant::now() < until {
        for folder in run_folders() {
            assert!(
                !lies_under(&folder, &name),
                "{name} found in {}",
                folder.display()
            );
        }
        assert!(!Path::new("/tmp/d/e").join(&name).exists());
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child.wait().unwrap();
    assert!(out.contains("found 'written'"), "{out}");
    for folder in run_folders() {
        assert!(
            !lies_under(&folder, &name),
            "{name} left in {}",
            folder.display()
        );
    }
    mark.assert_none_left(Duration::from_secs(1), "scratch");
}

#[test]
fn the_scratch_holds_no_more_than_the_memory_limit() {
    if !has("mount-namespace") {
        return;
    }
    let dir = tests();
    let mark = Mark::new("scratch-size");
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &["--memory-limit", "32"],
        "cat >/dev/null; head -c 48M /dev/zero > /tmp/f 2>/dev/null && echo wrote || echo full",
    );
    for line in &lines[..2] {
        // Refused by the tmpfs (full), or by the memory cgroup that counts it (MLE).
        assert!(
            line["verdict"] == "MLE" || line["reason"] == found("full"),
            "{line}"
        );
    }
    mark.assert_none_left(Duration::from_secs(1), "scratch-size");
}

/// A program whose four processes each park up to 96 MiB in the kernel's buffers of one kind
/// (`pipe`: pipes widened to 1 MiB; `pair`: unix socket pairs; `tcp`: loopback connections),
/// never read, and then answer how many MiB they parked together.
const PARK: &str = "import os, socket, sys, fcntl\nsys.stdin.read()\n\
     kind = sys.argv[1]\n\
     def fill(fd):\n    os.set_blocking(fd, False)\n    n = 0\n\
     \x20   while True:\n        try:\n            n += os.write(fd, bytes(65536))\n\
     \x20       except OSError:\n            return n\n\
     def park():\n    total, keep = 0, []\n\
     \x20   while total < 96 << 20:\n        try:\n\
     \x20           if kind == 'pipe':\n                r, w = os.pipe()\n\
     \x20               try:\n                    fcntl.fcntl(w, 1031, 1 << 20)\n\
     \x20               except OSError:\n                    pass\n\
     \x20               total += fill(w); os.close(w); keep.append(r)\n\
     \x20           elif kind == 'pair':\n                a, b = socket.socketpair()\n\
     \x20               a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)\n\
     \x20               total += fill(a.fileno()); keep.append((a, b))\n\
     \x20           else:\n                if not keep:\n\
     \x20                   l = socket.socket(); l.bind(('127.0.0.1', 0)); l.listen(64)\n\
     \x20                   keep.append(l)\n\
     \x20               c = socket.create_connection(keep[0].getsockname())\n\
     \x20               s, _ = keep[0].accept()\n\
     \x20               total += fill(c.fileno()); keep.append((c, s))\n\
     \x20       except OSError:\n            break\n    return total, keep\n\
     r, w = os.pipe()\nfor i in range(4):\n    if os.fork() == 0:\n\
     \x20       total, keep = park()\n        os.write(w, b'%d\\n' % total)\n\
     \x20       import time; time.sleep(2)\n        os._exit(0)\n\
     os.close(w)\ndata = b''\nwhile data.count(b'\\n') < 4:\n\
     \x20   part = os.read(r, 100)\n    if not part:\n        break\n    data += part\n\
     print(sum(int(x) for x in data.split()) >> 20, flush=True)\n";

#[test]
fn files_in_the_scratch_count_as_memory_once() {
    if !has("mount-namespace") || !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("scratch-memory");
    // 30 MiB in /tmp, 30 in /dev/shm (each tmpfs holds half the limit) and 30 on the heap:
    // 90 MiB under a limit of 64, counted by the memory cgroup or, without one, by the watch.
    let program = (
        "fill.py",
        "import time\n\
         for d in ('/tmp', '/dev/shm'):\n\
         \x20   with open(d + '/fill', 'wb') as f:\n\
         \x20       f.write(b'x' * (30 << 20))\n\
         held = bytearray(30 << 20)\n\
         for i in range(0, len(held), 4096):\n\
         \x20   held[i] = 1\n\
         time.sleep(0.5)\n",
    );
    let mark = Mark::new("scratch-memory");
    let lines = judge_python(
        &mark,
        dir.path(),
        own.path(),
        program,
        &["--memory-limit", "64"],
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "MLE", "{line}");
    }
    // A file of 30 MiB in /dev/shm, mapped and read through, held a while: counted once (as
    // a file or as the program's resident memory), so the honest program is judged on its
    // answer.
    let program = (
        "mapped.py",
        "import mmap, os, time\n\
         with open('/dev/shm/mapped', 'wb+') as f:\n\
         \x20   f.write(b'x' * (30 << 20))\n\
         \x20   f.flush()\n\
         \x20   m = mmap.mmap(f.fileno(), 0)\n\
         \x20   total = sum(m[i] for i in range(0, len(m), 4096))\n\
         \x20   time.sleep(0.3)\n\
         os.execvp(os.environ['CP'], [os.environ['CP'], 'queens'])\n",
    );
    let lines = judge_python(
        &mark,
        dir.path(),
        own.path(),
        program,
        &["--memory-limit", "64"],
    );
    for line in &lines[..2] {
        assert_eq!(line["verdict"], "AC", "{line}");
    }
    mark.assert_none_left(Duration::from_secs(1), "scratch-memory");
}

#[test]
fn memory_parked_in_the_kernels_buffers_is_counted_or_refused() {
    if !has("seccomp") || !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("park");
    let program = own.path().join("park.py");
    std::fs::write(&program, PARK).unwrap();
    let opened = own.path().to_str().unwrap();
    let mark = Mark::new("park");
    let memory_cgroup = crate::sandbox::parts()
        .iter()
        .any(|p| p == "memory-limit-cgroup");
    for kind in ["tcp", "pair", "pipe"] {
        let script = format!("exec python3 {} {kind}", program.display());
        let (_, lines) = judge(
            &mark,
            dir.path(),
            &[
                "--read-only",
                opened,
                "--memory-limit",
                "32",
                "--idle-limit",
                "20",
                "--time-limit",
                "10",
            ],
            &script,
        );
        let line = &lines[0];
        if line["verdict"] == "MLE" {
            assert!(memory_cgroup || kind == "pipe", "{kind}: {line}");
            continue;
        }
        let reason = line["reason"].as_str().unwrap();
        let parked: u64 = reason
            .strip_prefix("1:1: expected 'SOLN       COLUMN', found '")
            .and_then(|r| r.strip_suffix('\''))
            .and_then(|r| r.parse().ok())
            .unwrap_or_else(|| panic!("{kind}: {line}"));
        match kind {
            // Loopback connections are refused (no internet socket without the network),
            // socket pairs where no memory cgroup counts their buffers.
            "tcp" => assert_eq!(parked, 0, "{line}"),
            "pair" => assert!(!memory_cgroup && parked == 0, "{line}"),
            // Pipes, without a memory cgroup: the kernel's own bound for a user's pipes
            // (pipe-user-pages-soft, then two pages a pipe), the open-file limit of 64.
            _ => {
                assert!(!memory_cgroup, "{line}");
                let soft: u64 = std::fs::read_to_string("/proc/sys/fs/pipe-user-pages-soft")
                    .unwrap()
                    .trim()
                    .parse()
                    .unwrap();
                let bound = (soft * 4096 + 4 * 64 * 8192) >> 20;
                assert!(parked <= bound, "{parked} MiB > {bound} MiB: {line}");
            }
        }
    }
    mark.assert_none_left(Duration::from_secs(1), "park");
}

#[test]
fn kernel_memory_no_limit_counts_is_refused_without_a_memory_cgroup() {
    if !has("seccomp") || !have("python3") {
        return;
    }
    // x86-64 system call numbers: System V IPC, inotify, extended attributes, memfd and
    // socket pairs hold memory in the kernel that only a memory cgroup counts.
    let dir = tests();
    let own = scratch("uncounted");
    let script = python(
        own.path(),
        "uncounted.py",
        "import ctypes, sys\nsys.stdin.read()\n\
         libc = ctypes.CDLL(None, use_errno=True)\nworked = []\n\
         def call(name, *args):\n\
         \x20   if libc.syscall(*args) >= 0:\n\
         \x20       worked.append(name)\n\
         open('/tmp/f', 'w').close()\n\
         call('shmget', 29, 0, 4096, 0o1600)\n\
         call('msgget', 68, 0, 0o1600)\n\
         call('semget', 64, 0, 1, 0o1600)\n\
         call('inotify_init1', 294, 0)\n\
         call('setxattr', 188, b'/tmp/f', b'user.x', b'v', 1, 0)\n\
         call('memfd_create', 319, b'x', 0)\n\
         call('socketpair', 53, 1, 1, 0, (ctypes.c_int * 2)())\n\
         print(' '.join(worked) or 'none')\n",
    );
    let opened = own.path().to_str().unwrap();
    let mark = Mark::new("uncounted");
    let (_, lines) = judge(&mark, dir.path(), &["--read-only", opened], &script);
    let memory_cgroup = crate::sandbox::parts()
        .iter()
        .any(|p| p == "memory-limit-cgroup");
    let expected = if memory_cgroup {
        "shmget msgget semget inotify_init1 setxattr memfd_create socketpair"
    } else {
        "none"
    };
    assert_eq!(lines[0]["reason"], found(expected), "{}", lines[0]);
    mark.assert_none_left(Duration::from_secs(1), "uncounted");
}

#[test]
fn page_tables_count_as_memory() {
    if !has("seccomp") || !have("python3") {
        return;
    }
    // A read-only mapping of 64 GiB read once every 2 MiB: almost no resident memory, and
    // 128 MiB of page tables, which a memory cgroup or the judge's watch counts.
    let dir = tests();
    let own = scratch("tables");
    let script = python(
        own.path(),
        "tables.py",
        "import mmap, sys\nsys.stdin.read()\n\
         m = mmap.mmap(-1, 64 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x4000, \
         prot=mmap.PROT_READ)\n\
         total = 0\nfor i in range(0, 64 << 30, 2 << 20):\n    total += m[i]\n\
         print('held', total)\n",
    );
    let opened = own.path().to_str().unwrap();
    let mark = Mark::new("tables");
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &["--read-only", opened, "--memory-limit", "32"],
        &script,
    );
    assert_eq!(lines[0]["verdict"], "MLE", "{}", lines[0]);
    mark.assert_none_left(Duration::from_secs(1), "tables");
}

#[test]
fn a_socket_file_of_the_host_is_out_of_reach_unless_opened() {
    if !has("seccomp") || !have("python3") {
        return;
    }
    let dir = tests();
    let own = scratch("socket");
    let socket = own.path().join("agent.sock");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let datagrams = own.path().join("log.sock");
    let receiver = std::os::unix::net::UnixDatagram::bind(&datagrams).unwrap();
    // Anyone may connect to them, as to an agent's, a database's or a logger's socket.
    for path in [&socket, &datagrams] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    listener.set_nonblocking(true).unwrap();
    receiver.set_nonblocking(true).unwrap();
    // A connection, and a datagram sent from a socket pair (which needs no socket()).
    let script = python(
        own.path(),
        "connect.py",
        &format!(
            "import socket, sys\nsys.stdin.read()\n\
             try:\n    s = socket.socket(socket.AF_UNIX)\n    s.connect('{}')\n    print('reached')\n\
             except OSError:\n    print('unreachable')\n\
             try:\n    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)\n\
             \x20   a.sendto(b'x', '{}')\n    print('sent')\n\
             except OSError:\n    print('unsent')\n\
             try:\n    a, b = socket.socketpair()\n\
             except PermissionError:\n    sys.exit(0)\n\
             a.sendall(b'pair'); assert b.recv(4) == b'pair'\n",
            socket.display(),
            datagrams.display()
        ),
    );
    let opened = own.path().to_str().unwrap();
    let mark = Mark::new("socket");
    let (_, lines) = judge(&mark, dir.path(), &["--read-only", opened], &script);
    assert_eq!(lines[0]["reason"], found("unreachable"), "{}", lines[0]);
    // Nothing came, and the stream pair, a pipe both ways, worked (or it would be RE) where
    // a memory cgroup counts its buffers (refused otherwise).
    assert!(listener.accept().is_err());
    assert!(receiver.recv(&mut [0; 8]).is_err());
    assert_eq!(lines[0]["verdict"], "WA");
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &["--read-only", opened, "--allow-unix-sockets"],
        &script,
    );
    // Opened: reached, where the socket's owner lets the program's user in (a root judge's
    // program is nobody, which the mode above lets in).
    assert_eq!(lines[0]["reason"], found("reached"), "{}", lines[0]);
    mark.assert_none_left(Duration::from_secs(1), "socket");
}

#[test]
fn the_judges_environment_stays_with_the_judge() {
    let dir = tests();
    let mark = Mark::new("environment");
    let script = "cat >/dev/null; echo \"${CP_ESCAPE_SECRET:-none} $HOME\"";
    let run = |extra: &[&str]| {
        let mut args = vec!["queens", "judge", "--format", "json"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&[dir.path().to_str().unwrap(), "--", "sh", "-c", script]);
        let out = mark
            .command(&args)
            .env("CP_ESCAPE_SECRET", "token-123")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        first["reason"].as_str().unwrap().to_string()
    };
    let home = if has("mount-namespace") {
        "/tmp".to_string()
    } else {
        std::env::var("HOME").unwrap_or_default()
    };
    assert_eq!(run(&[]), found(&format!("none {home}")));
    assert_eq!(
        run(&["--env", "CP_ESCAPE_SECRET"]),
        found(&format!("token-123 {home}"))
    );
    assert_eq!(
        run(&["--env", "CP_ESCAPE_SECRET=other"]),
        found(&format!("other {home}"))
    );
    mark.assert_none_left(Duration::from_secs(1), "environment");
}

#[test]
fn env_finds_the_same_interpreter_inside_as_outside() {
    if !has("mount-namespace") {
        return;
    }
    let dir = tests();
    let own = scratch("interpreter");
    let bin = own.path().join("tools").join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("cp-escape-python");
    std::fs::write(&fake, "#!/bin/sh\necho own-interpreter\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let solutions = scratch("interpreter-program");
    let program = solutions.path().join("sol");
    std::fs::write(&program, "#!/usr/bin/env cp-escape-python\nprint(1)\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mark = Mark::new("interpreter");
    let path = format!("{}:{}", bin.display(), crate::procs::system_first());
    let out = mark
        .command(&[
            "queens",
            "judge",
            "--format",
            "json",
            dir.path().to_str().unwrap(),
            "--",
            program.to_str().unwrap(),
        ])
        .env("PATH", path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["reason"], found("own-interpreter"), "{text}");
    mark.assert_none_left(Duration::from_secs(1), "interpreter");
}

#[test]
fn a_child_subreaper_alone_is_run_only_with_a_warning() {
    let dir = tests();
    let mark = Mark::new("subreaper-warning");
    let out = mark
        .command(&[
            "queens",
            "judge",
            "--containment",
            "subreaper",
            dir.path().to_str().unwrap(),
            "--",
            "sh",
            "-c",
            "exec \"$CP\" queens",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: --containment subreaper: a program that kills its keeper"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// Writes `source` as `Main.java` in a folder of its own and compiles it there (`javac`).
#[test]
fn landlock_binds_the_program_beside_the_mounts() {
    if !has("landlock") {
        return;
    }
    // Its own /proc lets a process rename itself through /proc/self/comm; Landlock lets it
    // write nowhere but its /tmp, /dev/shm and devices: refused there, allowed with the
    // sandbox off.
    let dir = tests();
    let mark = Mark::new("landlock");
    let script = "cat >/dev/null; (printf x > /proc/self/comm) 2>/dev/null && echo renamed || \
                  echo refused; : > /dev/null && echo null";
    let (_, lines) = judge(&mark, dir.path(), &[], script);
    assert_eq!(lines[0]["reason"], found("refused"), "{}", lines[0]);
    // Its /tmp and the devices are still written.
    let (_, lines) = judge(
        &mark,
        dir.path(),
        &[],
        "cat >/dev/null; : > /dev/null && touch /tmp/f && echo written",
    );
    assert_eq!(lines[0]["reason"], found("written"), "{}", lines[0]);
    let containment = lines.last().unwrap()["containment"].to_string();
    assert!(containment.contains("\"landlock\""), "{containment}");
    let (_, lines) = judge(&mark, dir.path(), &["--sandbox", "off"], script);
    assert_eq!(lines[0]["reason"], found("renamed"), "{}", lines[0]);
    mark.assert_none_left(Duration::from_secs(1), "landlock");
}

fn java_class(source: &str) -> tempfile::TempDir {
    let dir = scratch("java-honest");
    std::fs::write(dir.path().join("Main.java"), source).unwrap();
    let status = std::process::Command::new("javac")
        .arg("Main.java")
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    dir
}

#[test]
fn honest_java_node_and_python_programs_are_accepted_under_the_defaults() {
    let dir = tests();
    let mark = Mark::new("honest");
    let answer = std::fs::read_to_string(dir.path().join("a.out")).unwrap();
    let mut programs: Vec<(String, Vec<String>, Option<tempfile::TempDir>)> = Vec::new();
    if have("java") && have("javac") {
        // 64 MiB held, then the right answer printed.
        let class = java_class(&format!(
            "public class Main {{ public static void main(String[] a) throws Exception {{\n\
             int[] held = new int[16 << 20]; for (int i = 0; i < held.length; i++) held[i] = i;\n\
             long sum = 0; for (int v : held) sum += v; if (sum == 42) System.out.print(\"x\");\n\
             System.in.readAllBytes(); System.out.print({answer:?}); }} }}\n"
        ));
        let path = class.path().to_str().unwrap().to_string();
        programs.push((
            "java".into(),
            vec!["java".into(), "-cp".into(), path, "Main".into()],
            Some(class),
        ));
    }
    let own = scratch("honest");
    if have("node") {
        let file = own.path().join("main.js");
        std::fs::write(
            &file,
            format!(
                "const held = new Float64Array(4 << 20).fill(1);\n\
                 require('fs').readFileSync(0);\n\
                 process.stdout.write(held[0] === 1 ? {answer:?} : 'x');\n"
            ),
        )
        .unwrap();
        programs.push((
            "node".into(),
            vec!["node".into(), file.to_str().unwrap().into()],
            None,
        ));
    }
    if have("python3") {
        let file = own.path().join("pool.py");
        std::fs::write(
            &file,
            format!(
                "import multiprocessing as mp, sys\n\
                 def square(x):\n    return x * x\n\
                 if __name__ == '__main__':\n\
                 \x20   sys.stdin.read()\n\
                 \x20   lock = mp.Lock()\n\
                 \x20   with lock, mp.Pool(2) as pool:\n\
                 \x20       assert sum(pool.map(square, range(10))) == 285\n\
                 \x20   sys.stdout.write({answer:?})\n"
            ),
        )
        .unwrap();
        programs.push((
            "python multiprocessing".into(),
            vec!["python3".into(), file.to_str().unwrap().into()],
            None,
        ));
    }
    if have("python3") {
        // Standard input and output reopened by name, as many contest programs do (the
        // judge's pipes must be the program's user's for that).
        let file = own.path().join("by_name.py");
        std::fs::write(
            &file,
            format!(
                "open('/dev/stdin').read()\n\
                 with open('/dev/stdout', 'w') as out:\n    out.write({answer:?})\n"
            ),
        )
        .unwrap();
        programs.push((
            "python /dev/stdin".into(),
            vec!["python3".into(), file.to_str().unwrap().into()],
            None,
        ));
    }
    for (name, program, _class) in &programs {
        let mut args = vec![
            "queens",
            "judge",
            "--format",
            "json",
            dir.path().to_str().unwrap(),
        ];
        args.push("--");
        args.extend(program.iter().map(String::as_str));
        let out = mark.command(&args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        for line in text.lines().take(2) {
            let line: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(
                line["verdict"],
                "AC",
                "{name}: {line}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    mark.assert_none_left(Duration::from_secs(1), "honest");
}
