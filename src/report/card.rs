//! The answer card: what a designer can quote from a report, first on every page.
//!
//! One value per piece with its 95 % interval, in a unit the data support; each new
//! piece's ratio to the orthodox piece it is compared with; how balanced and how decisive
//! the game is; and which engine played it. Every figure is taken from the report's own
//! figures or an attached study, named as its source; the card computes nothing the
//! pages could not trace back to games.

use super::figures::Interval;
use super::{PieceValue, ReportData};
use crate::values::method::{Fit, Method};
use crate::values::scale::{self, ORTHODOX_UNIT, RATIO_UNIT};
use serde::{Deserialize, Serialize};

/// A draw rate at or above this names the game drawish.
pub const DRAWISH_DRAW_RATE: f64 = 0.5;
/// A share of games ending by repetition at or above this names the game drawish too:
/// games that go round in circles say the players found nothing to play for.
pub const DRAWISH_REPETITION: f64 = 0.4;
/// The precision a card aims at for a headline ratio (95 % half-width).
pub const RATIO_TARGET: f64 = 0.05;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AnswerCard {
    pub unit: CardUnit,
    pub pieces: Vec<CardPiece>,
    pub comparisons: Vec<CardComparison>,
    /// The headline comparisons with each option on, beside the report's own rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<CardOption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<CardBalance>,
    /// The engine that played the games, or why it is not known.
    pub engine: String,
}

/// The scale the card's values are on.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CardUnit {
    /// `orthodox-scale` or `pawns`.
    pub name: String,
    /// How it is anchored: "Q + R + B + N = 20 (textbook 9, 5, 3, 3)", or the pawn.
    pub anchor: String,
    /// Why this unit, in a sentence.
    pub why: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CardPiece {
    pub letter: String,
    pub name: String,
    #[serde(
        serialize_with = "crate::values::support::nan_as_missing",
        deserialize_with = "super::figures::nan_if_null"
    )]
    pub value: f64,
    #[serde(
        serialize_with = "crate::values::support::nan_as_missing",
        deserialize_with = "super::figures::nan_if_null"
    )]
    pub low: f64,
    #[serde(
        serialize_with = "crate::values::support::nan_as_missing",
        deserialize_with = "super::figures::nan_if_null"
    )]
    pub high: f64,
    pub method: String,
    /// `this report`, or the study's name.
    pub source: String,
    /// The evidence in a few words (estimator, games, budget), or why there is no figure.
    pub why: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CardComparison {
    pub piece: String,
    pub other: String,
    /// `piece / other`.
    pub ratio: Interval,
    /// `piece - other` on the card's scale.
    pub difference: Interval,
    pub method: String,
    pub source: String,
    /// What the interval rests on, or why there is none and what would settle it.
    pub why: String,
    /// The direct match of the two pieces priced in local pawns, where the report played
    /// one: evidence that needs no unit beyond the pawns the match itself adds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_check: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CardOption {
    pub option: String,
    pub comparisons: Vec<CardComparison>,
    /// The pieces the option changes, on the card's scale with the option on.
    #[serde(default)]
    pub pieces: Vec<CardPiece>,
    /// The orthodox scale with the option on, where the option changes an orthodox piece
    /// and so the anchor (absent: the card's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CardBalance {
    pub nodes: u64,
    pub games: u64,
    pub white_elo: Interval,
    pub draw_rate: Interval,
    /// The share of games that ended by repetition (NaN when not recorded).
    #[serde(
        serialize_with = "crate::values::support::nan_as_missing",
        deserialize_with = "super::figures::nan_if_null"
    )]
    pub repetition_share: f64,
    pub drawish: bool,
    pub verdict: String,
}

