//! Where a run stands while the judge watches it: its output, the keeper's reports, the
//! program's pid, its CPU time and memory, and the limits looked at.

use super::*;

/// Where a run stands, for its loop.
pub(super) struct State {
    pub(super) out: Vec<u8>,
    pub(super) err: stderr::Kept,
    pub(super) stdout_open: bool,
    pub(super) stderr_open: bool,
    pub(super) status_open: bool,
    /// Bytes of the keeper's reports not yet whole.
    pub(super) report: Vec<u8>,
    pub(super) inner_pid: Option<libc::pid_t>,
    /// The program's pid as the judge sees it (0: not known yet).
    pub(super) program_pid: libc::pid_t,
    pub(super) exec_error: Option<i32>,
    /// The step of the run's setup that failed, when one did.
    pub(super) setup_step: Option<i64>,
    pub(super) exited: Option<(i64, [i64; 3])>,
    pub(super) killed: Option<Killed>,
    pub(super) killed_at: Option<Instant>,
    /// `(time, activity)` of the run, sampled while it runs, the last second of them: the
    /// activity is the CPU time and the time spent waiting for a core.
    pub(super) samples: Vec<(Instant, Duration)>,
    pub(super) last_cpu: Option<Duration>,
    /// The CPU time of the run's tasks that ended, each counted by the keeper as it reaped
    /// it (with every process traced): it holds what no parent's times show.
    pub(super) counted: Duration,
    /// Where no cgroup measures it, the run's activity summed sample by sample: each sample
    /// adds what its living threads ran or waited for a core since the last (a thread's
    /// figure ends with it, so a sum over the living ones would fall as threads end), or the
    /// growth of the CPU time when that is more (the time of processes too short to be seen).
    pub(super) activity: Activity,
    /// The program stopped at its exit and waits for the judge's word.
    pub(super) exiting: bool,
    /// The program has executed (it is traced): its resident peak is its own from then on,
    /// before it a copy of the judge's.
    pub(super) executed: bool,
    /// The program's own peak resident memory, measured while it ran and at its exit.
    pub(super) program_peak: u64,
    /// The most memory the run's processes used together, sampled while it ran (where no
    /// memory cgroup measures it).
    pub(super) run_peak: u64,
    /// The `si_code` of the last signal that reached the program.
    pub(super) signal_code: Option<i32>,
    /// The program's processes last seen (outside a namespace), to end them should the
    /// keeper be killed.
    pub(super) seen: Vec<libc::pid_t>,
}

impl State {
    pub(super) fn read_stdout(&mut self, fd: &OwnedFd, limit: u64, budget: usize) {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut over = false;
        self.stdout_open = read_now(fd, budget, |bytes| {
            let room = limit.saturating_sub(self.out.len());
            self.out.extend_from_slice(&bytes[..bytes.len().min(room)]);
            over |= bytes.len() > room;
        });
        if over {
            self.stdout_open = false;
            if self.killed.is_none() {
                self.killed = Some(Killed::Output);
                self.killed_at = Some(Instant::now());
            }
        }
    }

    pub(super) fn read_reports(&mut self, fd: &OwnedFd) {
        if !self.status_open {
            return;
        }
        let report = &mut self.report;
        self.status_open = read_now(fd, usize::MAX, |b| report.extend_from_slice(b));
        while self.report.len() >= spawn::MESSAGE_BYTES {
            let mut message = [0i64; 6];
            for (i, word) in message.iter_mut().enumerate() {
                let mut bytes = [0u8; 8];
                bytes.copy_from_slice(&self.report[i * 8..i * 8 + 8]);
                *word = i64::from_ne_bytes(bytes);
            }
            self.report.drain(..spawn::MESSAGE_BYTES);
            match message[0] {
                spawn::STARTED => self.inner_pid = Some(message[1] as libc::pid_t),
                spawn::EXEC_FAILED => self.exec_error = Some(message[1] as i32),
                spawn::SETUP_FAILED => {
                    self.exec_error = Some(message[1] as i32);
                    self.setup_step = Some(message[2]);
                }
                spawn::EXITED => {
                    self.exited = Some((message[1], [message[3], message[4], message[5]]));
                    self.count(message[2]);
                }
                spawn::COUNTED => self.count(message[1]),
                spawn::TRACED => {}
                spawn::EXITING => self.exiting = true,
                spawn::SIGNALLED => self.signal_code = Some(message[2] as i32),
                spawn::EXECUTED => self.executed = true,
                _ => {}
            }
        }
    }

