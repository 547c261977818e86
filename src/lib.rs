//! confapi: the read API of a conference call-for-proposals and scheduling
//! system, compatible with pretalx clients.
//!
//! Layers, from the outside in:
//! - [`http`]: routing, the transport rules, one module per resource;
//! - [`domain`]: the serving snapshot, roles and visibility, the JSON views;
//! - [`cache`]: keeps the snapshot in step with storage;
//! - [`storage`]: one trait, one implementation per database;
//! - [`dataset`]: the import/export format and the demo generator;
//! - [`model`]: the plain data all of them share;
//! - [`json`], [`memory`]: helpers below them all (JSON bodies, prefetching).

pub mod access_log;
pub mod cache;
pub mod dataset;
pub mod domain;
pub mod exports;
pub mod http;
pub mod json;
pub mod log_writer;
pub mod memory;
pub mod model;
pub mod storage;
pub mod sync;
pub mod webhooks;
