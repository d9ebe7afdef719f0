//! Schedules for the runner: which games a run plays, in which order.

use super::in_shard;
use super::runner::Game;

/// Game pairs between engines: for every encounter `(a, b)` and round `r`, pair
/// `encounter * rounds + r` is game `2p` with `a` White and game `2p + 1` with `b` White,
/// both from opening `r`. Only the pairs of `shard` (all without one).
pub fn colour_swapped_pairs(
    encounters: &[(usize, usize)],
    names: &[String],
    rounds: u64,
    imbalance: &Option<(String, String)>,
    shard: Option<(u64, u64)>,
) -> Vec<Game> {
    let mut games = Vec::new();
    for (e, &(a, b)) in encounters.iter().enumerate() {
        for r in 0..rounds {
            let pair_id = e as u64 * rounds + r;
            if !in_shard(pair_id, shard) {
                continue;
            }
            let game = |game_id, white: usize, black: usize| Game {
                game_id,
                pair_id,
                white,
                black,
                opening: r,
                imbalance: imbalance.clone(),
                names: (names[white].clone(), names[black].clone()),
            };
            games.push(game(2 * pair_id, a, b));
            games.push(game(2 * pair_id + 1, b, a));
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_shards_split_them_round_robin() {
        let names = vec!["A".to_string(), "B".to_string(), "C".to_string()];
        let g = colour_swapped_pairs(&[(0, 1), (0, 2)], &names, 2, &None, None);
        let ids: Vec<(u64, u64, usize, usize, u64)> =
            g.iter().map(|g| (g.game_id, g.pair_id, g.white, g.black, g.opening)).collect();
        assert_eq!(
            ids,
            [
                (0, 0, 0, 1, 0),
                (1, 0, 1, 0, 0),
                (2, 1, 0, 1, 1),
                (3, 1, 1, 0, 1),
                (4, 2, 0, 2, 0),
                (5, 2, 2, 0, 0),
                (6, 3, 0, 2, 1),
                (7, 3, 2, 0, 1)
            ]
        );
        assert_eq!(g[1].names, ("B".to_string(), "A".to_string()));
        let shard: Vec<u64> =
            colour_swapped_pairs(&[(0, 1), (0, 2)], &names, 2, &None, Some((2, 3))).iter().map(|g| g.pair_id).collect();
        assert_eq!(shard, [1, 1]);
    }
}
