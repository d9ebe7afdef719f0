//! Fairy-Stockfish variant definitions read directly (`--variant FILE.ini:NAME`): every
//! section of `tests/data/fs-ini/variants.ini` (copied unchanged from Fairy-Stockfish's own
//! variants.ini) is counted against `<name>.epd`, perft counts Fairy-Stockfish produced
//! (`scripts/fs-ini-perft.py`; this test needs no Fairy-Stockfish), and played.

use fairylab::{Variant, VariantError};
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fs-ini")
}

fn spec(name: &str) -> String {
    format!("{}:{name}", data_dir().join("variants.ini").display())
}

fn run(name: &str) -> usize {
    let v = Variant::load(&spec(name), &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = std::fs::read_to_string(data_dir().join(format!("{name}.epd"))).unwrap();
    let mut counted = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let b = if fen == "startpos" {
            v.start_position()
        } else {
            v.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
        };
        for p in parts {
            let (d, n) = p.trim().strip_prefix('D').and_then(|s| s.split_once(' ')).unwrap();
            let (d, n): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
            assert_eq!(b.perft(d).unwrap(), n, "{name}: {fen}: perft({d})");
            counted += 1;
        }
    }
    // A game to its end (or 300 plies): the definition plays, not only counts.
    let mut b = v.start_position();
    for ply in 0..300 {
        let moves = b.legal_moves();
        if moves.is_empty() || b.terminal().is_some() {
            break;
        }
        b = b.play(moves[(ply * 7919) % moves.len()]).unwrap();
    }
    counted
}

#[test]
fn caught_in_a_snag_hopper_king_and_lame_horse() {
    assert!(run("caught-in-a-snag") > 30);
}

#[test]
fn weak_pawns_initial_double_step() {
    assert!(run("weak") > 30);
}

#[test]
fn peasant() {
    assert!(run("peasant") > 30);
}

#[test]
fn unreadable_keys_are_named() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fs-ini-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("refused.ini");
    std::fs::write(
        &path,
        "[crazy:chess]\npieceDrops = true\n[flag:chess]\nflagPiece = k\n[hex:chess]\ncustomPiece1 = x:cafmN\n",
    )
    .unwrap();
    for (name, needle) in [("crazy", "pieceDrops"), ("flag", "flagPiece"), ("hex", "multi-leg")] {
        let e = Variant::load(&format!("{}:{name}", path.display()), &[]).unwrap_err();
        assert!(e.to_string().contains(needle), "{name}: {e}");
    }
    let e = Variant::load(&format!("{}:absent", path.display()), &[]).unwrap_err();
    assert!(matches!(e, VariantError::Ini(_)), "{e}");
}
