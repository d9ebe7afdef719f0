//! The in-process engine: a variant, an evaluation and a searcher behind one width-erased
//! type, used by UCI mode, self-play and the tools above them.

use crate::eval::{EngineConfig, Evaluator};
use crate::position::{Move, Position};
use crate::rules::Bits;
use crate::search::{Info, Limits, Score, Searcher};
use crate::{Board, Error, Variant};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a search returned, in machine notation.
#[derive(Clone, Debug)]
pub struct Decision {
    pub best: Option<String>,
    pub score: Score,
    /// Internal score in centipawns from the side to move's view (mates near ±30000).
    pub score_cp: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<String>,
}

/// A progress line of a running search, in machine notation.
#[derive(Clone, Debug)]
pub struct InfoLine {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<String>,
}

struct Inner<B: Bits> {
    searcher: Searcher<B>,
    pos: Position<B>,
    history: Vec<u64>,
}

enum Width {
    Narrow(Inner<u64>),
    Wide(Inner<u128>),
}

pub struct Engine {
    variant: Variant,
    width: Width,
}

fn names<B: Bits>(p: &Position<B>, moves: &[Move]) -> Vec<String> {
    let mut q = *p;
    moves
        .iter()
        .map(|&m| {
            let n = q.move_name(m);
            q.make(m);
            n
        })
        .collect()
}

impl<B: Bits> Inner<B> {
    fn go(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&InfoLine)) -> Decision {
        let pos = self.pos;
        let mut cb = |i: &Info| {
            on_info(&InfoLine {
                depth: i.depth,
                seldepth: i.seldepth,
                score: i.score,
                nodes: i.nodes,
                time_ms: i.time.as_millis() as u64,
                pv: names(&pos, &i.pv),
            })
        };
        let r = self.searcher.search(&self.pos, &self.history, limits, &mut cb);
        Decision {
            best: r.best.map(|m| self.pos.move_name(m)),
            score: Score::from_internal(r.score),
            score_cp: r.score,
            depth: r.depth,
            nodes: r.nodes,
            pv: names(&self.pos, &r.pv),
        }
    }

    fn set(&mut self, pos: Position<B>, moves: &[String]) -> Result<(), Error> {
        self.pos = pos;
        self.history.clear();
        for mv in moves {
            let m = self
                .pos
                .legal_move_vec()
                .into_iter()
                .find(|&m| self.pos.move_name(m) == *mv)
                .ok_or_else(|| Error::Position(format!("illegal move '{mv}' in {}", self.pos.fen())))?;
            self.history.push(self.pos.hash());
            self.pos.make(m);
        }
        Ok(())
    }
}

macro_rules! on {
    ($e:expr, $x:ident => $body:expr) => {
        match $e {
            Width::Narrow($x) => $body,
            Width::Wide($x) => $body,
        }
    };
}

impl Engine {
    /// An engine for `variant` with `config` weights and `settings` overrides.
    pub fn new(
        variant: Variant,
        config: &EngineConfig,
        settings: &[(String, f32)],
        hash_mb: usize,
    ) -> Result<Engine, Error> {
        let search = config.search.with_settings(settings).map_err(Error::Engine)?;
        let width = match variant {
            Variant::Narrow(r) => {
                let e = config.evaluator(r, settings).map_err(Error::Engine)?;
                let mut searcher = Searcher::new(e, hash_mb);
                searcher.configure(&search);
                Width::Narrow(Inner { searcher, pos: Position::from_fen(r, &r.start_fen)?, history: vec![] })
            }
            Variant::Wide(r) => {
                let e = config.evaluator(r, settings).map_err(Error::Engine)?;
                let mut searcher = Searcher::new(e, hash_mb);
                searcher.configure(&search);
                Width::Wide(Inner { searcher, pos: Position::from_fen(r, &r.start_fen)?, history: vec![] })
            }
        };
        Ok(Engine { variant, width })
    }

