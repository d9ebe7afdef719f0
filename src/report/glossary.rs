//! The jargon a page uses, explained at its end: only the terms that appear on it.

/// (term, texts whose presence on the page calls for it, explanation). A term that a page
/// can use in more than one form lists them separated by `||` (the summary names the
/// bracket by its method, `imbalance-bracket`, a report page by its unit, local pawns).
const TERMS: &[(&str, &str, &str)] = &[
    ("95 % interval", "95 %", "the range of values consistent with the games played: repeated with fresh games, such intervals contain the true figure 95 times in 100. Wider means fewer or noisier games."),
    ("Elo", "Elo", "a scale for playing strength and advantage. 0 is an even game; +35 Elo is about a 55 % expected score, +100 Elo about 64 %."),
    ("plies", "plies", "half-moves: one ply is one side's move, so 80 plies are 40 moves by each side."),
    ("game pairs", "game pairs", "each opening is played twice with the colours swapped. The games from one opening are not independent (at a fixed node budget a repeated opening replays the same games), so the opening (in reports whose openings are not counted, the pair), not the game, is the unit of the balance statistics; openings are drawn without repeats."),
    ("nodes", "nodes", "the engine's search budget per move, in positions examined; more nodes means stronger play."),
    ("draw rate, decisive", "draw rate", "the share of games drawn, and of games won by either side."),
    ("regression-logistic", "regression", "piece values by logistic regression: self-play games from positions with unequal material, the results fitted against the material difference of each position; a piece's coefficient, divided by the pawn's, is its value in pawns."),
    ("`white` and `side-to-move` rows", "side-to-move", "terms of the same regression that are not pieces: `white` is the worth of being White (the first-move advantage), `side-to-move` the worth of having the move in the positions sampled, both in pawns."),
    ("imbalance-lsq", "imbalance-lsq", "piece values from imbalance matches: games that start with one side's piece traded for others, converted to pawns by pawn-odds matches, and combined by least squares into one value per piece."),
    ("imbalance", "| imbalance |", "one imbalance match: a label such as `X-(Y+P)` plays the pieces left of the minus sign (X) against those right of it (Y and a Pawn), the rest of the start position unchanged; its value is the first side's worth minus the second's, in pawns."),
    ("intervals overlap", "overlap", "two separately measured 95 % intervals share some values, so the data cannot tell the two figures apart. Non-overlapping intervals are a clear difference."),
    ("log-ratio test, imbalance / regression", "log-ratio", "whether the two estimators give a piece the same value: the ratio of the two values, tested on the log scale against 1 with both intervals' errors (|z| above 1.96 is a disagreement at 95 %). The ratios' weighted mean is the factor between the two estimators' pawns; its chi2 says whether that one factor explains every piece."),
    ("worth the same within ±x", "within ±", "the 95 % interval of a difference includes zero and reaches at most x from it: a larger difference is ruled out at 95 % confidence, a smaller one is not."),
    ("worst case, runner-up", "worst case", "a setup choice's worst case is its score against the opponent's most effective reply; the best choice has the best worst case, the runner-up the next best."),
    ("pentanomial", "pentanomial", "statistics over game pairs: each pair scores 0, ½, 1, 1½ or 2, and the spread of these five outcomes gives the interval."),
    ("published range, consistent", "published range", "the lowest to the highest value the sources listed give a piece. A measured value is consistent when its 95 % interval reaches that range, above or below when the whole interval lies beyond it."),
    ("local pawns, imbalance-bracket", "local pawns||imbalance-bracket", "the pawn priced where a trade happens: the first side plays the second plus k pawns for three k around balance, and the k at which the score is even is the difference in pawns of that material context. The Elo the score falls by per added pawn is the local pawn's worth; the pawn-odds match prices the pawn at the start position only, and where the two prices differ the figures converted with it are in another unit."),
    ("pawn odds", "pawn odds", "a match in which one side starts without a pawn (two central pawns on wide boards): the Elo it costs is the start position's price of a pawn, which converts the imbalance matches' Elo to pawns. Replayed under the neutral weights a match is played with, it shows whether those weights change that price."),
    ("phase filter, `min-pieces`", "min-pieces", "the regression fits only positions that still hold this share of the start position's pieces (pawns and kings not counted), because late endgames pull every value towards the pawn's; a stricter filter keeps the positions nearer the full board the imbalance matches start from."),
    ("paired bootstrap", "paired bootstrap", "both fits made on each resample of the same games, so the difference between them gets an interval that accounts for their sharing most positions; BCa corrects the interval's ends for bias and skew."),
    ("SPRT", "SPRT", "sequential probability ratio test: games are played until the evidence favours one of two Elo hypotheses at the chosen error rates."),
];

/// A `## Glossary` section for a page whose text (before the glossary) is `page`.
pub fn markdown(page: &str) -> String {
    let used: Vec<&(&str, &str, &str)> = TERMS.iter().filter(|t| t.1.split("||").any(|k| page.contains(k))).collect();
    if used.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n## Glossary\n\n");
    for (term, _, text) in used {
        s += &format!("* **{term}**: {text}\n");
    }
    s
}
