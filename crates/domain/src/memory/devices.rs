//! Device marks in memory.

use std::collections::HashMap;
use std::sync::Mutex;

use time::OffsetDateTime;

use crate::ids::UserId;
use crate::ports::DeviceMarks;

/// Device marks that are numbers, remembered with what they say: only a mark this fake
/// made reads, as only a mark signed under the master key does in the real adapter.
#[derive(Debug, Default)]
pub struct MemoryDeviceMarks {
    made: Mutex<HashMap<String, (UserId, OffsetDateTime)>>,
}

impl DeviceMarks for MemoryDeviceMarks {
    fn mark(&self, user: &UserId, at: OffsetDateTime) -> String {
        let mut made = self.made.lock().unwrap_or_else(|p| p.into_inner());
        let mark = format!("mark-{}", made.len() + 1);
        made.insert(mark.clone(), (user.clone(), at));
        mark
    }

    fn read(&self, mark: &str) -> Option<(UserId, OffsetDateTime)> {
        let made = self.made.lock().unwrap_or_else(|p| p.into_inner());
        made.get(mark).cloned()
    }
}
