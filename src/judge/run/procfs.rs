//! What `/proc` tells about a run's processes (Linux): the children of a process, the outer
//! pid of the program in a PID namespace, the CPU time of a process tree.

use std::io::Read;
use std::time::Duration;

/// The most processes of a tree looked at for its CPU time.
const MAX_TREE: usize = 256;

/// A small file of `/proc`, read whole (at most 64 KiB).
fn read(path: &str) -> Option<String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(64 << 10)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// The fields of `/proc/PID/stat` after the command name (which may hold spaces and
/// parentheses), as numbers: field N of the manual page is index N - 3 (the state, field 3,
/// reads as 0).
fn stat_fields(pid: libc::pid_t) -> Option<Vec<i64>> {
    let text = read(&format!("/proc/{pid}/stat"))?;
    let (_, rest) = text.rsplit_once(')')?;
    Some(
        rest.split_whitespace()
            .map(|f| f.parse().unwrap_or(0))
            .collect(),
    )
}

/// The children of `pid`: from `/proc/PID/task/PID/children` where the kernel has it,
/// otherwise from the parent pid of every process.
pub fn children(pid: libc::pid_t) -> Vec<libc::pid_t> {
    // Each thread's own children (a child made by a thread other than the first is listed
    // under that thread alone).
    if let Some(text) = read(&format!("/proc/{pid}/task/{pid}/children")) {
        let mut found: Vec<libc::pid_t> = text
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for task in tasks.filter_map(Result::ok).take(MAX_TREE) {
                let Some(tid) = task
                    .file_name()
                    .to_str()
                    .and_then(|t| t.parse::<libc::pid_t>().ok())
                else {
                    continue;
                };
                if tid == pid {
                    continue;
                }
                if let Some(text) = read(&format!("/proc/{pid}/task/{tid}/children")) {
                    found.extend(
                        text.split_whitespace()
                            .filter_map(|p| p.parse::<libc::pid_t>().ok()),
                    );
                }
            }
        }
        return found;
    }
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<libc::pid_t>().ok())
        // Field 4 of stat, the parent pid, is index 1 here.
        .filter(|&p| stat_fields(p).and_then(|f| f.get(1).copied()) == Some(i64::from(pid)))
        .collect()
}

/// The program's pid outside the PID namespace whose first process is `keeper`: the child of
/// the keeper whose pid inside the namespace is `inner`.
pub fn outer_pid(keeper: libc::pid_t, inner: libc::pid_t) -> Option<libc::pid_t> {
    children(keeper).into_iter().find(|&child| {
        read(&format!("/proc/{child}/status")).is_some_and(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("NSpid:"))
                .and_then(|ids| ids.split_whitespace().last())
                .and_then(|id| id.parse::<libc::pid_t>().ok())
                == Some(inner)
        })
    })
}

/// The peak resident memory of `pid`'s present memory (`VmHWM`, in bytes): what it has
/// used since its last `execve`, not what it was forked with.
pub fn peak_resident(pid: libc::pid_t) -> Option<u64> {
    let status = read(&format!("/proc/{pid}/status"))?;
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kib.saturating_mul(1024))
}

/// `pid`'s living descendants (not `pid`), at most [`MAX_TREE`] of them.
pub fn descendants(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let mut found = Vec::new();
    let mut todo = children(pid);
    while let Some(p) = todo.pop() {
        if found.len() >= MAX_TREE {
            break;
        }
        found.push(p);
        todo.extend(children(p));
    }
    found
}

/// The threads of `pid` and of its living descendants, each with the time it has run or
/// spent ready to run but waiting for a core, in nanoseconds (`/proc/PID/task/TID/schedstat`,
/// where the kernel has it).
pub fn tree_tasks_activity(pid: libc::pid_t) -> Vec<(libc::pid_t, u64)> {
    let mut found = Vec::new();
    let mut todo = vec![pid];
    let mut seen = 0;
    while let Some(p) = todo.pop() {
        seen += 1;
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) {
            for task in tasks.filter_map(Result::ok).take(MAX_TREE) {
                let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) else {
                    continue;
                };
                let path = task.path().join("schedstat");
                if let Some(text) = read(&path.to_string_lossy()) {
                    let active = text
                        .split_whitespace()
                        .take(2)
                        .filter_map(|w| w.parse::<u64>().ok())
                        .sum();
                    found.push((tid, active));
                }
            }
        }
        if seen < MAX_TREE {
            todo.extend(children(p));
        }
    }
    found
}

/// The memory the processes below `pid` (and `pid` itself with `own`) use now, in bytes:
/// their proportional resident sets (`Pss`, so that pages two processes share after a
/// `fork` count once) and their page tables (`VmPTE`: a mapping read once every 2 MiB holds
/// 4 KiB of page table each and almost no resident memory), at most [`MAX_TREE`] processes.
///
/// With `scratch`, a process of a run with a file system of its own: the files in that run's
/// `/tmp` and `/dev/shm` (tmpfs, memory) count too, less what the processes map of them (which
/// their resident sets count already).
pub fn tree_memory(pid: libc::pid_t, own: bool, scratch: Option<libc::pid_t>) -> u64 {
    let mut pids = descendants(pid);
    if own {
        pids.push(pid);
    }
    let files = scratch.map_or(0, |p| scratch_files(p, &pids));
    let field = |path: &str, name: &str| -> Option<u64> {
        let kib: u64 = read(path)?
            .lines()
            .find_map(|l| l.strip_prefix(name))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Some(kib.saturating_mul(1024))
    };
    let pss = |path: &str| field(path, "Pss:");
    pids.iter()
        .filter_map(|p| {
            let tables = field(&format!("/proc/{p}/status"), "VmPTE:").unwrap_or(0);
            // A process whose first thread has ended shows its memory through its other
            // threads alone.
            let resident = pss(&format!("/proc/{p}/smaps_rollup")).or_else(|| {
                std::fs::read_dir(format!("/proc/{p}/task"))
                    .ok()?
                    .filter_map(Result::ok)
                    .take(MAX_TREE)
                    .find_map(|t| pss(&t.path().join("smaps_rollup").to_string_lossy()))
            });
            resident.map(|r| r.saturating_add(tables))
        })
        .sum::<u64>()
        .saturating_add(files)
}

