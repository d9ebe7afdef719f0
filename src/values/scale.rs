//! The card's unit: values on a scale anchored on the orthodox pieces, and the headline
//! comparisons as ratios.
//!
//! A value in pawns divides by the pawn's coefficient, and where a pawn moves the result
//! little (Flying Bombers Grand Chess: about 13 Elo at 1,000 nodes) that divisor is the
//! noisiest figure of the fit, so every value in pawns inherits its error. Anchored on
//! the orthodox pieces instead (their coefficients summed, set to the sum of their
//! textbook values 3, 3, 5 and 9), values divide by the best-measured quantity of the fit,
//! and the pawn gets a value of its own. A ratio of two pieces (`F/R`) needs no unit at
//! all. Both come from the same bootstrap refits as the values, with Fieller's interval.

use super::pieces::Pieces;
use crate::Variant;
use std::fmt;

/// The textbook value of each orthodox piece, the anchor of the card's scale.
pub const TEXTBOOK: [(char, f64); 4] = [('N', 3.0), ('B', 3.0), ('R', 5.0), ('Q', 9.0)];

/// The textbook value of the orthodox piece `o` (`N`, `B`, `R`, `Q`).
pub fn textbook(o: char) -> Option<f64> {
    TEXTBOOK.iter().find(|t| t.0 == o).map(|t| t.1)
}

/// Why a comparison is on a variant's card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadlineSource {
    /// The variant file's `[report] headline`.
    File,
    /// The piece `replaces` the orthodox one.
    Replaces,
    /// A piece orthodox chess lacks, against the orthodox piece nearest it in the engine's
    /// material weights.
    Nearest,
}

/// A comparison on the card: `piece` against `other`, read as `piece/other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Headline {
    pub piece: char,
    pub other: char,
    pub source: HeadlineSource,
}

impl Headline {
    /// `F=R`, as matches and contrasts spell a comparison.
    pub fn equation(&self) -> String {
        format!("{}={}", self.piece, self.other)
    }
    /// `F/R`, the ratio's name in tables.
    pub fn ratio_label(&self) -> String {
        format!("{}/{}", self.piece, self.other)
    }
}

impl fmt::Display for Headline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.piece, self.other)
    }
}

/// The variant's headline comparisons: its file's `[report] headline`, or else each piece
/// that `replaces` an orthodox one against it, and each other piece orthodox chess lacks
/// against the orthodox piece of this variant nearest it by `rough` values (letter,
/// value; the engine's material weights), so a variant nobody wrote a report section for
/// still gets one for every new piece.
pub fn headlines(file: &[(char, char)], pieces: &Pieces, rough: &[(char, f64)]) -> Vec<Headline> {
    if !file.is_empty() {
        return file.iter().map(|&(piece, other)| Headline { piece, other, source: HeadlineSource::File }).collect();
    }
    let orthodox: Vec<char> = pieces.types.iter().filter(|t| t.orthodox.is_some()).map(|t| t.letter).collect();
    let value = |c: char| rough.iter().find(|r| r.0 == c).map(|r| r.1).filter(|v| *v > 0.0);
    let mut out = vec![];
    for t in pieces.types.iter().filter(|t| !t.pawn && t.orthodox.is_none()) {
        if let Some(r) = t.replaces.filter(|&r| r != 'P' && r != 'K') {
            out.push(Headline { piece: t.letter, other: r, source: HeadlineSource::Replaces });
            continue;
        }
        let Some(v) = value(t.letter) else { continue };
        let nearest = orthodox
            .iter()
            .filter_map(|&o| Some((o, (v / value(o)?).ln().abs())))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|x| x.0);
        if let Some(other) = nearest {
            out.push(Headline { piece: t.letter, other, source: HeadlineSource::Nearest });
        }
    }
    out
}

