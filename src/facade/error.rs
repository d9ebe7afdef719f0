//! The crate's error: each layer's own error, wrapped, so a caller can match on where a
//! failure came from and what it was. Layers that still report in text (the command
//! line's checks, engine configs, tuning) have one variant each.

use crate::diagram::DiagramError;
use crate::play::PlayError;
use crate::position::{FenError, PerftError};
use crate::report::ReportError;
use crate::tournament::RunError;
use crate::values::ValuesError;
use crate::variant::VariantError;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    Variant(VariantError),
    Fen(FenError),
    Perft(PerftError),
    /// A tournament or self-play run that cannot start or go on.
    Tournament(RunError),
    Values(ValuesError),
    Report(ReportError),
    Diagram(DiagramError),
    /// A game against the engine that cannot start or be served (`fairylab play`).
    Play(PlayError),
    /// A move, setup or material change a position refuses.
    Position(String),
    /// An engine, its configuration, weights or spec refused.
    Engine(String),
    /// A tuning run (Texel, SPSA, train) that cannot start or go on.
    Tuning(String),
    /// A run folder's games or positions that cannot be read or merged.
    RunFolder(String),
    /// An argument or input file the command line refuses.
    Usage(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Variant(e) => e.fmt(f),
            Error::Fen(e) => e.fmt(f),
            Error::Perft(e) => e.fmt(f),
            Error::Tournament(e) => e.fmt(f),
            Error::Values(e) => e.fmt(f),
            Error::Report(e) => e.fmt(f),
            Error::Diagram(e) => e.fmt(f),
            Error::Play(e) => e.fmt(f),
            Error::Position(m) | Error::Engine(m) | Error::Tuning(m) | Error::RunFolder(m) | Error::Usage(m) => {
                f.write_str(m)
            }
        }
    }
}

/// The source is the wrapped layer's error (its text is also this one's), so a caller
/// holding a `dyn Error` can downcast to it.
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Variant(e) => Some(e),
            Error::Fen(e) => Some(e),
            Error::Perft(e) => Some(e),
            Error::Tournament(e) => Some(e),
            Error::Values(e) => Some(e),
            Error::Report(e) => Some(e),
            Error::Diagram(e) => Some(e),
            Error::Play(e) => Some(e),
            Error::Position(_) | Error::Engine(_) | Error::Tuning(_) | Error::RunFolder(_) | Error::Usage(_) => None,
        }
    }
}

impl From<VariantError> for Error {
    fn from(e: VariantError) -> Error {
        Error::Variant(e)
    }
}

impl From<FenError> for Error {
    fn from(e: FenError) -> Error {
        Error::Fen(e)
    }
}

impl From<PerftError> for Error {
    fn from(e: PerftError) -> Error {
        Error::Perft(e)
    }
}

impl From<RunError> for Error {
    fn from(e: RunError) -> Error {
        Error::Tournament(e)
    }
}

impl From<ValuesError> for Error {
    fn from(e: ValuesError) -> Error {
        Error::Values(e)
    }
}

impl From<ReportError> for Error {
    fn from(e: ReportError) -> Error {
        Error::Report(e)
    }
}

impl From<DiagramError> for Error {
    fn from(e: DiagramError) -> Error {
        Error::Diagram(e)
    }
}
