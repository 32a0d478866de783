pub mod get;
pub mod read;
pub mod rerun;
