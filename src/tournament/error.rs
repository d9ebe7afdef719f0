//! Why a run (a tournament or the value estimators' self-play) cannot go on.

use super::manifest::Difference;
use std::fmt;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The settings cannot make a run (fewer than two engines, no worker threads, ...).
    Invalid(String),
    /// The folder holds games of other settings.
    DifferentRun {
        dir: PathBuf,
        differences: Vec<Difference>,
        hint: Option<String>,
    },
    /// Same settings, but another engine build or config played the games.
    OtherEngine {
        dir: PathBuf,
    },
    /// The folder's manifest cannot be read as one.
    Unreadable {
        path: PathBuf,
        reason: String,
    },
    /// A player could not be started (a bad engine config or weight name, a UCI engine
    /// that does not start).
    Player(String),
    /// A game's start position could not be made (an imbalance the position cannot give,
    /// an unreadable opening).
    Opening(String),
    Io {
        path: PathBuf,
        reason: String,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Invalid(reason) | RunError::Player(reason) | RunError::Opening(reason) => f.write_str(reason),
            RunError::DifferentRun { dir, differences, hint } => {
                let list: Vec<String> = differences.iter().map(|d| d.to_string()).collect();
                write!(
                    f,
                    "{} holds a different run ({}); resume needs the same settings{}, or choose another output folder",
                    dir.display(),
                    list.join("; "),
                    hint.as_deref().map(|h| format!(" ({h})")).unwrap_or_default()
                )
            }
            RunError::OtherEngine { dir } => write!(
                f,
                "{} holds games played by another engine build or engine config (engine signature in its \
                 run.toml differs): finish it with the build and config that started it, or choose another \
                 output folder",
                dir.display()
            ),
            RunError::Unreadable { path, reason } => write!(f, "{}: {reason}", path.display()),
            RunError::Io { path, reason } => write!(f, "{}: {reason}", path.display()),
        }
    }
}

impl std::error::Error for RunError {}

impl From<RunError> for String {
    fn from(e: RunError) -> Self {
        e.to_string()
    }
}