/// The card of a report. `names` gives each piece letter's name.
pub fn build(d: &ReportData, names: &[(char, String)]) -> AnswerCard {
    let name_of = |l: &str| {
        l.chars().next().and_then(|c| names.iter().find(|n| n.0 == c)).map_or_else(|| l.to_string(), |n| n.1.clone())
    };
    let anchored = d.scaled.iter().any(|v| v.unit == ORTHODOX_UNIT)
        || d.studies.iter().chain(&d.evidence).any(|s| s.rows.iter().any(|r| r.unit == ORTHODOX_UNIT));
    let unit = if anchored {
        CardUnit {
            name: ORTHODOX_UNIT.into(),
            anchor: d.scale_anchor.clone().unwrap_or_else(|| "the orthodox pieces at their textbook values".into()),
            why: format!(
                "a pawn given at the start moves this game's results by {}; on a scale anchored on the orthodox pieces the values divide by the fit's best-measured coefficients instead, and the pawn gets a value of its own",
                pawn_price(d)
            ),
        }
    } else {
        CardUnit {
            name: "pawns".into(),
            anchor: "the pawn = 1".into(),
            why: "no value on the orthodox scale in this report (it has no orthodox piece, or was made before the scale existed): values are in pawns".into(),
        }
    };
    let unit_name = unit.name.clone();
    let evidence = Evidence::of(d, &d.scaled, d.studies.iter().chain(&d.evidence), &unit_name);
    let mut pieces: Vec<CardPiece> = vec![];
    for (letter, name) in names {
        let l = letter.to_string();
        // In pawns the pawn is the unit, not a finding.
        if unit_name == "pawns" && d.pieces.iter().any(|p| p.letter == *letter && p.pawn) {
            continue;
        }
        if let Some(p) = evidence.best(&l) {
            pieces.push(card_piece(&l, name, &p));
        }
    }
    let comparisons = d.headline.iter().map(|h| comparison(d, &evidence, h, None)).collect();
    let options = d
        .option_effects
        .iter()
        .filter(|o| !o.scaled.is_empty() || !o.evidence.is_empty())
        .map(|o| {
            let own = Evidence::of(d, &o.scaled, o.evidence.iter(), &unit_name);
            CardOption {
                option: o.option.clone(),
                comparisons: d.headline.iter().map(|h| comparison(d, &own, h, Some(&o.option))).collect(),
                pieces: o.pieces.iter().filter_map(|l| Some(card_piece(l, &name_of(l), &own.best(l)?))).collect(),
                anchor: o
                    .scale_anchor
                    .clone()
                    .filter(|a| unit_name == ORTHODOX_UNIT && Some(a) != d.scale_anchor.as_ref()),
            }
        })
        .collect();
    AnswerCard { unit, pieces, comparisons, options, balance: balance(d), engine: engine_text(d) }
}

/// What the start pawn is worth in Elo here, in words.
fn pawn_price(d: &ReportData) -> String {
    match d.pawn_prices.iter().find(|p| p.option.is_none()).map(|p| &p.pawn_odds_elo) {
        Some(e) if e.is_defined() => format!("{:.1} Elo [{:.1}, {:.1}]", e.value, e.low, e.high),
        _ => "an amount this report did not measure".into(),
    }
}

/// One figure that could go on the card, with where it comes from.
#[derive(Clone, Debug)]
struct Candidate {
    value: PieceValue,
    source: String,
    why: String,
}

/// The figures on the card's scale, from the report and its studies.
struct Evidence<'a> {
    candidates: Vec<Candidate>,
    unit: &'a str,
}

fn report_candidate(v: &PieceValue, d: &ReportData) -> Candidate {
    let nodes = if v.nodes > 0 { v.nodes } else { d.balance.first().map_or(0, |b| b.nodes) };
    Candidate {
        value: v.clone(),
        source: "this report".into(),
        why: format!("{} on {} self-play games at {nodes} nodes", method_words(&v.method), thousands(v.games)),
    }
}

impl<'a> Evidence<'a> {
    /// The report's own `scaled` figures and those of `studies`; in pawns, the report's
    /// piece values too.
    fn of(
        d: &'a ReportData,
        scaled: &[PieceValue],
        studies: impl Iterator<Item = &'a super::study::Study>,
        unit: &'a str,
    ) -> Evidence<'a> {
        let mut candidates: Vec<Candidate> = scaled.iter().map(|v| report_candidate(v, d)).collect();
        if unit == "pawns" {
            candidates.extend(d.piece_values.iter().map(|v| report_candidate(v, d)));
        }
        for s in studies {
            for r in s.rows.iter().filter(|r| (r.unit == unit || r.unit == RATIO_UNIT) && is_main_method(&r.method)) {
                let method = r.method.to_string();
                candidates.push(Candidate {
                    value: PieceValue::of_row(r),
                    source: format!("study {}", study_name(s)),
                    why: format!(
                        "{} on {} games at {} nodes (value study {})",
                        method_words(&method),
                        thousands(r.games),
                        r.nodes,
                        study_name(s)
                    ),
                });
            }
        }
        Evidence { candidates, unit }
    }

    /// The narrowest supported figure for `quantity` (relative to its size), else the
    /// first unsupported one, so the card can say why there is none.
    fn best(&self, quantity: &str) -> Option<Candidate> {
        let unit = if quantity.contains('/') { RATIO_UNIT } else { self.unit };
        let all: Vec<&Candidate> =
            self.candidates.iter().filter(|c| c.value.piece == quantity && c.value.unit == unit).collect();
        let width = |c: &Candidate| (c.value.high - c.value.low) / c.value.value.abs().max(1e-9);
        all.iter()
            .filter(|c| c.value.support.is_supported() && c.value.value.is_finite())
            .min_by(|a, b| width(a).total_cmp(&width(b)))
            .or_else(|| all.first())
            .map(|c| (*c).clone())
    }
}