/// The headlines of `variant`: its file's, or derived with the default engine's
/// middlegame material weights as the rough values.
pub fn variant_headlines(variant: Variant, pieces: &Pieces) -> Vec<Headline> {
    let rough: Vec<(char, f64)> = match super::weights::material(variant, pieces, &[]) {
        Ok(m) => {
            let pawn = m[pieces.pawn].0 as f64;
            pieces.types.iter().zip(&m).map(|(t, w)| (t.letter, w.0 as f64 / pawn)).collect()
        }
        Err(_) => vec![],
    };
    headlines(variant.headline(), pieces, &rough)
}

/// What one scaled quantity measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaledKind {
    /// A piece's value on the orthodox scale.
    Value,
    /// The difference of two pieces on the orthodox scale.
    Difference,
    /// One piece over another.
    Ratio,
}

impl ScaledKind {
    /// The `unit` column of a value table.
    pub fn unit(self) -> &'static str {
        match self {
            ScaledKind::Value | ScaledKind::Difference => ORTHODOX_UNIT,
            ScaledKind::Ratio => RATIO_UNIT,
        }
    }
}

/// The unit of values on the orthodox scale, as tables write it.
pub const ORTHODOX_UNIT: &str = "orthodox-scale";
/// The unit of a ratio of two pieces.
pub const RATIO_UNIT: &str = "ratio";

/// `sum(num_t beta_t)` over a denominator, per piece type in `Pieces` order.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaled {
    pub label: String,
    pub kind: ScaledKind,
    pub num: Vec<f64>,
    pub den: Denominator,
}

/// What a scaled quantity divides by.
#[derive(Clone, Debug, PartialEq)]
pub enum Denominator {
    /// One piece type's coefficient (a ratio).
    Piece(usize),
    /// The orthodox types' coefficients summed, scaled to the sum of their textbook values
    /// (per type, zero for the others). A type the data never see unequal drops out of
    /// both sums, so the anchor stays the textbook values of the pieces it holds.
    Anchor(Vec<f64>),
}

/// The anchor: the orthodox types of `pieces` with their textbook values, and what they
/// add up to. Empty without orthodox pieces (then the card stays in pawns).
pub fn anchor(pieces: &Pieces) -> Vec<(usize, char, f64)> {
    let mut a: Vec<(usize, char, f64)> =
        pieces.types.iter().enumerate().filter_map(|(i, t)| Some((i, t.letter, textbook(t.orthodox?)?))).collect();
    // Dearest first, as the textbook lists them.
    a.sort_by(|x, y| y.2.total_cmp(&x.2).then(x.1.cmp(&y.1)));
    a
}

/// How the scale is anchored, in words: "N + B + R + Q = 20 (textbook 3, 3, 5, 9)".
pub fn anchor_text(pieces: &Pieces) -> Option<String> {
    let a = anchor(pieces);
    if a.is_empty() {
        return None;
    }
    let letters: Vec<String> = a.iter().map(|x| x.1.to_string()).collect();
    let values: Vec<String> = a.iter().map(|x| format!("{}", x.2)).collect();
    let total: f64 = a.iter().map(|x| x.2).sum();
    Some(format!("{} = {total} (textbook {})", letters.join(" + "), values.join(", ")))
}

