//! Self-play games for the regression, made to have varied material. Games between equal
//! engines from the start position stay close to material equality for a long time, and
//! the imbalances that do arise are the ones the engine's own weights let happen. So a
//! share of the games (`imbalance_fraction`) starts from an *imbalance opening*: White
//! lacks one randomly chosen piece type and Black another, which puts every pair of types
//! against each other independently of what the engine thinks of them. All games get
//! seeded random plies (tournament openings), and optionally jittered weights (see
//! `weights`). Every choice derives from the seed and the game number.

use crate::rng::Rng;
use crate::tournament::engines::EngineSpec;
use crate::values::pieces::Pieces;
use crate::values::play::PlaySettings;
use crate::values::selfplay::{self, Job, Plan};
use crate::values::weights;
use crate::values::ValuesError;

#[derive(Clone, Debug)]
pub struct Settings {
    pub play: PlaySettings,
    pub games: u64,
    pub imbalance_fraction: f64,
    pub jitter: f64,
    /// Start positions games pick from (e.g. every setup choice of Bland Chess 46, so the
    /// setup-only pieces get values); empty: the variant's start position.
    pub fens: Vec<String>,
}

impl Settings {
    pub fn validate(&self) -> Result<(), ValuesError> {
        if self.games == 0 || self.play.nodes == 0 {
            return Err(ValuesError::Settings("--games and --nodes must be positive".into()));
        }
        if !(0.0..=1.0).contains(&self.imbalance_fraction) {
            return Err(ValuesError::Settings(format!(
                "imbalance fraction {} must be between 0 and 1",
                self.imbalance_fraction
            )));
        }
        if !(0.0..0.9).contains(&self.jitter) {
            return Err(ValuesError::Settings(format!(
                "weight jitter {} must be at least 0 and below 0.9",
                self.jitter
            )));
        }
        Ok(())
    }
}

/// The jobs of a corpus: game `i`'s opening imbalance and weights.
pub fn jobs(s: &Settings) -> Result<Vec<Job>, ValuesError> {
    let pieces = Pieces::of(s.play.variant)?;
    let base = weights::material(s.play.variant, &pieces, &s.play.engine)?;
    let starts = match s.fens.len() {
        0 => vec![s.play.variant.start_position()],
        _ => s.fens.iter().map(|f| s.play.variant.parse_fen(f)).collect::<Result<Vec<_>, _>>()?,
    };
    // Only types both sides have at the start can be taken away.
    let mut removable_at = Vec::with_capacity(starts.len());
    for start in &starts {
        let (w, b) = (pieces.counts(&start.material(0))?, pieces.counts(&start.material(1))?);
        let r: Vec<char> =
            (0..pieces.len()).filter(|&t| w[t] > 0 && b[t] > 0).map(|t| pieces.types[t].letter).collect();
        removable_at.push(r);
    }
    let mut jobs = Vec::with_capacity(s.games as usize);
    for i in 0..s.games {
        let opening = selfplay::opening_index(i);
        // The start position the opening index picks (see `tournament::openings::opening`).
        let removable = &removable_at[(opening % starts.len() as u64) as usize];
        let mut rng = Rng::new(s.play.seed ^ (i + 1).wrapping_mul(0xA076_1D64_78BD_642F));
        let imbalance = if removable.len() >= 2 && (rng.next_u64() as f64 / u64::MAX as f64) < s.imbalance_fraction {
            let a = rng.below(removable.len());
            let mut c = rng.below(removable.len() - 1);
            if c >= a {
                c += 1;
            }
            Some((removable[a].to_string(), removable[c].to_string()))
        } else {
            None
        };
        let mut white = s.play.engine.clone();
        let mut black = s.play.engine.clone();
        if s.jitter > 0.0 {
            white.extend(weights::jitter(&pieces, &base, &mut rng, s.jitter));
            black.extend(weights::jitter(&pieces, &base, &mut rng, s.jitter));
        }
        jobs.push(Job { id: i, opening, imbalance, white, black });
    }
    Ok(jobs)
}

/// Plays (or completes) the corpus in `s.play.out` (with a shard, that shard's games); returns
/// how many of its games the directory holds, so callers can tell a complete corpus.
pub fn generate(s: &Settings) -> Result<u64, ValuesError> {
    generate_with(s, None)
}

/// [`generate`] with an external UCI engine (`--engine` spec) as the player.
pub fn generate_with(s: &Settings, player: Option<&EngineSpec>) -> Result<u64, ValuesError> {
    s.validate()?;
    let jobs = jobs(s)?;
    let description = format!(
        "regression corpus: imbalance fraction {}, weight jitter {}, engine {:?}",
        s.imbalance_fraction, s.jitter, s.play.engine
    );
    let plan = Plan { player: player.cloned(), ..s.play.plan(description, s.fens.clone()) };
    let scores = selfplay::play(&plan, &s.play.out, &jobs)?;
    Ok(jobs.iter().filter(|j| scores.contains_key(&j.id)).count() as u64)
}
