//! Estimator 1 on synthetic data: results simulated from a known logistic material model
//! must be recovered within their intervals (Fieller's, from the bootstrap covariance of the
//! coefficients), the 95 % intervals must cover the true values in about 95 % of
//! repetitions, and a pawn the data cannot price gives no figures at all.

use fairylab::rng::Rng;
use fairylab::values::regression::dataset::{Dataset, GameData, Observation};
use fairylab::values::regression::{estimate, Regression, Settings, DEFAULT_REPLICATES};
use fairylab::values::support::Support;
use fairylab::values::Model;
use fairylab::values::Pieces;
use fairylab::Variant;

/// True values in pawns by letter, and the logit per pawn.
const TRUE: [(char, f64); 5] = [('P', 1.0), ('N', 3.0), ('B', 3.4), ('R', 5.0), ('Q', 9.0)];
const LOGIT_PER_PAWN: f64 = 0.45;
const WHITE_EDGE: f64 = 0.15; // logit

fn chess_pieces() -> Pieces {
    Pieces::of(Variant::load("chess", &[]).unwrap()).unwrap()
}

fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// A game: one material imbalance held for 3 to 9 positions, each with a random side to
/// move (the true model ignores it), and one result drawn from the model. With `draw_margin`, the result follows the
/// ordinal model (win/draw/loss); without, it is a win or a loss.
fn game(p: &Pieces, rng: &mut Rng, draw_margin: Option<f64>) -> GameData {
    let mut diff = vec![0; p.len()];
    let mut eta = WHITE_EDGE;
    for &(letter, value) in &TRUE {
        let t = p.index(letter).unwrap();
        // Pawns differ by up to 3, pieces by up to 1; each type independently.
        let span = if letter == 'P' { 3 } else { 1 };
        let d = if uniform(rng) < 0.5 { 0 } else { rng.below(2 * span + 1) as i32 - span as i32 };
        diff[t] = d;
        eta += LOGIT_PER_PAWN * value * d as f64;
    }
    let u = uniform(rng);
    let white_score = match draw_margin {
        None => {
            if u < sigmoid(eta) {
                1.0
            } else {
                0.0
            }
        }
        Some(theta) => {
            if u < sigmoid(eta - theta) {
                1.0
            } else if u < sigmoid(eta + theta) {
                0.5
            } else {
                0.0
            }
        }
    };
    let positions = 3 + rng.below(7);
    let observations =
        (0..positions).map(|_| Observation { diff: diff.clone(), white_to_move: rng.below(2) == 0 }).collect();
    GameData { observations, white_score }
}

fn simulate(games: usize, seed: u64, draw_margin: Option<f64>) -> Vec<GameData> {
    let p = chess_pieces();
    let mut rng = Rng::new(seed);
    (0..games).map(|_| game(&p, &mut rng, draw_margin)).collect()
}

fn fit(games: &[GameData], model: Model, replicates: usize, seed: u64) -> Regression {
    let p = chess_pieces();
    let data = Dataset::build(&p, games).unwrap();
    estimate(&p, &data, &Settings { model, replicates, seed, contrasts: vec![], scaled: vec![] }).unwrap()
}

/// Every value within three bootstrap standard errors of the truth (a miss has odds of
/// about 1 in 400 per type; whether 95 % intervals cover 95 % of the time is the coverage
/// test's job), and intervals narrow enough to be informative.
fn check_recovery(r: &Regression) {
    for &(letter, value) in &TRUE[1..] {
        let e = r.estimates.iter().find(|e| e.name == letter.to_string()).unwrap();
        assert!((e.value - value).abs() <= 3.0 * e.se, "{letter}: {} ± {} vs true {value}", e.value, e.se);
        assert!(e.low < e.value && e.value < e.high, "{e:?}");
        assert!(e.high - e.low < 0.25 * value, "{letter}: interval [{}, {}] is uselessly wide", e.low, e.high);
    }
    let pawn = r.estimates.iter().find(|e| e.name == "P").unwrap();
    assert_eq!((pawn.value, pawn.low, pawn.high), (1.0, 1.0, 1.0));
    // Results do not depend on the side to move in this model.
    let stm = r.estimates.iter().find(|e| e.name == "side-to-move").unwrap();
    assert!(stm.value.abs() <= 3.0 * stm.se, "{stm:?}");
}

#[test]
fn logistic_regression_recovers_known_values() {
    let r = fit(&simulate(20000, 11, None), Model::Logistic, DEFAULT_REPLICATES, 5);
    check_recovery(&r);
    assert_eq!(r.games, 20000);
    assert!((3 * 20000..=9 * 20000).contains(&r.positions));
    // White's edge of 0.15 logit is 0.15 / 0.45 = 0.33 pawns.
    let w = r.estimates.iter().find(|e| e.name == "white").unwrap();
    assert!((w.value - 1.0 / 3.0).abs() <= 3.0 * w.se, "{w:?}");
}