/// Every quantity the card reads from a regression: each piece on the orthodox scale (the
/// pawn included), and for each headline whose two pieces are in the variant, their
/// ratio and their difference on that scale. Without orthodox pieces, only the ratios.
pub fn quantities(pieces: &Pieces, headlines: &[Headline]) -> Vec<Scaled> {
    let n = pieces.len();
    let anchor = anchor(pieces);
    let mut textbook = vec![0.0; n];
    for &(i, _, v) in &anchor {
        textbook[i] = v;
    }
    let den = Denominator::Anchor(textbook);
    let unit = |i: usize| {
        let mut v = vec![0.0; n];
        v[i] = 1.0;
        v
    };
    let mut out = vec![];
    if !anchor.is_empty() {
        for (i, t) in pieces.types.iter().enumerate() {
            out.push(Scaled { label: t.letter.to_string(), kind: ScaledKind::Value, num: unit(i), den: den.clone() });
        }
    }
    for h in headlines {
        let (Some(a), Some(b)) = (pieces.index(h.piece), pieces.index(h.other)) else { continue };
        out.push(Scaled { label: h.ratio_label(), kind: ScaledKind::Ratio, num: unit(a), den: Denominator::Piece(b) });
        if !anchor.is_empty() {
            let mut num = unit(a);
            num[b] = -1.0;
            out.push(Scaled {
                label: format!("{}-{}", h.piece, h.other),
                kind: ScaledKind::Difference,
                num,
                den: den.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orthodox_pieces_are_known_by_their_moves_and_new_pieces_get_a_headline() {
        let grand = Pieces::of(Variant::load("flying-bombers-grand", &[]).unwrap()).unwrap();
        let orth: String = grand.types.iter().filter(|t| t.orthodox.is_some()).map(|t| t.letter).collect();
        assert_eq!(orth.len(), 4, "{orth}");
        assert_eq!(anchor_text(&grand).unwrap(), format!("{} = 20 (textbook {})", "Q + R + B + N", "9, 5, 3, 3"));
        // The file's own headline wins over any derivation.
        let v = Variant::load("flying-bombers-grand", &[]).unwrap();
        let h = headlines(v.headline(), &grand, &[]);
        assert_eq!(h, [Headline { piece: 'F', other: 'R', source: HeadlineSource::File }]);
        // Noble WingS: each noble piece against the one it replaces.
        let noble = Pieces::of(Variant::load("noble-wings", &[]).unwrap()).unwrap();
        let h: Vec<String> = headlines(&[], &noble, &[]).iter().map(|h| h.to_string()).collect();
        assert_eq!(h, ["A/B", "E/R", "O/N"]);
        // Capablanca: no file section, no `replaces`: nearest by the rough values.
        let capa = Pieces::of(Variant::load("capablanca", &[]).unwrap()).unwrap();
        let rough = [('Q', 9.5), ('C', 8.5), ('A', 7.5), ('R', 5.0), ('B', 3.3), ('N', 3.2)];
        let h: Vec<String> = headlines(&[], &capa, &rough).iter().map(|h| h.to_string()).collect();
        assert_eq!(h, ["A/Q", "C/Q"]);
        let rough = [('Q', 9.5), ('C', 8.5), ('A', 6.0), ('R', 5.0)];
        let h: Vec<String> = headlines(&[], &capa, &rough).iter().map(|h| h.to_string()).collect();
        assert_eq!(h, ["A/R", "C/Q"]);
    }

    #[test]
    fn quantities_cover_every_piece_and_each_headline_twice() {
        let grand = Pieces::of(Variant::load("flying-bombers-grand", &[]).unwrap()).unwrap();
        let h = [Headline { piece: 'F', other: 'R', source: HeadlineSource::File }];
        let q = quantities(&grand, &h);
        assert_eq!(q.iter().filter(|x| x.kind == ScaledKind::Value).count(), grand.len());
        let ratio = q.iter().find(|x| x.label == "F/R").unwrap();
        assert_eq!(ratio.num.iter().sum::<f64>(), 1.0);
        assert_eq!(ratio.den, Denominator::Piece(grand.index('R').unwrap()));
        let diff = q.iter().find(|x| x.label == "F-R").unwrap();
        let Denominator::Anchor(a) = &diff.den else { panic!("{diff:?}") };
        assert_eq!(
            (diff.kind, a.iter().sum::<f64>(), diff.num.iter().sum::<f64>()),
            (ScaledKind::Difference, 20.0, 0.0)
        );
        // A variant without orthodox pieces keeps its ratios only.
        let bland = Pieces::of(Variant::load("bland-chess-46", &[]).unwrap()).unwrap();
        assert!(anchor(&bland).iter().all(|a| a.1 == 'R' || a.1 == 'N'));
    }
}
