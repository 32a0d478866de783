//! Stops the analysis processes ([`crate::isolated`]) while the server uses all but a
//! tenth of its cores, and continues them when it does not.
//!
//! The idle scheduling class is not enough on its own: a saturated API never sleeps, so
//! the kernel still hands an idle-class task a sliver of the core now and then, and the
//! API's requests wait that sliver out (up to a whole tick, 4 ms at 250 Hz). Those
//! slivers set `profile/get`'s p99 while quizzes are verified; with the analysis held
//! off, the rest of a verification costs the API nothing measurable
//! (docs/BENCHMARKS.md). A stopped process gets no sliver at all.
//!
//! Every 100 ms the gauge compares the processor time this process (the server, not its
//! analyses, which are processes of their own) used with what its cores offered
//! ([`std::thread::available_parallelism`]); while it used nine tenths of it, every
//! analysis process group is sent `SIGSTOP`, and `SIGCONT` once it used less. Only the
//! server's own load counts: work of other programs on the machine is the kernel's to
//! share, and the analysis's idle class already yields to it. A stopped analysis loses
//! nothing of its budget, which counts processor time only.
//!
//! The gate never holds the analyses for long: after [`LONGEST_HOLD`] stopped they run
//! for a [`BREATHER`] whatever the load, so a server kept busy (by a flood of sign-ins,
//! whose hashes are its own work) slows the analysis down but never starves it: an
//! upload's quality answer took 20 s instead of 0.17 s under such a flood.

use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group};
use rustix::time::{ClockId, clock_gettime};

/// How often the server's load is looked at.
const PERIOD: Duration = Duration::from_millis(100);

/// The tenths of its cores' time the server uses from which the analysis is stopped.
const SATURATED_TENTHS: u128 = 9;

/// The longest the analyses are held stopped at a stretch.
pub const LONGEST_HOLD: Duration = Duration::from_secs(2);

/// How long they run after a longest hold, whatever the load: a fifth of the time.
pub const BREATHER: Duration = Duration::from_millis(500);

/// The process groups of the analyses running, and whether they are stopped.
#[derive(Debug, Default)]
struct Groups {
    running: Vec<Pid>,
    stopped: bool,
}

/// Whether the gate holds the analyses stopped now.
pub fn holding() -> bool {
    groups().stopped
}

/// Whether the analyses should be stopped now, under `saturated` load, when they were
/// stopped since `held_since` (or run since `running_since`).
fn hold(
    saturated: bool,
    held_since: Option<Instant>,
    running_since: Instant,
    now: Instant,
) -> bool {
    match held_since {
        _ if !saturated => false,
        Some(since) => now.duration_since(since) < LONGEST_HOLD,
        // After a longest hold (or any stop), they run for a breather at least.
        None => now.duration_since(running_since) >= BREATHER,
    }
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

/// The gauge thread: stops and continues the groups as the server's load rises and falls.
fn watch() {
    let mut last = Load::now();
    let mut held_since = None;
    let mut running_since = Instant::now();
    loop {
        std::thread::sleep(PERIOD);
        let now = Load::now();
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let saturated = now.since(&last).is_saturated(cores);
        last = now;
        let stop = hold(saturated, held_since, running_since, Instant::now());
        if stop && held_since.is_none() {
            held_since = Some(Instant::now());
        } else if !stop && held_since.is_some() {
            held_since = None;
            running_since = Instant::now();
        }
        let mut groups = groups();
        if stop != groups.stopped {
            groups.stopped = stop;
            let to = if stop { Signal::STOP } else { Signal::CONT };
            for group in &groups.running {
                signal(*group, to);
            }
            tracing::debug!(
                stopped = stop,
                saturated,
                groups = groups.running.len(),
                "analysis gate"
            );
        }
    }
}

/// The processor time this process has used, and when: since it started, or over a
/// period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Load {
    /// Processor time, every thread's.
    pub used: Duration,
    /// Time by the clock.
    pub elapsed: Duration,
}

impl Load {
    fn now() -> Self {
        static START: OnceLock<Instant> = OnceLock::new();
        let time = clock_gettime(ClockId::ProcessCPUTime);
        Self {
            used: Duration::new(
                u64::try_from(time.tv_sec).unwrap_or(0),
                u32::try_from(time.tv_nsec).unwrap_or(0),
            ),
            elapsed: START.get_or_init(Instant::now).elapsed(),
        }
    }

    /// What was used between `earlier` and this.
    pub fn since(&self, earlier: &Self) -> Self {
        Self {
            used: self.used.saturating_sub(earlier.used),
            elapsed: self.elapsed.saturating_sub(earlier.elapsed),
        }
    }

    /// Whether, over a period, the process used nine tenths of what `cores` offered.
    pub fn is_saturated(&self, cores: usize) -> bool {
        let offered = self.elapsed.as_nanos() * cores as u128;
        offered > 0 && self.used.as_nanos() * 10 >= offered * SATURATED_TENTHS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saturated_server_holds_the_analyses_two_seconds_at_most_then_lets_them_breathe() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        // Running a while, then saturated: stopped at once.
        assert!(hold(true, None, start, at(5_000)));
        assert!(!hold(false, None, start, at(5_000)), "not saturated: run");
        // Stopped since 0: held until 2 s, then let go even though saturated.
        assert!(hold(true, Some(start), start, at(1_900)));
        assert!(!hold(true, Some(start), start, at(2_000)));
        // Let go at 2 s: they run for half a second before the next hold.
        assert!(!hold(true, None, at(2_000), at(2_400)));
        assert!(hold(true, None, at(2_000), at(2_500)));
        // Not saturated while held: continued at once.
        assert!(!hold(false, Some(start), start, at(100)));
    }

    fn load(used_ms: u64, elapsed_ms: u64) -> Load {
        Load {
            used: Duration::from_millis(used_ms),
            elapsed: Duration::from_millis(elapsed_ms),
        }
    }

    #[test]
    fn saturated_from_nine_tenths_of_what_the_cores_offered() {
        let start = load(5_000, 60_000);
        let after = |used: u64, elapsed: u64| load(5_000 + used, 60_000 + elapsed);
        assert!(after(90, 100).since(&start).is_saturated(1));
        assert!(!after(80, 100).since(&start).is_saturated(1));
        assert!(after(180, 100).since(&start).is_saturated(2));
        assert!(
            !after(100, 100).since(&start).is_saturated(2),
            "one core of two busy: the other is the analysis's"
        );
        assert!(!start.since(&start).is_saturated(1), "an empty period");
    }

    #[test]
    fn the_process_load_counts_its_threads_work() {
        let before = Load::now();
        let busy_until = Instant::now() + Duration::from_millis(50);
        while Instant::now() < busy_until {
            std::hint::spin_loop();
        }
        let spent = Load::now().since(&before);
        assert!(spent.used >= Duration::from_millis(20), "{spent:?}");
        assert!(spent.elapsed >= Duration::from_millis(50), "{spent:?}");
    }
}
