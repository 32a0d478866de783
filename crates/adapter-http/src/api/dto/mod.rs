//! The interface's JSON, both ways: request bodies into domain inputs (read field by
//! field, so that every problem of a request is reported at once), and domain objects
//! into the typed answers of interface §2 and §4, which also describe themselves to the
//! OpenAPI document (`api/openapi.rs`).

pub mod document;
pub mod event;
pub mod merchant;
pub mod note;
pub mod paging;
pub mod profile;
pub mod quiz;
pub mod requests;
pub mod rules;
pub mod screening;
pub mod template;
pub mod verification;
pub mod webhook;

/// `1`, the interface's "yes" in `deleted` and `expired`.
pub const YES: u8 = 1;
