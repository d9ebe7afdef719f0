//! Variants as data: the TOML schema, the movement notation, and where files are found.
pub mod betza;
pub mod config;
pub mod error;
pub mod ini;
pub mod registry;

pub use error::VariantError;
