//! Stops the analysis processes ([`crate::isolated`]) while the cores the server may use
//! are saturated, and continues them when they are not.
//!
//! The idle scheduling class is not enough on its own: a saturated API never sleeps, so
//! the kernel still hands an idle-class task a sliver of the core now and then, and the
//! API's requests wait that sliver out (up to a whole tick, 4 ms at 250 Hz). Those
//! slivers set `profile/get`'s p99 while quizzes are verified; with the analysis held
//! off, the rest of a verification costs the API nothing measurable
//! (docs/BENCHMARKS.md). A stopped process gets no sliver at all.
//!
//! Every 100 ms the gauge reads `/proc/stat` for the cores this process may run on. The
//! analysis runs at nice 19, so its own time is counted as `nice` and not as the rest's
//! `user` and `system`; while nine tenths of the cores' time went to the rest, every
//! analysis process group is sent `SIGSTOP`, and `SIGCONT` once less did. A stopped
//! analysis loses nothing of its budget, which counts processor time only.

use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use rustix::process::{Pid, Signal, kill_process_group};
use rustix::thread::{CpuSet, sched_getaffinity};

/// How often the cores are looked at.
const PERIOD: Duration = Duration::from_millis(100);

/// The share of the cores' time, taken by anything but the analysis, from which the
/// analysis is stopped.
const SATURATED: f64 = 0.9;

/// The process groups of the analyses running, and whether they are stopped.
#[derive(Debug, Default)]
struct Groups {
    running: Vec<Pid>,
    stopped: bool,
}

/// The gate: the groups, and the gauge thread started with the first of them.
fn groups() -> MutexGuard<'static, Groups> {
    static GROUPS: OnceLock<Mutex<Groups>> = OnceLock::new();
    let groups = GROUPS.get_or_init(|| {
        let started = std::thread::Builder::new()
            .name("idv-analysis-gate".into())
            .spawn(watch);
        if started.is_err() {
            tracing::warn!("no thread for the analysis gate: analyses are never stopped");
        }
        Mutex::new(Groups::default())
    });
    // Nothing panics while holding it; a poisoned lock still holds a consistent list.
    groups
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// An analysis process group under the gate, until dropped: stopped at once if the
/// cores are saturated now.
#[derive(Debug)]
pub struct Admitted(Pid);

impl Admitted {
    /// Puts the group led by `leader` (a process started in a group of its own) under
    /// the gate.
    pub fn new(leader: u32) -> Option<Self> {
        let pid = Pid::from_raw(i32::try_from(leader).ok()?)?;
        let mut groups = groups();
        if groups.stopped {
            signal(pid, Signal::STOP);
        }
        groups.running.push(pid);
        Some(Self(pid))
    }
}

impl Drop for Admitted {
    /// Out of the gate, and continued: the group may have been stopped between writing
    /// its answer and exiting, and it must exit to be waited for. To be dropped before
    /// the leader is waited for, so that its id cannot have been reused.
    fn drop(&mut self) {
        let mut groups = groups();
        groups.running.retain(|pid| *pid != self.0);
        drop(groups);
        signal(self.0, Signal::CONT);
    }
}

fn signal(group: Pid, signal: Signal) {
    if let Err(error) = kill_process_group(group, signal) {
        // The group has already ended: nothing to stop or continue.
        tracing::debug!(%error, "analysis group not signalled");
    }
}

/// The gauge thread: stops and continues the groups as the cores fill and empty.
fn watch() {
    let mut last = CoreTimes::read();
    loop {
        std::thread::sleep(PERIOD);
        let now = CoreTimes::read();
        let saturated = match (last, now) {
            (Some(before), Some(after)) => after.since(&before).is_saturated(),
            // Unreadable `/proc/stat`: the analysis runs as it would without the gate.
            _ => false,
        };
        last = now;
        let mut groups = groups();
        if saturated != groups.stopped {
            groups.stopped = saturated;
            let to = if saturated {
                Signal::STOP
            } else {
                Signal::CONT
            };
            for group in &groups.running {
                signal(*group, to);
            }
            tracing::debug!(
                stopped = saturated,
                groups = groups.running.len(),
                "analysis gate"
            );
        }
    }
}

/// Clock ticks the cores this process may use have spent, since boot or over a period.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CoreTimes {
    /// Anything but idle, waiting, stolen and niced time (the analysis's).
    pub busy: u64,
    /// All of it.
    pub total: u64,
}

impl CoreTimes {
    /// Now, from `/proc/stat`, for the cores this process may run on.
    fn read() -> Option<Self> {
        let cores = sched_getaffinity(None).ok()?;
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        Some(Self::of(&stat, &cores))
    }

    /// The sum over the `cores` of a `/proc/stat`'s per-core lines
    /// (`cpuN user nice system idle iowait irq softirq steal ...`).
    pub fn of(stat: &str, cores: &CpuSet) -> Self {
        let mut times = Self::default();
        for line in stat.lines() {
            let mut fields = line.split_ascii_whitespace();
            let Some(core) = fields
                .next()
                .and_then(|name| name.strip_prefix("cpu"))
                .and_then(|n| n.parse::<usize>().ok())
            else {
                continue;
            };
            if core >= CpuSet::MAX_CPU || !cores.is_set(core) {
                continue;
            }
            let ticks: Vec<u64> = fields.take(8).map_while(|f| f.parse().ok()).collect();
            let [user, nice, system, idle, iowait, irq, softirq, steal] = ticks[..] else {
                continue;
            };
            times.busy += user + system + irq + softirq;
            times.total += user + nice + system + idle + iowait + irq + softirq + steal;
        }
        times
    }

    /// What was spent between `earlier` and this.
    pub fn since(&self, earlier: &Self) -> Self {
        Self {
            busy: self.busy.saturating_sub(earlier.busy),
            total: self.total.saturating_sub(earlier.total),
        }
    }

    /// Whether, over a period, nine tenths of the time went to anything but the
    /// analysis.
    pub fn is_saturated(&self) -> bool {
        self.total > 0 && self.busy as f64 >= SATURATED * self.total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  100 50 20 1000 5 1 2 3 0 0
cpu0 60 40 10 400 2 1 1 1 0 0
cpu1 40 10 10 600 3 0 1 2 0 0
intr 12345
ctxt 678
";

    fn cores(list: &[usize]) -> CpuSet {
        let mut set = CpuSet::new();
        for core in list {
            set.set(*core);
        }
        set
    }

    #[test]
    fn only_the_allowed_cores_count_and_niced_time_is_not_busy() {
        assert_eq!(
            CoreTimes::of(STAT, &cores(&[0])),
            CoreTimes {
                busy: 60 + 10 + 1 + 1,
                total: 60 + 40 + 10 + 400 + 2 + 1 + 1 + 1,
            }
        );
        let both = CoreTimes::of(STAT, &cores(&[0, 1]));
        assert_eq!(both.busy, 72 + 51);
        assert_eq!(both.total, 515 + 666);
        assert_eq!(CoreTimes::of(STAT, &cores(&[2])), CoreTimes::default());
    }

    #[test]
    fn saturated_from_nine_tenths_of_a_period() {
        let start = CoreTimes {
            busy: 1_000,
            total: 2_000,
        };
        let at = |busy, total| CoreTimes {
            busy: start.busy + busy,
            total: start.total + total,
        };
        assert!(at(9, 10).since(&start).is_saturated());
        assert!(!at(8, 10).since(&start).is_saturated());
        assert!(!start.since(&start).is_saturated(), "an empty period");
    }
}
