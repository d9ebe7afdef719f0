//! How the self-play games of a values study are played: the settings both estimators (the
//! regression's corpus and the imbalance matches) share, so each states only what is its own.

use crate::games::Adjudication;
use crate::tournament::Progress;
use crate::values::selfplay::Plan;
use crate::Variant;
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct PlaySettings {
    pub variant: Variant,
    pub nodes: u64,
    pub seed: u64,
    pub random_plies: u32,
    pub max_drift: i32,
    pub adjudication: Adjudication,
    /// Engine weight settings before any per-game change (jitter, neutralisation).
    pub engine: Vec<(String, f32)>,
    pub concurrency: usize,
    pub progress: Progress,
    pub out: PathBuf,
    /// Play only shard `i` of `n` of the games.
    pub shard: Option<(u64, u64)>,
}

impl PlaySettings {
    /// The self-play plan of these settings; `description` says how the caller builds its
    /// jobs (recorded so a directory is never resumed with other jobs), `fens` the start
    /// positions (empty: the variant's).
    pub fn plan(&self, description: String, fens: Vec<String>) -> Plan {
        Plan {
            variant: self.variant,
            nodes: self.nodes,
            random_plies: self.random_plies,
            max_drift: self.max_drift,
            seed: self.seed,
            adjudication: self.adjudication.clone(),
            description,
            concurrency: self.concurrency,
            progress: self.progress.clone(),
            fens,
            shard: self.shard,
            player: None,
        }
    }
}
