//! Quiescence search: captures and promotions until the position is quiet, every evasion
//! when in check, so that the static evaluation is only read where nothing hangs.

use super::{from_tt, ordering, to_tt, tt, Searcher, INF, MAX_PLY};
use crate::position::{Move, MoveList, Position};
use crate::rules::Bits;

impl<B: Bits> Searcher<B> {
    /// `checks`: quiet checks are searched too (the first ply below the main search).
    pub(super) fn qsearch(
        &mut self,
        pos: &mut Position<B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.aborted {
            return 0;
        }
        if let Some(s) = self.rule_score(pos, ply) {
            return s;
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = pos.hash();
        let mut tt_move = Move::NULL;
        let mut tt_pv = false;
        if let Some(e) = self.tt.probe(key) {
            let s = from_tt(e.score, ply);
            if tt::cuts(e.bound, s, alpha, beta) {
                return s;
            }
            tt_move = e.mv;
            tt_pv = e.pv;
        }
        let in_check = !pos.rules.is_king_capture() && pos.in_check();
        let mut best = -INF;
        let mut stand = -INF;
        if !in_check {
            stand = self.evaluate(pos);
            if stand >= beta || ply >= MAX_PLY {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        } else if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        let original_alpha = alpha;
        let mut list = MoveList::new();
        if in_check {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                return self.no_move_score(pos, in_check, ply);
            }
        } else {
            // Only captures and promotions. A stalemate is not noticed here (the stand-pat
            // score stands in for it), as in most engines: finding it would cost the full
            // generation that this saves.
            pos.legal_noisy_moves(&mut list);
            if checks && !pos.rules.is_king_capture() {
                self.push_quiet_checks(pos, &mut list);
            }
        }
        let mut room = ordering::Scores::new();
        let scores = self.score_moves(pos, &list, &mut room, tt_move, ply, Move::NULL);
        let mut best_move = Move::NULL;
        let limit = match self.params.qsearch_captures {
            0 => usize::MAX,
            n => n as usize,
        };
        // Far below alpha an even trade cannot reach it either: only a won exchange can.
        let futile = self.params.qsearch_futility > 0 && stand + self.params.qsearch_futility <= alpha;
        for i in 0..list.len() {
            let m = ordering::pick(&mut list, scores, i);
            // Out of check the only quiet moves listed are checks, already sifted.
            let quiet_check = !in_check && !m.is_capture() && m.promo().is_none();
            if !in_check && !quiet_check && !self.takes_king(pos, m) {
                // Captures that lose material after one recapture, and below alpha by more
                // than the futility margin those that do not win any.
                let threshold = futile as i32;
                let keep = if m.promo().is_none() {
                    // Past the first few (best-ordered) captures the rest rarely matter.
                    if i >= limit {
                        continue;
                    }
                    // Delta pruning: even winning the material outright would not reach alpha.
                    let gain = self.gain(pos, m);
                    if stand + gain + self.params.delta_margin <= alpha {
                        continue;
                    }
                    // The gain is known, so the exchange test need not find it again.
                    self.see_ge_gaining(pos, m, threshold, gain)
                } else {
                    self.see_ge(pos, m, threshold)
                };
                if !keep {
                    continue;
                }
            }
            let undo = pos.make(m);
            self.path.push(key);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1, false);
            self.path.pop();
            pos.unmake(m, &undo);
            if self.aborted {
                return if best > -INF { best } else { 0 };
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = m;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INF {
            // In check with every evasion searched this cannot happen; kept for safety.
            return alpha;
        }
        let bound = tt::bound_of(best, original_alpha, beta);
        self.tt.store(key, best_move, to_tt(best, ply), 0, bound, tt_pv);
        best
    }

    /// Adds the quiet moves that give check and do not lose material in the static
    /// exchange. Whether a move checks is asked by making it: hoppers, bombers and
    /// discovered checks need no special case, and only quiescence's first ply pays.
    fn push_quiet_checks(&mut self, pos: &mut Position<B>, list: &mut MoveList) {
        let mut all = MoveList::new();
        pos.legal_moves(&mut all);
        for &m in all.iter() {
            if m.is_capture() || m.promo().is_some() {
                continue;
            }
            let undo = pos.make(m);
            let check = pos.in_check();
            pos.unmake(m, &undo);
            if check && self.see_ge(pos, m, 0) {
                list.push(m);
            }
        }
    }
}