/// A study's folder name, without the variant and options its name adds when its table
/// holds several (the card's line already says which rules it is about).
fn study_name(s: &super::study::Study) -> &str {
    s.name.split(" (").next().unwrap_or(&s.name)
}

/// The fits a card quotes: not a phase refit or a start fit, which test the main fit.
fn is_main_method(m: &Method) -> bool {
    match m {
        Method::Regression { fit, .. } => *fit == Fit::Positions,
        Method::ImbalanceLsq | Method::ImbalanceBracketLsq => true,
        _ => false,
    }
}

fn method_words(m: &str) -> &'static str {
    if m.starts_with("regression") {
        "regression"
    } else if m.starts_with("imbalance-bracket") {
        "bracketed imbalance matches"
    } else if m.starts_with("imbalance") {
        "imbalance matches"
    } else {
        "estimate"
    }
}

fn card_piece(letter: &str, name: &str, c: &Candidate) -> CardPiece {
    let v = &c.value;
    let supported = v.support.is_supported() && v.value.is_finite();
    CardPiece {
        letter: letter.into(),
        name: name.into(),
        value: if supported { v.value } else { f64::NAN },
        low: if supported { v.low } else { f64::NAN },
        high: if supported { v.high } else { f64::NAN },
        method: v.method.clone(),
        source: c.source.clone(),
        // A piece the scale is anchored on alone has no interval of its own.
        why: if supported && v.low == v.high && v.low == v.value {
            "the scale's anchor, fixed at its textbook value".into()
        } else if supported {
            c.why.clone()
        } else {
            format!("not enough data from {}: {}", c.why, settle(v.games, None))
        },
    }
}

/// How far a figure's 95 % interval reaches on each side of it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Reach {
    below: f64,
    above: f64,
}

impl Reach {
    fn of(value: f64, low: f64, high: f64) -> Reach {
        Reach { below: value - low, above: high - value }
    }

    /// One side more than twice the other: a ratio's interval while its denominator is
    /// barely resolved (Fieller's interval stretches away from zero), which shrinks faster
    /// than one over the square root of the games once the denominator settles.
    fn lopsided(self) -> bool {
        self.below.max(self.above) > 2.0 * self.below.min(self.above)
    }
}

/// What would settle a figure: `games` scaled by the square of the precision wanted over
/// the one reached (a 95 % half-width falls as one over the square root of the games). A
/// lopsided interval is scaled from its shorter side, the one near what the delta method
/// gives, since its long side says how unsettled the denominator is, not how the interval
/// will shrink; the figure is then a lower bound.
fn settle(games: u64, reached: Option<Reach>) -> String {
    let scaled = |h: f64| thousands((games as f64 * (h / RATIO_TARGET).powi(2)).ceil() as u64);
    match reached {
        Some(r) if r.lopsided() && r.below.min(r.above) > RATIO_TARGET => format!(
            "±{RATIO_TARGET} needs at least about {} games (scaled from the interval's shorter side: \
             it is lopsided, as a ratio's is while its denominator is barely resolved)",
            scaled(r.below.min(r.above))
        ),
        Some(r) if r.lopsided() && r.below.max(r.above) > RATIO_TARGET => format!(
            "±{RATIO_TARGET} needs more than these {} games, how many more this lopsided interval does \
             not tell (one side is within ±{RATIO_TARGET}, the other is not: the ratio's denominator is \
             barely resolved)",
            thousands(games)
        ),
        Some(r) if (r.below + r.above) / 2.0 > RATIO_TARGET => format!(
            "±{RATIO_TARGET} needs about {} games (half-widths fall as one over the square root of the games)",
            scaled((r.below + r.above) / 2.0)
        ),
        Some(_) => format!("within the ±{RATIO_TARGET} the card aims at"),
        None => "a bounded interval needs more games or a budget with more of them (`--budget standard`)".into(),
    }
}

