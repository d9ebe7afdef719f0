//! The schema of `configs/variants/*.toml`: a variant described as data.
//!
//! Squares are named as in the rules (`e4`, `j10`, `a0`); everything given for White is
//! mirrored rank-wise for Black, so a file lists each rule once.

use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantConfig {
    pub name: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub board: BoardConfig,
    /// Piece types keyed by their (upper-case) FEN letter.
    pub pieces: BTreeMap<String, PieceConfig>,
    /// Start position in the extended FEN of the rules (docs/rules/README.md §3).
    pub start: String,
    #[serde(default)]
    pub pawn: Option<PawnConfig>,
    #[serde(default)]
    pub castling: Vec<CastlingConfig>,
    #[serde(default)]
    pub setup: Option<SetupConfig>,
    #[serde(default)]
    pub rules: RulesConfig,
    #[serde(default)]
    pub draw: DrawConfig,
    /// Named options; each patches this file before it is compiled.
    #[serde(default)]
    pub options: BTreeMap<String, OptionConfig>,
    /// Figures from the literature a report of this variant is checked against.
    #[serde(default)]
    pub published: Published,
    /// What a report of this variant headlines.
    #[serde(default)]
    pub report: ReportSection,
}

/// The comparisons a report puts on its answer card, as `X=Y` (the new piece first):
/// without them a report derives its headline from `replaces` and from the pieces
/// orthodox chess lacks, each against the nearest orthodox piece.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSection {
    #[serde(default)]
    pub headline: Vec<String>,
}

/// Published figures for a variant (orthodox chess has them): a report sets its own
/// measurements beside them, so a reader can see whether the engine's self-play reproduces
/// what stronger players found.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// White's score from the start position in someone's games.
    #[serde(default)]
    pub balance: Vec<PublishedBalance>,
    /// Piece values in pawns.
    #[serde(default)]
    pub values: Vec<PublishedValues>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedBalance {
    pub source: String,
    /// White's score, a fraction in (0, 1).
    pub white_score: f64,
    /// How many games it rests on, where the source says.
    #[serde(default)]
    pub games: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedValues {
    pub source: String,
    /// Piece letter to value in pawns.
    pub pieces: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardConfig {
    pub files: usize,
    pub ranks: usize,
    /// Number of the lowest rank (1 usually, 0 for Hangars).
    #[serde(default = "one")]
    pub first_rank: i32,
    /// Squares inside the rectangle that do not exist.
    #[serde(default)]
    pub holes: Vec<String>,
}

fn one() -> i32 {
    1
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceConfig {
    pub name: String,
    /// Betza-style movement (see `variant::betza`); pawns use `[pawn]` instead.
    #[serde(default)]
    pub movement: String,
    /// The piece whose loss (check-mate or capture) ends the game.
    #[serde(default)]
    pub royal: bool,
    /// Moves as the variant's pawn (`[pawn]` section).
    #[serde(default)]
    pub pawn: bool,
    /// The orthodox chess piece (its letter) this one takes the place of, so reports can
    /// set the two values side by side (Noble WingS: the Earl replaces the rook).
    #[serde(default)]
    pub replaces: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PawnCapture {
    /// One square diagonally forward (orthodox).
    Diagonal,
    /// Straight forward onto an enemy (Bland Chess).
    Forward,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PawnConfig {
    /// White's pawn start rank (rank number as written in square names).
    pub start_rank: i32,
    /// Most squares a pawn may advance from its start rank (1 = never more than one).
    #[serde(default = "two")]
    pub multi_step: u32,
    pub capture: PawnCapture,
    #[serde(default)]
    pub en_passant: bool,
    /// Files from which a pawn may also step sideways (never onto one of these files).
    #[serde(default)]
    pub sideways_files: Vec<String>,
    /// White's promotion rank.
    pub promotion_rank: i32,
    /// Letters of promotion pieces; `setup` stands for the piece types in the side's setup slots.
    pub promotion: Vec<String>,
    /// Promotion only to pieces the side has lost; with nothing lost the pawn waits on the
    /// last rank, uncapturable, and converts when its side next loses a piece (Noble WingS).
    #[serde(default)]
    pub promotion_only_lost: bool,
}

fn two() -> u32 {
    2
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastlingConfig {
    /// Castling-rights letter for White (`K`, `Q`); Black uses the lower case.
    pub right: String,
    pub king_from: String,
    pub king_to: String,
    pub rook_from: String,
    pub rook_to: String,
    /// Letter of the piece in the rook's role (default `R`).
    #[serde(default = "rook_letter")]
    pub rook_piece: String,
    /// Squares that must be empty (king and rook excepted).
    #[serde(default)]
    pub empty: Vec<String>,
    /// Squares the king must not be attacked on (origin, transit, destination).
    #[serde(default)]
    pub safe: Vec<String>,
}

fn rook_letter() -> String {
    "R".into()
}

/// Per-player setup choices written in FEN field 7 (Bland Chess 46).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupConfig {
    /// White's slot squares, lowest file first; Black's are mirrored.
    pub slots: Vec<String>,
    /// Letters a slot may hold.
    pub choices: Vec<String>,
    /// Setup field used when a FEN has none (`WW/WW`).
    pub default: String,
    /// A side whose slots hold exactly this may capture with pawns; other sides may not.
    #[serde(default)]
    pub pawn_capture_setup: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum WinCondition {
    #[default]
    Checkmate,
    KingCapture,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum NoMoveResult {
    #[default]
    Draw,
    Loss,
    Win,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    #[serde(default)]
    pub win: WinCondition,
    /// Result for the side to move when it has no legal move and is not in check.
    #[serde(default)]
    pub stalemate: NoMoveResult,
    /// A piece whose movement is the Flying Bomber's string (either landing rule) runs on
    /// the bomber's own generator; `false` sends it through the generic multi-leg one
    /// (the tests compare the two).
    #[serde(default = "yes")]
    pub leg_fast_path: bool,
}

fn yes() -> bool {
    true
}

impl Default for RulesConfig {
    fn default() -> RulesConfig {
        RulesConfig { win: WinCondition::default(), stalemate: NoMoveResult::default(), leg_fast_path: true }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawConfig {
    /// Automatic draw after this many plies without capture or pawn move (0 = never).
    #[serde(default = "hundred")]
    pub no_progress_plies: u32,
    /// Automatic draw on this occurrence of a position (0 = never).
    #[serde(default = "three")]
    pub repetitions: u32,
    /// Game is adjudicated a draw after this many plies.
    #[serde(default = "ply_cap")]
    pub ply_cap: u32,
    /// Pieces that cannot mate alone with their king (K+X v K is dead).
    #[serde(default)]
    pub lone_minors: Vec<String>,
    /// Pieces bound to one square colour: kings plus any number of these, all on one
    /// colour, is dead.
    #[serde(default)]
    pub colour_bound: Vec<String>,
}

impl Default for DrawConfig {
    fn default() -> Self {
        DrawConfig { no_progress_plies: 100, repetitions: 3, ply_cap: 500, lone_minors: vec![], colour_bound: vec![] }
    }
}

fn hundred() -> u32 {
    100
}
fn three() -> u32 {
    3
}
fn ply_cap() -> u32 {
    500
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionConfig {
    #[serde(default)]
    pub description: String,
    /// A TOML fragment merged into the variant (tables merge, values replace).
    pub patch: toml::Table,
    /// Letters of the pieces whose worth the option changes, for reports that compare a
    /// piece with and without it. Defaults to the pieces the patch redefines; a rule patch
    /// (e.g. how bombers land) names its pieces here.
    #[serde(default)]
    pub pieces: Vec<String>,
}