    /// The variant's default engine (`configs/engines/<variant>.toml` or generic defaults).
    pub fn default_for(variant: Variant) -> Result<Engine, Error> {
        let cfg = EngineConfig::for_variant(variant.name()).map_err(Error::Engine)?;
        Engine::new(variant, &cfg, &[], 16)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn evaluator(&self) -> &Evaluator {
        on!(&self.width, i => i.searcher.eval())
    }

    pub fn set_weight(&mut self, name: &str, value: f32) -> Result<(), Error> {
        on!(&mut self.width, i => {
            i.searcher.set_weight(name, value).map_err(Error::Engine)?;
        });
        Ok(())
    }

    pub fn new_game(&mut self) {
        on!(&mut self.width, i => i.searcher.clear())
    }

    pub fn set_hash(&mut self, mb: usize) {
        on!(&mut self.width, i => i.searcher.resize_hash(mb))
    }

    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        on!(&self.width, i => i.searcher.stop_flag())
    }

    /// Sets the position from a FEN (or the start) and moves in machine notation.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), Error> {
        let board = match fen {
            Some(f) => self.variant.parse_fen(f)?,
            None => self.variant.start_position(),
        };
        self.set_board(&board, &[], moves)
    }

    /// Sets a position directly, with the hashes of the game's earlier positions.
    pub fn set_board(&mut self, board: &Board, history: &[u64], moves: &[String]) -> Result<(), Error> {
        match (&mut self.width, board) {
            (Width::Narrow(i), Board::Narrow(p)) => i.set(*p, moves)?,
            (Width::Wide(i), Board::Wide(p)) => i.set(*p, moves)?,
            _ => return Err(Error::Position("position belongs to another variant".into())),
        }
        on!(&mut self.width, i => i.history.splice(0..0, history.iter().copied()).for_each(drop));
        Ok(())
    }

    pub fn board(&self) -> Board {
        match &self.width {
            Width::Narrow(i) => Board::Narrow(i.pos),
            Width::Wide(i) => Board::Wide(i.pos),
        }
    }

    /// Searches the current position.
    pub fn go(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&InfoLine)) -> Decision {
        on!(&mut self.width, i => i.go(limits, on_info))
    }

    /// A fingerprint of this engine's play: its evaluation weights and the outcome of a
    /// fixed small search of the start position (which moves with any change of the
    /// search or the move generator that alters play). Run folders record it, so games of
    /// another build or another engine config are never mixed into them. Stable across
    /// machines and Rust versions (FNV-1a, no std hasher). Leaves the engine reset.
    pub fn signature(&mut self) -> Result<u64, Error> {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        let ev = self.evaluator();
        for (name, w) in ev.layout.names.iter().zip(ev.weights()) {
            eat(format!("{name}={w};").as_bytes());
        }
        self.new_game();
        self.set_position(None, &[])?;
        let d = self.go(&Limits::nodes(3000), &mut |_| {});
        eat(format!("{:?} {} {} {}", d.best, d.score_cp, d.nodes, d.pv.join(" ")).as_bytes());
        self.new_game();
        Ok(h)
    }

    /// Static evaluation of the current position (side to move's view).
    pub fn static_eval(&self) -> i32 {
        on!(&self.width, i => i.searcher.eval().evaluate(&i.pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_follows_the_weights_and_nothing_else() {
        let v = Variant::load("chess", &[]).unwrap();
        let cfg = EngineConfig::for_variant("chess").unwrap();
        let sig = |settings: &[(String, f32)]| Engine::new(v, &cfg, settings, 4).unwrap().signature().unwrap();
        let base = sig(&[]);
        assert_eq!(base, sig(&[]), "deterministic");
        let mut e = Engine::new(v, &cfg, &[], 4).unwrap();
        e.set_position(None, &["e2e4".to_string()]).unwrap();
        e.go(&Limits::nodes(500), &mut |_| {});
        assert_eq!(e.signature().unwrap(), base, "neither the current position nor earlier searches matter");
        assert_ne!(sig(&[("value.N".into(), 290.0)]), base);
        assert_ne!(sig(&[("open.R".into(), 20.0)]), base, "a weight the start position does not use");
    }
}