/// The bytes held by files in the `/tmp` and `/dev/shm` of process `pid`'s root (each a tmpfs
/// of its run's own), less the resident part of the mappings of those files by the processes
/// `pids`.
fn scratch_files(pid: libc::pid_t, pids: &[libc::pid_t]) -> u64 {
    let mut held = 0u64;
    let mut devices = Vec::new();
    for dir in ["tmp", "dev/shm"] {
        let path = format!("/proc/{pid}/root/{dir}");
        let (Ok(stat), Ok(vfs)) = (rustix::fs::stat(&path), rustix::fs::statvfs(&path)) else {
            continue;
        };
        let used = vfs
            .f_blocks
            .saturating_sub(vfs.f_bfree)
            .saturating_mul(vfs.f_frsize);
        if used > 0 {
            held = held.saturating_add(used);
            devices.push((
                rustix::fs::major(stat.st_dev),
                rustix::fs::minor(stat.st_dev),
            ));
        }
    }
    if devices.is_empty() {
        return 0;
    }
    let mapped: u64 = pids
        .iter()
        .filter_map(|p| read(&format!("/proc/{p}/smaps")))
        .map(|smaps| mapped_from(&smaps, &devices))
        .sum();
    held.saturating_sub(mapped)
}

/// The resident memory (`Pss`) of the mappings in `smaps` (a `/proc/PID/smaps`) of files on
/// the devices `devices` (major, minor).
fn mapped_from(smaps: &str, devices: &[(u32, u32)]) -> u64 {
    let mut on_device = false;
    let mut total = 0u64;
    for line in smaps.lines() {
        if let Some(kib) = line.strip_prefix("Pss:") {
            if on_device {
                let kib: u64 = kib
                    .split_whitespace()
                    .next()
                    .and_then(|k| k.parse().ok())
                    .unwrap_or(0);
                total = total.saturating_add(kib.saturating_mul(1024));
            }
            continue;
        }
        // A mapping's first line: "start-end perms offset major:minor inode [path]".
        let mut fields = line.split_whitespace();
        let (Some(range), Some(perms), Some(_), Some(device)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if !range.contains('-') || perms.len() != 4 {
            continue;
        }
        on_device = device.split_once(':').is_some_and(|(major, minor)| {
            let parse = |hex: &str| u32::from_str_radix(hex, 16).ok();
            parse(major)
                .zip(parse(minor))
                .is_some_and(|d| devices.contains(&d))
        });
    }
    total
}

/// The CPU time, user and system, of `pid`'s threads (with `own`), of the children it
/// reaped, and of its living descendants (at most [`MAX_TREE`] processes); `None` when `pid`
/// is gone.
pub fn tree_cpu(pid: libc::pid_t, own: bool) -> Option<Duration> {
    // Safety: sysconf only reads a constant of the system.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    let mut total = 0u64;
    let mut todo = vec![pid];
    let mut seen = 0;
    let mut first = true;
    while let Some(p) = todo.pop() {
        seen += 1;
        // utime, stime, cutime, cstime: fields 14..=17, indices 11..=14 here.
        match stat_fields(p) {
            Some(f) => {
                let skip = if first && !own { 13 } else { 11 };
                total += f
                    .iter()
                    .take(15)
                    .skip(skip)
                    .map(|&t| t.max(0) as u64)
                    .sum::<u64>()
            }
            None if first => return None,
            None => {}
        }
        first = false;
        if seen < MAX_TREE {
            todo.extend(children(p));
        }
    }
    Some(Duration::from_micros(total * 1_000_000 / ticks))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_mappings_of_files_on_the_devices_named_count() {
        let smaps = "\
55d0c0000000-55d0c0021000 r--p 00000000 08:01 123   /usr/bin/python3
Size:                132 kB
Pss:                 100 kB
7f0000000000-7f0000400000 rw-s 00000000 00:2a 77    /dev/shm/held (deleted)
Size:               4096 kB
Pss:                2048 kB
7f0000400000-7f0000800000 rw-s 00000000 00:01 5     /dev/zero (deleted)
Size:               4096 kB
Pss:                4096 kB
7f0000800000-7f0000801000 rw-p 00000000 00:2b 9     /tmp/x
Pss:                   4 kB
VmFlags: rd wr mr mw me ac sd
";
        assert_eq!(mapped_from(smaps, &[(0, 0x2a)]), 2048 * 1024);
        assert_eq!(mapped_from(smaps, &[(0, 0x2a), (0, 0x2b)]), 2052 * 1024);
        assert_eq!(mapped_from(smaps, &[(8, 2)]), 0);
        assert_eq!(mapped_from("", &[(0, 0x2a)]), 0);
    }
}
