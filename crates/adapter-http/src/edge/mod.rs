//! What every request meets before any route: who is asking (the client address behind
//! trusted proxies), the bounds on connections, bodies and rates, the metrics each
//! answer is counted in, and the redaction that keeps quiz tokens out of the logs.

pub mod body;
pub mod client_addr;
pub mod connections;
pub mod metrics;
pub mod ratelimit;
pub mod redact;
