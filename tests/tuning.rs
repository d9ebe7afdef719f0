//! Texel tuning: the compact features reproduce the engine's evaluation, K and weights used
//! to label positions are fitted back, the fit is deterministic, and bad input is an error.

use fairylab::eval::EngineConfig;
use fairylab::rng::Rng;
use fairylab::tuning::matrix::{Dataset, Extractor};
use fairylab::tuning::positions;
use fairylab::tuning::run as pipeline;
use fairylab::tuning::texel::{self, TuneOptions};
use fairylab::{Board, Variant};

fn variant(name: &str) -> Variant {
    Variant::load(name, &[]).unwrap()
}

fn config_weights(v: Variant) -> Vec<f32> {
    pipeline::config_weights(v, &EngineConfig::for_variant(v.name()).unwrap()).unwrap().1
}

fn set(ex: &Extractor, w: &mut [f32], name: &str, value: f32) {
    let i = ex.layout().index(name).unwrap_or_else(|| panic!("no weight {name}"));
    w[i] = value;
}

fn get(ex: &Extractor, w: &[f32], name: &str) -> f32 {
    w[ex.layout().index(name).unwrap()]
}

fn expected(evals: &[f32], k: f32) -> Vec<f32> {
    evals.iter().map(|e| 1.0 / (1.0 + 10f32.powf(-k * e / 400.0))).collect()
}

/// Game-like labels: 1 or 0 drawn with the expected score as probability (seeded).
fn sampled(evals: &[f32], k: f32, seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    expected(evals, k)
        .iter()
        .map(|&p| if ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p as f64 { 1.0 } else { 0.0 })
        .collect()
}

#[test]
fn compact_terms_reproduce_the_engine_evaluation() {
    for name in ["chess", "flying-bombers-grand", "flying-bombers-hangars", "noble-wings"] {
        let v = variant(name);
        let ex = Extractor::new(v);
        let w = config_weights(v);
        let ev = match v {
            Variant::Narrow(r) => EngineConfig::for_variant(name).unwrap().evaluator(r, &[]).unwrap(),
            Variant::Wide(r) => EngineConfig::for_variant(name).unwrap().evaluator(r, &[]).unwrap(),
        };
        let boards = positions::random_positions(v, 400, 150, 3);
        let d = Dataset::from_boards(&ex, &boards, &vec![0.5; boards.len()]).unwrap();
        let evals = d.evals(ex.terms(), &w);
        // The term form stores fewer entries than the plain sparse vector (tapered pairs merge).
        let mut plain = 0;
        for (i, b) in boards.iter().enumerate() {
            let (dot, engine_white) = match b {
                Board::Narrow(p) => {
                    let f = ev.features(p);
                    plain += f.len();
                    let s = ev.evaluate(p);
                    (f.iter().map(|&(j, x)| w[j as usize] * x).sum::<f32>(), if p.side() == 0 { s } else { -s })
                }
                Board::Wide(p) => {
                    let f = ev.features(p);
                    plain += f.len();
                    let s = ev.evaluate(p);
                    (f.iter().map(|&(j, x)| w[j as usize] * x).sum::<f32>(), if p.side() == 0 { s } else { -s })
                }
            };
            assert!((dot - evals[i]).abs() <= 1e-3 * dot.abs().max(100.0), "{name} {}: {dot} vs {}", b.fen(), evals[i]);
            assert!((engine_white as f32 - evals[i]).abs() <= 0.51, "{name}: engine {engine_white} vs {}", evals[i]);
        }
        assert!(d.entries() < plain, "{name}: {} terms vs {plain} sparse features", d.entries());
    }
}

