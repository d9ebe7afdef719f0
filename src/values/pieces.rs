//! The piece types of a variant as the value estimators see them: which letters count as
//! material, which one is the pawn (the unit), and material strings turned into counts.

use super::ValuesError;
use crate::{Board, Variant};

/// One non-royal piece type.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceInfo {
    pub letter: char,
    pub name: String,
    pub pawn: bool,
    /// The orthodox piece this one takes the place of, if the variant says so.
    pub replaces: Option<char>,
    /// The orthodox piece whose moves this type has (a knight by any letter).
    pub orthodox: Option<char>,
}

/// The material types of a variant: every piece type but the royal one(s), in the
/// variant file's order, and the pawn's position among them.
#[derive(Clone, Debug)]
pub struct Pieces {
    pub types: Vec<PieceInfo>,
    pub pawn: usize,
}

impl Pieces {
    pub fn of(variant: Variant) -> Result<Pieces, ValuesError> {
        let all: &[crate::rules::PieceType] = match variant {
            Variant::Narrow(r) => &r.types,
            Variant::Wide(r) => &r.types,
        };
        let types: Vec<PieceInfo> = all
            .iter()
            .filter(|t| !t.royal)
            .map(|t| PieceInfo {
                letter: t.letter,
                name: t.name.clone(),
                pawn: t.pawn,
                replaces: t.replaces,
                orthodox: t.orthodox,
            })
            .collect();
        let pawn = types.iter().position(|t| t.pawn).ok_or_else(|| {
            ValuesError::Pieces(format!("{} has no pawn, and piece values are measured in pawns", variant.name()))
        })?;
        Ok(Pieces { types, pawn })
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn index(&self, letter: char) -> Option<usize> {
        self.types.iter().position(|t| t.letter == letter.to_ascii_uppercase())
    }

    pub fn pawn_letter(&self) -> char {
        self.types[self.pawn].letter
    }

    /// Counts per type of a material string such as `Q1R2B2N2P8` (`Board::material`).
    pub fn counts(&self, material: &str) -> Result<Vec<i32>, ValuesError> {
        let mut counts = vec![0; self.len()];
        let mut chars = material.chars().peekable();
        while let Some(c) = chars.next() {
            let t = self
                .index(c)
                .ok_or_else(|| ValuesError::Pieces(format!("material '{material}': unknown piece letter '{c}'")))?;
            let mut digits = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(*d);
                chars.next();
            }
            counts[t] += digits
                .parse::<i32>()
                .map_err(|_| ValuesError::Pieces(format!("material '{material}': '{c}' has no count")))?;
        }
        Ok(counts)
    }

    /// White's minus Black's count per type in a position.
    pub fn difference(&self, board: &Board) -> Result<Vec<i32>, ValuesError> {
        let (w, b) = (self.counts(&board.material(0))?, self.counts(&board.material(1))?);
        Ok(w.iter().zip(&b).map(|(x, y)| x - y).collect())
    }
}

/// The squares of the pawns removed for the pawn-odds calibration: White's and Black's
/// pawn on `file` (a letter) in the start position, each the one nearest its own side.
/// The f-pawn is the usual choice on 8x8 boards (a handicap that barely weakens the king).
pub fn pawn_squares(variant: Variant, file: char) -> Result<(String, String), ValuesError> {
    let (files, ranks) = variant.board_size();
    let f = (file as u8).wrapping_sub(b'a') as usize;
    if !file.is_ascii_lowercase() || f >= files {
        return Err(ValuesError::Calibration(format!(
            "calibration pawn file '{file}' is not a file of {}",
            variant.name()
        )));
    }
    let start = variant.start_position();
    let find = |upper: bool| -> Option<String> {
        // White's pawn nearest rank index 0, Black's nearest the last rank.
        let order: Vec<usize> = if upper { (0..ranks).collect() } else { (0..ranks).rev().collect() };
        for rank in order {
            let name = square_name(variant, f, rank);
            if start.piece_at(&name) == Some(if upper { 'P' } else { 'p' }) {
                return Some(name);
            }
        }
        None
    };
    let pawn = Pieces::of(variant)?.pawn_letter();
    if pawn != 'P' {
        return Err(ValuesError::Calibration(format!(
            "{}: the pawn's letter is '{pawn}'; give the calibration squares explicitly",
            variant.name()
        )));
    }
    match (find(true), find(false)) {
        (Some(w), Some(b)) => Ok((w, b)),
        _ => Err(ValuesError::Calibration(format!(
            "{} has no pawn of each side on the {file}-file in its start position",
            variant.name()
        ))),
    }
}