#[test]
fn ordinal_regression_recovers_known_values_and_draw_margin() {
    let r = fit(&simulate(20000, 12, Some(0.8)), Model::Ordinal, 100, 6);
    check_recovery(&r);
    let theta = r.draw_margin.unwrap();
    assert!((theta - 0.8).abs() < 0.05, "draw margin {theta}");
}

#[test]
fn bootstrap_intervals_cover_about_95_percent() {
    // 100 independent data sets of 400 games; count how often each type's interval covers
    // its true value. For 95 % intervals the count per type is Binomial(100, 0.95): below
    // 86 has probability about 0.1 %; over all four types the rate should be near 0.95.
    let reps = 100;
    let mut covered = vec![0; TRUE.len()];
    for rep in 0..reps {
        let games = simulate(400, 1000 + rep, None);
        let r = fit(&games, Model::Logistic, DEFAULT_REPLICATES, 2000 + rep);
        for (k, &(letter, value)) in TRUE.iter().enumerate() {
            let e = r.estimates.iter().find(|e| e.name == letter.to_string()).unwrap();
            if e.low <= value && value <= e.high {
                covered[k] += 1;
            }
        }
    }
    for (k, &(letter, _)) in TRUE.iter().enumerate().skip(1) {
        assert!((86..=100).contains(&covered[k]), "{letter}: covered {} of {reps}", covered[k]);
    }
    eprintln!("covered per type (P N B R Q): {covered:?} of {reps}");
    let total: usize = covered.iter().skip(1).sum();
    let rate = total as f64 / (4 * reps) as f64;
    assert!((0.90..=0.99).contains(&rate), "overall coverage {rate}");
}

#[test]
fn the_bootstrap_is_reproducible_from_its_seed() {
    let games = simulate(300, 3, None);
    let a = fit(&games, Model::Logistic, 40, 9);
    let b = fit(&games, Model::Logistic, 40, 9);
    let c = fit(&games, Model::Logistic, 40, 10);
    let lows = |r: &Regression| r.estimates.iter().map(|e| e.low).collect::<Vec<_>>();
    assert_eq!(lows(&a), lows(&b));
    assert_ne!(lows(&a), lows(&c));
    // The point estimate does not depend on the bootstrap at all.
    assert_eq!(a.estimates[0].value, c.estimates[0].value);
}

/// Games where a pawn barely matters (0.05 logit) and a knight a lot (1 logit): few games
/// leave the sign of the pawn's coefficient in doubt.
fn weak_pawn_games(games: usize, seed: u64) -> Vec<GameData> {
    let p = chess_pieces();
    let (pawn, knight) = (p.index('P').unwrap(), p.index('N').unwrap());
    let mut rng = Rng::new(seed);
    (0..games)
        .map(|_| {
            let mut diff = vec![0; p.len()];
            diff[pawn] = rng.below(3) as i32 - 1;
            diff[knight] = rng.below(3) as i32 - 1;
            let eta = 0.05 * diff[pawn] as f64 + diff[knight] as f64;
            let white_score = if uniform(&mut rng) < sigmoid(eta) { 1.0 } else { 0.0 };
            let observations =
                (0..4).map(|_| Observation { diff: diff.clone(), white_to_move: rng.below(2) == 0 }).collect();
            GameData { observations, white_score }
        })
        .collect()
}

#[test]
fn an_unidentified_pawn_leaves_every_value_unsupported() {
    // 300 such games put the pawn's coefficient within about one standard error of zero:
    // the ratios' confidence sets are unbounded, so no value may be printed.
    let p = chess_pieces();
    let mut n_minus_p = vec![0; p.len()];
    n_minus_p[p.index('N').unwrap()] = 1;
    n_minus_p[p.index('P').unwrap()] = -1;
    let settings = Settings {
        model: Model::Logistic,
        replicates: 200,
        seed: 4,
        contrasts: vec![("N-P".into(), n_minus_p)],
        scaled: vec![],
    };
    let data = Dataset::build(&p, &weak_pawn_games(300, 1)).unwrap();
    let r = estimate(&p, &data, &settings).unwrap();
    assert!(r.pawn_z.abs() < 1.96, "pawn z {}", r.pawn_z);
    for e in &r.estimates {
        assert_eq!(e.support, Support::NotEnoughData, "{e:?}");
        assert!(e.value.is_nan() && e.low.is_nan() && e.high.is_nan(), "{e:?}");
        assert!(e.note.contains("standard errors"), "{}", e.note);
    }
    assert!(r.estimates.iter().any(|e| e.name == "N-P"));
    // A well-identified simulation (a pawn worth 0.45 logit): supported, and the knight's
    // interval holds its true 3 pawns.
    let strong = fit(&simulate(2000, 21, None), Model::Logistic, 200, 5);
    assert!(strong.pawn_z > 5.0, "pawn z {}", strong.pawn_z);
    let n = strong.estimates.iter().find(|e| e.name == "N").unwrap();
    assert_eq!(n.support, Support::Supported);
    assert!(n.low <= 3.0 && 3.0 <= n.high, "{n:?}");
}

