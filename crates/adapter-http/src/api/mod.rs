//! The signed merchant API of `docs/api.md`: its route table, the signature check every
//! operation passes through, one handler per operation, the request and answer types,
//! and the OpenAPI document generated from them.

pub mod auth;
pub mod dto;
pub mod handlers;
pub mod openapi;
pub mod routes;
pub mod signed;
