//! Piece names from the variant file, so a reader never has to decode a FEN letter.

use crate::Variant;
use std::collections::BTreeMap;

/// The letter-to-name table of one variant (with its options, which may rename pieces).
#[derive(Clone, Debug, Default)]
pub struct Names(BTreeMap<char, String>);

impl Names {
    /// A variant that no longer loads (a report.json kept from an older file) leaves its
    /// letters unnamed rather than failing the page.
    pub fn of(variant: &str, options: &[String]) -> Names {
        let Ok(v) = Variant::load_with(variant, options) else { return Names::default() };
        let types: Vec<(char, &str)> = match v {
            Variant::Narrow(r) => r.types.iter().map(|t| (t.letter, t.name.as_str())).collect(),
            Variant::Wide(r) => r.types.iter().map(|t| (t.letter, t.name.as_str())).collect(),
        };
        Names(types.into_iter().map(|(c, n)| (c, title_case(n))).collect())
    }

    pub fn name(&self, letter: char) -> Option<&str> {
        self.0.get(&letter).map(String::as_str)
    }

    /// The piece's words: `F` is "Flying Bomber", `F-(B+P)` "Flying Bomber − (Bishop +
    /// Pawn)". None for a term that is not made of pieces (`white`, `side-to-move`) or has
    /// a letter the variant does not name.
    pub fn words(&self, piece: &str) -> Option<String> {
        // A comparison's side of several pieces ("E-P+P") is grouped, so the words do not
        // read as "Earl − Pawn + Pawn".
        if let Some((x, y)) = piece.split_once('-') {
            let side = |t: &str| -> Option<String> {
                let w = self.words(t)?;
                Some(if t.contains('+') && !t.starts_with('(') { format!("({w})") } else { w })
            };
            return Some(format!("{} − {}", side(x)?, side(y)?));
        }
        let mut out = String::new();
        for c in piece.chars() {
            match c {
                '-' => out += " − ",
                '+' => out += " + ",
                '(' | ')' => out.push(c),
                _ => out += self.name(c)?,
            }
        }
        (!piece.is_empty()).then_some(out)
    }

    /// `F (Flying Bomber)`, or the bare term when it has no name.
    pub fn label(&self, piece: &str) -> String {
        match self.words(piece) {
            Some(w) => format!("{piece} ({w})"),
            None => piece.to_string(),
        }
    }

    /// "the Flying Bomber" for prose; the letter when the variant does not name it.
    pub fn prose(&self, piece: &str) -> String {
        match self.words(piece) {
            Some(w) if piece.chars().count() == 1 => format!("the {w} ({piece})"),
            Some(w) => format!("{w} ({piece})"),
            None => piece.to_string(),
        }
    }
}

/// Variant files name pieces in lower case ("flying bomber"); on a page they are proper
/// names ("Flying Bomber").
fn title_case(name: &str) -> String {
    name.split(' ').map(super::verdict::capitalise).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_of_several_pieces_is_grouped_and_a_single_piece_is_not() {
        let n = Names::of("noble-wings", &[]);
        assert_eq!(n.words("E-P+P").as_deref(), Some("Earl − (Pawn + Pawn)"));
        assert_eq!(n.words("O+P-A").as_deref(), Some("(Baron + Pawn) − Archbishop"));
        assert_eq!(n.words("Q-(E+A)").as_deref(), Some("Queen − (Earl + Archbishop)"));
        assert_eq!(n.words("A-O").as_deref(), Some("Archbishop − Baron"));
        assert_eq!(n.words("Q").as_deref(), Some("Queen"));
        // A term that is not made of named pieces has no words.
        assert_eq!(n.words("white"), None);
        assert_eq!(n.words("Z-P"), None);
    }
}
