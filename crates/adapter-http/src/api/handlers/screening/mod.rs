pub mod dispose;
pub mod get;