/// One headline comparison: its ratio and difference from `scaled` (the report's own rules
/// or an option's), the direct match beside it.
fn comparison(d: &ReportData, evidence: &Evidence, h: &str, option: Option<&str>) -> CardComparison {
    let (piece, other) = h.split_once('/').unwrap_or((h, ""));
    let ratio = evidence.best(h);
    let on_board = d.pieces.iter().any(|p| p.letter.to_string() == other);
    let difference = evidence.best(&format!("{piece}-{other}"));
    let (ratio_iv, method, source, why) = match &ratio {
        Some(c) if c.value.support.is_supported() => {
            let reach = Reach::of(c.value.value, c.value.low, c.value.high);
            (
                interval(&c.value),
                c.value.method.clone(),
                c.source.clone(),
                format!("{}; {}", c.why, settle(c.value.games, Some(reach))),
            )
        }
        Some(c) => (
            Interval::UNDEFINED,
            c.value.method.clone(),
            c.source.clone(),
            format!("not enough data from {}: {}", c.why, settle(c.value.games, None)),
        ),
        // The other piece is not in this game (Noble WingS: the Earl replaces the rook):
        // the ratio is to its textbook value, on the card's scale.
        None if !on_board => match (evidence.best(piece), scale::textbook(other.chars().next().unwrap_or(' '))) {
            (Some(c), Some(t)) if c.value.support.is_supported() && c.value.unit == ORTHODOX_UNIT => (
                Interval { value: c.value.value / t, low: c.value.low / t, high: c.value.high / t },
                c.value.method.clone(),
                c.source.clone(),
                format!(
                    "{other} is not in this game: {piece} on the card's scale over the textbook {other} ({t}); {}",
                    c.why
                ),
            ),
            _ => (
                Interval::UNDEFINED,
                String::new(),
                String::new(),
                format!("{other} is not in this game and {piece} has no value on the orthodox scale"),
            ),
        },
        None => (
            Interval::UNDEFINED,
            String::new(),
            String::new(),
            "no ratio in this report (made before ratios were measured): replay it to get one".into(),
        ),
    };
    let label = format!("{piece}-{other}");
    let match_check = d
        .pawn_prices
        .iter()
        .find(|p| p.option.as_deref() == option && p.comparison == label && p.bracketed.is_defined())
        .map(|p| {
            let b = &p.bracketed;
            format!(
                "the {piece}={other} match, bracketed: {piece} − {other} = {:+.2} [{:+.2}, {:+.2}] local pawns ({} games)",
                b.value,
                b.low,
                b.high,
                thousands(p.games)
            )
        });
    CardComparison {
        piece: piece.into(),
        other: other.into(),
        ratio: ratio_iv,
        difference: difference
            .filter(|c| c.value.support.is_supported())
            .map_or(Interval::UNDEFINED, |c| interval(&c.value)),
        method,
        source,
        why,
        match_check,
    }
}

fn interval(v: &PieceValue) -> Interval {
    Interval { value: v.value, low: v.low, high: v.high }
}

/// Balance at the report's strongest search, and whether the game is drawish.
fn balance(d: &ReportData) -> Option<CardBalance> {
    let b = d.balance.last()?;
    let total: u64 = d.terminations.values().sum();
    let repetition_share =
        if total > 0 { *d.terminations.get("repetition").unwrap_or(&0) as f64 / total as f64 } else { f64::NAN };
    let draw = b.draw_rate.value;
    // Too few games for a draw rate with an interval are too few to name the game by.
    let drawish = b.draw_rate.is_defined() && (draw >= DRAWISH_DRAW_RATE || repetition_share >= DRAWISH_REPETITION);
    let e = &b.white_elo;
    let edge = if !e.is_defined() {
        "White's edge: not enough data".to_string()
    } else if e.low <= 0.0 && 0.0 <= e.high {
        format!("balanced: White's edge {:+.0} Elo [{:+.0}, {:+.0}] includes zero", e.value, e.low, e.high)
    } else {
        format!(
            "{} is favoured: White's edge {:+.0} Elo [{:+.0}, {:+.0}]",
            if e.value > 0.0 { "White" } else { "Black" },
            e.value,
            e.low,
            e.high
        )
    };
    let shape = if !b.draw_rate.is_defined() {
        "draws: not enough data".to_string()
    } else if drawish {
        format!(
            "drawish: {:.0} % of games drawn and {:.0} % ended by repetition (named drawish from {:.0} % draws or {:.0} % repetitions)",
            100.0 * draw,
            100.0 * repetition_share,
            100.0 * DRAWISH_DRAW_RATE,
            100.0 * DRAWISH_REPETITION
        )
    } else {
        format!("decisive: {:.0} % of games drawn, {:.0} % by repetition", 100.0 * draw, 100.0 * repetition_share)
    };
    Some(CardBalance {
        nodes: b.nodes,
        games: b.games,
        white_elo: e.clone(),
        draw_rate: b.draw_rate.clone(),
        repetition_share,
        drawish,
        verdict: format!("{edge}; {shape} ({} games at {} nodes)", thousands(b.games), b.nodes),
    })
}

