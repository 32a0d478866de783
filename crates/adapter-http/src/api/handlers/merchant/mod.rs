//! `merchant/settings/*`: what a merchant may tune on their own account.
pub mod settings_get;
pub mod settings_update;
