//! How a value table's row was estimated. Tables (`values.csv`, `values.json`, the
//! studies kept in report.json) write a method as text, `regression-logistic-min-pieces-0.75`;
//! in the code it is a [`Method`], so readers match on the estimator and the fit instead of
//! taking the text apart again. The text reads back to the same method and is written
//! exactly as before.

use super::ValuesError;
use crate::maths::logistic::Model;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// What a phase refit adds to its regression's method name (`regression-logistic-min-pieces-0.75`).
pub const PHASE: &str = "-min-pieces-";

/// What the fit on the games' start material adds to its regression's method name
/// (`regression-logistic-start`).
pub const START: &str = "-start";

/// Which observations a regression was fitted on (and so which fit a log-ratio row tests).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fit {
    /// The quiet positions the report's phase filter keeps.
    Positions,
    /// Refitted on positions holding at least this share of the start's pieces.
    Phase(f64),
    /// The material each game started with, one observation per game.
    Start,
}

impl Fit {
    fn suffix(self) -> String {
        match self {
            Fit::Positions => String::new(),
            Fit::Phase(share) => format!("{PHASE}{share}"),
            Fit::Start => START.to_string(),
        }
    }

    fn parse(rest: &str) -> Option<Fit> {
        if rest.is_empty() {
            Some(Fit::Positions)
        } else if rest == START {
            Some(Fit::Start)
        } else {
            let share = rest.strip_prefix(PHASE)?;
            // Only a share written as the tables write it reads back to the same text.
            share.parse::<f64>().ok().filter(|x| x.to_string() == share).map(Fit::Phase)
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    /// The regression on self-play positions (or starts), with its model.
    Regression { model: Model, fit: Fit },
    /// One imbalance match `X=Y`, converted with the pawn-odds match.
    Imbalance,
    /// The imbalance matches combined by least squares into piece values.
    ImbalanceLsq,
    /// One comparison priced by its bracket, in local pawns.
    ImbalanceBracket,
    /// The bracketed differences combined into piece values.
    ImbalanceBracketLsq,
    /// The pawn-odds calibration match.
    PawnOdds,
    /// The pawn-odds match replayed under the neutral weights of a comparison (`F=R`).
    PawnOddsUnder(String),
    /// The two estimators' log-ratio test: regression (`fit`) against the imbalance
    /// least-squares values, or against the bracketed ones.
    LogRatio { bracket: bool, fit: Fit },
}

impl Method {
    pub fn regression(model: Model, fit: Fit) -> Method {
        Method::Regression { model, fit }
    }

    /// Whether the row comes from the regression, whatever its model and fit.
    pub fn is_regression(&self) -> bool {
        matches!(self, Method::Regression { .. })
    }

    /// The regression's or the log-ratio test's fit.
    pub fn fit(&self) -> Option<Fit> {
        match self {
            Method::Regression { fit, .. } | Method::LogRatio { fit, .. } => Some(*fit),
            _ => None,
        }
    }
}

/// The text as the tables write it; padded as a string is (`{:<18}` aligns a column).
impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Method::Regression { model, fit } => format!("regression-{}{}", model.name(), fit.suffix()),
            Method::Imbalance => "imbalance".into(),
            Method::ImbalanceLsq => "imbalance-lsq".into(),
            Method::ImbalanceBracket => "imbalance-bracket".into(),
            Method::ImbalanceBracketLsq => "imbalance-bracket-lsq".into(),
            Method::PawnOdds => "pawn-odds".into(),
            Method::PawnOddsUnder(c) => format!("pawn-odds@{c}"),
            Method::LogRatio { bracket, fit } => {
                format!("log-ratio{}{}", if *bracket { "-bracket" } else { "" }, fit.suffix())
            }
        };
        f.pad(&text)
    }
}

impl FromStr for Method {
    type Err = ValuesError;

    fn from_str(s: &str) -> Result<Method, ValuesError> {
        let unknown = || ValuesError::UnknownMethod(s.to_string());
        Ok(match s {
            "imbalance" => Method::Imbalance,
            "imbalance-lsq" => Method::ImbalanceLsq,
            "imbalance-bracket" => Method::ImbalanceBracket,
            "imbalance-bracket-lsq" => Method::ImbalanceBracketLsq,
            "pawn-odds" => Method::PawnOdds,
            _ => {
                if let Some(c) = s.strip_prefix("pawn-odds@").filter(|c| !c.is_empty()) {
                    Method::PawnOddsUnder(c.to_string())
                } else if let Some(rest) = s.strip_prefix("regression-") {
                    let (model, rest) = ["logistic", "ordinal"]
                        .iter()
                        .find_map(|m| Some((Model::parse(m).ok()?, rest.strip_prefix(m)?)))
                        .ok_or_else(unknown)?;
                    Method::Regression { model, fit: Fit::parse(rest).ok_or_else(unknown)? }
                } else if let Some(rest) = s.strip_prefix("log-ratio") {
                    let (bracket, rest) = rest.strip_prefix("-bracket").map_or((false, rest), |r| (true, r));
                    Method::LogRatio { bracket, fit: Fit::parse(rest).ok_or_else(unknown)? }
                } else {
                    return Err(unknown());
                }
            }
        })
    }
}

/// Written as its text, so every table reads as before.
impl Serialize for Method {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Method {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Method, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_reads_back_to_its_own_text() {
        for text in [
            "imbalance",
            "imbalance-lsq",
            "imbalance-bracket",
            "imbalance-bracket-lsq",
            "pawn-odds",
            "pawn-odds@F=R",
            "regression-logistic",
            "regression-ordinal-start",
            "regression-logistic-min-pieces-0.75",
            "log-ratio",
            "log-ratio-start",
            "log-ratio-bracket-min-pieces-0.6",
        ] {
            let m: Method = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        let m: Method = "regression-ordinal-min-pieces-0.75".parse().unwrap();
        assert_eq!(m, Method::regression(Model::Ordinal, Fit::Phase(0.75)));
        for bad in ["", "regression", "regression-probit", "log-ratio-end", "pawn-odds@", "engine"] {
            assert!(bad.parse::<Method>().is_err(), "{bad}");
        }
    }
}
