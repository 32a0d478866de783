//! One module per resource, one file per operation.

pub mod document;
pub mod event;
pub mod fallback;
pub mod health;
pub mod merchant;
pub mod note;
pub mod profile;
pub mod quiz;
pub mod screening;
pub mod template;
pub mod verification;
pub mod webhook;

use crate::error::ApiError;
/// The shared state, as every handler here takes it.
pub use crate::state::State;

pub type Answer<T> = Result<crate::envelope::Reply<T>, ApiError>;
