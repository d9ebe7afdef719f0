//! Match statistics (`fairylab::stats`): known values derived by hand, symmetry, SPRT decisions,
//! degenerate input, and agreement with figures published by fastchess.
//!
//! Notation in the derivations: `N` samples, `mu` mean score, `var` per-sample variance,
//! `se = sqrt(var / N)`, `z = Phi^-1(0.975) = 1.959964`, `C = 800 / ln 10 = 347.435586`.
//!
//! Intervals are Wilson intervals on `(mu, n_eff)` with `n_eff = N mu (1 - mu) / var`:
//! `centre = (mu + z^2 / 2n) / (1 + z^2 / n)`,
//! `half = z sqrt(mu (1 - mu) / n + z^2 / 4n^2) / (1 + z^2 / n)`. The figures below were worked
//! out from that formula with a pocket calculator (Python), not read off this crate.
//!
//! Exact SPRT LLRs of trinomial samples were found by maximizing the constrained
//! log-likelihood directly: under a mean constraint `D/2 + W = s` the distribution has one free
//! parameter (`D`), under a t-value constraint `x = W - L = t sqrt(u / (1 + t^2))` with
//! `u = W + L` free; a golden-section search over that parameter, with no Lagrange multiplier
//! involved, gives `max log L`.

use fairylab::stats::interval::{logistic_elo, normalized_elo};
use fairylab::stats::{
    elo_to_score, normal_cdf, normal_quantile, score_to_elo, EloInterval, EloModel, GameResult, Pentanomial, Sprt,
    SprtError, SprtStatus, Wdl, NELO_PER_T,
};
use GameResult::{Draw, Loss, Win};

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!((got - want).abs() <= tol, "{what}: got {got}, want {want} (tolerance {tol})");
}

fn finite(x: f64, what: &str) {
    assert!(x.is_finite(), "{what}: expected a finite number, got {x}");
}

fn sprt(elo0: f64, elo1: f64, model: EloModel) -> Sprt {
    Sprt::new(elo0, elo1, 0.05, 0.05, model).expect("valid SPRT parameters")
}

// ---------------------------------------------------------------------------------------------
// Elo <-> score
// ---------------------------------------------------------------------------------------------

#[test]
fn sixty_percent_is_plus_70_4_elo() {
    // -400 log10(1/0.6 - 1) = -400 log10(2/3) = 400 log10(1.5) = 400 * 0.1760913 = 70.4365.
    close(score_to_elo(0.6), 70.4365, 1e-4, "elo(0.6)");
    close(score_to_elo(0.4), -70.4365, 1e-4, "elo(0.4)");
    // 3/4: -400 log10(1/3) = 400 * 0.4771213 = 190.8485.
    close(score_to_elo(0.75), 190.8485, 1e-4, "elo(0.75)");
    assert_eq!(score_to_elo(0.5), 0.0);
    close(elo_to_score(70.4365), 0.6, 1e-7, "score(70.4365)");
    // -400 Elo: 1 / (1 + 10^1) = 1/11.
    close(elo_to_score(-400.0), 1.0 / 11.0, 1e-12, "score(-400)");
}

#[test]
fn elo_of_extreme_scores_is_infinite_not_nan() {
    assert_eq!(score_to_elo(1.0), f64::INFINITY);
    assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    assert_eq!(score_to_elo(1.5), f64::INFINITY);
    assert_eq!(score_to_elo(-0.1), f64::NEG_INFINITY);
    assert_eq!(elo_to_score(f64::INFINITY), 1.0);
    assert_eq!(elo_to_score(f64::NEG_INFINITY), 0.0);
}

#[test]
fn nelo_constant_and_normal_quantiles() {
    close(NELO_PER_T, 347.435586, 1e-6, "800 / ln 10");
    assert_eq!(normal_cdf(0.0), 0.5);
    close(normal_quantile(0.975), 1.959964, 1e-6, "z 95 %");
    close(normal_quantile(0.995), 2.575829, 1e-6, "z 99 %");
    close(normal_cdf(2.0), 0.9772499, 1e-7, "Phi(2)");
    close(normal_cdf(-3.0), 0.0013499, 1e-7, "Phi(-3)");
}

