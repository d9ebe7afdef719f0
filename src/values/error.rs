//! Why a value study, or one of its steps, gives no figure.
//!
//! Each variant is one kind of failure a caller may want to tell apart (a bad request,
//! a table file that does not read, games that cannot be fitted, a run that cannot go
//! on); the texts are the ones the command line prints.

use crate::position::FenError;
use crate::tournament::RunError;
use crate::variant::VariantError;
use std::fmt;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub enum ValuesError {
    /// A comparison `X=Y` that does not parse, or names pieces the variant lacks.
    Comparison(String),
    /// A piece letter, material or pawn the variant does not have as asked.
    Pieces(String),
    /// Calibration pawns that cannot be given, or a pawn-odds match that gives no unit.
    Calibration(String),
    /// Games that give no figure: too few, too lopsided, or a fit that does not converge.
    Fit(String),
    /// Run folders or positions whose games cannot be used for this study.
    Games(String),
    /// A study setting out of range (a budget of zero games, a filter beyond 1).
    Settings(String),
    /// A bracket of other than 2 or 3 matches.
    Bracket(u32),
    /// A shard `i/n` that is no part of the games (as given).
    Shard(String),
    /// A value table's method name that no estimator writes.
    UnknownMethod(String),
    /// The engine's configuration, weights or external player spec refused.
    Engine(String),
    /// A position (a start, an opening, a game's) that cannot be made or read.
    Position(String),
    /// A command-line flag's value refused, with the reason.
    Flag {
        flag: String,
        error: Box<ValuesError>,
    },
    /// An experiment file refused: which file, and why.
    Experiment {
        origin: String,
        error: Box<ValuesError>,
    },
    /// An experiment file that is not valid TOML for an experiment (line when known).
    ExperimentSyntax {
        origin: String,
        line: Option<usize>,
        message: String,
    },
    /// A value table that does not read back (line when one row is at fault).
    Table {
        path: PathBuf,
        line: Option<usize>,
        reason: String,
    },
    /// A file or folder that cannot be read, written or made.
    Io {
        path: PathBuf,
        action: &'static str,
        reason: String,
    },
    Run(RunError),
    Variant(VariantError),
    Fen(FenError),
}

impl ValuesError {
    pub(crate) fn io(action: &'static str, path: &std::path::Path, e: impl fmt::Display) -> ValuesError {
        ValuesError::Io { path: path.to_path_buf(), action, reason: e.to_string() }
    }

    pub(crate) fn flag(flag: &str, error: impl Into<ValuesError>) -> ValuesError {
        ValuesError::Flag { flag: flag.to_string(), error: Box::new(error.into()) }
    }

    pub(crate) fn in_experiment(origin: &str, error: impl Into<ValuesError>) -> ValuesError {
        ValuesError::Experiment { origin: origin.to_string(), error: Box::new(error.into()) }
    }
}

impl fmt::Display for ValuesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValuesError::Comparison(m)
            | ValuesError::Pieces(m)
            | ValuesError::Calibration(m)
            | ValuesError::Fit(m)
            | ValuesError::Games(m)
            | ValuesError::Settings(m)
            | ValuesError::Engine(m)
            | ValuesError::Position(m) => f.write_str(m),
            ValuesError::Bracket(n) => write!(f, "a bracket of {n} matches: give 2 or 3"),
            ValuesError::UnknownMethod(m) => write!(f, "unknown value-table method '{m}'"),
            ValuesError::Shard(t) => write!(f, "shard '{t}' must look like i/n with 1 <= i <= n, e.g. 2/4"),
            ValuesError::Flag { flag, error } => write!(f, "{flag}: {error}"),
            ValuesError::Experiment { origin, error } => write!(f, "{origin}: {error}"),
            ValuesError::ExperimentSyntax { origin, line: Some(l), message } => {
                write!(f, "{origin}: line {l}: {message}")
            }
            ValuesError::ExperimentSyntax { origin, line: None, message } => write!(f, "{origin}: {message}"),
            ValuesError::Table { path, line: Some(l), reason } => {
                write!(f, "{}: line {l} {reason}", path.display())
            }
            ValuesError::Table { path, line: None, reason } => write!(f, "{}: {reason}", path.display()),
            ValuesError::Io { path, action, reason } => write!(f, "cannot {action} {}: {reason}", path.display()),
            ValuesError::Run(e) => e.fmt(f),
            ValuesError::Variant(e) => e.fmt(f),
            ValuesError::Fen(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ValuesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ValuesError::Flag { error, .. } | ValuesError::Experiment { error, .. } => Some(error.as_ref()),
            ValuesError::Run(e) => Some(e),
            ValuesError::Variant(e) => Some(e),
            ValuesError::Fen(e) => Some(e),
            _ => None,
        }
    }
}

impl From<RunError> for ValuesError {
    fn from(e: RunError) -> Self {
        ValuesError::Run(e)
    }
}

impl From<VariantError> for ValuesError {
    fn from(e: VariantError) -> Self {
        ValuesError::Variant(e)
    }
}

impl From<FenError> for ValuesError {
    fn from(e: FenError) -> Self {
        ValuesError::Fen(e)
    }
}