/// A weight set after construction reaches the search's sum, including terms the sum
/// skips while their weight is zero (the mobility roots, zeroed here at construction:
/// Grand Chess's own configuration weighs some of them).
#[test]
fn a_mobility_root_weight_set_by_name_moves_the_evaluation() {
    let name = "flying-bombers-grand";
    let v = variant(name);
    let Variant::Wide(r) = v else { panic!("{name} is a 10x10 game") };
    let config = EngineConfig::for_variant(name).unwrap();
    let names = config.evaluator(r, &[]).unwrap().layout.names.clone();
    let is_root = |n: &String| n.starts_with("mobility.") && (n.ends_with(".root.mg") || n.ends_with(".root.eg"));
    let zeroed: Vec<(String, f32)> = names.iter().filter(|n| is_root(n)).map(|n| (n.clone(), 0.0)).collect();
    let mut ev = config.evaluator(r, &zeroed).unwrap();
    let roots: Vec<String> = names.iter().filter(|n| is_root(n) && n.ends_with(".mg")).cloned().collect();
    assert!(!roots.is_empty(), "{name}: no mobility roots in the layout");
    assert!(zeroed.iter().all(|(n, _)| ev.weight(n) == Some(0.0)), "{name}: a root is still weighted");
    let boards = positions::random_positions(v, 60, 120, 9);
    let before: Vec<i32> = boards.iter().map(|b| if let Board::Wide(p) = b { ev.evaluate(p) } else { 0 }).collect();
    for n in &roots {
        ev.set_weight(n, 40.0).unwrap();
    }
    let mut moved = 0;
    for (b, old) in boards.iter().zip(&before) {
        let Board::Wide(p) = b else { continue };
        let w = ev.weights();
        let dot: f32 = ev.features(p).iter().map(|&(j, x)| w[j as usize] * x).sum();
        let s = ev.evaluate(p);
        let white = if p.side() == 0 { s } else { -s };
        assert!((white as f32 - dot).abs() <= 0.51, "{name} {}: engine {white} vs features {dot}", b.fen());
        moved += usize::from(s != *old);
    }
    assert!(moved > boards.len() / 2, "{name}: the roots moved {moved} of {} evaluations", boards.len());
}

#[test]
fn k_fit_recovers_the_scale_used_for_the_labels() {
    let v = variant("flying-bombers-grand");
    let ex = Extractor::new(v);
    let w = config_weights(v);
    let boards = positions::random_positions(v, 20_000, 250, 5);
    let mut d = Dataset::from_boards(&ex, &boards, &vec![0.5; boards.len()]).unwrap();
    let evals = d.evals(ex.terms(), &w);
    // Exact expected scores: the minimum of the MSE is at the true K.
    d.set_results(&expected(&evals, 1.37)).unwrap();
    let k = texel::fit_k(&d, ex.terms(), &w).unwrap();
    assert!((k - 1.37).abs() < 1e-3, "K = {k}");
    // Sampled win/loss labels: the fit is an estimate, within a few percent.
    d.set_results(&sampled(&evals, 0.8, 9)).unwrap();
    let k = texel::fit_k(&d, ex.terms(), &w).unwrap();
    assert!((k - 0.8).abs() < 0.08, "K = {k}");
}

/// Known weights label random positions with their expected scores; tuning from the
/// default weights must find the known weights again.
#[test]
fn synthetic_weights_are_fitted_back() {
    let v = variant("chess");
    let ex = Extractor::new(v);
    let start = ex.default_weights().to_vec();
    let mut truth = start.clone();
    let changes = [
        ("value.N.mg", 360.0),
        ("value.N.eg", 280.0),
        ("value.B.mg", 330.0),
        ("value.B.eg", 380.0),
        ("value.R.mg", 450.0),
        ("value.R.eg", 560.0),
        ("value.Q.mg", 950.0),
        ("value.Q.eg", 1020.0),
        ("value.P.mg", 80.0),
        ("mobility.R.eg", 6.0),
        ("mobility.N.mg", 0.0),
        ("tempo", 25.0),
    ];
    for (n, x) in changes {
        set(&ex, &mut truth, n, x);
    }
    let boards = positions::random_positions(v, 30_000, 250, 21);
    let mut d = Dataset::from_boards(&ex, &boards, &vec![0.5; boards.len()]).unwrap();
    let evals = d.evals(ex.terms(), &truth);
    d.set_results(&expected(&evals, 1.0)).unwrap();
    let opts = TuneOptions {
        epochs: 150,
        lr: 2.0,
        batch: 2048,
        k: Some(1.0),
        patience: 0,
        seed: 4,
        // The rank, file and square tables are held: a piece stands on exactly one rank, file
        // and square, so each table sums to the piece count and could absorb a value change.
        // The mobility roots are held too: close to the mobility itself, they would share
        // its change.
        fixed: ex
            .layout()
            .names
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                n == &"value.P.eg"
                    || n.ends_with(".root.mg")
                    || n.ends_with(".root.eg")
                    || (n.starts_with("pst.") && !n.contains(".center") && !n.contains(".advance"))
            })
            .map(|(i, _)| i)
            .collect(),
        ..Default::default()
    };
    let r = texel::tune(&d, &Dataset::default(), ex.terms(), &start, &opts).unwrap();
    assert!(r.final_train_loss < r.start_train_loss / 50.0, "{} -> {}", r.start_train_loss, r.final_train_loss);
    assert_eq!(get(&ex, &r.weights, "value.P.eg"), 100.0, "the scale weight is held");
    for (n, x) in changes {
        let got = get(&ex, &r.weights, n);
        let tol = if n.starts_with("value") { 0.01 * x } else { 0.25 };
        assert!((got - x).abs() <= tol, "{n}: fitted {got}, true {x}, start {}", get(&ex, &start, n));
    }
}

