//! Why a Fairy-Stockfish variant definition was refused.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IniError {
    /// `--variant` named an `.ini` file without `:NAME`.
    NoName {
        path: String,
    },
    Unreadable {
        path: String,
        reason: String,
    },
    /// No section `[NAME]` (or `[NAME:parent]`) in the file.
    NoSection {
        name: String,
        path: String,
    },
    /// A parent that is neither an earlier section of the file nor a built-in fairylab knows.
    UnknownParent {
        variant: String,
        parent: String,
    },
    /// A key whose rule fairylab cannot play (drops, flag regions, extinction, ...).
    Unsupported {
        variant: String,
        key: String,
        value: String,
    },
    /// A key fairylab reads, with a value it cannot.
    BadValue {
        variant: String,
        key: String,
        value: String,
        why: String,
    },
}

impl fmt::Display for IniError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IniError::*;
        match self {
            NoName { path } => write!(f, "{path}: name the variant as FILE.ini:NAME"),
            Unreadable { path, reason } => write!(f, "cannot read {path}: {reason}"),
            NoSection { name, path } => write!(f, "no variant [{name}] in {path}"),
            UnknownParent { variant, parent } => write!(
                f,
                "[{variant}:{parent}]: fairylab knows the parent '{parent}' neither as an earlier section nor as a built-in (chess)"
            ),
            Unsupported { variant, key, value } => {
                write!(f, "[{variant}]: fairylab's rules cannot express {key} = {value}")
            }
            BadValue { variant, key, value, why } => write!(f, "[{variant}]: {key} = {value}: {why}"),
        }
    }
}

impl std::error::Error for IniError {}