/// The card's quantities: on the orthodox scale every value comes out as the truth scaled
/// so that N + B + R + Q add up to 20, the ratio R/B is the true ratio, and with a pawn
/// that barely moves the result the orthodox-scale intervals stay narrow where the values
/// in pawns lose their support: the unit, not the pieces, was the noise.
#[test]
fn the_orthodox_scale_and_ratios_recover_the_truth_and_survive_a_weak_pawn() {
    use fairylab::values::scale::{self, Headline, HeadlineSource, ScaledKind};
    let p = chess_pieces();
    let headline = [Headline { piece: 'R', other: 'B', source: HeadlineSource::File }];
    let settings = |seed| Settings {
        model: Model::Logistic,
        replicates: 300,
        seed,
        contrasts: vec![],
        scaled: scale::quantities(&p, &headline),
    };
    let truth_sum: f64 = TRUE[1..].iter().map(|t| t.1).sum();
    let on_scale = |letter: char| TRUE.iter().find(|t| t.0 == letter).unwrap().1 * 20.0 / truth_sum;
    let data = Dataset::build(&p, &simulate(4000, 17, None)).unwrap();
    let r = estimate(&p, &data, &settings(3)).unwrap();
    let get = |r: &Regression, kind: ScaledKind, name: &str| {
        r.scaled.iter().find(|(k, e)| *k == kind && e.name == name).map(|x| x.1.clone()).unwrap()
    };
    for &(letter, _) in &TRUE {
        let e = get(&r, ScaledKind::Value, &letter.to_string());
        let t = on_scale(letter);
        assert!((e.value - t).abs() <= 3.0 * e.se, "{letter}: {} ± {} vs {t}", e.value, e.se);
        assert!(e.low < e.value && e.value < e.high, "{e:?}");
    }
    let ratio = get(&r, ScaledKind::Ratio, "R/B");
    assert!((ratio.value - 5.0 / 3.4).abs() <= 3.0 * ratio.se, "{ratio:?}");
    let diff = get(&r, ScaledKind::Difference, "R-B");
    assert!((diff.value - (on_scale('R') - on_scale('B'))).abs() <= 3.0 * diff.se, "{diff:?}");

    // A pawn worth a twentieth of its true share of the result: values in pawns lose their
    // unit, the orthodox scale keeps every piece.
    let p2 = chess_pieces();
    let mut rng = Rng::new(5);
    let weak: Vec<GameData> = (0..4000)
        .map(|_| {
            let mut g = game(&p2, &mut rng, None);
            let pawn = p2.index('P').unwrap();
            // Re-draw the result with the pawn nearly worthless.
            let d = &g.observations[0].diff;
            let eta: f64 = TRUE
                .iter()
                .map(|&(l, v)| {
                    let t = p2.index(l).unwrap();
                    let v = if t == pawn { v / 20.0 } else { v };
                    LOGIT_PER_PAWN * v * d[t] as f64
                })
                .sum();
            g.white_score = if uniform(&mut rng) < sigmoid(eta) { 1.0 } else { 0.0 };
            g
        })
        .collect();
    let data = Dataset::build(&p2, &weak).unwrap();
    let r = estimate(&p2, &data, &settings(4)).unwrap();
    let rook_pawns = r.estimates.iter().find(|e| e.name == "R").unwrap();
    let rook_scale = get(&r, ScaledKind::Value, "R");
    assert!(rook_scale.support.is_supported(), "{rook_scale:?}");
    let rel = |e: &fairylab::values::regression::Estimate| (e.high - e.low) / e.value;
    assert!(
        !rook_pawns.support.is_supported() || rel(rook_pawns) > 3.0 * rel(&rook_scale),
        "in pawns {rook_pawns:?}, on the orthodox scale {rook_scale:?}"
    );
    // The nearly worthless pawn's value reaches zero: no figure, and the note says why.
    let pawn = get(&r, ScaledKind::Value, "P");
    assert!(!pawn.support.is_supported() && pawn.value.is_nan(), "{pawn:?}");
    assert!(pawn.note.contains("reaches zero"), "{pawn:?}");
}
