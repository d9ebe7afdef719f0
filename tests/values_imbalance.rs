//! Estimator 2's arithmetic on simulated matches: scores converted to pawns through a
//! pawn-odds calibration, comparisons combined by least squares, and the 95 % intervals
//! (which include the calibration's uncertainty) covering the truth about 95 % of the time.

use fairylab::rng::Rng;
use fairylab::stats::{elo_to_score, GameResult, Pentanomial};
use fairylab::values::imbalance::calibration::{elo, in_pawns, pair_score, Measure};
use fairylab::values::imbalance::combine::{combine, Equation};
use fairylab::values::{Comparison, Pieces};
use fairylab::Variant;

const ELO_PER_PAWN: f64 = 90.0;
const DRAW_RATE: f64 = 0.35;
/// True values in pawns.
const VALUES: [(char, f64); 5] = [('P', 1.0), ('N', 3.2), ('B', 3.35), ('R', 5.1), ('Q', 9.6)];
const COMPARISONS: [&str; 4] = ["N=P+P+P", "B=N", "R=N+P+P", "Q=R+N+P"];

fn value(letter: char) -> f64 {
    VALUES.iter().find(|(l, _)| *l == letter).unwrap().1
}

fn game(rng: &mut Rng, score: f64) -> GameResult {
    // Win and loss probabilities around a fixed draw rate with the given expected score.
    let w = score - DRAW_RATE / 2.0;
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    if u < w {
        GameResult::Win
    } else if u < w + DRAW_RATE {
        GameResult::Draw
    } else {
        GameResult::Loss
    }
}

/// A match of `pairs` pairs whose favoured side is `pawns` pawns ahead.
fn simulate(rng: &mut Rng, pawns: f64, pairs: usize) -> Pentanomial {
    let s = elo_to_score(ELO_PER_PAWN * pawns);
    Pentanomial::from_pairs((0..pairs).map(|_| (game(rng, s), game(rng, s))))
}

struct Outcome {
    /// (true, low, high) per comparison in pawns.
    differences: Vec<(f64, f64, f64)>,
    /// (true, low, high) per piece from the least squares combination.
    values: Vec<(f64, f64, f64)>,
}

/// Chess's pieces, the generator after a simulated pawn-odds match, and that match's Elo.
fn calibrated(seed: u64, pairs: usize) -> (Pieces, Rng, Measure) {
    let pieces = Pieces::of(Variant::load("chess", &[]).unwrap()).unwrap();
    let mut rng = Rng::new(seed);
    let cal = elo(pair_score(&simulate(&mut rng, 1.0, pairs)).unwrap()).unwrap();
    (pieces, rng, cal)
}

fn experiment(seed: u64, pairs: usize) -> Outcome {
    let (pieces, mut rng, cal) = calibrated(seed, pairs);
    let mut a = vec![0; pieces.len()];
    a[pieces.pawn] = 1;
    let mut equations = vec![Equation { coefficients: a, elo: cal }];
    let mut differences = Vec::new();
    for text in COMPARISONS {
        let c = Comparison::parse(text, &pieces).unwrap();
        let truth: f64 = c.x.iter().map(|&l| value(l)).sum::<f64>() - c.y.iter().map(|&l| value(l)).sum::<f64>();
        let e = elo(pair_score(&simulate(&mut rng, truth, pairs)).unwrap()).unwrap();
        let d = in_pawns(e, cal).unwrap();
        differences.push((truth, d.low, d.high));
        equations.push(Equation { coefficients: c.coefficients(&pieces), elo: e });
    }
    let combined = combine(&equations, pieces.len(), pieces.pawn).unwrap();
    let values = VALUES[1..]
        .iter()
        .map(|&(l, v)| {
            let i = combined.values[pieces.index(l).unwrap()].unwrap();
            (v, i.low, i.high)
        })
        .collect();
    Outcome { differences, values }
}

#[test]
fn large_matches_recover_the_values() {
    let o = experiment(7, 20000);
    for (truth, low, high) in o.values {
        assert!(low <= truth && truth <= high, "{truth} outside [{low}, {high}]");
        assert!(high - low < 0.15 * truth, "[{low}, {high}] too wide");
    }
}

