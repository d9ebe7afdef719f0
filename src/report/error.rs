//! Why a report, or its summary, cannot be made.

use crate::tournament::RunError;
use crate::values::ValuesError;
use crate::variant::VariantError;
use std::fmt;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub enum ReportError {
    /// A budget name other than tiny, quick, standard or full.
    Budget(String),
    /// A value study that cannot be attached to this report (another variant, no
    /// estimators to set against the report's).
    Study(String),
    /// An earlier report.json or a study's files that do not read as such.
    Unreadable {
        path: PathBuf,
        reason: String,
    },
    /// A file or folder that cannot be read, written or made.
    Io {
        path: PathBuf,
        action: &'static str,
        reason: String,
    },
    /// The engine's configuration, weights or spec refused.
    Engine(String),
    /// A run folder's games that cannot be read back.
    Games(String),
    /// A start position (a setup choice) that cannot be made.
    Position(String),
    Values(ValuesError),
    Run(RunError),
    Variant(VariantError),
}

impl ReportError {
    pub(crate) fn io(action: &'static str, path: &std::path::Path, e: impl fmt::Display) -> ReportError {
        ReportError::Io { path: path.to_path_buf(), action, reason: e.to_string() }
    }
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Budget(s) => write!(f, "budget '{s}' must be tiny, quick, standard or full"),
            ReportError::Study(m) | ReportError::Engine(m) | ReportError::Games(m) | ReportError::Position(m) => {
                f.write_str(m)
            }
            ReportError::Unreadable { path, reason } => write!(f, "{}: {reason}", path.display()),
            ReportError::Io { path, action, reason } => write!(f, "cannot {action} {}: {reason}", path.display()),
            ReportError::Values(e) => e.fmt(f),
            ReportError::Run(e) => e.fmt(f),
            ReportError::Variant(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReportError::Values(e) => Some(e),
            ReportError::Run(e) => Some(e),
            ReportError::Variant(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ValuesError> for ReportError {
    fn from(e: ValuesError) -> Self {
        ReportError::Values(e)
    }
}

impl From<RunError> for ReportError {
    fn from(e: RunError) -> Self {
        ReportError::Run(e)
    }
}

impl From<VariantError> for ReportError {
    fn from(e: VariantError) -> Self {
        ReportError::Variant(e)
    }
}
