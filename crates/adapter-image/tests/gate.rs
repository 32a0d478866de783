//! The analysis gate on real processes: a group under it is stopped while every core this
//! process may use is busy, and continued when it leaves the gate.

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use adapter_image::gate::Admitted;

/// The state letter of process `pid` (`R`, `S`, `T` for stopped...).
fn state(pid: u32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("its stat");
    let after_name = stat.rsplit_once(')').expect("a name in brackets").1;
    after_name.trim_start().chars().next().expect("a state")
}

/// Polls until `pid`'s state is (`true`) or is not (`false`) `T`; whether it came.
fn until_stopped_is(pid: u32, stopped: bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if (state(pid) == 'T') == stopped {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn a_group_is_stopped_while_the_cores_are_saturated_and_continued_when_it_leaves() {
    let mut child = Command::new("sleep")
        .arg("120")
        .process_group(0)
        .spawn()
        .expect("sleep");
    let pid = child.id();
    let admitted = Admitted::new(pid).expect("a process id");
    assert_ne!(state(pid), 'T', "running while the cores are not all busy");

    // Every core this process may use kept busy at normal priority.
    let spinning = Arc::new(AtomicBool::new(true));
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let spinners: Vec<_> = (0..cores)
        .map(|_| {
            let spinning = spinning.clone();
            std::thread::spawn(move || {
                while spinning.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
        })
        .collect();
    let stopped = until_stopped_is(pid, true);
    spinning.store(false, Ordering::Relaxed);
    for spinner in spinners {
        spinner.join().expect("spinner");
    }
    assert!(stopped, "stopped while every core was busy");

    // Leaving the gate continues it, whatever the cores are doing by then.
    drop(admitted);
    assert!(until_stopped_is(pid, false), "continued on leaving");
    child.kill().expect("kill");
    child.wait().expect("wait");
}