#[test]
fn intervals_cover_about_95_percent_with_the_calibration_error_inside() {
    let reps = 200;
    let (mut diff_hits, mut value_hits, mut diff_n, mut value_n) = (0, 0, 0, 0);
    for rep in 0..reps {
        let o = experiment(100 + rep, 400);
        for (t, lo, hi) in o.differences {
            diff_n += 1;
            diff_hits += usize::from(lo <= t && t <= hi);
        }
        for (t, lo, hi) in o.values {
            value_n += 1;
            value_hits += usize::from(lo <= t && t <= hi);
        }
    }
    let (d, v) = (diff_hits as f64 / diff_n as f64, value_hits as f64 / value_n as f64);
    eprintln!("coverage: differences {d:.3}, combined values {v:.3}");
    assert!((0.92..=0.98).contains(&d), "difference coverage {d}");
    assert!((0.92..=0.98).contains(&v), "value coverage {v}");
}

#[test]
fn ignoring_the_calibration_error_would_under_cover() {
    // The same conversion with the calibration treated as exact: intervals too narrow.
    // This is why `in_pawns` carries the denominator's variance.
    let mut rng = Rng::new(5);
    let (mut hits, reps) = (0, 300);
    for _ in 0..reps {
        let cal = elo(pair_score(&simulate(&mut rng, 1.0, 200)).unwrap()).unwrap();
        let e = elo(pair_score(&simulate(&mut rng, 4.0, 200)).unwrap()).unwrap();
        let exact = in_pawns(e, Measure { value: cal.value, se: 0.0 }).unwrap();
        hits += usize::from(exact.low <= 4.0 && 4.0 <= exact.high);
    }
    let rate = hits as f64 / reps as f64;
    assert!(rate < 0.85, "coverage without the calibration's error: {rate}");
}

#[test]
fn default_calibration_follows_the_board_width() {
    use fairylab::values::pieces::{calibration_squares, default_calibration};
    let cal = |name: &str| default_calibration(Variant::load(name, &[]).unwrap());
    assert_eq!(cal("chess"), "f");
    assert_eq!(cal("flying-bombers-grand"), "ef");
    assert_eq!(cal("bland-chess-46"), "cd");
    // Each default names pawns that are on the board.
    for name in ["chess", "flying-bombers-grand", "bland-chess-46", "flying-bombers-hangars", "noble-wings"] {
        let v = Variant::load(name, &[]).unwrap();
        assert!(calibration_squares(v, &default_calibration(v)).is_ok(), "{name}");
    }
}

/// The chain above plus three matches that measure new quantities, so the least squares
/// has three degrees of freedom to test additivity with.
const REDUNDANT: [&str; 3] = ["B=P+P+P", "R=B+P+P", "Q=R+B+P"];

/// The additivity test's p-value for matches whose true results are `truth(comparison)`
/// pawns, with `pairs` pairs each.
fn additivity_p(seed: u64, pairs: usize, truth: &dyn Fn(&Comparison) -> f64) -> (f64, usize) {
    let (pieces, mut rng, cal) = calibrated(seed, pairs);
    let mut a = vec![0; pieces.len()];
    a[pieces.pawn] = 1;
    let mut equations = vec![Equation { coefficients: a, elo: cal }];
    for text in COMPARISONS.iter().chain(&REDUNDANT) {
        let c = Comparison::parse(text, &pieces).unwrap();
        let e = elo(pair_score(&simulate(&mut rng, truth(&c), pairs)).unwrap()).unwrap();
        equations.push(Equation { coefficients: c.coefficients(&pieces), elo: e });
    }
    let combined = combine(&equations, pieces.len(), pieces.pawn).unwrap();
    (combined.p_value, combined.dof)
}

fn additive(c: &Comparison) -> f64 {
    c.x.iter().map(|&l| value(l)).sum::<f64>() - c.y.iter().map(|&l| value(l)).sum::<f64>()
}

