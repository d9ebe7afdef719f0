//! Fairy-Stockfish variant files (`variants.ini`) read directly: `FILE.ini:NAME` names the
//! section `[NAME]` (or `[NAME:parent]`), which is turned into the text of a fairylab
//! variant file. Only keys whose rules fairylab plays are read; any other key is refused
//! by name, so a definition either means here what it means there or does not load.
//!
//! A section without a parent starts from Fairy-Stockfish's template (chess without
//! pieces); a parent is an earlier section of the same file or the built-in `chess`.

mod error;

pub use error::IniError;

/// Fairy-Stockfish's predefined piece names and their Betza (`src/piece.cpp` there).
const PIECES: &[(&str, &str)] = &[
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
    ("king", "K"),
];

/// Keys that only change how Fairy-Stockfish shows pieces.
const DISPLAY_ONLY: &[&str] = &["pieceToCharTable"];

/// The built-in `chess` as keys.
const CHESS: &[(&str, &str)] = &[
    ("pawn", "p"),
    ("knight", "n"),
    ("bishop", "b"),
    ("rook", "r"),
    ("queen", "q"),
    ("king", "k"),
    ("startFen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
];

/// Keys in the order they were first set (a parent's first), each with its last value.
#[derive(Default)]
struct Keys(Vec<(String, String)>);

impl Keys {
    fn set(&mut self, k: &str, v: &str) {
        match self.0.iter_mut().find(|(key, _)| key == k) {
            Some(e) => e.1 = v.to_string(),
            None => self.0.push((k.to_string(), v.to_string())),
        }
    }

    fn get(&self, k: &str) -> Option<&str> {
        self.0.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str())
    }
}

/// One section of an ini text: name, parent, keys in order.
type Section = (String, Option<String>, Vec<(String, String)>);

