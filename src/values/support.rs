//! Whether the data support a figure at all. A value in pawns is a ratio over the pawn's
//! worth, and when that worth is not clearly above zero the ratio's confidence set is
//! unbounded (Fieller's theorem, `maths::fieller`): any number printed then, with any
//! interval, would be read as a finding it is not. Every estimate carries this status from
//! where it is computed to every table and page, which print "not enough data" (and the
//! reason in the note) instead of the numbers, and leave the numbers out of CSV and JSON.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Support {
    /// The value and its 95 % interval are finite and may be quoted.
    #[default]
    Supported,
    /// No figure: the value and interval are NaN (null in JSON, empty in CSV).
    NotEnoughData,
}

impl Support {
    pub fn is_supported(self) -> bool {
        self == Support::Supported
    }
}

/// What every page prints in place of an unsupported figure.
pub const NOT_ENOUGH: &str = "not enough data";

/// Reads a missing figure (null in JSON, empty in CSV) back as NaN: the inverse of
/// [`nan_as_missing`].
pub fn missing_as_nan<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// Serializes NaN as a missing field (empty in CSV, null in JSON) rather than the text `NaN`.
pub fn nan_as_missing<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_nan() {
        s.serialize_none()
    } else {
        s.serialize_some(x)
    }
}
