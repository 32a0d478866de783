//! A clock in memory: one that always says the same time.

use time::OffsetDateTime;
use time::macros::datetime;

use crate::ports::Clock;

/// A clock that always says the same time.
#[derive(Debug)]
pub struct FixedClock(pub OffsetDateTime);

impl Default for FixedClock {
    fn default() -> Self {
        Self(datetime!(2026-11-22 10:00 UTC))
    }
}

impl Clock for FixedClock {
    fn now(&self) -> OffsetDateTime {
        self.0
    }
}
