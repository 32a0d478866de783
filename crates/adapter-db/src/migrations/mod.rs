//! Everything that changes what is already stored: the schema's migrations (SQL, one
//! folder per backend), the data migrations SQL cannot do (sealing values stored in
//! clear, hashing old quiz links, checking the master key), and master key rotation.

pub mod data;
pub mod rekey;
pub mod schema;