// ---------------------------------------------------------------------------------------------
// Trinomial (W/D/L)
// ---------------------------------------------------------------------------------------------

#[test]
fn wdl_60_0_40_by_hand() {
    let wdl = Wdl::new(60, 0, 40);
    assert_eq!(wdl.games(), 100);
    assert_eq!(wdl.points(), 60.0);
    assert_eq!(wdl.score(), Some(0.6));
    assert_eq!(wdl.draw_ratio(), Some(0.0));

    // mu = 0.6; var = 0.6 * 0.4^2 + 0.4 * 0.6^2 = 0.24 = mu (1 - mu): no draws, so n_eff = N = 100.
    // Wilson: centre (0.6 + 0.0192073) / 1.0384146 = 0.5963006, half 0.0942981
    // -> scores [0.5020026, 0.6905987] -> Elo [1.3915, 139.4815].
    let elo = wdl.elo().unwrap();
    close(elo.value, 70.4365, 1e-4, "elo");
    close(elo.lower, 1.3915, 1e-3, "elo lower");
    close(elo.upper, 139.4815, 1e-3, "elo upper");
    close(elo.margin(), (139.4815 - 1.3915) / 2.0, 1e-3, "elo margin");

    // nElo = 0.1 / sqrt(0.24) * C = 0.2041241 * 347.435586 = 70.9200; its interval is the score
    // interval through the same map: (0.5020026 - 0.5) / sqrt(0.24) * C = 1.4202 and 135.1726.
    let nelo = wdl.nelo().unwrap();
    close(nelo.value, 70.9200, 1e-3, "nelo");
    close(nelo.lower, 1.4202, 1e-3, "nelo lower");
    close(nelo.upper, 135.1726, 1e-3, "nelo upper");

    // LOS = Phi((60 - 40) / sqrt(100)) = Phi(2) = 0.9772499.
    close(wdl.los(), 0.9772499, 1e-6, "los");
}

#[test]
fn wider_confidence_gives_wider_interval() {
    // Same sample as above with z = 2.575829: Wilson scores [0.4714191, 0.7161367]
    // -> Elo [-19.8817, 160.7547].
    let sample = Wdl::new(60, 0, 40).sample().unwrap();
    let e99 = logistic_elo(&sample, 0.99).estimate().unwrap();
    close(e99.lower, -19.8817, 1e-3, "99 % lower");
    close(e99.upper, 160.7547, 1e-3, "99 % upper");
    assert!(e99.margin() > Wdl::new(60, 0, 40).elo().unwrap().margin());
    // (0.7161367 - 0.4714191) / 2 / sqrt(0.24) * C = 86.7769.
    close(normalized_elo(&sample, 0.99).estimate().unwrap().margin(), 86.7769, 1e-3, "99 % nelo margin");
}

#[test]
fn wdl_with_draws_by_hand() {
    // 50 wins, 20 draws, 30 losses: mu = (50 + 10) / 100 = 0.6;
    // var = 0.5 * 0.16 + 0.2 * 0.01 + 0.3 * 0.36 = 0.19 (draws shrink the variance).
    let wdl = Wdl::new(50, 20, 30);
    assert_eq!(wdl.draw_ratio(), Some(0.2));
    let sample = wdl.sample().unwrap();
    close(sample.mean(), 0.6, 1e-12, "mu");
    close(sample.variance(), 0.19, 1e-12, "var");
    // nElo = 0.1 / sqrt(0.19) * C = 0.2294157 * 347.435586 = 79.7072.
    close(wdl.nelo().unwrap().value, 79.7072, 1e-3, "nelo");
    // Draws make a game worth less than a coin flip: n_eff = 100 * 0.24 / 0.19 = 126.3158, and
    // Wilson on it gives scores [0.5128342, 0.6812630] -> Elo [8.9201, 131.9529].
    let elo = wdl.elo().unwrap();
    close(elo.lower, 8.9201, 1e-3, "elo lower");
    close(elo.upper, 131.9529, 1e-3, "elo upper");
    // LOS ignores draws: Phi((50 - 30) / sqrt(80)) = Phi(2.2360680) = 0.9873263.
    close(wdl.los(), 0.9873263, 1e-6, "los");
}