    /// Finds the program's pid as the judge sees it: the keeper's report outside a namespace,
    /// the keeper's child with that pid inside one otherwise.
    pub(super) fn find_program(
        &mut self,
        keeper: libc::pid_t,
        layers: &Layers,
        registered: &Registered,
    ) {
        let Some(inner) = self.inner_pid else {
            return;
        };
        #[cfg(target_os = "linux")]
        let found = if layers.pid_namespace {
            procfs::outer_pid(keeper, inner)
        } else {
            Some(inner)
        };
        #[cfg(not(target_os = "linux"))]
        let found = {
            let _ = (keeper, layers);
            Some(inner)
        };
        if let Some(pid) = found {
            self.program_pid = pid;
            registered.set_program(pid);
        }
    }

    /// The program stopped at its exit, before its children are reparented: its memory is
    /// measured, every other process of the run is killed (in a namespace, by the keeper when
    /// let go), and it is let go. Nothing the run writes from now on is the program's output.
    pub(super) fn at_exit(
        &mut self,
        child: &mut spawn::Child,
        layers: &Layers,
        registered: &Registered,
    ) {
        self.exiting = false;
        if self.program_pid == 0 {
            self.find_program(child.keeper, layers, registered);
        }
        #[cfg(target_os = "linux")]
        if self.program_pid > 0 {
            if self.executed
                && let Some(peak) = procfs::peak_resident(self.program_pid)
            {
                self.program_peak = self.program_peak.max(peak);
            }
            if !layers.pid_namespace {
                kill_others(child, self.program_pid);
            }
        }
        if let Some(go) = child.go.take() {
            // Safety: write reads one byte from a constant.
            unsafe {
                libc::write(go.as_raw_fd(), b"g".as_ptr().cast(), 1);
            }
        }
    }

    pub(super) fn kill(&mut self, why: Killed, child: &spawn::Child, layers: &Layers) {
        self.killed = Some(why);
        self.killed_at = Some(Instant::now());
        if self.program_pid > 0 {
            kill_program(self.program_pid);
        } else {
            kill_keeper(child, layers);
        }
    }

    /// The keeper counted `micros` of CPU time in the run's ended tasks.
    fn count(&mut self, micros: i64) {
        self.counted = self
            .counted
            .max(Duration::from_micros(micros.max(0) as u64));
    }

    /// The run's CPU time now, and its activity (the CPU time and the time spent waiting for
    /// a core): the cgroup's, or the program's process tree's.
    pub(super) fn cpu_now(
        &mut self,
        child: &spawn::Child,
        layers: &Layers,
    ) -> Option<(Duration, Duration)> {
        if let Some(cgroup) = &child.cgroup
            && let Some(cpu) = cgroup.cpu()
        {
            return Some((cpu, cpu + cgroup.waiting().unwrap_or_default()));
        }
        // In a namespace, every process of the run is below the keeper (those the program
        // left to it too, and what the keeper reaped); otherwise the program's tree.
        #[cfg(target_os = "linux")]
        if layers.pid_namespace && self.executed {
            let cpu = procfs::tree_cpu(child.keeper, false)?.max(self.counted);
            let tasks = procfs::tree_tasks_activity(child.keeper);
            return Some((cpu, self.activity.add(cpu, &tasks)));
        }
        #[cfg(target_os = "linux")]
        if self.program_pid > 0 {
            let cpu = procfs::tree_cpu(self.program_pid, true)?.max(self.counted);
            let tasks = procfs::tree_tasks_activity(self.program_pid);
            return Some((cpu, self.activity.add(cpu, &tasks)));
        }
        None
    }

    /// The memory the run uses now, where no memory cgroup limits it: every process below
    /// the keeper in a namespace, the program's tree otherwise (after the program executed:
    /// before, its memory is a copy of the judge's).
    #[cfg(target_os = "linux")]
    pub(super) fn memory_now(&self, child: &spawn::Child, layers: &Layers) -> Option<u64> {
        if layers.sandbox.memory_cgroup || !self.executed || self.program_pid <= 0 {
            return None;
        }
        // The run's own /tmp and /dev/shm hold memory too (seen through the program's root).
        let scratch = layers.sandbox.files.then_some(self.program_pid);
        Some(if layers.pid_namespace {
            procfs::tree_memory(child.keeper, false, scratch)
        } else {
            procfs::tree_memory(self.program_pid, true, scratch)
        })
    }

