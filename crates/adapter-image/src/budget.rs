//! The time one image may take, counted as processor time: the analysing thread's own and
//! that of the tesseract runs it waits for, never the time spent waiting for a core.
//!
//! The analysis runs in Linux's idle scheduling class, so under a load that keeps every
//! core busy it hardly runs at all. Measured against the clock, its 20 s ran out while it
//! waited, and a document was reported unreadable (or its barcode not found) because the
//! machine was busy, not because of the document. Processor time still stops an image
//! that is costly in itself, whatever the load.

use std::cell::Cell;
use std::marker::PhantomData;
use std::rc::Rc;
use std::time::Duration;

use rustix::time::{ClockId, clock_gettime};

/// Processor time spent against a limit, started on the thread that analyses.
///
/// It reads that thread's clock, so it stays on it (neither `Send` nor `Sync`).
#[derive(Debug)]
pub struct Budget {
    limit: Duration,
    /// The thread's processor time when the budget started.
    started: Duration,
    /// Processor time of the child processes that have ended, charged to this budget
    /// (and shared with the budgets [`narrowed`](Self::narrowed) from it).
    children: Rc<Cell<Duration>>,
    on_this_thread: PhantomData<*const ()>,
}

impl Budget {
    /// A budget of `limit`, counted from now on the calling thread.
    pub fn start(limit: Duration) -> Self {
        Self {
            limit,
            started: thread_time(),
            children: Rc::new(Cell::new(Duration::ZERO)),
            on_this_thread: PhantomData,
        }
    }

    /// A share of this budget for one stage: spent once `most` more is spent or this
    /// one is, whichever comes first; what is spent against it is spent against this
    /// one too.
    pub fn narrowed(&self, most: Duration) -> Self {
        Self {
            limit: self.limit.min(self.spent() + most),
            started: self.started,
            children: Rc::clone(&self.children),
            on_this_thread: PhantomData,
        }
    }

    /// What has been spent: this thread's time since the start, and the children's.
    pub fn spent(&self) -> Duration {
        thread_time().saturating_sub(self.started) + self.children.get()
    }

    /// What is left (zero once it is spent).
    pub fn left(&self) -> Duration {
        self.limit.saturating_sub(self.spent())
    }

    /// Whether it is spent.
    pub fn is_spent(&self) -> bool {
        self.left().is_zero()
    }

    /// Counts a child process's processor time against the budget.
    pub fn charge(&self, child: Duration) {
        self.children.set(self.children.get() + child);
    }
}

/// The calling thread's processor time.
fn thread_time() -> Duration {
    let time = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(time.tv_sec).unwrap_or(0),
        u32::try_from(time.tv_nsec).unwrap_or(0),
    )
}

/// The processor time a running child has used (all its threads, user and system), from
/// `/proc/<pid>/stat`; `None` once it is gone or where there is no such file.
pub fn process_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: the fields counted from after
    // it start at the state (field 3), so utime (14) and stime (15) are the 12th and 13th.
    let (_, fields) = stat.rsplit_once(')')?;
    let mut fields = fields.split_whitespace().skip(11);
    let mut ticks = || fields.next()?.parse::<u64>().ok();
    let ticks = ticks()? + ticks()?;
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    Some(Duration::from_nanos(
        ticks.saturating_mul(1_000_000_000) / per_second,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    /// Spins until the thread's own clock has moved by `work`.
    fn burn(budget: &Budget, work: Duration) {
        let until = budget.spent() + work;
        let mut x = 0u64;
        while budget.spent() < until {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
    }

    #[test]
    fn waiting_costs_nothing_and_work_is_counted() {
        let budget = Budget::start(Duration::from_millis(200));
        // Sleeping is waiting, as a thread starved of a core waits.
        std::thread::sleep(Duration::from_millis(300));
        assert!(!budget.is_spent(), "spent {:?} sleeping", budget.spent());
        burn(&budget, Duration::from_millis(150));
        assert!(!budget.is_spent());
        burn(&budget, Duration::from_millis(60));
        assert!(budget.is_spent());
        assert_eq!(budget.left(), Duration::ZERO);
    }

    #[test]
    fn children_are_charged() {
        let budget = Budget::start(Duration::from_secs(1));
        budget.charge(Duration::from_millis(600));
        assert!(!budget.is_spent());
        assert!(budget.left() <= Duration::from_millis(400));
        budget.charge(Duration::from_millis(400));
        assert!(budget.is_spent());
    }

    #[test]
    fn a_narrowed_budget_ends_first_and_its_spending_counts_for_the_whole() {
        let whole = Budget::start(Duration::from_secs(1));
        whole.charge(Duration::from_millis(100));
        let stage = whole.narrowed(Duration::from_millis(300));
        assert!(stage.left() <= Duration::from_millis(300));
        stage.charge(Duration::from_millis(300));
        assert!(stage.is_spent());
        assert!(!whole.is_spent());
        assert!(
            whole.left() <= Duration::from_millis(600),
            "{:?}",
            whole.left()
        );
        // Never more than the whole has left.
        let late = whole.narrowed(Duration::from_secs(5));
        assert_eq!(late.limit, whole.limit);
    }

    #[test]
    fn a_busy_child_shows_its_time_and_a_sleeping_one_hardly_any() {
        let mut sleeping = Command::new("sleep")
            .arg("5")
            .stdout(Stdio::null())
            .spawn()
            .expect("sleep");
        let mut busy = Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .expect("sh");
        let started = Instant::now();
        // The busy child's time grows as it runs (the load of the machine decides how
        // fast); the sleeping one's stays at what starting it took, a tick at the most.
        let busy_time = loop {
            let time = process_time(busy.id()).expect("a running child's stat");
            if time >= Duration::from_millis(100) || started.elapsed() > Duration::from_secs(60) {
                break time;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let sleeping_time = process_time(sleeping.id()).expect("a running child's stat");
        for child in [&mut busy, &mut sleeping] {
            let _ = child.kill();
            let _ = child.wait();
        }
        assert!(busy_time >= Duration::from_millis(100), "{busy_time:?}");
        assert!(
            sleeping_time <= Duration::from_millis(20),
            "{sleeping_time:?}"
        );
        assert_eq!(process_time(busy.id()), None, "reaped");
    }
}