#[test]
fn symmetric_results_give_zero_elo_and_even_los() {
    for wdl in [Wdl::new(30, 40, 30), Wdl::new(7, 0, 7), Wdl::new(5, 1, 5)] {
        let elo = wdl.elo().unwrap();
        assert_eq!(elo.value, 0.0, "{wdl:?}");
        close(elo.lower, -elo.upper, 1e-9, "symmetric interval");
        assert_eq!(wdl.nelo().unwrap().value, 0.0, "{wdl:?}");
        assert_eq!(wdl.los(), 0.5, "{wdl:?}");
    }
    let penta = Pentanomial::new(10, 20, 40, 20, 10);
    assert_eq!(penta.elo().unwrap().value, 0.0);
    assert_eq!(penta.nelo().unwrap().value, 0.0);
    assert_eq!(penta.los(), 0.5);
}

#[test]
fn flipping_the_point_of_view_negates_elo() {
    let wdl = Wdl::new(50, 20, 30);
    let flipped = wdl.flipped();
    assert_eq!(flipped, Wdl::new(30, 20, 50));
    let (e, f) = (wdl.elo().unwrap(), flipped.elo().unwrap());
    close(f.value, -e.value, 1e-9, "elo");
    close(f.lower, -e.upper, 1e-9, "lower <-> upper");
    close(flipped.los(), 1.0 - wdl.los(), 1e-12, "los");

    let penta = Pentanomial::new(5, 10, 40, 30, 15);
    assert_eq!(penta.flipped(), Pentanomial::new(15, 30, 40, 10, 5));
    close(penta.flipped().nelo().unwrap().value, -penta.nelo().unwrap().value, 1e-9, "nelo");
}

#[test]
fn wdl_from_results_and_merging() {
    let wdl = Wdl::from_results([Win, Draw, Loss, Win, Win, Draw]);
    assert_eq!(wdl, Wdl::new(3, 2, 1));
    assert_eq!(Win.flipped(), Loss);
    assert_eq!(Draw.score(), 0.5);
    let mut total = wdl + Wdl::new(1, 0, 4);
    assert_eq!(total, Wdl::new(4, 2, 5));
    total.record(Loss);
    assert_eq!(total.losses, 6);
}

// ---------------------------------------------------------------------------------------------
// Pentanomial (game pairs)
// ---------------------------------------------------------------------------------------------

#[test]
fn pentanomial_from_a_list_of_pairs() {
    let pairs = [(Win, Loss), (Draw, Draw), (Win, Win), (Loss, Draw), (Win, Draw), (Loss, Win), (Loss, Loss)];
    let penta = Pentanomial::from_pairs(pairs);
    // Pair scores: 1, 1, 2, 1/2, 3/2, 1, 0.
    assert_eq!(penta, Pentanomial { ll: 1, ld: 1, dd_wl: 3, wd: 1, ww: 1 });
    assert_eq!(penta.counts(), [1, 1, 3, 1, 1]);
    assert_eq!((penta.pairs(), penta.games()), (7, 14));
    // Points 0 + 0.5 + 3 + 1.5 + 2 = 7 of 14.
    assert_eq!(penta.points(), 7.0);
    assert_eq!(penta.score(), Some(0.5));
    close(penta.draw_ratio().unwrap(), 3.0 / 7.0, 1e-12, "even pairs");

    // The same games counted one by one agree on the score: W 5, D 4, L 5.
    let wdl = Wdl::from_results(pairs.iter().flat_map(|&(a, b)| [a, b]));
    assert_eq!(wdl, Wdl::new(5, 4, 5));
    assert_eq!(wdl.score(), penta.score());

    let mut more = penta + Pentanomial::new(0, 0, 0, 0, 2);
    more.record(Draw, Win);
    assert_eq!(more, Pentanomial::new(1, 1, 3, 2, 3));
}

