#![recursion_limit = "512"] // large json! literals

//! The integration tests, one binary (fast to link, helpers written once).
//! Each test starts the real server on a random port with its own fresh
//! database (SQLite, or PostgreSQL when CONFAPI_TEST_POSTGRES names an admin
//! URL), or runs the real `confapi` binary, and calls it as a caller of the
//! contract would.

mod helpers;

mod answers;
mod architecture;
mod caching;
mod changes;
mod cli;
mod event_isolation;
mod events;
mod exports;
mod fuzz_corpus;
mod hardening;
mod import_fuzz;
mod leaks;
mod openapi;
mod pagination;
mod questions;
mod reload;
mod resources;
mod reviews;
mod reviews_rooms_tags;
mod roles;
mod rooms;
mod round_trip;
mod speaker_codes;
mod speakers;
mod storage;
mod storage_queries;
mod submissions;
mod sync_hostile;
mod sync_https;
mod tags;
mod text_edits;
mod transport;
mod v1;
mod webhooks;