fn sections(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(head) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, parent) = match head.split_once(':') {
                Some((n, p)) => (n.trim().to_string(), Some(p.trim().to_string())),
                None => (head.trim().to_string(), None),
            };
            out.push((name, parent, Vec::new()));
        } else if let (Some((k, v)), Some(s)) = (line.split_once('='), out.last_mut()) {
            s.2.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

/// The keys of section `name` with its parents' folded in (the child's win).
fn resolve(secs: &[Section], upto: usize, name: &str) -> Result<Keys, IniError> {
    let Some(i) = secs[..upto].iter().rposition(|s| s.0 == name) else {
        if name == "chess" {
            let mut keys = Keys::default();
            for (k, v) in CHESS {
                keys.set(k, v);
            }
            return Ok(keys);
        }
        return Err(IniError::NoSection { name: name.into(), path: String::new() });
    };
    let (_, parent, keys) = &secs[i];
    let mut base = match parent {
        None => Keys::default(),
        Some(p) => resolve(secs, i, p).map_err(|e| match e {
            IniError::NoSection { .. } => IniError::UnknownParent { variant: name.into(), parent: p.clone() },
            other => other,
        })?,
    };
    for (k, v) in keys {
        base.set(k, v);
    }
    Ok(base)
}

/// The text of a fairylab variant file for `FILE.ini:NAME`.
pub fn load(spec: &str) -> Result<String, IniError> {
    let (path, name) = spec
        .rsplit_once(':')
        .filter(|(p, _)| p.ends_with(".ini"))
        .ok_or_else(|| IniError::NoName { path: spec.into() })?;
    let text =
        std::fs::read_to_string(path).map_err(|e| IniError::Unreadable { path: path.into(), reason: e.to_string() })?;
    let secs = sections(&text);
    if !secs.iter().any(|s| s.0 == name) {
        return Err(IniError::NoSection { name: name.into(), path: path.into() });
    }
    let keys = resolve(&secs, secs.len(), name)?;
    convert(name, path, &keys)
}

struct Piece {
    letter: char,
    name: String,
    betza: String,
    king: bool,
    predefined_pawn: bool,
}

fn convert(variant: &str, path: &str, keys: &Keys) -> Result<String, IniError> {
    let bad = |key: &str, value: &str, why: &str| IniError::BadValue {
        variant: variant.into(),
        key: key.into(),
        value: value.into(),
        why: why.into(),
    };
    let get = |k: &str| keys.get(k);
    let flag = |k: &str, default: bool| -> Result<bool, IniError> {
        match get(k) {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(v) => Err(bad(k, v, "expected true or false")),
        }
    };
    let number = |k: &str, default: u32| -> Result<u32, IniError> {
        get(k).map_or(Ok(default), |v| v.parse().map_err(|_| bad(k, v, "expected a number")))
    };
    let ranks = number("maxRank", 8)? as usize;
    let files = match get("maxFile") {
        None => 8,
        Some(v) => match v.as_bytes() {
            [c] if c.is_ascii_lowercase() => (c - b'a' + 1) as usize,
            _ => v.parse().map_err(|_| bad("maxFile", v, "expected a file letter or a number"))?,
        },
    };
    if ranks == 0 || files == 0 || files > 26 {
        return Err(bad("maxFile", &files.to_string(), "a board has 1 to 26 files and at least one rank"));
    }
    let mut pieces: Vec<Piece> = Vec::new();
    let mut handled: Vec<&str> = vec![
        "maxRank",
        "maxFile",
        "startFen",
        "pawnTypes",
        "promotionPieceTypes",
        "promotionPawnTypes",
        "promotionRegionWhite",
        "promotionRegionBlack",
        "doubleStep",
        "doubleStepRegionWhite",
        "doubleStepRegionBlack",
        "enPassantRegion",
        "castling",
        "stalemateValue",
        "checkmateValue",
        "nFoldValue",
        "nMoveRule",
        "nFoldRule",
    ];
    handled.extend(DISPLAY_ONLY);
    for (key, value) in &keys.0 {
        let predefined = PIECES.iter().find(|(n, _)| n == key).map(|(_, b)| *b);
        let custom = key.strip_prefix("customPiece").is_some_and(|n| n.parse::<u32>().is_ok());
        if predefined.is_none() && !custom {
            if !handled.contains(&key.as_str()) {
                return Err(IniError::Unsupported { variant: variant.into(), key: key.clone(), value: value.clone() });
            }
            continue;
        }
        if value == "-" {
            continue;
        }
        let (letter, betza) = match value.split_once(':') {
            Some((l, b)) => (l, b.trim().to_string()),
            None if custom => return Err(bad(key, value, "a custom piece is written as letter:Betza")),
            None => (value.as_str(), predefined.unwrap_or_default().to_string()),
        };
        let letter = match letter.as_bytes() {
            [c] if c.is_ascii_lowercase() => c.to_ascii_uppercase() as char,
            _ => return Err(bad(key, value, "a piece letter is one lower-case letter")),
        };
        // A letter set again (a child's piece on a parent's letter) moves to the new piece.
        pieces.retain(|p| p.letter != letter);
        let name = if custom { format!("custom piece {}", &key["customPiece".len()..]) } else { key.clone() };
        pieces.push(Piece {
            letter,
            name,
            predefined_pawn: key == "pawn" && !value.contains(':'),
            king: key == "king",
            betza,
        });
    }
    if !pieces.iter().any(|p| p.king) {
        return Err(IniError::Unsupported { variant: variant.into(), key: "king".into(), value: "-".into() });
    }
    let letters = |k: &str| -> Vec<char> {
        get(k)
            .map_or(vec![], |v| v.chars().filter(|c| c.is_ascii_lowercase()).map(|c| c.to_ascii_uppercase()).collect())
    };
    let pawn_types: Vec<char> = if get("pawnTypes").is_some() {
        letters("pawnTypes")
    } else {
        pieces.iter().filter(|p| p.predefined_pawn).map(|p| p.letter).collect()
    };
    let promoting: Vec<char> =
        if get("promotionPawnTypes").is_some() { letters("promotionPawnTypes") } else { pawn_types.clone() };
    // A pawn type is fairylab's [pawn]: the orthodox pawn, or (when it never promotes) the
    // pawn without double step or en passant, which stays on the last rank. Any other
    // pawn type that never promotes is a plain piece.
    let mut pawn: Option<char> = None;
    let mut single_step = false;
    for p in pieces.iter().filter(|p| pawn_types.contains(&p.letter)) {
        let orthodox = p.predefined_pawn || p.betza == "fmWfceFifmnD";
        let plain = p.betza == "fmWfcF" && !promoting.contains(&p.letter);
        if !orthodox && !plain {
            if !promoting.contains(&p.letter) {
                continue;
            }
            return Err(IniError::Unsupported {
                variant: variant.into(),
                key: "pawnTypes".into(),
                value: p.betza.clone(),
            });
        }
        single_step = plain;
        if pawn.replace(p.letter).is_some() {
            return Err(IniError::Unsupported {
                variant: variant.into(),
                key: "pawnTypes".into(),
                value: "two pawn types".into(),
            });
        }
    }
    if pawn.is_some_and(|l| !promoting.contains(&l) && !single_step) {
        return Err(IniError::Unsupported {
            variant: variant.into(),
            key: "promotionPawnTypes".into(),
            value: get("promotionPawnTypes").unwrap_or("").into(),
        });
    }
    for (k, wanted) in
        [("checkmateValue", "loss"), ("nFoldValue", "draw"), ("doubleStepRegionWhite", "*2"), ("enPassantRegion", "")]
    {
        if let Some(v) = get(k) {
            let fine = match k {
                "doubleStepRegionWhite" => v == wanted,
                "enPassantRegion" => v == "-",
                _ => v == wanted,
            };
            if !fine {
                return Err(IniError::Unsupported { variant: variant.into(), key: k.into(), value: v.into() });
            }
        }
    }
    if let Some(v) = get("doubleStepRegionBlack") {
        if v != format!("*{}", ranks - 1) {
            return Err(IniError::Unsupported {
                variant: variant.into(),
                key: "doubleStepRegionBlack".into(),
                value: v.into(),
            });
        }
    }
    for (k, rank) in [("promotionRegionWhite", ranks), ("promotionRegionBlack", 1)] {
        if let Some(v) = get(k) {
            if v != format!("*{rank}") {
                return Err(IniError::Unsupported { variant: variant.into(), key: k.into(), value: v.into() });
            }
        }
    }

    let mut t = toml::Table::new();
    let s = |x: &str| toml::Value::String(x.to_string());
    t.insert("name".into(), s(variant));
    t.insert("title".into(), s(variant));
    t.insert("description".into(), s(&format!("Fairy-Stockfish's [{variant}] from {path}.")));
    let fen = get("startFen").ok_or_else(|| bad("startFen", "", "a variant needs a start position"))?;
    if fen.contains('[') {
        return Err(IniError::Unsupported { variant: variant.into(), key: "startFen".into(), value: fen.into() });
    }
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() || fields.len() > 6 {
        return Err(bad("startFen", fen, "expected a FEN of one to six fields"));
    }
    let padding = ["w", "-", "-", "0", "1"];
    while fields.len() < 6 {
        fields.push(padding[fields.len() - 1]);
    }
    let castling_field = fields[2].to_string();
    let castles = flag("castling", true)? && castling_field != "-";
    if !castles {
        fields[2] = "-";
    }
    t.insert("start".into(), s(&fields.join(" ")));
    let mut board = toml::Table::new();
    board.insert("files".into(), toml::Value::Integer(files as i64));
    board.insert("ranks".into(), toml::Value::Integer(ranks as i64));
    t.insert("board".into(), toml::Value::Table(board));
    let mut ptable = toml::Table::new();
    for p in &pieces {
        let mut e = toml::Table::new();
        e.insert("name".into(), s(&p.name));
        if Some(p.letter) == pawn {
            e.insert("pawn".into(), toml::Value::Boolean(true));
        } else {
            e.insert("movement".into(), s(&p.betza));
        }
        if p.king {
            e.insert("royal".into(), toml::Value::Boolean(true));
        }
        ptable.insert(p.letter.to_string(), toml::Value::Table(e));
    }
    t.insert("pieces".into(), toml::Value::Table(ptable));
    if pawn.is_some() {
        let double = flag("doubleStep", true)? && !single_step;
        let mut pw = toml::Table::new();
        pw.insert("start_rank".into(), toml::Value::Integer(2));
        pw.insert("multi_step".into(), toml::Value::Integer(if double { 2 } else { 1 }));
        pw.insert("capture".into(), s("diagonal"));
        pw.insert("en_passant".into(), toml::Value::Boolean(double && get("enPassantRegion") != Some("-")));
        pw.insert("promotion_rank".into(), toml::Value::Integer(ranks as i64));
        let wanted = if single_step {
            vec![]
        } else if get("promotionPieceTypes").is_some() {
            letters("promotionPieceTypes")
        } else {
            "NBRQ".chars().collect()
        };
        let promo: Vec<toml::Value> = wanted
            .iter()
            .filter(|c| pieces.iter().any(|p| p.letter == **c && !p.king))
            .map(|c| s(&c.to_string()))
            .collect();
        pw.insert("promotion".into(), toml::Value::Array(promo));
        t.insert("pawn".into(), toml::Value::Table(pw));
    }
    if castles {
        t.insert("castling".into(), toml::Value::Array(castling(variant, fen, files, &castling_field)?));
    }
    let mut rules = toml::Table::new();
    let stalemate = match get("stalemateValue").unwrap_or("draw") {
        v @ ("draw" | "loss" | "win") => v,
        v => {
            return Err(IniError::Unsupported {
                variant: variant.into(),
                key: "stalemateValue".into(),
                value: v.into(),
            })
        }
    };
    rules.insert("stalemate".into(), s(stalemate));
    t.insert("rules".into(), toml::Value::Table(rules));
    let mut draw = toml::Table::new();
    draw.insert("no_progress_plies".into(), toml::Value::Integer(2 * number("nMoveRule", 50)? as i64));
    draw.insert("repetitions".into(), toml::Value::Integer(number("nFoldRule", 3)? as i64));
    t.insert("draw".into(), toml::Value::Table(draw));
    Ok(t.to_string())
}

/// Fairy-Stockfish's default castling: the king from its start square on the first rank
/// to the g file (short) or the c file (long), the rook from the corner next to it.
fn castling(variant: &str, fen: &str, files: usize, rights: &str) -> Result<Vec<toml::Value>, IniError> {
    let unsupported =
        || IniError::Unsupported { variant: variant.into(), key: "castling".into(), value: rights.into() };
    let first = fen.split_whitespace().next().unwrap_or("").rsplit('/').next().unwrap_or("");
    let mut file: usize = 0;
    let mut king = None;
    let mut chars = first.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut n = c.to_digit(10).unwrap() as usize;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(d as usize);
                chars.next();
            }
            file = file.saturating_add(n);
        } else {
            if c == 'K' {
                king = Some(file);
            }
            file += 1;
        }
    }
    if file > files {
        return Err(IniError::BadValue {
            variant: variant.into(),
            key: "startFen".into(),
            value: fen.into(),
            why: format!("its first rank has {file} squares, the board {files} files"),
        });
    }
    let king = king.ok_or_else(unsupported)?;
    let name = |f: usize| format!("{}1", (b'a' + f as u8) as char);
    let span = |a: usize, b: usize| -> Vec<toml::Value> {
        (a.min(b)..=a.max(b)).map(|f| toml::Value::String(name(f))).collect()
    };
    let mut out = Vec::new();
    for right in rights.chars().filter(|c| c.is_ascii_uppercase()) {
        let (to, rook, rook_to) = match right {
            'K' if files >= 7 => (6, files - 1, 5),
            'Q' if files >= 4 => (2, 0, 3),
            _ => return Err(unsupported()),
        };
        let mut e = toml::Table::new();
        let s = |x: String| toml::Value::String(x);
        e.insert("right".into(), s(right.to_string()));
        e.insert("king_from".into(), s(name(king)));
        e.insert("king_to".into(), s(name(to)));
        e.insert("rook_from".into(), s(name(rook)));
        e.insert("rook_to".into(), s(name(rook_to)));
        let mut empty = span(king, to);
        empty.extend(span(rook, rook_to));
        let empty: Vec<toml::Value> = empty
            .into_iter()
            .filter(|v| v.as_str() != Some(name(king).as_str()) && v.as_str() != Some(name(rook).as_str()))
            .fold(Vec::new(), |mut acc, v| {
                if !acc.contains(&v) {
                    acc.push(v);
                }
                acc
            });
        e.insert("empty".into(), toml::Value::Array(empty));
        e.insert("safe".into(), toml::Value::Array(span(king, to)));
        out.push(toml::Value::Table(e));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("fairylab-ini-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("t{}.ini", text.len()));
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    }

    #[test]
    fn a_child_of_chess_reads_and_refuses_by_key() {
        let path = write("[weak:chess]\nstartFen = nnnnknnn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1\n[drop:chess]\npieceDrops = true\n[orphan:nowhere]\nking = k\n");
        let toml = load(&format!("{path}:weak")).unwrap();
        assert!(toml.contains("pawn = true") && toml.contains("king_to = \"g1\""), "{toml}");
        let e = load(&format!("{path}:drop")).unwrap_err();
        assert!(matches!(&e, IniError::Unsupported { key, .. } if key == "pieceDrops"), "{e}");
        assert!(e.to_string().contains("pieceDrops"));
        assert!(matches!(load(&format!("{path}:orphan")), Err(IniError::UnknownParent { .. })));
        assert!(matches!(load(&format!("{path}:missing")), Err(IniError::NoSection { .. })));
        assert!(matches!(load(&path), Err(IniError::NoName { .. })));
    }
}