#[test]
fn additive_matches_pass_the_additivity_test_at_its_nominal_rate() {
    // With additive values the p-value is uniform: about 5 % of experiments fall below
    // 0.05. Over 200 experiments Binomial(200, 0.05) has mean 10 and sd 3.1.
    let ps: Vec<f64> = (0..200)
        .map(|seed| additivity_p(500 + seed, 400, &additive))
        .map(|(p, dof)| {
            assert_eq!(dof, 3);
            p
        })
        .collect();
    let small = ps.iter().filter(|&&p| p < 0.05).count();
    let median = {
        let mut v = ps.clone();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    eprintln!("additive: {small} of 200 below 0.05, median p {median:.3}");
    assert!((2..=20).contains(&small), "{small} of 200 below 0.05");
    assert!((0.35..=0.65).contains(&median), "median p {median}");
}

#[test]
fn a_queen_whose_worth_depends_on_what_it_is_traded_for_fails_the_test() {
    // Not additive: the queen against rook, bishop and pawn plays 1.5 pawns better than
    // its values say, against rook, knight and pawn as they say. Together with B=N the two
    // queen matches cannot all be fitted.
    let lopsided = |c: &Comparison| additive(c) + if c.x == ['Q'] && c.y.contains(&'B') { 1.5 } else { 0.0 };
    let (p, dof) = additivity_p(9, 2000, &lopsided);
    assert_eq!(dof, 3);
    assert!(p < 0.001, "p = {p}");
    // The same matches with additive results pass.
    let (p, _) = additivity_p(9, 2000, &additive);
    assert!(p > 0.01, "p = {p}");
}

// Local pawn pricing (`values::imbalance::bracketing`), simulated game by game: the pawn
// is worth a different number of Elo in each material context, and each comparison is
// bracketed where it is traded.

use fairylab::values::imbalance::bracket::{price, Point};
use fairylab::values::imbalance::bracketing::{choose, next_k};

/// A comparison in a material model whose pawn is worth `elo_per_pawn` Elo where it is
/// traded, and whose two sides differ by `pawns` of those local pawns.
struct Context {
    pawns: f64,
    elo_per_pawn: f64,
}

/// A match whose side with X is `elo` Elo ahead (logistic), `pairs` pairs.
fn simulate_elo(rng: &mut Rng, elo: f64, pairs: usize) -> Pentanomial {
    let s = elo_to_score(elo);
    Pentanomial::from_pairs((0..pairs).map(|_| (game(rng, s), game(rng, s))))
}

/// Tails of the bracket's 95 % interval over `runs` simulated studies: (below, above,
/// unsupported) as shares. As `values imbalance --bracket` does, the comparison's own match
/// (k = 0) comes first, its `k` centre on that match's estimate converted with a noisy
/// start-position pawn (on `rough`, the engine's guess, when that has no bounded
/// interval), and it is reused as a point when 0 is among the `k`.
fn bracket_tails(seed: u64, c: &Context, start_pawn: f64, n: u32, pairs: usize, runs: usize) -> (f64, f64, f64) {
    let rough = c.pawns.round() + 0.4;
    let mut rng = Rng::new(seed);
    let (mut below, mut above, mut unsupported) = (0, 0, 0);
    for _ in 0..runs {
        let own = simulate_elo(&mut rng, c.elo_per_pawn * c.pawns, pairs);
        let own_elo = elo(pair_score(&own).unwrap()).unwrap();
        let cal = elo(pair_score(&simulate_elo(&mut rng, start_pawn, pairs)).unwrap()).unwrap();
        let centre = in_pawns(own_elo, cal).map_or(rough, |d| d.value);
        let play = |k: i32, rng: &mut Rng| match k {
            0 => Some(own_elo),
            _ => elo(pair_score(&simulate_elo(rng, c.elo_per_pawn * (c.pawns - k as f64), pairs))?),
        };
        let mut points: Vec<Point> = choose(centre, n, 4)
            .into_iter()
            .filter_map(|k| Some(Point { pawns: k, elo: play(k, &mut rng)? }))
            .collect();
        let initial = points.len();
        let mut priced = price(&points).ok().and_then(|b| b.value);
        // Past an end, one more match there (twice at most), as the study does.
        loop {
            let ks: Vec<i32> = points.iter().map(|p| p.pawns).collect();
            let Some(k) = next_k(&ks, initial, priced.map(|v| v.value), 4) else { break };
            match play(k, &mut rng) {
                Some(e) => points.push(Point { pawns: k, elo: e }),
                None => break,
            }
            priced = price(&points).ok().and_then(|b| b.value);
        }
        match priced {
            Some(v) => {
                below += usize::from(v.high < c.pawns);
                above += usize::from(v.low > c.pawns);
            }
            None => unsupported += 1,
        }
    }
    let share = |x: usize| x as f64 / runs as f64;
    (share(below), share(above), share(unsupported))
}

/// 95 % ± 2 % coverage with each tail within 2.5 % ± 0.9 % (4,000 runs: the share of a
/// 2.5 % tail has a standard deviation of 0.25 %). A run without a bounded interval prints
/// "not enough data": it claims nothing, so it misses on neither side (as Fieller's
/// coverage counts its unbounded sets); at most `most_unsupported` of the runs may end so.
fn assert_even_tails(what: &str, (below, above, unsupported): (f64, f64, f64), most_unsupported: f64) {
    let covered = 1.0 - below - above;
    eprintln!("{what}: covered {covered:.4}, below {below:.4}, above {above:.4}, unsupported {unsupported:.4}");
    assert!(unsupported <= most_unsupported, "{what}: {unsupported} without a bounded interval");
    assert!((0.93..=0.97).contains(&covered), "{what}: coverage {covered}");
    assert!((0.016..=0.034).contains(&below) && (0.016..=0.034).contains(&above), "{what}: tails {below} {above}");
}

#[test]
fn brackets_price_a_context_dependent_pawn_with_even_tails() {
    // The start position's pawn is worth 90 Elo; where a rook is traded for a knight only
    // 55, and where knights go for pawns 110. Each bracket prices its comparison in its own
    // pawns, with the start-position pawn used only to choose the k.
    let contexts = [
        ("R=N", Context { pawns: 1.6, elo_per_pawn: 55.0 }),
        ("N=P+P+P", Context { pawns: 0.25, elo_per_pawn: 110.0 }),
        ("Q=R+B+P", Context { pawns: -0.7, elo_per_pawn: 70.0 }),
    ];
    for (i, (name, c)) in contexts.iter().enumerate() {
        assert_even_tails(name, bracket_tails(40 + i as u64, c, 90.0, 3, 400, 4000), 0.01);
    }
    // The same R=N match converted with the start-position pawn misses its local value:
    // 55 x 1.6 / 90 = 0.98 start pawns, far outside the local 1.6's interval.
    let mut rng = Rng::new(3);
    let own = elo(pair_score(&simulate_elo(&mut rng, 55.0 * 1.6, 4000)).unwrap()).unwrap();
    let cal = elo(pair_score(&simulate_elo(&mut rng, 90.0, 4000)).unwrap()).unwrap();
    let converted = in_pawns(own, cal).unwrap();
    assert!(converted.high < 1.6, "{converted:?}");
}

#[test]
fn brackets_keep_even_tails_at_a_low_elo_per_pawn() {
    // The hard regime: 20 Elo a pawn, 800 pairs a match (the delta-method ratio
    // covered 93.7 % there, every miss below). Three bracket matches price the pawn in
    // about 97 % of studies (slope 20 ± 5 Elo).
    let c = Context { pawns: 1.7, elo_per_pawn: 20.0 };
    assert_even_tails("20 Elo/pawn, 3 matches", bracket_tails(61, &c, 20.0, 3, 800, 4000), 0.05);
    // Two matches one pawn apart measure the slope to ± 10 Elo: about half the studies say
    // "not enough data" rather than print a wrong interval, and the printed ones err on
    // the safe side (each tail about 1 %).
    let (below, above, unsupported) = bracket_tails(62, &c, 20.0, 2, 800, 4000);
    eprintln!("20 Elo/pawn, 2 matches: below {below:.4}, above {above:.4}, unsupported {unsupported:.4}");
    assert!((0.3..0.7).contains(&unsupported), "{unsupported}");
    assert!(below <= 0.034 && above <= 0.034, "{below} {above}");
}
