//! Why a variant did not load.

use crate::position::FenError;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// No built-in variant, `configs/variants/NAME.toml` or file of that name.
    Unknown { name: String, known: Vec<String> },
    /// A variant file named by path that cannot be read.
    Unreadable { path: String, reason: String },
    /// An option the variant does not offer.
    UnknownOption { option: String, available: Vec<String> },
    /// The file is not a valid variant: TOML, schema, movement notation or rules.
    Invalid(String),
    /// The variant's own start position is refused.
    StartPosition { variant: String, error: FenError },
    /// A Fairy-Stockfish variant file (`FILE.ini:NAME`) that fairylab cannot read.
    Ini(crate::variant::ini::IniError),
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Unknown { name, known } => {
                write!(f, "unknown variant '{name}' (known: {})", known.join(", "))
            }
            VariantError::Unreadable { path, reason } => write!(f, "cannot read variant file {path}: {reason}"),
            VariantError::UnknownOption { option, available } => write!(
                f,
                "unknown option '{option}' for this variant (options: {})",
                if available.is_empty() { "none".to_string() } else { available.join(", ") }
            ),
            VariantError::Invalid(m) => f.write_str(m),
            VariantError::StartPosition { variant, error } => write!(f, "{variant}: start position: {error}"),
            VariantError::Ini(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for VariantError {}

impl From<String> for VariantError {
    fn from(m: String) -> Self {
        VariantError::Invalid(m)
    }
}

impl From<VariantError> for String {
    fn from(e: VariantError) -> String {
        e.to_string()
    }
}