    /// The limits, looked at while the program runs.
    pub(super) fn watch(
        &mut self,
        now: Instant,
        started: Instant,
        limits: &Limits,
        child: &spawn::Child,
        layers: &Layers,
    ) {
        let measured = self.cpu_now(child, layers);
        #[cfg(target_os = "linux")]
        if let Some(used) = self.memory_now(child, layers) {
            self.run_peak = self.run_peak.max(used);
            if limits.memory.is_some_and(|m| used > m) {
                self.kill(Killed::Memory, child, layers);
                return;
            }
        }
        let activity = measured.map(|m| m.1);
        #[cfg(target_os = "linux")]
        if self.program_pid > 0 {
            if self.executed
                && let Some(peak) = procfs::peak_resident(self.program_pid)
            {
                self.program_peak = self.program_peak.max(peak);
            }
            if !layers.pid_namespace && child.cgroup.is_none() {
                self.seen = procfs::descendants(self.program_pid);
                self.seen.push(self.program_pid);
            }
        }
        if let Some((cpu, activity)) = measured {
            self.last_cpu = Some(cpu);
            self.samples.push((now, activity));
            let keep_from = now.checked_sub(Duration::from_secs(1)).unwrap_or(started);
            let first_kept = self
                .samples
                .iter()
                .position(|&(t, _)| t >= keep_from)
                .unwrap_or(0);
            // Keep one sample at least a second old, to measure the last second against.
            self.samples.drain(..first_kept.saturating_sub(1));
            if cpu > limits.cpu {
                self.kill(Killed::CpuTime, child, layers);
                return;
            }
        }
        let elapsed = now.duration_since(started);
        if elapsed >= limits.hard_wall() {
            self.kill(Killed::Idle, child, layers);
            return;
        }
        if elapsed < limits.wall {
            return;
        }
        // The share of the last second (or of the run so far) it was running or ready to run.
        let busy = match (self.samples.first(), activity) {
            (Some(&(then, active_then)), Some(active)) if now > then => {
                let share = (active.saturating_sub(active_then)).as_secs_f64()
                    / now.duration_since(then).as_secs_f64();
                share >= BUSY_SHARE
            }
            // Its CPU time cannot be measured here: the wall-clock limit decides alone.
            _ => false,
        };
        if !busy {
            self.kill(Killed::Idle, child, layers);
        }
    }
}

/// A run's activity (CPU time and time waiting for a core), summed sample by sample.
#[derive(Default)]
pub(super) struct Activity {
    /// Each thread's figure at the last sample, in nanoseconds.
    tasks: std::collections::HashMap<libc::pid_t, u64>,
    /// The most CPU time seen.
    cpu: Duration,
    total: Duration,
}

impl Activity {
    /// Adds a sample: the run's CPU time and its living threads' figures. Returns the sum.
    pub(super) fn add(&mut self, cpu: Duration, tasks: &[(libc::pid_t, u64)]) -> Duration {
        let threads: u64 = tasks
            .iter()
            .map(|&(tid, now)| now.saturating_sub(self.tasks.get(&tid).copied().unwrap_or(0)))
            .sum();
        let more = Duration::from_nanos(threads).max(cpu.saturating_sub(self.cpu));
        self.tasks = tasks.iter().copied().collect();
        self.cpu = self.cpu.max(cpu);
        self.total += more;
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activity_never_falls_when_threads_end() {
        let mut activity = Activity::default();
        let ms = Duration::from_millis;
        // Two threads of 300 ms each (run and waited), then one of them ends: the sum stays,
        // and grows by what the one left does next.
        assert_eq!(activity.add(ms(0), &[(1, 0), (2, 0)]), ms(0));
        assert_eq!(
            activity.add(ms(400), &[(1, 300_000_000), (2, 300_000_000)]),
            ms(600)
        );
        assert_eq!(activity.add(ms(400), &[(1, 300_000_000)]), ms(600));
        assert_eq!(activity.add(ms(500), &[(1, 450_000_000)]), ms(750));
        // Processes too short to be seen: the CPU time's growth counts when it is more.
        assert_eq!(activity.add(ms(900), &[(1, 460_000_000)]), ms(1150));
        // A new thread counts from nothing.
        assert_eq!(
            activity.add(ms(900), &[(1, 460_000_000), (7, 20_000_000)]),
            ms(1170)
        );
    }
}
