//! The HTTP layer: routing, the transport rules every response follows
//! (behaviour.md §1, §2), and one module per resource.
//!
//! Each resource module exposes `endpoints()`: the path, its documentation
//! and its handler together. The router, `GET /api/` and the OpenAPI
//! document are all built from that one list (`router::endpoints`), so
//! they cannot disagree.
//!
//! This module only declares the others and re-exports the few names used
//! outside. Imports among them go one way, from the top of this list to
//! the bottom (a module imports only from modules below it):
//!
//! - `server`: connections, the accept loop, the drain (-> router)
//! - `router`: the endpoint list, the guards, the router (-> resources,
//!   transport, document)
//! - resources: `meta`, `events`, `submissions`, `speakers`, `questions`,
//!   `answers`, `reviews`, `rooms`, `tags`, `changes`, `exports` (-> v1
//!   and everything below)
//! - `v1/`: pretalx's versioned API, handed v1 requests by the resources
//!   (its own order in `v1/mod.rs`)
//! - `transport`: the rules around every handler
//! - `document`: the OpenAPI document from the endpoint list
//! - `export_paths`: the exports' paths, for the response cache's key
//! - `context`: `Caller`, `EventContext`
//! - `endpoint`: `Endpoint`, `Doc`, `Shape`, `ApiResult`, `json`
//! - `openapi`: the schemas of bodies
//! - `state`: `Config`, `AppState`
//! - `metrics`, `response_cache`, `connections`
//! - `pagination`, `params`
//! - `error` (bottom): `ApiError`, `VARY`
//!
//! Nothing here imports from this module (`super::` alone); every file
//! names the sibling an item lives in.

mod answers;
mod changes;
pub mod connections;
mod context;
mod document;
mod endpoint;
pub mod error;
mod events;
mod export_paths;
mod exports;
mod meta;
mod metrics;
mod openapi;
pub mod pagination;
pub mod params;
mod questions;
pub mod response_cache;
mod reviews;
mod rooms;
mod router;
pub mod server;
mod speakers;
mod state;
mod submissions;
mod tags;
mod transport;
mod v1;

pub use context::{Caller, EventContext};
pub use router::{openapi_document, router};
pub use server::serve;
pub use state::{AppState, Config, RateKey, RateLimiter};
