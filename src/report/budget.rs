//! How many games a report plays: the budgets and what each rules setting's piece values
//! get beyond the regression.

use super::ReportError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Budget {
    /// Seconds: for smoke tests only, figures are noise.
    Tiny,
    Quick,
    Standard,
    Full,
}

impl FromStr for Budget {
    type Err = ReportError;

    fn from_str(s: &str) -> Result<Budget, ReportError> {
        Budget::ALL.into_iter().find(|b| b.name() == s).ok_or_else(|| ReportError::Budget(s.to_string()))
    }
}

/// The name `--budget` takes, so that pages quote what the reader would type.
impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Budget {
    pub const ALL: [Budget; 4] = [Budget::Tiny, Budget::Quick, Budget::Standard, Budget::Full];

    fn name(self) -> &'static str {
        match self {
            Budget::Tiny => "tiny",
            Budget::Quick => "quick",
            Budget::Standard => "standard",
            Budget::Full => "full",
        }
    }

    /// Node budgets per move of the balance runs (draw rates depend on strength).
    pub fn nodes(self) -> [u64; 2] {
        match self {
            Budget::Tiny => [100, 200],
            Budget::Quick => [1000, 2000],
            Budget::Standard => [2000, 8000],
            Budget::Full => [8000, 32000],
        }
    }
    /// Game pairs per balance run.
    pub fn pairs(self) -> u64 {
        match self {
            Budget::Tiny => 2,
            Budget::Quick => 100,
            Budget::Standard => 400,
            Budget::Full => 2000,
        }
    }
    /// Self-play games of the regression of an option's rules (and of chess beside a
    /// variant whose pieces replace orthodox ones); the report's own rules get
    /// [`Budget::main_value_games`].
    pub fn value_games(self) -> u64 {
        match self {
            Budget::Tiny => 96,
            Budget::Quick => 400,
            _ => self.pairs() * 4,
        }
    }

    /// Self-play games of the regression of the report's own rules: the answer card's
    /// evidence. Its ratios (F/R) and values on the orthodox scale need no pawn, and their
    /// 95 % half-width falls as one over the square root of the games: in Flying Bombers
    /// Grand Chess F/R came to ±0.135 from 492 games at 2,000 nodes, so about 3,600 games
    /// reach the card's ±0.05. They are the cheapest figure a report buys (a fifth of a
    /// CPU-second a game at 1,000 nodes), so the quick budget spends half its time on
    /// them (2,400 games, about ±0.065; 3,600 would take the main command past ten
    /// minutes), and the standard budget four times what its options get.
    pub fn main_value_games(self) -> u64 {
        match self {
            Budget::Tiny => 96,
            Budget::Quick => 2400,
            _ => self.pairs() * 16,
        }
    }

    /// Most games of each imbalance match (and of its pawn-odds calibration). The quick
    /// budget plays only the headline match with its calibration and bracket, for its own
    /// rules, as a direct check beside the regression's ratio. The standard budget plays
    /// two games per balance game: with the redundant matches, the rebuilt links, the
    /// bracket and the replay at the stronger search, Grand Chess's three rule settings
    /// come to about twenty matches, and four games each would take a two-core machine
    /// most of a day instead of a few hours.
    pub fn imbalance_games(self) -> u64 {
        match self {
            Budget::Quick => self.pairs() * 4,
            Budget::Standard => self.pairs() * 2,
            _ => self.pairs() * 4,
        }
    }

    /// Whether the imbalance chain through every piece is played. The quick budget (the
    /// README's main command, about ten minutes on two cores) leaves it out: at 400 games
    /// per match its nine or more matches would take most of the time and still convert
    /// to pawns with intervals of several pawns, while the headline match and the balance
    /// get the games instead. The tiny budget keeps every step, for the tests.
    pub fn imbalance_chain(self) -> bool {
        self != Budget::Quick
    }

    /// What a rules setting's piece values get beyond the regression; `main` is the
    /// report's own rules (not one of the option runs). Every budget but `quick` plays
    /// imbalance matches for every rules setting and prices each setting's headline in
    /// local pawns (three bracket matches of X against Y plus k pawns): in Flying Bombers
    /// Grand Chess a pawn given at the start moves 1,000-node games by only about 13 Elo,
    /// so the headline converted with it spans several pawns, while its bracket prices it
    /// within about a pawn. The quick budget plays the matches for its own rules only: an
    /// option's headline is its regression ratio, which the card quotes. From `standard`
    /// up the pawn-odds match is also replayed under the headline's neutral weights (the
    /// scale check), and the main rules get the sensitivity section (the regression
    /// refitted with another phase filter, the headline replayed at the stronger search);
    /// the quick budget leaves both out to keep the README's main command near ten
    /// minutes. The tiny budget keeps every step, for the tests.
    pub fn pricing(self, main: bool) -> Pricing {
        let regression_games = if main { self.main_value_games() } else { self.value_games() };
        match self {
            Budget::Quick => {
                Pricing { bracket: main, scale_check: false, sensitivity: false, matches: main, regression_games }
            }
            _ => Pricing { bracket: true, scale_check: true, sensitivity: main, matches: true, regression_games },
        }
    }

    /// The chess regression set beside a variant whose pieces replace orthodox ones: no
    /// matches, no pricing.
    pub fn orthodox_pricing(self) -> Pricing {
        Pricing { regression_games: self.value_games(), ..Pricing::default() }
    }

    pub fn small_pairs(self) -> u64 {
        match self {
            Budget::Tiny => 1,
            // 20 games per cell: the fewest that get an interval (MIN_GAMES) with a margin.
            Budget::Quick => 10,
            Budget::Standard => 40,
            Budget::Full => 200,
        }
    }
}

/// The steps a rules setting's piece values add to the two estimators (see
/// [`Budget::pricing`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pricing {
    /// The headline priced in local pawns by its bracket.
    pub bracket: bool,
    /// The pawn-odds match replayed under the headline's neutral weights.
    pub scale_check: bool,
    /// The regression refitted with another phase filter and the headline (or one link of
    /// the chain) replayed at the stronger search.
    pub sensitivity: bool,
    /// Whether imbalance matches are played at all (the headline, a chain, the matches of
    /// the pieces an option changes).
    pub matches: bool,
    /// Self-play games of the regression.
    pub regression_games: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_budget_reads_back_from_the_name_it_prints() {
        for b in Budget::ALL {
            assert_eq!(b.to_string().parse::<Budget>().unwrap(), b);
        }
        assert_eq!(Budget::Quick.to_string(), "quick");
        assert!(matches!("Quick".parse::<Budget>(), Err(ReportError::Budget(s)) if s == "Quick"));
    }
}
