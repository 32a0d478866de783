//! Webhook endpoints and their deliveries (contract §9).
pub mod create;
pub mod delete;
pub mod delivery_read;
pub mod delivery_retry;
pub mod read;
pub mod rotate_secret;
pub mod update;
