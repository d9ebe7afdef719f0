//! What a long run tells its caller while it works: the library reports events here and
//! never prints; the command line turns them into a progress bar and notes on stderr
//! (`cli::progress`), tests and Rust callers may ignore them.

use super::Encounter;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// One thing that happened in a run.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A two-engine match folder is extended to more rounds.
    Extending { dir: &'a Path, from_rounds: u64, rounds: u64 },
    /// Games finished earlier were found in the folder.
    Resuming { dir: &'a Path, games: usize },
    /// Counted work starts: `done` of `total` units are finished already (resumed games),
    /// `standing` the results they give, when the run keeps a score.
    Started { unit: Unit, label: Option<&'a str>, done: u64, total: u64, standing: Option<&'a Encounter> },
    /// One more unit finished; `done` of the started `total` are.
    Advanced { done: u64, status: Status<'a> },
    /// The counted work is over (finished, stopped early or failed).
    Finished,
    /// Something the user should know about the run (its seed, where games go, ...).
    Note(&'a str),
    /// Something went wrong but the run goes on (a damaged row dropped, ...).
    Warning(&'a str),
}

/// What a run counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Games,
    Epochs,
    Iterations,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Games => "games",
            Unit::Epochs => "epochs",
            Unit::Iterations => "iterations",
        }
    }
}

/// The running result shown beside the count.
#[derive(Clone, Copy, Debug)]
pub enum Status<'a> {
    None,
    /// The first encounter of a tournament.
    Standing(&'a Encounter),
    /// A short text (a tuner's loss, SPSA's current point).
    Text(&'a str),
}

/// Receives a run's events. Events of one run come from one thread, in order.
pub trait Observer: Send + Sync {
    fn event(&self, event: &Event<'_>);
}

/// Where a run sends its events: nowhere (the default), or an [`Observer`].
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<dyn Observer>>);

impl Progress {
    /// Events go nowhere.
    pub fn silent() -> Progress {
        Progress(None)
    }

    pub fn to(observer: impl Observer + 'static) -> Progress {
        Progress(Some(Arc::new(observer)))
    }

    pub fn is_silent(&self) -> bool {
        self.0.is_none()
    }

    pub fn emit(&self, event: Event<'_>) {
        if let Some(o) = &self.0 {
            o.event(&event);
        }
    }

    pub fn note(&self, text: &str) {
        self.emit(Event::Note(text));
    }

    pub fn warn(&self, text: &str) {
        self.emit(Event::Warning(text));
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_silent() { "Progress(silent)" } else { "Progress(observed)" })
    }
}
