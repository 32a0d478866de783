//! The end-to-end harness: a fresh database per test (an SQLite file in a temporary
//! folder, or a new PostgreSQL database dropped afterwards), the real `idv` binary
//! started on a free port, merchants made with its CLI, and signed HTTP calls.

pub mod client;
pub mod database;
pub mod leaks;
pub mod receiver;
mod server;
pub mod spy;

pub use client::{Client, Part, Reply, jpeg, multipart, png, sign_v1};
pub use database::{Backend, TestDatabase};
pub use fixtures::moto::S3;
pub use receiver::{Received, Receiver, SlowReceiver};
pub use server::{MASTER_KEY, Merchant, Server, idv};

use serde_json::Value;

/// A server on a fresh database with one merchant: what most tests start from.
pub struct Env {
    pub server: Server,
    pub merchant: Merchant,
}

impl Env {
    pub fn start(backend: Backend) -> Self {
        Self::start_with(backend, &[])
    }

    /// Same, with extra `IDV_*` settings.
    pub fn start_with(backend: Backend, env: &[(&str, &str)]) -> Self {
        let server = Server::start_with(TestDatabase::create(backend), env);
        let merchant = server.create_merchant("Acme");
        Self { server, merchant }
    }

    /// A client signing as the env's merchant.
    pub fn client(&self) -> Client {
        self.server.client(&self.merchant)
    }
}

/// A valid profile body for the pair.
pub fn profile(email: &str, mobile: &str) -> Value {
    serde_json::json!({
        "email_address": email,
        "mobile_number": mobile,
        "first_name": "Ada",
        "last_name": "Lovelace",
    })
}

/// Sets `key` to `value` in a JSON object.
pub fn with(mut body: Value, key: &str, value: Value) -> Value {
    body[key] = value;
    body
}
