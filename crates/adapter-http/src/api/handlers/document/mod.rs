pub mod delete;
pub mod download;
pub mod get;
pub mod read;
pub mod update_status;