#[test]
fn pentanomial_by_hand() {
    // Counts [5, 10, 40, 30, 15] over halved pair scores [0, 1/4, 1/2, 3/4, 1], N = 100 pairs:
    // mu = (2.5 + 20 + 22.5 + 15) / 100 = 0.6;
    // var = .05*.36 + .10*.1225 + .40*.01 + .30*.0225 + .15*.16 = 0.065; se = sqrt(0.00065) = 0.0254951.
    let penta = Pentanomial::new(5, 10, 40, 30, 15);
    let sample = penta.sample().unwrap();
    close(sample.mean(), 0.6, 1e-12, "mu");
    close(sample.variance(), 0.065, 1e-12, "var");
    assert_eq!(sample.samples(), 100.0);
    assert_eq!(sample.games(), 200.0);

    // n_eff = 100 * 0.24 / 0.065 = 369.2308; Wilson scores [0.5492481, 0.6486925]
    // -> Elo [34.3324, 106.5406].
    let elo = penta.elo().unwrap();
    close(elo.value, 70.4365, 1e-4, "elo");
    close(elo.lower, 34.3324, 1e-3, "elo lower");
    close(elo.upper, 106.5406, 1e-3, "elo upper");

    // nElo uses the per-game sigma sqrt(2 var) = sqrt(0.13) = 0.3605551:
    // 0.1 / 0.3605551 * C = 96.3613; margin (0.6486925 - 0.5492481) / 2 / 0.3605551 * C = 47.9130.
    let nelo = penta.nelo().unwrap();
    close(nelo.value, 96.3613, 1e-3, "nelo");
    close(nelo.margin(), 47.9130, 1e-3, "nelo margin");

    // LOS = Phi(0.1 / 0.0254951) = Phi(3.9223227) = 0.99995615.
    close(penta.los(), 0.99995615, 1e-7, "los");
}

#[test]
fn pentanomial_report_matches_fastchess_output() {
    // A fastchess report (200 games) printed: "Elo: 77.71 +/- 33.03, nElo: 117.50 +/- 48.15,
    // LOS: 100.00 %, Ptnml(0-2): [1, 11, 47, 25, 16]". fastchess uses the normal interval; at
    // 200 games the Wilson one is within 1 % of it.
    let penta = Pentanomial::new(1, 11, 47, 25, 16);
    let elo = penta.elo().unwrap();
    let nelo = penta.nelo().unwrap();
    close(elo.value, 77.71, 0.005, "elo");
    close(elo.margin(), 33.03, 0.01 * 33.03, "elo margin");
    close(nelo.value, 117.50, 0.005, "nelo");
    close(nelo.margin(), 48.15, 0.01 * 48.15, "nelo margin");
    close(100.0 * penta.los(), 100.00, 0.005, "los %");
}

// ---------------------------------------------------------------------------------------------
// SPRT
// ---------------------------------------------------------------------------------------------

#[test]
fn sprt_bounds() {
    // ln(0.05 / 0.95) = -ln 19 = -2.944439; ln(0.95 / 0.05) = ln 19.
    let s = sprt(0.0, 5.0, EloModel::Logistic);
    close(s.lower_bound(), -2.944439, 1e-6, "lower");
    close(s.upper_bound(), 2.944439, 1e-6, "upper");
    // alpha 0.05, beta 0.1: ln(0.1 / 0.95) = -2.251292, ln(0.9 / 0.05) = ln 18 = 2.890372.
    let s = Sprt::new(0.0, 5.0, 0.05, 0.1, EloModel::Normalized).unwrap();
    close(s.lower_bound(), -2.251292, 1e-6, "lower");
    close(s.upper_bound(), 2.890372, 1e-6, "upper");
    assert_eq!(s.status(2.89), SprtStatus::Continue);
    assert_eq!(s.status(2.9), SprtStatus::AcceptH1);
    assert_eq!(s.status(-2.26), SprtStatus::AcceptH0);
}

#[test]
fn sprt_rejects_invalid_parameters() {
    assert_eq!(Sprt::new(5.0, 0.0, 0.05, 0.05, EloModel::Logistic), Err(SprtError::EloBounds));
    assert_eq!(Sprt::new(1.0, 1.0, 0.05, 0.05, EloModel::Logistic), Err(SprtError::EloBounds));
    assert_eq!(Sprt::new(0.0, f64::NAN, 0.05, 0.05, EloModel::Logistic), Err(SprtError::EloBounds));
    assert_eq!(Sprt::new(0.0, 5.0, 0.0, 0.05, EloModel::Logistic), Err(SprtError::Alpha));
    assert_eq!(Sprt::new(0.0, 5.0, 0.05, 1.0, EloModel::Normalized), Err(SprtError::Beta));
    assert_eq!(Sprt::new(0.0, 5.0, 0.6, 0.5, EloModel::Normalized), Err(SprtError::ErrorSum));
    assert!(!SprtError::Alpha.to_string().is_empty());
}