struct Noisy {
    ex: Extractor,
    boards: Vec<Board>,
    labels: Vec<f32>,
    start: Vec<f32>,
    truth: Vec<f32>,
}

/// Bombers valued 700/650 and knights 250 label random positions with sampled results.
fn noisy_problem() -> Noisy {
    let v = variant("flying-bombers-grand");
    let ex = Extractor::new(v);
    // Start from fixed material (the hand-set values the game shipped with), not from the
    // shipped config, so that the distance to the truth does not move when the config does.
    let mut start = config_weights(v);
    for (piece, value) in [("P", 100.0), ("N", 300.0), ("B", 350.0), ("R", 520.0), ("F", 450.0), ("Q", 980.0)] {
        set(&ex, &mut start, &format!("value.{piece}.mg"), value);
        set(&ex, &mut start, &format!("value.{piece}.eg"), value);
    }
    let mut truth = start.clone();
    set(&ex, &mut truth, "value.F.mg", 700.0);
    set(&ex, &mut truth, "value.F.eg", 650.0);
    set(&ex, &mut truth, "value.N.mg", 250.0);
    let boards = positions::random_positions(v, 24_000, 250, 8);
    let d = Dataset::from_boards(&ex, &boards, &vec![0.5; boards.len()]).unwrap();
    let labels = sampled(&d.evals(ex.terms(), &truth), 1.0, 77);
    Noisy { ex, boards, labels, start, truth }
}

impl Noisy {
    fn part(&self, r: std::ops::Range<usize>) -> Dataset {
        Dataset::from_boards(&self.ex, &self.boards[r.clone()], &self.labels[r]).unwrap()
    }

    /// The last tenth validates (contiguous: the playouts are independent games).
    fn split(&self) -> (Dataset, Dataset) {
        let cut = self.boards.len() * 9 / 10;
        (self.part(0..cut), self.part(cut..self.boards.len()))
    }
}

#[test]
fn losses_fall_and_the_fit_does_not_depend_on_threads() {
    let p = noisy_problem();
    let (ex, start) = (&p.ex, &p.start);
    let (train, val) = p.split();
    // Only the piece values are free: the truth differs from the start in them alone, and
    // on random positions the hundreds of other weights would fit the sampling noise.
    let fixed = (0..start.len()).filter(|&i| !ex.layout().names[i].starts_with("value.")).collect();
    let opts = TuneOptions { epochs: 30, lr: 3.0, batch: 1024, seed: 6, patience: 5, fixed, ..Default::default() };
    let r = texel::tune(&train, &val, ex.terms(), start, &opts).unwrap();
    assert!(r.final_train_loss < r.start_train_loss, "{} -> {}", r.start_train_loss, r.final_train_loss);
    let (v0, v1) = (r.start_val_loss.unwrap(), r.final_val_loss.unwrap());
    assert!(v1 < v0, "validation {v0} -> {v1}");
    // The bomber's value, labelled at 700/650, moves up from 450, and on the held-out
    // positions the evaluations come closer to the labelling evaluation's by more than a
    // sixth.
    assert!(get(ex, &r.weights, "value.F.mg") > get(ex, start, "value.F.mg") + 25.0);
    let gap = |w: &[f32]| -> f32 {
        let (e, t) = (val.evals(ex.terms(), w), val.evals(ex.terms(), &p.truth));
        e.iter().zip(&t).map(|(a, b)| (a - b).abs()).sum::<f32>() / e.len() as f32
    };
    let (g0, g1) = (gap(start), gap(&r.weights));
    assert!(g1 < g0 * 5.0 / 6.0, "mean distance to the labelling evaluation {g0} -> {g1}");
    assert_eq!(r.epochs.len(), r.epochs.last().unwrap().epoch);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let r1 = one.install(|| texel::tune(&train, &val, ex.terms(), start, &opts).unwrap());
    assert_eq!(r.weights, r1.weights, "same seed, one thread: same weights");
    let r2 = texel::tune(&train, &val, ex.terms(), start, &TuneOptions { seed: 7, ..opts.clone() }).unwrap();
    assert_ne!(r.weights, r2.weights, "another seed visits batches in another order");
}

