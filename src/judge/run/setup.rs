//! What a run needs made before it starts: its cgroups and their limits, its file system's
//! steps, the limits set in the program and what its runtime is told of them.

use super::*;

/// What one run's sandbox needs made before it starts: its cgroup (with its process and
/// memory limits where the cgroup v2 has those controllers), cgroup v1 groups otherwise, its
/// folder and the steps of its file system. Whatever is made goes when this is dropped.
#[derive(Default)]
pub(super) struct Prepared {
    pub(super) cgroup: Option<(cgroup::Cgroup, OwnedFd)>,
    pub(super) groups: Vec<sandbox::groups::Group>,
    pub(super) group_procs: Vec<OwnedFd>,
    pub(super) steps: Option<sandbox::mounts::Steps>,
    pub(super) scratch: Option<sandbox::scratch::Scratch>,
}

pub(super) fn prepare(
    program: &Resolved,
    layers: &Layers,
    limits: &Limits,
) -> io::Result<Prepared> {
    use std::path::Path;
    let parts = layers.sandbox;
    let mut prepared = Prepared::default();
    let processes = layers.processes.to_string();
    let memory = limits.memory.map(|m| m.to_string());
    let mut v2_pids = false;
    let mut v2_memory = false;
    if layers.cgroup {
        let created = cgroup::Cgroup::create(
            parts.pids_cgroup.then_some(processes.as_str()),
            memory.as_deref().filter(|_| parts.memory_cgroup),
        )?;
        v2_pids = created.pids;
        v2_memory = created.memory;
        prepared.cgroup = Some((created.cgroup, created.procs));
    }
    let mut v1 = |controller: &str, settings: &[(&str, String)]| -> io::Result<()> {
        let (group, procs) = sandbox::groups::Group::create(controller, settings)
            .ok_or_else(|| io::Error::other(format!("no {controller} cgroup can be made")))?;
        prepared.groups.push(group);
        prepared.group_procs.push(procs);
        Ok(())
    };
    if parts.pids_cgroup && !v2_pids {
        v1("pids", &[("pids.max", processes.clone())])?;
    }
    if parts.memory_cgroup
        && !v2_memory
        && let Some(memory) = &memory
    {
        v1("memory", &[("memory.limit_in_bytes", memory.clone())])?;
    }
    if parts.files {
        let scratch = sandbox::scratch::Scratch::create()?;
        let mut steps = sandbox::mounts::Steps::new(&scratch.root());
        // The scratch first: the folders shown may lie under /tmp, over it. Its files are
        // memory (counted in the run's memory cgroup where it has one): /tmp and /dev/shm
        // half the memory limit each, together no more than the limit; a quarter of the
        // machine's each without a limit.
        let size = limits
            .memory
            .map_or("25%".to_string(), |m| (m / 2).max(1 << 20).to_string());
        // Files, empty ones too, hold kernel memory (about a KiB each, which no memory watch
        // sees): one per 16 KiB of the tmpfs at most.
        let inodes = limits
            .memory
            .map_or(1 << 16, |m| (m / 2 / (16 << 10)).max(1024));
        let size = format!("{size},nr_inodes={inodes}");
        steps.scratch(Path::new("/tmp"), &size);
        for dir in sandbox::SYSTEM {
            if std::fs::symlink_metadata(dir).is_ok() {
                steps.bind(Path::new(dir), false);
            }
        }
        let view = program.view();
        for (dir, _) in &view.shown {
            steps.bind(dir, false);
        }
        steps.devices();
        steps.scratch(Path::new("/dev/shm"), &size);
        for hidden in &view.hidden {
            if sandbox::visible(hidden, &view.shown, &[]) {
                steps.hide(hidden);
            }
        }
        if parts.proc {
            steps.proc();
        }
        steps.enter(view.cwd.as_deref().unwrap_or(Path::new("/tmp")));
        prepared.steps = Some(steps);
        prepared.scratch = Some(scratch);
    }
    Ok(prepared)
}

/// What the program's runtime is told of its limits, as it would be in a container of that
/// size: a JVM sizes its heap from the memory it is given (`-XX:MaxRAM`; three quarters of
/// it for the heap at most, as a judge's `-Xmx` would) rather than from the machine's,
/// unless the program's environment already says (`--env JAVA_TOOL_OPTIONS=...`).
pub(super) fn runtime_env(program: &Resolved, limits: &Limits) -> Vec<std::ffi::CString> {
    let Some(memory) = limits.memory else {
        return Vec::new();
    };
    if program.env_var("JAVA_TOOL_OPTIONS").is_some() {
        return Vec::new();
    }
    std::ffi::CString::new(format!(
        "JAVA_TOOL_OPTIONS=-XX:MaxRAM={memory} -XX:MaxRAMPercentage=75"
    ))
    .into_iter()
    .collect()
}

/// The most files a process of a run may hold open at once: more than a JVM, V8 or a Python
/// pool opens, and few enough that pipes, whose buffers the kernel holds (up to 1 MiB each)
/// and no limit counts without a memory cgroup, stay few (each process's own limit: the
/// process limit times this bounds a run's pipes).
pub(super) const OPEN_FILES: u64 = 64;

/// The limits set in the program: CPU time (the next whole second above the limit, and one
/// more for the hard limit, which kills), its data (the private memory it may write: what
/// it uses, not the address space it reserves, which a JVM or V8 reserve by gigabytes),
/// file size, and [`OPEN_FILES`] open files; none above the judge's own hard limits.
pub(super) fn rlimits(limits: &Limits) -> spawn::Rlimits {
    let hard = |resource: spawn::Resource| {
        rustix::process::getrlimit(resource)
            .maximum
            .unwrap_or(spawn::UNLIMITED)
    };
    let clamp = |resource, soft: u64, hard_wanted: u64| {
        let max = hard(resource);
        (resource, soft.min(max), hard_wanted.min(max))
    };
    // A second above the judge's own limit, which the run's CPU time reaches first however
    // many threads spend it: the kernel's SIGXCPU is a last resort.
    let cpu_seconds = limits.cpu.as_secs() + u64::from(limits.cpu.subsec_nanos() > 0) + 1;
    let memory = limits.memory.unwrap_or(spawn::UNLIMITED);
    let file_size = limits.output.saturating_add(1);
    [
        clamp(
            spawn::Resource::Cpu,
            cpu_seconds,
            cpu_seconds.saturating_add(1),
        ),
        clamp(spawn::Resource::Data, memory, memory),
        clamp(spawn::Resource::Fsize, file_size, file_size),
        clamp(spawn::Resource::Nofile, OPEN_FILES, OPEN_FILES),
    ]
}
