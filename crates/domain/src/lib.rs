//! The rules of the identity-verification service, free of I/O.
//!
//! Entities and value objects parse on construction: once you hold a [`profile::Email`]
//! it is a valid e-mail. Use cases live in [`services`] and reach storage, the clock and
//! randomness only through the traits in [`ports`], so every rule is testable in memory.

#![warn(missing_docs)]

pub mod document;
/// Why a use case refused or failed.
pub mod error;
pub mod event;
pub mod ids;
pub mod merchant;
pub mod note;
pub mod paging;
pub mod ports;
pub mod profile;
pub mod quiz;
pub mod services;
mod statuses;
pub mod template;
pub mod validation;

/// In-memory implementations of the ports, for trying the rules and testing code that
/// uses them (feature `memory`).
#[cfg(any(test, feature = "memory"))]
pub mod memory;

#[cfg(any(test, feature = "contract"))]
pub mod contract;

pub use error::DomainError;
pub use time::{Date, OffsetDateTime};
