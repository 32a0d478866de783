pub mod create;
pub mod delete;
pub mod get;
pub mod read;
pub mod update;
pub mod update_status;
