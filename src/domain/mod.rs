//! The domain: what the service knows and who may see what.
//!
//! - [`catalog`]: the immutable, indexed snapshot requests are served from;
//! - [`access`]: roles and every visibility rule, in one place;
//! - [`search`]: the `q` indexes;
//! - [`visible`]: ordered visible sets per class, kept per data version;
//! - [`views`]: the JSON object of each resource per role;

pub mod access;
pub mod catalog;
pub mod feed;
pub mod feed_log;
pub mod ids;
pub mod search;
pub mod version;
pub mod views;
pub mod views_v1;
pub mod visible;