#[test]
fn early_stopping_returns_the_best_validation_epoch() {
    let p = noisy_problem();
    // A small training set and a large step overfit quickly.
    let (small, val) = (p.part(0..1500), p.split().1);
    let (ex, start) = (&p.ex, &p.start);
    let opts = TuneOptions { epochs: 60, lr: 20.0, batch: 512, seed: 2, patience: 3, ..Default::default() };
    let r = texel::tune(&small, &val, ex.terms(), start, &opts).unwrap();
    let best = r.epochs.iter().map(|e| e.val_loss.unwrap()).fold(f64::INFINITY, f64::min);
    assert!((r.final_val_loss.unwrap() - best).abs() < 1e-9, "returned {} best {best}", r.final_val_loss.unwrap());
    assert_eq!(r.epochs[r.best_epoch - 1].val_loss.unwrap(), best);
    if r.stopped_early {
        assert_eq!(r.epochs.len(), r.best_epoch + 3);
    }
}

#[test]
fn bad_options_are_errors() {
    let p = noisy_problem();
    let (ex, start) = (&p.ex, &p.start);
    let (train, val) = p.split();
    let bad = [
        TuneOptions { batch: 0, ..Default::default() },
        TuneOptions { epochs: 0, ..Default::default() },
        TuneOptions { lr: -1.0, ..Default::default() },
        TuneOptions { l2: f64::NAN, ..Default::default() },
        TuneOptions { k: Some(0.0), ..Default::default() },
        TuneOptions { fixed: vec![100_000], ..Default::default() },
    ];
    for o in bad {
        assert!(texel::tune(&train, &val, ex.terms(), start, &o).is_err(), "{o:?}");
    }
    assert!(texel::tune(&Dataset::default(), &val, ex.terms(), start, &Default::default()).is_err());
    assert!(texel::tune(&train, &val, ex.terms(), &start[1..], &Default::default()).is_err());
    assert!(positions::split(vec![], 1.0, 1).is_err());
    assert!(texel::fit_k_evals(&[], &[]).is_err());
}

#[test]
fn engine_configs_in_the_repository_load() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/engines");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(stem) = name.strip_suffix(".toml") else { continue };
        // A tuned file (`NAME-tuned.toml`, written by `fairylab tune`) names its variant too.
        let base = stem.strip_suffix("-tuned").unwrap_or(stem);
        let cfg = EngineConfig::load(path.to_str().unwrap()).unwrap();
        assert_eq!(cfg.variant.as_deref(), Some(base), "{name} names its variant");
        let v = variant(base);
        let (layout, w) = pipeline::config_weights(v, &cfg).unwrap();
        // Every name is one the layout knows (a misspelt weight would be silently unused).
        for n in cfg.weights.keys() {
            assert!(layout.index(n).is_some(), "{name}: unknown weight {n}");
        }
        assert_eq!(w[layout.index("value.P.eg").unwrap()], 100.0, "{name} keeps centipawns");
        if stem.ends_with("-tuned") {
            assert!(cfg.weights.len() > 100, "{name} lists its weights");
        }
        seen += 1;
    }
    assert!(seen >= 6, "only {seen} engine configs in {}", dir.display());
}

#[test]
fn rook_file_features_count_open_and_semi_open_files() {
    let v = variant("chess");
    let Variant::Narrow(r) = v else { panic!() };
    let ev = EngineConfig::for_variant("chess").unwrap().evaluator(r, &[]).unwrap();
    let idx = |n: &str| ev.layout.index(n).unwrap() as u32;
    // White rooks: a1 on an open file, d1 on a file with only a black pawn (semi-open),
    // h1 behind its own pawn. Black's rook e8 stands on the open e-file.
    let b = v.parse_fen("4r2k/3p4/8/8/8/8/7P/R2R1K1R w - - 0 1").unwrap();
    let Board::Narrow(p) = b else { panic!() };
    let f = ev.features(&p);
    let sum = |name: &str| -> f32 {
        let (mg, eg) = (idx(&format!("{name}.mg")), idx(&format!("{name}.eg")));
        f.iter().filter(|(j, _)| *j == mg || *j == eg).map(|x| x.1).sum()
    };
    // White counts +1 per rook, Black -1: open a1 and e8 cancel, d1 is semi-open.
    assert!((sum("open.R") - 0.0).abs() < 1e-6, "{f:?}");
    assert!((sum("semiopen.R") - 1.0).abs() < 1e-6, "{f:?}");
    // Raising both halves of a weight by 40 moves the evaluation by 40 per unit of feature.
    let mut w = ev.weights().to_vec();
    w[idx("semiopen.R.mg") as usize] += 40.0;
    w[idx("semiopen.R.eg") as usize] += 40.0;
    let moved = fairylab::eval::Evaluator::with_layout(r, ev.layout.clone(), w);
    assert_eq!(moved.evaluate(&p) - ev.evaluate(&p), 40);
}

