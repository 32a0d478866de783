pub mod create;
pub mod get;
pub mod read;
pub mod update;