#[test]
fn logistic_llr_by_direct_maximization() {
    // W 50, D 20, L 30 (no empty cell, so no pseudo-count); elo0 = 0 -> s0 = 0.5,
    // elo1 = 400 log10(1.5) -> s1 = 0.6, the observed mean, whose best distribution is the
    // observed one. max log L at s = 0.5 found by golden-section search: LLR = 2.5267154.
    let elo1 = 400.0 * 1.5f64.log10();
    let s = sprt(0.0, elo1, EloModel::Logistic);
    close(s.llr_wdl(&Wdl::new(50, 20, 30)), 2.5267154, 1e-5, "llr");
    assert_eq!(s.test_wdl(&Wdl::new(50, 20, 30)).status, SprtStatus::Continue);

    // Pentanomial [5, 10, 40, 30, 15]: maximized by coordinate ascent along the three second
    // differences of the cells (they keep the total and the mean): LLR = 6.78958 -> accept H1.
    let r = s.test_pentanomial(&Pentanomial::new(5, 10, 40, 30, 15));
    close(r.llr, 6.78958, 1e-3, "penta llr");
    assert_eq!(r.status, SprtStatus::AcceptH1);
    assert_eq!((r.lower_bound, r.upper_bound), (s.lower_bound(), s.upper_bound()));

    // Same data against [0, 5]: 0.87624.
    let s05 = sprt(0.0, 5.0, EloModel::Logistic);
    close(s05.llr_pentanomial(&Pentanomial::new(5, 10, 40, 30, 15)), 0.87624, 1e-3, "[0, 5]");
}

#[test]
fn normalized_llr_by_direct_maximization() {
    // W 50, D 20, L 30: t = (0.6 - 0.5) / sqrt(0.19) = 0.2294157. With nelo0 = 0 and
    // nelo1 = t * C the hypotheses are "mean 1/2" and "the observed t", the same two
    // maximizations as the logistic case above: LLR = 2.5267154.
    let t = 0.1 / 0.19f64.sqrt();
    let s = sprt(0.0, t * NELO_PER_T, EloModel::Normalized);
    close(s.llr_wdl(&Wdl::new(50, 20, 30)), 2.5267154, 1e-5, "llr");
}

#[test]
fn nine_even_pairs_cannot_stop_a_test() {
    // Nine pairs each scoring 1-1: no evidence either way about a 10 Elo difference. H0's
    // best distribution is the (symmetric) observation itself. Under H1 the four empty cells
    // hold pseudo-counts of 0.001, too small for coordinate ascent to move, so the optimum was
    // found from the optimality conditions instead: a distribution meeting the constraints with
    // f_i / p_i affine in the score a_i is the maximum of this concave problem (KKT), and
    // p_i = f_i / (1 + theta (a_i - s1)) with theta = -2.0513 (bisection in Python) is one.
    // LLR = -0.256705, far inside (-2.94, 2.94).
    let penta = Pentanomial::new(0, 0, 9, 0, 0);
    for model in [EloModel::Logistic, EloModel::Normalized] {
        let r = sprt(0.0, 10.0, model).test_pentanomial(&penta);
        assert_eq!(r.status, SprtStatus::Continue, "{model:?}: {r:?}");
        assert!(r.llr < 0.0 && r.llr > -1.0, "{model:?}: {r:?}");
    }
    close(sprt(0.0, 10.0, EloModel::Logistic).llr_pentanomial(&penta), -0.256705, 1e-4, "logistic");
}