fn engine_text(d: &ReportData) -> String {
    match &d.engine {
        Some(e) => format!("fairylab {} (commit {}, engine configuration {})", e.version, e.commit, e.config_digest),
        None => format!(
            "fairylab {} (the commit and engine configuration were not recorded when this report was made)",
            d.version
        ),
    }
}

/// `12,400`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A figure with its interval, or "not enough data".
fn figure(value: f64, low: f64, high: f64, digits: usize) -> String {
    if value.is_finite() && low == value && high == value {
        format!("{value:.digits$} (the scale's anchor)")
    } else if value.is_finite() && low.is_finite() && high.is_finite() {
        format!("{value:.digits$} [{low:.digits$}, {high:.digits$}]")
    } else {
        crate::values::support::NOT_ENOUGH.into()
    }
}

/// The card as Markdown: the first section of every page and what the main command prints
/// first.
pub fn markdown(c: &AnswerCard, title: &str) -> String {
    let mut s = format!("## Answer card: {title}\n\n");
    let scale = if c.unit.name == ORTHODOX_UNIT {
        format!("Values on the orthodox scale, {}; {}.", c.unit.anchor, c.unit.why)
    } else {
        format!("Values in pawns; {}.", c.unit.why)
    };
    for k in &c.comparisons {
        s += &format!("* **{}/{}** = {}", k.piece, k.other, figure(k.ratio.value, k.ratio.low, k.ratio.high, 2));
        if k.difference.is_defined() {
            s += &format!(
                ", {} − {} = {} on this scale",
                k.piece,
                k.other,
                figure(k.difference.value, k.difference.low, k.difference.high, 2)
            );
        }
        s += &format!(" ({}).", k.why);
        if let Some(m) = &k.match_check {
            s += &format!(" Direct evidence: {m}.");
        }
        s += "\n";
    }
    for o in &c.options {
        for k in &o.comparisons {
            s += &format!(
                "* with {}: **{}/{}** = {}",
                o.option,
                k.piece,
                k.other,
                figure(k.ratio.value, k.ratio.low, k.ratio.high, 2)
            );
            if let Some(m) = &k.match_check {
                s += &format!("; {m}");
            }
            s += ".\n";
        }
        let scale = o.anchor.as_ref().map_or(String::new(), |a| format!(" on the option's own orthodox scale, {a}"));
        for p in &o.pieces {
            s += &format!(
                "* with {}: {} ({}) = {}{scale}.\n",
                o.option,
                p.name,
                p.letter,
                figure(p.value, p.low, p.high, 2)
            );
        }
    }
    if let Some(b) = &c.balance {
        s += &format!("* Balance: {}.\n", b.verdict);
    }
    // The answer first, then the unit it is in.
    s += &format!("\n{scale}\n");
    s += "\n| piece | value | 95 % interval | evidence |\n|---|---|---|---|\n";
    for p in &c.pieces {
        let (v, iv) = if p.value.is_finite() && p.low == p.high {
            (format!("{:.2}", p.value), "fixed".into())
        } else if p.value.is_finite() {
            (format!("{:.2}", p.value), format!("[{:.2}, {:.2}]", p.low, p.high))
        } else {
            (crate::values::support::NOT_ENOUGH.into(), "-".into())
        };
        s += &format!("| {} ({}) | {v} | {iv} | {} |\n", p.name, p.letter, p.why);
    }
    s += &format!("\nPlayed by {}.\n\n", c.engine);
    s
}

