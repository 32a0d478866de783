//! The rules of an identity-verification (KYC) service, free of I/O: what a merchant and
//! its clients may do, and what must hold whatever stores the data.
//!
//! # The model
//!
//! A [`merchant::Merchant`] keeps client [`profile::Profile`]s, each identified by its
//! e-mail and mobile number (a [`profile::ProfileKey`], unique per merchant). To verify a
//! client, the merchant sends a [`quiz::Quiz`]: a link built from a template, a list of
//! the 22 verification steps ([`template::Feature`]) each required, optional or not asked
//! for. The quiz keeps a snapshot of the list, so a later template change never alters a
//! link already sent. The client opens the link and hands in each step: typed fields are
//! kept apart from the merchant's own (the profile's
//! [`profile::SubmittedFormFields`]), uploads, an agreement and a device fingerprint
//! become [`document::Document`]s, and the quiz is submitted once every required step is
//! done. The merchant reviews: sets statuses on documents and the profile, writes
//! [`note::Note`]s, reads the activity log. Every change writes an [`event::Event`] in
//! the same unit of work as the change itself.
//!
//! # Parse, don't validate
//!
//! Value objects have one `parse` constructor: once you hold a [`profile::Email`], a
//! [`profile::Ssn`] or a [`profile::Address`], it is valid. Ids are their own types
//! ([`ids`]), so a document id is never passed where a file id belongs.
//!
//! # Wiring the services
//!
//! Use cases live in [`services`], plain structs over the traits of [`ports`]: storage,
//! the file store, the clock, ids and secrets. Give them adapters (this repository's
//! `adapter-db` for SQLite and PostgreSQL, or the in-memory ones of [`memory`], feature
//! `memory`) and call them. `examples/kyc_flow.rs` wires every service on the in-memory
//! adapters and plays a whole quiz:
//! `cargo run -p domain --example kyc_flow --features memory`.
//!
//! An adapter of your own proves itself with the port contract suite of [`contract`]
//! (feature `contract`), which the in-memory, SQLite and PostgreSQL adapters all pass.
//!
//! # Stability
//!
//! Errors, activities and the other enums that will grow are `#[non_exhaustive]` with the
//! feature `stable-api` (for users outside this workspace: match them with a wildcard
//! arm); inside the workspace they are exhaustive, so every adapter answers each case. Entities keep public fields for reading; values whose rules
//! must hold are built through their constructors.

#![warn(missing_docs)]

/// `Debug` that shows only the type's name: for the services and port bundles, whose trait
/// objects do not print themselves and whose contents (secrets, stores) should not.
macro_rules! debug_as_name {
    ($name:ident) => {
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(stringify!($name))
            }
        }
    };
}

pub mod audit;
pub mod document;
/// Why a use case refused or failed.
pub mod error;
pub mod event;
pub mod ids;
pub mod merchant;
pub mod note;
pub mod outbox;
pub mod paging;
pub mod ports;
pub mod profile;
pub mod quiz;
pub mod services;
pub mod session;
pub mod signals;
mod statuses;
pub mod template;
pub mod user;
pub mod validation;
pub mod verification;
pub mod watchlist;
pub mod webhook;

/// In-memory implementations of the ports, for trying the rules and testing code that
/// uses them (feature `memory`).
#[cfg(any(test, feature = "memory"))]
pub mod memory;

#[cfg(any(test, feature = "contract"))]
pub mod contract;

pub use error::DomainError;
pub use time::{Date, OffsetDateTime};
