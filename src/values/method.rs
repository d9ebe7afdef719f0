//! How the value tables name their methods. A name is the estimator with what its fit
//! was restricted to appended (`regression-logistic-min-pieces-0.75`), and every reader
//! of the tables (experiments, studies, the report) takes the parts from here.

/// What a phase refit adds to its regression's method name (`regression-logistic-min-pieces-0.75`).
pub const PHASE: &str = "-min-pieces-";

/// What the fit on the games' start material adds to its regression's method name
/// (`regression-logistic-start`).
pub const START: &str = "-start";