/// The cards of several reports, one block each, compact: what the summary page and the
/// README open with. `links[i]`, when given, is where report i's page is.
pub fn overview(cards: &[(&str, &AnswerCard)], links: &[String]) -> String {
    let mut s = String::new();
    for (i, (title, c)) in cards.iter().enumerate() {
        let head = match links.get(i) {
            Some(l) => format!("**[{title}]({l})**"),
            None => format!("**{title}**"),
        };
        let mut lines: Vec<String> = vec![];
        for k in &c.comparisons {
            lines.push(format!("{}/{} = {}", k.piece, k.other, figure(k.ratio.value, k.ratio.low, k.ratio.high, 2)));
        }
        for o in &c.options {
            for k in &o.comparisons {
                lines.push(format!(
                    "with {}: {}/{} = {}",
                    o.option,
                    k.piece,
                    k.other,
                    figure(k.ratio.value, k.ratio.low, k.ratio.high, 2)
                ));
            }
        }
        let unit =
            if c.unit.name == ORTHODOX_UNIT { format!("orthodox scale, {}", c.unit.anchor) } else { "pawns".into() };
        let values: Vec<String> =
            c.pieces.iter().map(|p| format!("{} {}", p.letter, figure(p.value, p.low, p.high, 2))).collect();
        s += &format!("* {head}: ");
        if !lines.is_empty() {
            s += &format!("{}; ", lines.join("; "));
        }
        s += &format!("values ({unit}): {}.", values.join(", "));
        if let Some(b) = &c.balance {
            s += &format!(" {}", sentence(&b.verdict));
        }
        s += "\n";
    }
    s
}

/// The order the README lists the shipped games in: the bomber games first, the
/// baselines last; other folders follow by name.
const FRONT_PAGE_ORDER: [&str; 5] =
    ["flying-bombers-grand", "flying-bombers-hangars", "bland-chess-46", "noble-wings", "chess"];

/// The README's answer-card block: the cards of every `report.json` under `root` (one
/// folder per report), linked to their pages at `link_root`/folder/report.md.
pub fn front_page(root: &std::path::Path, link_root: &str) -> Result<String, super::ReportError> {
    let mut folders: Vec<String> = std::fs::read_dir(root)
        .map_err(|e| super::ReportError::io("read", root, e))?
        .flatten()
        .filter(|e| e.path().join("report.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let rank = |f: &String| FRONT_PAGE_ORDER.iter().position(|o| o == f).unwrap_or(FRONT_PAGE_ORDER.len());
    folders.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
    let mut reports = vec![];
    for f in &folders {
        let path = root.join(f).join("report.json");
        let text = std::fs::read_to_string(&path).map_err(|e| super::ReportError::io("read", &path, e))?;
        let mut d: ReportData = serde_json::from_str(&text)
            .map_err(|e| super::ReportError::Unreadable { path: path.clone(), reason: e.to_string() })?;
        d.derive();
        reports.push(d);
    }
    let cards: Vec<(&str, &AnswerCard)> =
        reports.iter().filter_map(|d| Some((d.title.as_str(), d.answer.as_ref()?))).collect();
    let links: Vec<String> = folders.iter().map(|f| format!("{link_root}/{f}/report.md")).collect();
    Ok(overview(&cards, &links))
}

/// `text` with a capital first letter and a final full stop.
fn sentence(text: &str) -> String {
    let mut c = text.chars();
    let first = c.next().map(|f| f.to_uppercase().collect::<String>()).unwrap_or_default();
    format!("{first}{}.", c.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(12400), "12,400");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn settling_scales_with_the_square_of_the_precision() {
        let even = |h: f64| Some(Reach::of(1.0, 1.0 - h, 1.0 + h));
        // 6,400 up to the rounding of 0.1 and 0.05 in binary.
        assert!(settle(1600, even(0.1)).contains("about 6,40"), "{}", settle(1600, even(0.1)));
        assert!(settle(1600, even(0.04)).contains("within"));
        assert!(settle(1600, None).contains("bounded"));
    }

    #[test]
    fn a_lopsided_interval_is_scaled_from_its_shorter_side() {
        // Bland Chess 46's tiny card: M/N = 1.61 [0.92, 55.71] from 96 games. Its mean
        // half-width (27.4) would ask for 28.8 million games; the near side (0.69) for 18,283.
        let text = settle(96, Some(Reach::of(1.61, 0.92, 55.71)));
        assert!(text.contains("at least about 18,283 games"), "{text}");
        let text = settle(96, Some(Reach::of(1.61, 1.58, 3.0)));
        assert!(text.contains("more than these 96 games") && !text.contains("about"), "{text}");
        // Mildly uneven intervals (up to twice) keep the half-width rule.
        assert!(settle(1600, Some(Reach::of(1.0, 0.92, 1.12))).contains("about 6,40"));
    }
}