#[test]
fn exact_llr_agrees_with_the_closed_forms_on_a_large_sample() {
    // 86,720 games with every outcome seen: the normal approximations of Van den Bergh
    // (computed here from mean and variance) must agree with the exact LLR to 3 %.
    let counts = [379.0, 10170.0, 21828.0, 10640.0, 343.0];
    let n: f64 = counts.iter().sum();
    let mu = counts.iter().enumerate().map(|(i, c)| c * i as f64 / 4.0).sum::<f64>() / n;
    let var = counts.iter().enumerate().map(|(i, c)| c * (i as f64 / 4.0 - mu).powi(2)).sum::<f64>() / n;
    let penta = Pentanomial::new(379, 10170, 21828, 10640, 343);
    for (elo0, elo1) in [(0.0, 2.0), (-1.0, 3.0), (0.0, 5.0)] {
        let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
        let logistic = n / 2.0 * (s1 - s0) * (2.0 * mu - s0 - s1) / var;
        let t = (mu - 0.5) / (2.0 * var).sqrt();
        let (t0, t1) = (elo0 / NELO_PER_T, elo1 / NELO_PER_T);
        let normalized = n * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln();
        for (model, closed) in [(EloModel::Logistic, logistic), (EloModel::Normalized, normalized)] {
            let exact = sprt(elo0, elo1, model).llr_pentanomial(&penta);
            assert!(
                (exact - closed).abs() <= 0.03 * closed.abs(),
                "{model:?} [{elo0}, {elo1}]: exact {exact}, closed form {closed}"
            );
        }
    }
}

