//! Where document files live: the local file system or an S3-compatible bucket. Both
//! seal the bytes (`sealing::file_cipher`) before they are written, and a file streams
//! from one store to another, or is rewritten under a new key, through `copy`.

pub mod copy;
pub mod local;
pub mod s3;
