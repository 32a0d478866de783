pub mod create;
pub mod delete;
pub mod expire;
pub mod extend;
pub mod get;
pub mod read;
