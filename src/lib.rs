//! confapi: the read API of a conference call-for-proposals and scheduling
//! system, compatible with pretalx clients.
//!
//! The map is docs/architecture.md. In short, each module imports only the
//! layers below it (bottom first; `tests/api/architecture.rs` holds it):
//! - [`json`], [`memory`], [`access_log`], [`log_writer`]: helpers below all;
//! - [`model`]: the plain data everyone shares, with its datetimes;
//! - [`dataset`]: the import/export format and the demo generator;
//! - [`domain`]: the serving snapshot, roles and visibility, the views of
//!   both dialects, the change feed's rule;
//! - [`storage`]: one trait, one store per database;
//! - [`cache`] (the snapshot kept in step with storage), [`exports`] (the
//!   schedule exports), [`sync`] (the mirror of a pretalx);
//! - [`webhooks`]: signed deliveries of the feed;
//! - [`http`]: routing, the transport rules, one module per resource;
//! - [`fuzz`]: the fuzz targets' bodies (above all it feeds);
//! - and the binary's CLI (`main.rs`) on top.

pub mod access_log;
pub mod cache;
pub mod dataset;
pub mod domain;
pub mod exports;
pub mod fuzz;
pub mod http;
pub mod json;
pub mod log_writer;
pub mod memory;
pub mod model;
pub mod storage;
pub mod sync;
pub mod webhooks;