#[test]
fn llr_agrees_with_fastchess_exact_values() {
    // LLRs that fastchess's exact maximum-likelihood GSPRT computes (its test suite, two
    // decimals) for realistic samples. The trinomial ones also come out of the golden-section
    // maximization described at the top (0.9233, 2.2975, -1.5719, -2.5930).
    // Columns: sample, elo0, elo1, model, expected LLR.
    use EloModel::{Logistic, Normalized};
    let trinomial = [
        (Wdl::new(36433, 68692, 36027), 0.0, 2.0, Normalized, 0.92),
        (Wdl::new(10871, 20431, 10650), -1.75, 0.25, Normalized, 2.30),
        (Wdl::new(21404, 40708, 21184), 0.5, 2.5, Logistic, -1.57),
        (Wdl::new(57433, 106593, 57030), 0.0, 2.0, Logistic, -2.59),
    ];
    for (i, (wdl, elo0, elo1, model, llr)) in trinomial.into_iter().enumerate() {
        close(sprt(elo0, elo1, model).llr_wdl(&wdl), llr, 0.01, &format!("trinomial case {i}"));
    }
    // fastchess counts WL and DD pairs separately; here they share the middle cell.
    let pentanomial = [
        (Pentanomial::new(365, 16618, 36029 + 200, 16974, 390), 0.0, 2.0, Normalized, 2.25),
        (Pentanomial::new(127, 4883, 10311 + 401, 5150, 104), -1.75, 0.25, Normalized, 3.01),
        (Pentanomial::new(223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5, Logistic, -3.07),
        (Pentanomial::new(871, 26175, 55003 + 980, 26678, 821), 0.0, 2.0, Logistic, -4.98),
    ];
    for (i, (penta, elo0, elo1, model, llr)) in pentanomial.into_iter().enumerate() {
        close(sprt(elo0, elo1, model).llr_pentanomial(&penta), llr, 0.01, &format!("pentanomial case {i}"));
    }
}

#[test]
fn llr_sign_follows_the_evidence() {
    let models = [EloModel::Logistic, EloModel::Normalized];
    for model in models {
        let s = sprt(0.0, 5.0, model);
        // 600 W, 200 D, 400 L: 58.3 % is far above both hypotheses (50 % and 50.7 %).
        let strong = s.test_wdl(&Wdl::new(600, 200, 400));
        assert!(strong.llr > 0.0);
        assert_eq!(strong.status, SprtStatus::AcceptH1, "{model:?} {strong:?}");
        // The mirror image is far below both.
        let weak = s.test_wdl(&Wdl::new(400, 200, 600));
        assert!(weak.llr < 0.0);
        assert_eq!(weak.status, SprtStatus::AcceptH0, "{model:?} {weak:?}");

        let strong = s.test_pentanomial(&Pentanomial::new(20, 80, 200, 160, 80));
        assert_eq!(strong.status, SprtStatus::AcceptH1, "{model:?} {strong:?}");
        let weak = s.test_pentanomial(&Pentanomial::new(80, 160, 200, 80, 20));
        assert_eq!(weak.status, SprtStatus::AcceptH0, "{model:?} {weak:?}");

        // A result exactly between symmetric hypotheses carries no evidence: LLR = 0.
        let mid = sprt(-5.0, 5.0, model);
        close(mid.llr_wdl(&Wdl::new(300, 400, 300)), 0.0, 1e-9, "symmetric trinomial");
        close(mid.llr_pentanomial(&Pentanomial::new(20, 40, 60, 40, 20)), 0.0, 1e-9, "symmetric pentanomial");

        // One more win never lowers the LLR.
        let base = s.llr_wdl(&Wdl::new(100, 100, 100));
        assert!(s.llr_wdl(&Wdl::new(101, 100, 100)) > base, "{model:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Degenerate input
// ---------------------------------------------------------------------------------------------

#[test]
fn no_games_at_all() {
    let wdl = Wdl::default();
    assert_eq!(wdl.games(), 0);
    assert_eq!(wdl.score(), None);
    assert_eq!(wdl.draw_ratio(), None);
    assert_eq!(wdl.elo(), None);
    assert_eq!(wdl.nelo(), None);
    assert_eq!(wdl.sample(), None);
    assert_eq!(wdl.los(), 0.5);
    let penta = Pentanomial::default();
    assert_eq!((penta.score(), penta.draw_ratio(), penta.elo(), penta.nelo()), (None, None, None, None));
    assert_eq!(penta.los(), 0.5);
    for model in [EloModel::Logistic, EloModel::Normalized] {
        let s = sprt(0.0, 5.0, model);
        let r = s.test_wdl(&wdl);
        assert_eq!((r.llr, r.status), (0.0, SprtStatus::Continue));
        let r = s.test_pentanomial(&penta);
        assert_eq!((r.llr, r.status), (0.0, SprtStatus::Continue));
    }
}

#[test]
fn all_draws() {
    let wdl = Wdl::new(0, 10, 0);
    assert_eq!(wdl.score(), Some(0.5));
    assert_eq!(wdl.draw_ratio(), Some(1.0));
    // Zero variance: no width can be estimated, so no interval at all.
    assert_eq!(wdl.elo_interval(), EloInterval::NotEnoughGames { games: 10 });
    assert_eq!(wdl.nelo_interval(), EloInterval::NotEnoughGames { games: 10 });
    assert_eq!(wdl.elo(), None);
    assert_eq!(wdl.los(), 0.5);
    for model in [EloModel::Logistic, EloModel::Normalized] {
        let s = sprt(0.0, 5.0, model);
        finite(s.llr_wdl(&wdl), "llr all draws");
        finite(s.llr_pentanomial(&Pentanomial::new(0, 0, 10, 0, 0)), "llr all even pairs");
        // Draws point at elo 0, i.e. towards H0, but ten of them are weak evidence.
        let llr = s.llr_wdl(&wdl);
        assert!(llr < 0.0 && s.status(llr) == SprtStatus::Continue, "{model:?}: {llr}");
    }
    // Golden-section maximization: -0.139682 (logistic), -0.0012765 (normalized).
    close(sprt(0.0, 5.0, EloModel::Logistic).llr_wdl(&wdl), -0.139682, 1e-4, "ten draws, logistic");
    close(sprt(0.0, 5.0, EloModel::Normalized).llr_wdl(&wdl), -0.0012765, 1e-5, "ten draws, normalized");
}

#[test]
fn all_wins_and_all_losses() {
    let wins = Wdl::new(10, 0, 0);
    assert_eq!(wins.score(), Some(1.0));
    // Wilson with n = 10 and every trial a success: lower end 10 / (10 + z^2) = 0.7224672
    // -> -400 log10(1 / 0.7224672 - 1) = 166.2015 Elo.
    let EloInterval::AtLeast { lower, games } = wins.elo_interval() else {
        panic!("ten wins: {:?}", wins.elo_interval());
    };
    assert_eq!(games, 10);
    close(lower, 166.2015, 1e-3, "lower bound");
    assert_eq!(wins.elo(), None);
    assert_eq!(wins.nelo_interval(), EloInterval::NotEnoughGames { games: 10 });
    // LOS = Phi(10 / sqrt(10)) = Phi(3.1622777) = 0.9992173.
    close(wins.los(), 0.9992173, 1e-6, "los");

    let losses = wins.flipped();
    let EloInterval::AtMost { upper, .. } = losses.elo_interval() else {
        panic!("ten losses: {:?}", losses.elo_interval());
    };
    close(upper, -166.2015, 1e-3, "upper bound");

    // Eight double wins: 16 games, but only 8 samples back the bound: 8 / (8 + z^2) = 0.6755924
    // -> 127.4375 Elo.
    let ww = Pentanomial::new(0, 0, 0, 0, 8);
    let EloInterval::AtLeast { lower, games } = ww.elo_interval() else { panic!("{:?}", ww.elo_interval()) };
    assert_eq!(games, 16);
    close(lower, 127.4375, 1e-3, "pair lower bound");
    assert_eq!(ww.los(), 1.0);
    assert_eq!(ww.flipped().los(), 0.0);

    for model in [EloModel::Logistic, EloModel::Normalized] {
        let s = sprt(0.0, 5.0, model);
        let (up, down) = (s.llr_wdl(&wins), s.llr_wdl(&losses));
        finite(up, "llr all wins");
        finite(down, "llr all losses");
        assert!(up > 0.0 && down < 0.0, "{model:?}: {up} {down}");
        let (up, down) = (s.llr_pentanomial(&ww), s.llr_pentanomial(&ww.flipped()));
        finite(up, "llr all double wins");
        assert!(up > 0.0 && down < 0.0, "{model:?}: {up} {down}");
    }
    // Ten wins cannot tell 50 % from 50.7 %: +0.142876 (golden-section maximization), and the
    // test goes on.
    let logistic = sprt(0.0, 5.0, EloModel::Logistic);
    close(logistic.llr_wdl(&wins), 0.142876, 1e-4, "ten wins");
    assert_eq!(logistic.test_wdl(&wins).status, SprtStatus::Continue);
}

#[test]
fn intervals_need_ten_games_and_stay_inside_the_score_range() {
    // Nine games: not enough, whatever they are.
    for wdl in [Wdl::new(8, 0, 1), Wdl::new(3, 3, 3), Wdl::new(2, 0, 1)] {
        assert_eq!(wdl.elo_interval(), EloInterval::NotEnoughGames { games: wdl.games() }, "{wdl:?}");
        assert_eq!(wdl.nelo_interval(), EloInterval::NotEnoughGames { games: wdl.games() }, "{wdl:?}");
    }
    assert_eq!(Pentanomial::new(0, 1, 2, 1, 0).elo_interval(), EloInterval::NotEnoughGames { games: 8 });
    // 9 W, 1 L: the normal interval 0.9 +/- 0.186 would pass 100 %; Wilson (n = 10) gives
    // scores [0.5958500, 0.9821238] -> Elo [67.4377, 695.9563].
    let elo = Wdl::new(9, 0, 1).elo().unwrap();
    close(elo.value, 381.6970, 1e-3, "elo(0.9) = 400 log10 9");
    close(elo.lower, 67.4377, 1e-3, "lower");
    close(elo.upper, 695.9563, 1e-3, "upper");
}

#[test]
fn intervals_are_never_empty_or_unbounded() {
    // Every W/D/L split of 10 to 40 games: a two-sided interval is finite with the value strictly
    // inside; otherwise the result says why.
    for games in 10..=40u64 {
        for w in 0..=games {
            for d in 0..=games - w {
                let wdl = Wdl::new(w, d, games - w - d);
                for interval in [wdl.elo_interval(), wdl.nelo_interval()] {
                    match interval {
                        EloInterval::Estimate(e) => {
                            assert!(e.lower.is_finite() && e.upper.is_finite(), "{wdl:?}: {e:?}");
                            assert!(e.lower < e.value && e.value < e.upper, "{wdl:?}: {e:?}");
                        }
                        EloInterval::AtLeast { lower, .. } => assert!(w == games && lower.is_finite()),
                        EloInterval::AtMost { upper, .. } => assert!(w + d == 0 && upper.is_finite()),
                        EloInterval::NotEnoughGames { .. } => {
                            assert!(w == games || d == games || w + d == 0, "{wdl:?}")
                        }
                    }
                }
            }
        }
    }
}
