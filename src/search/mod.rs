//! Alpha-beta search: iterative deepening PVS with quiescence, transposition table,
//! killers and history, check and singular extensions, null-move pruning and late-move
//! reductions.
//!
//! Game rules inside the tree: checkmate and stalemate per variant, king capture (a side
//! without its king has lost), repetition (a repeated position scores as a draw), the
//! no-progress rule and dead material. Mate scores prefer the shortest mate.

mod eval_cache;
mod history;
pub mod limits;
mod ordering;
mod quiescence;
mod see;
pub mod tt;

pub use limits::Limits;

use crate::eval::config::SearchConfig;
use crate::eval::pawns::PawnCache;
use crate::eval::Evaluator;
use crate::position::{Move, MoveList, Position};
use crate::rules::Bits;
use eval_cache::EvalCache;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::{Tt, EXACT, LOWER, UPPER};

pub const MATE: i32 = 30000;
pub const INF: i32 = 32000;
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// History scores stay within ±this (see `reward_quiet`).
const HISTORY_MAX: i32 = 16384;

/// `Searcher::moved` where no move was made (a null move).
const NO_KEY: u16 = u16::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Moves (not plies) to mate; negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    pub fn from_internal(s: i32) -> Score {
        if s > MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s < -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    /// Internal score (centipawns, or near ±MATE), side to move's view.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

pub struct Searcher<B: Bits> {
    /// Private so that every weight change goes through `set_weight`, which keeps the
    /// piece values of ordering and SEE and the evaluation cache in step with it.
    eval: Evaluator,
    eval_cache: EvalCache,
    pawns: PawnCache<B>,
    /// Set by `set_weight`: stored scores and cached evaluations are stale, and are
    /// dropped when the next search starts (weights are often set many at a time).
    weights_changed: bool,
    tt: Tt,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    /// Per side and (from, to) of the opponent's last move: the quiet reply that refuted it.
    counters: Vec<Move>,
    /// Continuation history: how often a quiet move (side, piece type, target) cut off
    /// after a given move one or two plies earlier (piece type, target), sized to the
    /// variant's types and squares at the first search.
    cont: Vec<i16>,
    /// (piece types, squares) that `cont` and `capt` are sized for.
    cont_dims: (usize, usize),
    /// Capture history: how often a noisy move (side, piece type, target, victim type)
    /// cut off; read and written only with `capture_history` on.
    capt: Vec<i16>,
    /// At each ply of the current path, the (piece type, target) key of the move made
    /// there (`NO_KEY` for a null move).
    moved: [u16; MAX_PLY + 2],
    /// Static evaluation at each ply of the current path (-INF when in check).
    static_eval: [i32; MAX_PLY + 2],
    /// The move played at each ply of the current path (NULL for a null move).
    moves_made: [Move; MAX_PLY + 2],
    /// The hash move left out at each ply while testing whether it is singular.
    excluded: [Move; MAX_PLY + 2],
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    start: Instant,
    stop: Arc<AtomicBool>,
    aborted: bool,
    /// Hashes of the game so far and of the current search path.
    path: Vec<u64>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    seldepth: usize,
    lmr: [[u8; 64]; 64],
    /// The pruning, reduction and window parameters (`[search]` of the engine config).
    /// With `continuation_history` off, `cont` is neither read nor written and late-move
    /// reductions use the plain history as before it existed.
    params: SearchConfig,
    piece_values: Vec<i32>,
    _width: std::marker::PhantomData<B>,
}

impl<B: Bits> Searcher<B> {
    pub fn new(eval: Evaluator, hash_mb: usize) -> Searcher<B> {
        let lmr = reduction_table(SearchConfig::REDUCTION_DIVISOR);
        let piece_values = Self::piece_values_of(&eval);
        Searcher {
            eval,
            eval_cache: EvalCache::new(),
            pawns: PawnCache::default(),
            weights_changed: false,
            tt: Tt::new(hash_mb),
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 128 * 128],
            counters: vec![Move::NULL; 2 * 128 * 128],
            cont: vec![],
            cont_dims: (0, 0),
            capt: vec![],
            moved: [NO_KEY; MAX_PLY + 2],
            static_eval: [0; MAX_PLY + 2],
            moves_made: [Move::NULL; MAX_PLY + 2],
            excluded: [Move::NULL; MAX_PLY + 2],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            start: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
            path: Vec::with_capacity(1024),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            seldepth: 0,
            lmr,
            params: SearchConfig::default(),
            piece_values,
            _width: std::marker::PhantomData,
        }
    }

    fn piece_values_of(eval: &Evaluator) -> Vec<i32> {
        (0..crate::rules::MAX_TYPES).map(|t| eval.piece_value(t.min(eval.layout.value.len() - 1))).collect()
    }

    pub fn eval(&self) -> &Evaluator {
        &self.eval
    }

    /// Sets one evaluation weight, or with a `search.` prefix one search parameter, by name.
    pub fn set_weight(&mut self, name: &str, value: f32) -> Result<(), String> {
        if let Some(param) = name.strip_prefix("search.") {
            let mut c = self.params;
            c.set(param, value as f64)?;
            self.configure(&c);
            // As after a weight change: a later search must equal a fresh engine's.
            self.weights_changed = true;
            return Ok(());
        }
        self.eval.set_weight(name, value)?;
        self.piece_values = Self::piece_values_of(&self.eval);
        self.weights_changed = true;
        Ok(())
    }

    /// The static evaluation, from the cache when this position was evaluated before: the
    /// search revisits most positions at every iteration, and the evaluation is pure.
    #[inline]
    fn evaluate(&mut self, pos: &Position<B>) -> i32 {
        let key = pos.hash();
        if let Some(v) = self.eval_cache.get(key) {
            return v;
        }
        let v = self.eval.evaluate_cached(pos, &mut self.pawns);
        self.eval_cache.put(key, v);
        v
    }

    /// A flag that stops the running search when set (UCI `stop`).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Switches search techniques per game (`configs/engines/*.toml`, `[search]`).
    pub fn configure(&mut self, c: &SearchConfig) {
        self.lmr = reduction_table(c.reduction_divisor);
        self.params = *c;
    }

    /// Forgets everything learned (new game): searches become reproducible from here.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        self.history.iter_mut().for_each(|h| *h = 0);
        self.counters.iter_mut().for_each(|m| *m = Move::NULL);
        self.cont.iter_mut().for_each(|h| *h = 0);
        self.capt.iter_mut().for_each(|h| *h = 0);
    }

    pub fn resize_hash(&mut self, mb: usize) {
        self.tt = Tt::new(mb);
    }

    /// Searches `pos`; `history` holds the hashes of the game's earlier positions.
    pub fn search(
        &mut self,
        pos: &Position<B>,
        history: &[u64],
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut pos = *pos;
        self.start = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        self.stop.store(false, Ordering::Relaxed);
        if self.weights_changed {
            self.tt.clear();
            self.eval_cache.clear();
            self.weights_changed = false;
        }
        self.tt.new_search();
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let budget = if limits.infinite { None } else { limits.budget() };
        self.deadline = budget.map(|(_, hard)| self.start + hard);
        self.path.clear();
        self.path.extend_from_slice(history);
        let dims = (pos.rules.types.len(), pos.rules.nsq);
        if self.cont_dims != dims {
            // One slab of zeros past the end stands for "no earlier move" (`cont_bases`).
            self.cont = vec![0; (dims.0 * dims.1 * 2 + 1) * dims.0 * dims.1];
            self.capt = vec![0; 2 * dims.0 * dims.1 * (dims.0 + 1)];
            self.cont_dims = dims;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);

        let mut root = MoveList::new();
        pos.legal_moves(&mut root);
        let mut result = SearchResult { best: root.first().copied(), score: 0, depth: 0, nodes: 0, pv: vec![] };
        if root.is_empty() {
            return result;
        }
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let score = self.aspiration(&mut pos, depth as i32, result.score);
            // Root moves searched to the end before an abort still count: the PV move is
            // only replaced by a completed search that beat it.
            let have_pv = self.pv_len[0] > 0;
            if have_pv {
                result.best = Some(self.pv[0][0]);
            }
            if self.aborted {
                if result.depth == 0 && have_pv {
                    result.score = score;
                    result.pv = self.pv[0][..self.pv_len[0]].to_vec();
                }
                break;
            }
            result.score = score;
            result.depth = depth;
            result.pv = self.pv[0][..self.pv_len[0]].to_vec();
            on_info(&Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(score),
                nodes: self.nodes,
                time: self.start.elapsed(),
                pv: result.pv.clone(),
            });
            if self.aborted {
                break;
            }
            if let Some((soft, _)) = budget {
                if self.start.elapsed() >= soft {
                    break;
                }
            }
            if score.abs() > MATE_BOUND && depth as i32 > MATE - score.abs() + 2 {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// A root search in a window around the previous iteration's score, widened on each
    /// side that fails; shallow iterations, whose scores swing, use the full window.
    fn aspiration(&mut self, pos: &mut Position<B>, depth: i32, previous: i32) -> i32 {
        if depth < 4 || previous.abs() >= MATE_BOUND {
            return self.negamax(pos, depth, -INF, INF, 0, true, false);
        }
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.negamax(pos, depth, alpha, beta, 0, true, false);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta {
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            } else if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Draw by repetition (one earlier occurrence inside the no-progress window).
    fn repeated(&self, pos: &Position<B>) -> bool {
        let n = self.path.len();
        let window = (pos.halfmove() as usize).min(n);
        let h = pos.hash();
        (2..=window).step_by(2).any(|k| self.path[n - k] == h)
    }

    /// Rule draws and king capture, before searching a node.
    fn rule_score(&self, pos: &Position<B>, ply: usize) -> Option<i32> {
        let r = pos.rules;
        if r.is_king_capture() && pos.king_square(pos.side()).is_none() {
            return Some(-MATE + ply as i32);
        }
        if ply > 0 {
            let limit = r.draw.no_progress_plies;
            if (limit > 0 && pos.halfmove() >= limit) || self.repeated(pos) {
                return Some(0);
            }
            if pos.occupied().count() <= 4 && pos.is_dead_material() {
                return Some(0);
            }
        }
        None
    }

    fn no_move_score(&self, pos: &Position<B>, in_check: bool, ply: usize) -> i32 {
        use crate::variant::config::NoMoveResult;
        if in_check && !pos.rules.is_king_capture() {
            return -MATE + ply as i32;
        }
        match pos.rules.stalemate {
            NoMoveResult::Draw => 0,
            NoMoveResult::Loss => -MATE + ply as i32,
            NoMoveResult::Win => MATE - ply as i32,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut Position<B>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.aborted {
            return 0;
        }
        if let Some(s) = self.rule_score(pos, ply) {
            return s;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, alpha, beta, ply, self.params.qsearch_checks > 0);
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            // Mate distance: no line from here can beat a shorter mate already found.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = pos.hash();
        let excluded = self.excluded[ply];
        let mut tt_move = Move::NULL;
        let mut tt_hit = None;
        let mut tt_depth = 0;
        let mut tt_pv = pv_node;
        if let Some(e) = self.tt.probe(key) {
            tt_pv |= e.pv;
            tt_move = e.mv;
            let s = from_tt(e.score, ply);
            // The stored result includes the excluded move, so it cannot settle a search without it.
            if !pv_node && excluded == Move::NULL && e.depth as i32 >= depth && tt::cuts(e.bound, s, alpha, beta) {
                return s;
            }
            tt_hit = Some((s, e.bound));
            tt_depth = e.depth as i32;
        }
        let king_capture = pos.rules.is_king_capture();
        let in_check = pos.in_check();

        // The static evaluation, sharpened by a stored bound that lies on the right side of it.
        let static_eval = if in_check { -INF } else { self.evaluate(pos) };
        self.static_eval[ply] = static_eval;
        let mut eval = static_eval;
        if let (false, Some((s, bound))) = (in_check, tt_hit) {
            if s.abs() < MATE_BOUND && (bound == EXACT || (bound == LOWER && s > eval) || (bound == UPPER && s < eval))
            {
                eval = s;
            }
        }
        // Improving: better than two plies ago, so pruning margins can be tighter.
        let improving = !in_check && ply >= 2 && static_eval > self.static_eval[ply - 2];

        if !pv_node && !in_check && ply > 0 {
            // Reverse futility: far enough above beta that a quiet move will not lose it all.
            if depth <= self.params.reverse_futility_depth
                && eval < MATE_BOUND
                && eval - self.params.reverse_futility_margin * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Null move, skipped when only pawns are left (zugzwang-prone endings) and after
            // another null move.
            if depth >= self.params.null_move_min_depth
                && excluded == Move::NULL
                && eval >= beta
                && static_eval >= beta
                && self.moves_made[ply.saturating_sub(1)] != Move::NULL
                && self.has_pieces(pos)
            {
                let p = &self.params;
                let r =
                    p.null_move_base + depth / p.null_move_depth_divisor + ((eval - beta) / p.null_move_divisor).min(3);
                let undo = pos.make_null();
                self.path.push(key);
                self.moves_made[ply] = Move::NULL;
                self.moved[ply] = NO_KEY;
                let s = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false, !cut_node);
                self.path.pop();
                pos.unmake_null(&undo);
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // No stored move: a reduced search is as good as the ordering it would have had.
        if depth >= 4 && tt_move == Move::NULL {
            depth -= 1;
        }

        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return self.no_move_score(pos, in_check, ply);
        }
        let counter = self.counter_move(pos, ply);
        let mut room = ordering::Scores::new();
        let scores = self.score_moves(pos, &list, &mut room, tt_move, ply, counter);

        let mut best = -INF;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let mut quiets_tried = [Move::NULL; 64];
        let mut n_quiets = 0usize;
        let mut noisy_tried = [Move::NULL; 32];
        let mut n_noisy = 0usize;
        let mut searched = 0usize;
        // Moves picked so far, the excluded one not counted (late-move pruning may count them).
        let mut picked = 0usize;
        let prunes_here = (!pv_node || self.params.pv_pruning > 0) && ply > 0 && !in_check;
        for i in 0..list.len() {
            let m = ordering::pick(&mut list, scores, i);
            if m == excluded {
                continue;
            }
            picked += 1;
            let quiet = !m.is_capture() && m.promo().is_none();
            // Only the late-move reduction reads it, and it needs the position before the move.
            let quiet_score =
                if quiet && depth >= 3 && searched > pv_node as usize { self.quiet_score(pos, m, ply) } else { 0 };
            // Shallow pruning, only once a move has been found that does not lose to mate.
            if prunes_here && best > -MATE_BOUND {
                if quiet {
                    // A late quiet move would be searched only to its reduced depth, so its
                    // futility and exchange margins are those of that depth; `searched` only
                    // grows, so the depth only falls and a move pruned here prunes the rest.
                    let lmr_depth = (depth - 1 - self.late_reduction(depth, searched)).max(0);
                    // Moves left after a plain quiet one (no hash move, killer or counter)
                    // are plain quiet ones too (the ordering puts them last), and the two
                    // tests below do not depend on the move: every later move would be
                    // pruned the same way, so stop picking them.
                    let rest_plain = scores[i] < ordering::BAD_NOISY;
                    let lmp = (self.params.late_move_base + depth * depth) as usize / if improving { 1 } else { 2 };
                    let count = if self.params.late_move_count_all > 0 { picked - 1 } else { n_quiets };
                    if depth <= self.params.late_move_depth && count >= lmp && m != tt_move {
                        if rest_plain {
                            break;
                        }
                        continue;
                    }
                    if lmr_depth <= 6
                        && eval + self.params.futility_margin + self.params.futility_per_depth * lmr_depth <= alpha
                        && !self.is_killer(m, ply)
                    {
                        if rest_plain {
                            break;
                        }
                        continue;
                    }
                    if lmr_depth <= 6 && !self.see_ge(pos, m, -self.params.quiet_see_margin * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if depth <= 5 && !self.see_ge(pos, m, -self.params.capture_see_margin * depth) {
                    continue;
                }
            }
            // Singular extension: the hash move gets a ply more when every other move falls
            // clearly short of its stored score in a shallower search; when even the others
            // reach beta, several moves refute this node and it is cut (multi-cut).
            let mut singular_ext = 0;
            if m == tt_move
                && ply > 0
                && depth >= 6
                && excluded == Move::NULL
                && ply < MAX_PLY / 2
                && tt_depth >= depth - 3
            {
                if let Some((tt_score, bound)) = tt_hit {
                    if bound != UPPER && tt_score.abs() < MATE_BOUND {
                        let singular_beta = tt_score - self.params.singular_margin * depth;
                        self.excluded[ply] = m;
                        let s =
                            self.negamax(pos, (depth - 1) / 2, singular_beta - 1, singular_beta, ply, false, cut_node);
                        self.excluded[ply] = Move::NULL;
                        self.pv_len[ply] = 0;
                        if self.aborted {
                            return 0;
                        }
                        if s < singular_beta {
                            singular_ext = 1;
                        } else if singular_beta >= beta {
                            return singular_beta;
                        }
                    }
                }
            }
            self.moved[ply] = self.move_key(pos, m);
            let undo = pos.make(m);
            self.path.push(key);
            self.moves_made[ply] = m;
            let gives_check = !king_capture && pos.in_check();
            let check_ext = gives_check && ply < MAX_PLY / 2 && depth >= self.params.check_extension_depth;
            let ext = (check_ext as i32).max(singular_ext);
            let new_depth = depth - 1 + ext;
            let mut s;
            if searched == 0 {
                s = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, pv_node, !pv_node && !cut_node);
            } else {
                let mut r = 0;
                if depth >= 3 && searched > pv_node as usize && (quiet || scores[i] < ordering::GOOD_NOISY) {
                    r = self.late_reduction(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    // Fairy-Stockfish's shape: spare what the principal variation passed
                    // through, cut the rest shorter (both 0 unless a game's config sets them).
                    if tt_pv {
                        r -= self.params.pv_reduction;
                    }
                    if !pv_node {
                        r += self.params.non_pv_reduction;
                    }
                    if cut_node {
                        r += self.params.cut_node_reduction;
                    }
                    if !improving {
                        r += 1;
                    }
                    if gives_check || self.is_killer(m, ply) || m == counter {
                        r -= 1;
                    }
                    if quiet {
                        r -= quiet_score
                            / if self.params.continuation_history {
                                self.params.history_reduction_divisor
                            } else {
                                6000
                            };
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                s = -self.negamax(pos, new_depth - r, -alpha - 1, -alpha, ply + 1, false, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, false, !cut_node);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, true, false);
                }
            }
            self.path.pop();
            pos.unmake(m, &undo);
            searched += 1;
            if self.aborted {
                return if best > -INF { best } else { 0 };
            }
            if s > best {
                best = s;
                best_move = m;
                if s > alpha {
                    alpha = s;
                    self.pv[ply][0] = m;
                    let child = self.pv_len[ply + 1].min(MAX_PLY - 1);
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply][1..=child].copy_from_slice(&tail[0][..child]);
                    self.pv_len[ply] = child + 1;
                    if s >= beta {
                        if quiet {
                            self.reward_quiet(pos, m, depth, ply, &quiets_tried[..n_quiets]);
                        }
                        let cut = if quiet { None } else { Some(m) };
                        self.reward_captures(pos, cut, depth, &noisy_tried[..n_noisy]);
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = m;
                n_quiets += 1;
            } else if !quiet && n_noisy < noisy_tried.len() {
                noisy_tried[n_noisy] = m;
                n_noisy += 1;
            }
        }
        if best == -INF {
            // Every move was pruned (cannot happen before one is searched, kept for safety).
            return alpha;
        }
        if excluded == Move::NULL {
            let bound = tt::bound_of(best, original_alpha, beta);
            self.tt.store(key, best_move, to_tt(best, ply), depth, bound, tt_pv);
        }
        best
    }

    /// The late-move reduction of the move after `searched` others at `depth`, before the
    /// per-move adjustments.
    #[inline(always)]
    fn late_reduction(&self, depth: i32, searched: usize) -> i32 {
        self.lmr[(depth as usize).min(63)][searched.min(63)] as i32
    }

    fn has_pieces(&self, pos: &Position<B>) -> bool {
        let r = pos.rules;
        let mut others = pos.color_bb(pos.side()) & !pos.type_bb(r.king);
        if let Some(p) = r.pawn_type {
            others &= !pos.type_bb(p);
        }
        others.any()
    }
}

/// Mate scores are stored relative to the node, so they stay right at any depth.
/// Late-move reductions by depth and move number, before the per-move adjustments.
fn reduction_table(divisor: f64) -> [[u8; 64]; 64] {
    let mut lmr = [[0u8; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (m as f64).ln() / divisor).clamp(0.0, 63.0) as u8;
        }
    }
    lmr
}

fn to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s + ply as i32
    } else if s < -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