/// The pawn-odds calibration a variant gets when none is named: the f-pawn on 8-file
/// boards (Muller's choice); elsewhere the two central pawns, because one pawn moved the
/// score too little to convert with both on the 10x10 FBGC board (about 25 Elo) and on
/// the 6x8 Bland Chess 46 board (18 ± 13 Elo). Falls back to the first file with a pawn.
pub fn default_calibration(variant: Variant) -> String {
    let files = variant.board_size().0 as u8;
    let preferred = match files {
        8 => "f".to_string(),
        w => [(b'a' + w / 2 - 1) as char, (b'a' + w / 2) as char].iter().collect(),
    };
    if calibration_squares(variant, &preferred).is_ok() {
        return preferred;
    }
    (0..files)
        .map(|f| ((b'a' + f) as char).to_string())
        .find(|f| calibration_squares(variant, f).is_ok())
        .unwrap_or(preferred)
}

/// The calibration pawns: file letters (`f`: each side's f-pawn; `ef`: the e- and
/// f-pawns, a two-pawn handicap for large boards) or squares (`f2=f7`, `e2+f2=e7+f7`).
pub fn calibration_squares(variant: Variant, spec: &str) -> Result<(String, String), ValuesError> {
    let spec = spec.trim();
    if let Some((w, b)) = spec.split_once('=') {
        return Ok((w.trim().to_string(), b.trim().to_string()));
    }
    let files: Vec<char> = spec.chars().filter(|&c| c != '+').collect();
    // Piece letters (`P`, `P+P`): each side's pawns by letter, wherever they
    // stand, for starts other than the variant's (`imbalance::starts`).
    if !files.is_empty() && files.iter().all(|c| c.is_ascii_uppercase()) {
        let letters = files.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("+");
        return Ok((letters.clone(), letters));
    }
    if files.is_empty() || files.iter().any(|c| !c.is_ascii_lowercase()) {
        return Err(ValuesError::Calibration(format!(
            "calibration '{spec}' must be file letters (f, ef), squares (f2=f7) or the pawn's piece letter (P)"
        )));
    }
    let mut sides = (Vec::new(), Vec::new());
    for f in files {
        let (w, b) = pawn_squares(variant, f)?;
        sides.0.push(w);
        sides.1.push(b);
    }
    Ok((sides.0.join("+"), sides.1.join("+")))
}

/// The name of the square at (file, rank index) in the variant's own numbering.
fn square_name(variant: Variant, file: usize, rank: usize) -> String {
    let sq = rank * variant.board_size().0 + file;
    match variant {
        Variant::Narrow(r) => r.geo.name(sq),
        Variant::Wide(r) => r.geo.name(sq),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_pieces_and_material_counts() {
        let v = Variant::load("chess", &[]).unwrap();
        let p = Pieces::of(v).unwrap();
        let letters: String = p.types.iter().map(|t| t.letter).collect();
        assert_eq!(letters.len(), 5);
        assert_eq!(p.pawn_letter(), 'P');
        let c = p.counts("Q1R2B2N2P8").unwrap();
        assert_eq!(c[p.index('P').unwrap()], 8);
        assert_eq!(c[p.index('R').unwrap()], 2);
        assert!(p.counts("X1").unwrap_err().to_string().contains("'X'"));
        let b = v.parse_fen("4k3/8/8/8/8/8/PP6/RN2K3 w - - 0 1").unwrap();
        let d = p.difference(&b).unwrap();
        assert_eq!(d[p.index('P').unwrap()], 2);
        assert_eq!(d[p.index('N').unwrap()], 1);
        assert_eq!(d[p.index('Q').unwrap()], 0);
    }

    #[test]
    fn f_pawn_squares_follow_the_board() {
        let chess = Variant::load("chess", &[]).unwrap();
        assert_eq!(pawn_squares(chess, 'f').unwrap(), ("f2".to_string(), "f7".to_string()));
        let hangars = Variant::load("flying-bombers-hangars", &[]).unwrap();
        let (w, b) = pawn_squares(hangars, 'f').unwrap();
        assert_eq!(hangars.start_position().piece_at(&w), Some('P'));
        assert_eq!(hangars.start_position().piece_at(&b), Some('p'));
        assert!(pawn_squares(chess, 'z').is_err());
    }
}
