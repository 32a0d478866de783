//! The machine's idle processor time (`/proc/stat`), to tell an analysis that waits for
//! a core from one that is stuck.
//!
//! An analysis runs in the idle scheduling class: while programs of normal priority keep
//! every core busy (another service, a build, a test suite generating its photos), it
//! gets next to no processor time and stands still. Its deadline counts only the time
//! the machine had a core to spare, which it would have had: measured by the clock, a
//! passport page that needs 3 s of work was killed after a minute of waiting, and
//! reported unreadable because the machine was busy, not because of the page.

use std::time::{Duration, Instant};

/// The machine has a core to spare over a period when it left at least the period over
/// this idle: a quarter of a core (`/proc/stat` counts in hundredths of a second, so over
/// a 50 ms tick less than that is noise).
const SPARE_DIVISOR: u32 = 4;

/// The machine's idle time at an instant.
#[derive(Debug, Clone, Copy)]
pub struct Idle {
    /// Every core's idle time added up (waiting on a disk included), since boot; `None`
    /// where `/proc/stat` cannot be read.
    idle: Option<Duration>,
    at: Instant,
}

impl Idle {
    /// Now.
    pub fn now() -> Self {
        Self {
            idle: std::fs::read_to_string("/proc/stat")
                .ok()
                .and_then(|stat| idle_of(&stat)),
            at: Instant::now(),
        }
    }

    /// Whether the machine left a quarter of a core idle between `earlier` and this; yes
    /// where the idle time cannot be read (every moment counts then, as by the clock).
    pub fn had_spare_core_since(&self, earlier: &Self) -> bool {
        match (earlier.idle, self.idle) {
            (Some(before), Some(after)) => {
                let period = self.at.saturating_duration_since(earlier.at);
                after.saturating_sub(before) * SPARE_DIVISOR >= period
            }
            _ => true,
        }
    }
}

/// The idle and I/O-wait time of all cores from the text of `/proc/stat`, whose first line
/// is `cpu  user nice system idle iowait irq softirq steal ...` in clock ticks.
fn idle_of(stat: &str) -> Option<Duration> {
    let line = stat.lines().next()?;
    let mut fields = line.strip_prefix("cpu ")?.split_whitespace().skip(3);
    let mut ticks = || fields.next()?.parse::<u64>().ok();
    let ticks = ticks()?.saturating_add(ticks()?);
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    Some(Duration::from_nanos(
        ticks.saturating_mul(1_000_000_000) / per_second,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_time_is_the_idle_and_io_wait_columns_of_all_cores() {
        let per_second = rustix::param::clock_ticks_per_second();
        let stat = format!(
            "cpu  10 0 5 {} {} 0 0 0 0 0\ncpu0 5 0 2 1 1 0 0 0 0 0\n",
            3 * per_second,
            per_second
        );
        assert_eq!(idle_of(&stat), Some(Duration::from_secs(4)));
        assert_eq!(idle_of("cpu0 1 2 3 4 5\n"), None, "no total line");
        assert_eq!(idle_of("cpu  1 2 3\n"), None, "too few columns");
        assert_eq!(idle_of(""), None);
    }

    #[test]
    fn a_quarter_of_a_core_idle_is_a_core_to_spare() {
        let at = Instant::now();
        let sample = |idle_ms: u64, after_ms: u64| Idle {
            idle: Some(Duration::from_millis(idle_ms)),
            at: at + Duration::from_millis(after_ms),
        };
        let start = sample(1000, 0);
        assert!(sample(1025, 100).had_spare_core_since(&start));
        assert!(!sample(1020, 100).had_spare_core_since(&start), "saturated");
        assert!(!sample(1000, 100).had_spare_core_since(&start));
        let unknown = Idle { idle: None, at };
        assert!(sample(1000, 100).had_spare_core_since(&unknown));
    }

    #[test]
    fn this_machine_reports_its_idle_time() {
        let (first, second) = (Idle::now(), Idle::now());
        assert!(first.idle.is_some() && second.idle >= first.idle);
    }
}
