//! The contract of device marks ([`DeviceMarks`]): a mark says who signed in when, and
//! nothing but a mark made by the same service reads. Each check gets fresh marks.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use time::macros::datetime;

use super::CheckOn;
use crate::ids::UserId;
use crate::ports::DeviceMarks;

/// One promise of the marks' contract, run on fresh marks.
pub type DeviceCheck = CheckOn<Arc<dyn DeviceMarks>>;

/// Every check, by a name that reads as the promise.
pub const DEVICE_CHECKS: &[(&str, DeviceCheck)] = checks![
    "a_mark_reads_as_the_user_and_the_time_it_was_made_for" => reads_back,
    "a_changed_cut_or_made_up_mark_does_not_read" => forgeries,
];

async fn reads_back(marks: Arc<dyn DeviceMarks>) {
    let (ada, bob) = (UserId::from("u-ada"), UserId::from("u-bob"));
    let (early, late) = (
        datetime!(2026-11-01 08:00 UTC),
        datetime!(2026-11-20 17:30 UTC),
    );
    let first = marks.mark(&ada, early);
    let second = marks.mark(&bob, late);
    assert_ne!(first, second);
    assert_eq!(marks.read(&first), Some((ada.clone(), early)));
    assert_eq!(marks.read(&second), Some((bob, late)));
    assert_eq!(marks.read(&first), Some((ada, early)), "a mark reads again");
}

async fn forgeries(marks: Arc<dyn DeviceMarks>) {
    let mark = marks.mark(&UserId::from("u-ada"), datetime!(2026-11-01 08:00 UTC));
    assert!(
        mark.chars()
            .all(|c| c.is_ascii_graphic() && c != ';' && c != ','),
        "a mark fits in a cookie: {mark}"
    );
    let mut changed = Vec::new();
    for at in [0, mark.len() / 2, mark.len() - 1] {
        let mut bytes = mark.clone().into_bytes();
        bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
        changed.push(String::from_utf8(bytes).expect("ASCII"));
    }
    let cut = mark[..mark.len() - 1].to_owned();
    let longer = format!("{mark}A");
    for forged in changed.iter().chain([&cut, &longer]) {
        assert_eq!(marks.read(forged), None, "{forged} read as a mark");
    }
    for made_up in ["", ".", "u-ada", "u-ada.1793520000", "mark-1 "] {
        assert_eq!(marks.read(made_up), None, "{made_up:?} read as a mark");
    }
}

/// Runs every check on fresh marks from `fresh`, each under its name; panics naming
/// every check that failed.
pub fn run_all(
    fresh: impl FnMut() -> Arc<dyn DeviceMarks>,
    block_on: impl Fn(Pin<Box<dyn Future<Output = ()> + Send>>),
) {
    super::run_each(DEVICE_CHECKS, fresh, block_on);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::MemoryDeviceMarks;

    #[test]
    fn the_memory_marks_keep_the_contract() {
        run_all(
            || Arc::new(MemoryDeviceMarks::default()),
            futures_executor::block_on,
        );
    }
}