/// A run directory whose positions.csv holds `games` games of `plies` positions each; a
/// position's FEN field names its game and ply (loading does not parse it).
fn fake_run(name: &str, games: u64, plies: u32) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fairylab-split-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut csv = String::from("game_id,ply,fen,score_white,capture,result\n");
    for g in 0..games {
        for p in 0..plies {
            csv += &format!("{g},{p},{name} g{g} p{p},,false,{}\n", if g % 3 == 0 { 1.0 } else { 0.5 });
        }
    }
    std::fs::write(dir.join("positions.csv"), csv).unwrap();
    dir
}

/// The game a fake position came from, and the run it belongs to.
fn origin(fen: &str) -> (String, u64) {
    let mut words = fen.split_whitespace();
    let run = words.next().unwrap().to_string();
    (run, words.next().unwrap()[1..].parse().unwrap())
}

#[test]
fn the_split_keeps_both_games_of_a_pair_together() {
    // Games 2k and 2k+1 are one opening played with colours swapped (the schedule numbers
    // them so); a split that put one in training and the other in validation would leak.
    let dir = fake_run("pairs", 40, 3);
    let filter = positions::Filter { skip_captures: false, ..Default::default() };
    let (all, _) = positions::load_runs(std::slice::from_ref(&dir), &filter).unwrap();
    let (train, val) = positions::split(all, 0.3, 7).unwrap();
    assert!(!train.is_empty() && !val.is_empty());
    let pairs = |side: &[positions::LabelledPosition]| -> std::collections::BTreeSet<u64> {
        side.iter().map(|p| origin(&p.fen).1 / 2).collect()
    };
    let (train_pairs, val_pairs) = (pairs(&train), pairs(&val));
    assert!(train_pairs.is_disjoint(&val_pairs), "pairs on both sides: {:?}", train_pairs.intersection(&val_pairs));
    assert_eq!(train_pairs.len() + val_pairs.len(), 20);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_held_out_pairs_stay_held_out_as_iterations_add_games() {
    // The training loop splits "all positions so far" again in every iteration, with one seed:
    // a pair held out in iteration 1 must still be held out (and no training pair become a
    // validation one) once iteration 2's games join.
    let (first, second) = (fake_run("iter1", 60, 2), fake_run("iter2", 60, 2));
    let filter = positions::Filter { skip_captures: false, ..Default::default() };
    let side_of = |dirs: &[std::path::PathBuf]| -> std::collections::BTreeMap<String, bool> {
        let (all, _) = positions::load_runs(dirs, &filter).unwrap();
        let (train, val) = positions::split(all, 0.25, 11).unwrap();
        train.iter().map(|p| (p.fen.clone(), false)).chain(val.iter().map(|p| (p.fen.clone(), true))).collect()
    };
    let before = side_of(std::slice::from_ref(&first));
    let after = side_of(&[first.clone(), second.clone()]);
    assert!(before.values().any(|&v| v) && before.values().any(|&v| !v));
    for (fen, held_out) in &before {
        assert_eq!(after[fen], *held_out, "{fen} changed sides");
    }
    assert!(after.iter().any(|(fen, &v)| v && origin(fen).0 == "iter2"), "new games join the held-out set too");
    let _ = std::fs::remove_dir_all(&first);
    let _ = std::fs::remove_dir_all(&second);
}

#[test]
fn a_score_weight_blends_the_recorded_score_into_the_target() {
    let dir = fake_run("scores", 2, 1);
    // Game 0 (won by White) gets a score of +400 (expectation 10/11), game 1 (drawn) none.
    let csv = std::fs::read_to_string(dir.join("positions.csv")).unwrap();
    let csv = csv.replacen("scores g0 p0,,", "scores g0 p0,400,", 1);
    std::fs::write(dir.join("positions.csv"), csv).unwrap();
    let target = |w: f32| {
        let filter = positions::Filter { skip_captures: false, score_weight: w, ..Default::default() };
        let (all, _) = positions::load_runs(std::slice::from_ref(&dir), &filter).unwrap();
        let get = |g: u64| all.iter().find(|p| origin(&p.fen).1 == g).unwrap().result;
        (get(0), get(1))
    };
    assert_eq!(target(0.0), (1.0, 0.5));
    let (scored, unscored) = target(1.0);
    assert!((scored - 10.0 / 11.0).abs() < 1e-5, "{scored}");
    assert_eq!(unscored, 0.5, "a row without a score keeps its result");
    let (half, _) = target(0.5);
    assert!((half - (0.5 + 0.5 * 10.0 / 11.0)).abs() < 1e-5, "{half}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn king_danger_mobility_root_and_free_passer_features() {
    let v = variant("chess");
    let Variant::Narrow(r) = v else { panic!() };
    let ev = EngineConfig::for_variant("chess").unwrap().evaluator(r, &[]).unwrap();
    let features = |fen: &str| {
        let Board::Narrow(p) = v.parse_fen(fen).unwrap() else { panic!() };
        ev.features(&p)
    };
    let value = |f: &[(u32, f32)], name: &str| -> f32 {
        let ids: Vec<u32> = [name.to_string(), format!("{name}.mg"), format!("{name}.eg")]
            .iter()
            .filter_map(|n| ev.layout.index(n).map(|i| i as u32))
            .collect();
        f.iter().filter(|(j, _)| ids.contains(j)).map(|x| x.1).sum()
    };
    // One white piece on Black's king zone: the danger is the hits themselves; a second
    // attacker doubles it (hits times attackers).
    let one = features("6k1/8/8/7Q/8/8/8/K7 w - - 0 1");
    let attack = value(&one, "king.attack");
    assert!(attack > 0.0, "{one:?}");
    assert!((value(&one, "king.danger") - attack).abs() < 1e-4, "{one:?}");
    let two = features("6k1/8/8/4N2Q/8/8/8/K7 w - - 0 1");
    let (attack2, danger2) = (value(&two, "king.attack"), value(&two, "king.danger"));
    assert!(attack2 > attack, "{two:?}");
    assert!((danger2 - 2.0 * attack2).abs() < 1e-4, "{two:?}");
    // A lone rook: the root of its mobility, squared, is its mobility.
    let rook = features("k7/8/8/8/3R4/8/8/7K w - - 0 1");
    let (mob, root) = (value(&rook, "mobility.R"), value(&rook, "mobility.R.root"));
    assert!(mob > 0.0, "{rook:?}");
    assert!((root * root - mob).abs() < 1e-3, "{rook:?}");
    // A passed pawn on e6 counts its progress (5 of 7 ranks) when e7 and e8 are empty,
    // and nothing when the enemy king stands on its file ahead.
    let free = value(&features("k7/8/4P3/8/8/8/8/K7 w - - 0 1"), "pawn.passed.free");
    assert!((free - 5.0 / 7.0).abs() < 1e-4, "{free}");
    let blocked = value(&features("4k3/8/4P3/8/8/8/8/K7 w - - 0 1"), "pawn.passed.free");
    assert_eq!(blocked, 0.0);
}

/// Chess's evaluation with its shipped weights, read feature by feature.
struct ChessFeatures {
    v: Variant,
    ev: fairylab::eval::Evaluator,
}

impl ChessFeatures {
    fn new() -> ChessFeatures {
        let v = variant("chess");
        let Variant::Narrow(r) = v else { panic!() };
        ChessFeatures { v, ev: EngineConfig::for_variant("chess").unwrap().evaluator(r, &[]).unwrap() }
    }

    /// The features of a position (White's point of view), as (index, value) pairs.
    fn of(&self, fen: &str) -> Vec<(u32, f32)> {
        let Board::Narrow(p) = self.v.parse_fen(fen).unwrap() else { panic!() };
        self.ev.features(&p)
    }

    /// The value of the feature `name` among `f`.
    fn value(&self, f: &[(u32, f32)], name: &str) -> f32 {
        let i = self.ev.layout.index(name).unwrap() as u32;
        f.iter().filter(|(j, _)| *j == i).map(|x| x.1).sum()
    }
}

#[test]
fn king_safety_features_count_weak_squares_storms_open_files_and_grow_with_the_attack() {
    let chess = ChessFeatures::new();
    let features = |fen: &str| chess.of(fen);
    let value = |f: &[(u32, f32)], name: &str| chess.value(f, name);
    // The queen on h5 bears on f7 and h7 of Black's king zone; nothing but the king
    // defends them until a rook on f8 guards f7.
    let bare = features("6k1/5ppp/8/7Q/8/8/8/K7 w - - 0 1");
    let guarded = features("5rk1/5ppp/8/7Q/8/8/8/K7 w - - 0 1");
    let (weak_bare, weak_guarded) = (value(&bare, "king.weak"), value(&guarded, "king.weak"));
    assert!(weak_bare > 0.0, "{bare:?}");
    assert!((weak_bare / value(&bare, "king.attack") - 1.0).abs() < 1e-4, "both hits are weak: {bare:?}");
    assert!((weak_guarded / value(&guarded, "king.attack") - 0.5).abs() < 1e-4, "f7 is guarded: {guarded:?}");
    // One attacker: weak squares times attackers is the weak squares.
    assert!((value(&bare, "king.weak.attackers") - weak_bare).abs() < 1e-4);
    // With the same material (same phase), the squared danger grows as the danger squared.
    let one = features("6k1/8/8/7Q/8/8/8/K6N w - - 0 1");
    let two = features("6k1/8/8/4N2Q/8/8/8/K7 w - - 0 1");
    let (d1, d2) = (value(&one, "king.danger"), value(&two, "king.danger"));
    let (q1, q2) = (value(&one, "king.danger2"), value(&two, "king.danger2"));
    assert!(d2 > d1 && d1 > 0.0 && q1 > 0.0, "{one:?} {two:?}");
    assert!((q2 / q1 - (d2 / d1).powi(2)).abs() < 1e-3, "{q1} {q2} {d1} {d2}");
    // Safe checks times attackers: the attackers are the danger over the hits.
    let checks = value(&two, "king.safe_checks");
    assert!(checks > 0.0, "{two:?}");
    let attackers = d2 / value(&two, "king.attack");
    assert!((value(&two, "king.checks.attackers") - checks * attackers).abs() < 1e-3);
    // White's king on g1 has no pawn of its own on the f, g and h files and Black's pawns
    // on g4 and h3 storm it; Black's king has its pawns and no storm. Rooks keep the phase
    // above zero.
    let storm = features("r5k1/5ppp/8/8/6p1/7p/8/R5K1 w - - 0 1");
    let (s, o) = (value(&storm, "king.storm"), value(&storm, "king.open"));
    assert!(s > 0.0, "{storm:?}");
    assert!((o / s - 1.5).abs() < 1e-4, "three open files for two storming pawns: {storm:?}");
    // White's pawn on d4 forks Black's knight and bishop; nothing lesser than the queen
    // bears on it.
    let fork = features("3qk3/8/8/2n1b3/3P4/8/8/4K3 w - - 0 1");
    let on = |t: &str| value(&fork, &format!("threat.on.{t}.mg"));
    assert!(on("N") > 0.0 && on("B") > 0.0, "White threatens Black's minors: {fork:?}");
    assert_eq!(on("Q"), 0.0, "nothing lesser bears on the queen: {fork:?}");
    assert_eq!(on("R"), 0.0);
}

#[test]
fn pawn_structure_piece_and_threat_features_follow_their_definitions() {
    let chess = ChessFeatures::new();
    let features = |fen: &str| chess.of(fen);
    let value = |f: &[(u32, f32)], name: &str| chess.value(f, name);
    // A tapered pair's two halves add up to the count (White's minus Black's).
    let count = |fen: &str, name: &str| {
        let f = features(fen);
        value(&f, &format!("{name}.mg")) + value(&f, &format!("{name}.eg"))
    };
    let close = |a: f32, b: f32| (a - b).abs() < 1e-4;
    // d3 cannot be guarded by a pawn (e5 is past its stop square) and Black's c5 attacks
    // d4: backward, and no Black pawn ahead on its file. Black's isolated c5 is unopposed.
    let back = "7k/8/8/2p1P3/8/3P4/8/K7 w - - 0 1";
    assert!(close(count(back, "pawn.backward"), 1.0), "{:?}", features(back));
    assert!(close(count(back, "pawn.weak.unopposed"), 0.0), "one weak unopposed pawn each");
    // A pawn on c2 can step up to guard d3's way and opposes c5: nothing weak is left.
    let held = "7k/8/8/2p1P3/8/3P4/2P5/K7 w - - 0 1";
    assert!(close(count(held, "pawn.backward"), 0.0));
    assert!(close(count(held, "pawn.weak.unopposed"), 0.0));
    // e4-e5 would fork d6 and f6; a Black pawn on f6 guards e5 and stops it.
    assert!(close(count("7k/8/3n1r2/8/4P3/8/8/K7 w - - 0 1", "threat.push"), 2.0));
    assert!(close(count("7k/8/3n1p2/8/4P3/8/8/K7 w - - 0 1", "threat.push"), 0.0));
    // e4 attacks the knight on d5, but the rook on e8 could take it: safe once defended.
    assert!(close(count("4r2k/8/8/3n4/4P3/8/8/K7 w - - 0 1", "threat.safe_pawn"), 0.0));
    assert!(close(count("4r2k/8/8/3n4/4P3/8/8/K3R3 w - - 0 1", "threat.safe_pawn"), 1.0));
    // Rook d1 and knight e3 both bear on d5 and f1; a Black pawn on e6 holds d5 strongly.
    assert!(close(count("7k/8/8/8/8/4n3/8/K2R4 w - - 0 1", "threat.restricted"), 0.0));
    assert!(close(count("7k/8/4p3/8/8/4n3/8/K2R4 w - - 0 1", "threat.restricted"), -1.0));
    // A knight with a pawn in front of it.
    assert!(close(count("7k/8/8/8/3P4/3N4/8/K7 w - - 0 1", "behind_pawn.N"), 1.0));
    assert!(close(count("7k/8/8/3P4/8/3N4/8/K7 w - - 0 1", "behind_pawn.N"), 0.0));
    // d2 and e3 stand on c1's colour, g2 does not; a blocked e3 doubles the count.
    let c = count("7k/8/8/8/8/4P3/3P2P1/K1B5 w - - 0 1", "pawns.colour.B");
    assert!(close(c, 2.0), "{c}");
    assert!(close(count("7k/8/8/8/4p3/4P3/3P2P1/K1B5 w - - 0 1", "pawns.colour.B"), 4.0));
    // The knight on b4 could go to c6 and attack the queen on d8; a Black pawn on b7
    // guards c6.
    assert!(close(count("3q3k/8/8/8/1N6/8/8/K7 w - - 0 1", "threat.queen.next"), 1.0));
    assert!(close(count("3q3k/1p6/8/8/1N6/8/8/K7 w - - 0 1", "threat.queen.next"), 0.0));
    // Space: pawns on d4/e4 leave 10 safe squares of c2-f4 and four behind them (14),
    // on d3/e3 ten and two (12); the same material, so the same phase and weight.
    let (far, near) = (features("r3k3/8/8/8/3PP3/8/8/R3K3 w - - 0 1"), features("r3k3/8/8/8/8/3PP3/8/R3K3 w - - 0 1"));
    let (s_far, s_near) = (value(&far, "space"), value(&near, "space"));
    assert!(s_far > 0.0, "{far:?}");
    assert!(close(s_near / s_far, 12.0 / 14.0), "{s_near} {s_far}");
}

#[test]
fn labels_from_keeps_the_positions_that_engine_was_to_move_in() {
    // Game 0: "player" White against "judge"; game 1 the colours swapped. Each has four
    // positions, White to move at even plies, and the side's own score recorded.
    let dir = std::env::temp_dir().join(format!("fairylab-labels-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut games = String::from(
        "game_id,pair_id,white,black,result,termination,plies,white_material,black_material,seed,opening,moves,final_fen\n",
    );
    games += "0,0,player,judge,1-0,checkmate,4,,,1,startpos,,x\n1,0,judge,player,0-1,checkmate,4,,,1,startpos,,x\n";
    std::fs::write(dir.join("games.csv"), games).unwrap();
    let mut csv = String::from("game_id,ply,fen,score_white,capture,result\n");
    for g in 0..2u64 {
        for p in 0..4u32 {
            let side = if p % 2 == 0 { "w" } else { "b" };
            let result = if g == 0 { 1.0 } else { 0.0 };
            csv += &format!("{g},{p},4k3/8/8/8/8/8/8/4K3 {side} - - 0 {p},{},false,{result}\n", 100 * (p + 1));
        }
    }
    std::fs::write(dir.join("positions.csv"), csv).unwrap();
    let load = |movers: &[&str]| {
        let movers = movers.iter().map(|m| m.to_string()).collect();
        let filter = positions::Filter { skip_captures: false, movers, ..Default::default() };
        positions::load_runs(std::slice::from_ref(&dir), &filter)
    };
    let (all, stats) = load(&[]).unwrap();
    assert_eq!((all.len(), stats.dropped_mover), (8, 0));
    // The judge is Black in game 0 (plies 1 and 3) and White in game 1 (plies 0 and 2).
    let (judged, stats) = load(&["judge"]).unwrap();
    assert_eq!(stats.dropped_mover, 4);
    let mut kept: Vec<(String, f32)> = judged.iter().map(|p| (p.fen.clone(), p.result)).collect();
    kept.sort_by(|a, b| a.0.cmp(&b.0));
    let sides: Vec<&str> = kept.iter().map(|(f, _)| f.split_whitespace().nth(1).unwrap()).collect();
    assert_eq!(sides.iter().filter(|s| **s == "b").count(), 2, "{kept:?}");
    assert_eq!(sides.iter().filter(|s| **s == "w").count(), 2, "{kept:?}");
    // Black to move came from game 0 (White won), White to move from game 1 (Black won).
    for (fen, r) in &kept {
        let black = fen.split_whitespace().nth(1) == Some("b");
        assert_eq!(*r, if black { 1.0 } else { 0.0 }, "{fen} is the player's position, not the judge's");
    }
    // A name no game has is refused with the engines it does have.
    let (both, _) = load(&["judge", "player"]).unwrap();
    assert_eq!(both.len(), 8, "either name keeps its positions");
    let err = load(&["jugde"]).unwrap_err().to_string();
    assert!(err.contains("jugde") && err.contains("judge") && err.contains("player"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
