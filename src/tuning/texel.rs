//! Texel tuning: minimise the mean squared error between game results and the predicted
//! score `sigmoid(eval) = 1 / (1 + 10^(-K * eval / 400))` (eval in centipawns, White's view).
//!
//! K is fitted first with the starting weights (a 1-D search), then held fixed while all
//! weights are fitted by mini-batch Adam. Holding K fixed and one weight fixed (the pawn's
//! endgame value, by default) pins the scale, so the tuned weights stay in centipawns.
//!
//! Determinism: mini-batches are contiguous ranges of the (pre-shuffled) data, visited in a
//! seeded order; each batch is cut into fixed chunks whose gradients are summed in chunk
//! order, so the result does not depend on the number of threads or on scheduling.

use super::matrix::{Dataset, Terms};
use super::positions::mix;
use crate::rng::Rng;
use crate::tournament::progress::{Event, Status, Unit};
use crate::tournament::Progress;
use crate::Error;
use ndarray::{Array1, Zip};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Positions per parallel work item: large enough to amortise the per-chunk zeroing of the
/// term gradient, small enough that a mini-batch spreads over both cores.
const CHUNK: usize = 256;

const LN10_OVER_400: f64 = std::f64::consts::LN_10 / 400.0;

#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub epochs: usize,
    /// Adam step size in centipawns; decays linearly to a tenth of it over the epochs.
    pub lr: f64,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Weight of the L2 penalty `l2 * sum(((w - w_start) / 100)^2)` added to the MSE.
    pub l2: f64,
    pub seed: u64,
    /// Stop after this many epochs without a better validation loss (0 = never).
    pub patience: usize,
    /// Weight indices held at their starting values.
    pub fixed: Vec<usize>,
    /// Use this K instead of fitting it.
    pub k: Option<f64>,
    /// Where the epochs are reported (a line each).
    pub progress: Progress,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            epochs: 100,
            lr: 1.0,
            batch: 4096,
            l2: 0.0,
            seed: 1,
            patience: 10,
            fixed: vec![],
            k: None,
            progress: Progress::silent(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EpochStats {
    pub epoch: usize,
    /// Mean of the mini-batch losses during the epoch (weights move while it is measured).
    pub train_loss: f64,
    pub val_loss: Option<f64>,
    pub lr: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TuneReport {
    pub k: f64,
    pub train_positions: usize,
    pub val_positions: usize,
    /// Exact losses with the starting and with the returned weights (MSE, no penalty).
    pub start_train_loss: f64,
    pub start_val_loss: Option<f64>,
    pub final_train_loss: f64,
    pub final_val_loss: Option<f64>,
    pub epochs: Vec<EpochStats>,
    /// The epoch whose weights are returned (best validation loss, else the last).
    pub best_epoch: usize,
    pub stopped_early: bool,
    /// Time in the gradient passes and positions processed there (for the speed figure).
    pub gradient_seconds: f64,
    pub positions_epochs: f64,
    #[serde(skip)]
    pub weights: Vec<f32>,
}

impl TuneReport {
    /// Positions x epochs per second of the gradient passes.
    pub fn speed(&self) -> f64 {
        if self.gradient_seconds > 0.0 {
            self.positions_epochs / self.gradient_seconds
        } else {
            0.0
        }
    }
}

#[inline]
fn sigmoid(k_scaled: f32, eval: f32) -> f32 {
    1.0 / (1.0 + (-k_scaled * eval).exp())
}

/// Sums `f(i)` over `0..n` in fixed chunks, chunks added in order (thread-count independent).
fn ordered_sum(n: usize, f: impl Fn(usize) -> f64 + Sync) -> f64 {
    let parts: Vec<f64> =
        (0..n.div_ceil(CHUNK)).into_par_iter().map(|c| (c * CHUNK..((c + 1) * CHUNK).min(n)).map(&f).sum()).collect();
    parts.iter().sum()
}

/// Mean squared error of `evals` (White's view, cp) against `results` at scale `k`.
pub fn mse_of_evals(evals: &[f32], results: &[f32], k: f64) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let ks = (k * LN10_OVER_400) as f32;
    let total = ordered_sum(evals.len(), |i| {
        let e = (sigmoid(ks, evals[i]) - results[i]) as f64;
        e * e
    });
    total / evals.len() as f64
}

/// Mean squared error of the data with `weights` (one per layout name) at scale `k`.
pub fn loss(data: &Dataset, terms: &Terms, weights: &[f32], k: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let mut wt = vec![[0.0f32; 2]; terms.len()];
    terms.gather(weights, &mut wt);
    let ks = (k * LN10_OVER_400) as f32;
    // Evaluations are computed on the fly: no per-epoch buffer the size of the data.
    let total = ordered_sum(data.len(), |i| {
        let e = (sigmoid(ks, data.eval(i, &wt)) - data.result[i]) as f64;
        e * e
    });
    total / data.len() as f64
}

/// The K minimising the MSE with fixed evaluations: a log-spaced scan of [0.01, 100], then a
/// golden-section search between the neighbours of the best grid point. The scan guards
/// against the search locking onto the flat tails of the sigmoid.
pub fn fit_k_evals(evals: &[f32], results: &[f32]) -> Result<f64, Error> {
    if evals.is_empty() {
        return Err(Error::Tuning("cannot fit K without positions".into()));
    }
    let f = |logk: f64| mse_of_evals(evals, results, 10f64.powf(logk));
    let steps = 80;
    let (lo, hi) = (-2.0f64, 2.0f64);
    let grid: Vec<f64> = (0..=steps).map(|i| lo + (hi - lo) * i as f64 / steps as f64).collect();
    let values: Vec<f64> = grid.iter().map(|&x| f(x)).collect();
    let best = (0..values.len()).min_by(|&a, &b| values[a].total_cmp(&values[b])).unwrap_or(0);
    let (mut a, mut b) = (grid[best.saturating_sub(1)], grid[(best + 1).min(steps)]);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    Ok(10f64.powf((a + b) / 2.0))
}

/// The K minimising the MSE of `data` with `weights`.
pub fn fit_k(data: &Dataset, terms: &Terms, weights: &[f32]) -> Result<f64, Error> {
    fit_k_evals(&data.evals(terms, weights), &data.result)
}

/// Gradient of the summed squared error over positions `range`, per term, into `grad`
/// (phase-1 part, phase-0 part), without the constant factor `2 * K'`. Returns the summed
/// squared error. This is the hot loop: no allocation, sequential memory access.
fn chunk_gradient(d: &Dataset, range: std::ops::Range<usize>, wt: &[[f32; 2]], ks: f32, grad: &mut [[f32; 2]]) -> f64 {
    grad.fill([0.0; 2]);
    let mut loss = 0.0f64;
    for i in range {
        let (s, e) = (d.offsets[i] as usize, d.offsets[i + 1] as usize);
        let (idx, val) = (&d.index[s..e], &d.value[s..e]);
        let (mut a, mut b) = (0.0f32, 0.0f32);
        for (&t, &v) in idx.iter().zip(val) {
            let w = wt[t as usize];
            a += v * w[0];
            b += v * w[1];
        }
        let p = d.phase[i];
        let sig = sigmoid(ks, p * a + (1.0 - p) * b);
        let err = sig - d.result[i];
        loss += (err * err) as f64;
        let g = err * sig * (1.0 - sig);
        let (ga, gb) = (g * p, g * (1.0 - p));
        for (&t, &v) in idx.iter().zip(val) {
            let gr = &mut grad[t as usize];
            gr[0] += ga * v;
            gr[1] += gb * v;
        }
    }
    loss
}

/// Buffers of the optimiser, allocated once per tuning run.
struct Work {
    wt: Vec<[f32; 2]>,
    chunk_grads: Vec<[f32; 2]>,
    chunk_loss: Vec<f64>,
    term_grad: Vec<[f64; 2]>,
    grad: Array1<f64>,
    w32: Vec<f32>,
}

/// Computes the mean gradient of the MSE over positions `range` into `work.grad` (per
/// weight) and returns the batch's mean squared error.
fn batch_gradient(d: &Dataset, terms: &Terms, range: std::ops::Range<usize>, k: f64, work: &mut Work) -> f64 {
    let nt = terms.len();
    let n = range.len();
    let chunks = n.div_ceil(CHUNK);
    let ks = (k * LN10_OVER_400) as f32;
    let start = range.start;
    let wt = &work.wt;
    work.chunk_grads[..chunks * nt]
        .par_chunks_mut(nt)
        .zip(work.chunk_loss[..chunks].par_iter_mut())
        .enumerate()
        .for_each(|(c, (g, l))| {
            let r = start + c * CHUNK..(start + (c + 1) * CHUNK).min(range.end);
            *l = chunk_gradient(d, r, wt, ks, g);
        });
    work.term_grad.fill([0.0; 2]);
    for g in work.chunk_grads[..chunks * nt].chunks(nt) {
        for (acc, x) in work.term_grad.iter_mut().zip(g) {
            acc[0] += x[0] as f64;
            acc[1] += x[1] as f64;
        }
    }
    work.grad.fill(0.0);
    let grad = work.grad.as_slice_mut().expect("contiguous gradient");
    terms.scatter(&work.term_grad, grad);
    let scale = 2.0 * k * LN10_OVER_400 / n as f64;
    for g in grad.iter_mut() {
        *g *= scale;
    }
    work.chunk_loss[..chunks].iter().sum::<f64>() / n as f64
}

/// Fits all weights (except `opts.fixed`) to `train`, starting from `start`, stopping early on
/// `val` (if non-empty). Returns the weights of the best validation epoch.
pub fn tune(
    train: &Dataset,
    val: &Dataset,
    terms: &Terms,
    start: &[f32],
    opts: &TuneOptions,
) -> Result<TuneReport, Error> {
    if train.is_empty() {
        return Err(Error::Tuning("no training positions".into()));
    }
    if start.len() != terms.n {
        return Err(Error::Tuning(format!("{} starting weights for {} features", start.len(), terms.n)));
    }
    if opts.batch == 0 || opts.epochs == 0 {
        return Err(Error::Tuning("--batch and --epochs must be positive".into()));
    }
    if !opts.lr.is_finite() || opts.lr <= 0.0 {
        return Err(Error::Tuning(format!("learning rate {} must be positive", opts.lr)));
    }
    if !opts.l2.is_finite() || opts.l2 < 0.0 {
        return Err(Error::Tuning(format!("L2 weight {} must be non-negative", opts.l2)));
    }
    if let Some(&i) = opts.fixed.iter().find(|&&i| i >= terms.n) {
        return Err(Error::Tuning(format!("fixed weight index {i} out of range")));
    }
    let k = match opts.k {
        Some(k) if k > 0.0 && k.is_finite() => k,
        Some(k) => return Err(Error::Tuning(format!("K = {k} must be positive"))),
        None => fit_k(train, terms, start)?,
    };
    let has_val = !val.is_empty();
    let start_train_loss = loss(train, terms, start, k);
    let start_val_loss = has_val.then(|| loss(val, terms, start, k));
    opts.progress.note(&format!(
        "K = {k:.4}; {} training, {} validation positions; start loss train {start_train_loss:.6}{}",
        train.len(),
        val.len(),
        start_val_loss.map(|v| format!(" validation {v:.6}")).unwrap_or_default()
    ));

    let n = terms.n;
    let w0 = Array1::from_iter(start.iter().map(|&x| x as f64));
    let mut w = w0.clone();
    let mut m = Array1::<f64>::zeros(n);
    let mut v = Array1::<f64>::zeros(n);
    let mut free = Array1::<f64>::ones(n);
    for &i in &opts.fixed {
        free[i] = 0.0;
    }
    let batch = opts.batch.min(train.len());
    let max_chunks = batch.div_ceil(CHUNK);
    let mut work = Work {
        wt: vec![[0.0; 2]; terms.len()],
        chunk_grads: vec![[0.0; 2]; max_chunks * terms.len()],
        chunk_loss: vec![0.0; max_chunks],
        term_grad: vec![[0.0; 2]; terms.len()],
        grad: Array1::zeros(n),
        w32: start.to_vec(),
    };
    let nbatches = train.len().div_ceil(batch);
    let mut order: Vec<usize> = (0..nbatches).collect();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let l2 = opts.l2 / (100.0 * 100.0);
    let mut step = 0i32;
    let mut best = (f64::INFINITY, 0usize, start.to_vec());
    let mut since_best = 0;
    let mut epochs = Vec::new();
    let mut stopped_early = false;
    let (mut grad_secs, mut processed) = (0.0f64, 0.0f64);

    opts.progress.emit(Event::Started {
        unit: Unit::Epochs,
        label: None,
        done: 0,
        total: opts.epochs as u64,
        standing: None,
    });

    for epoch in 1..=opts.epochs {
        let lr = opts.lr * (1.0 - 0.9 * (epoch - 1) as f64 / opts.epochs as f64);
        let mut rng = Rng::new(mix(opts.seed ^ ((epoch as u64) << 32)));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let t0 = Instant::now();
        let mut epoch_loss = 0.0;
        for &b in &order {
            let range = b * batch..((b + 1) * batch).min(train.len());
            let len = range.len();
            terms.gather(&work.w32, &mut work.wt);
            epoch_loss += batch_gradient(train, terms, range, k, &mut work) * len as f64;
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            Zip::from(&mut w).and(&mut m).and(&mut v).and(&work.grad).and(&w0).and(&free).for_each(
                |w, m, v, &g, &w0, &f| {
                    let g = (g + 2.0 * l2 * (*w - w0)) * f;
                    *m = b1 * *m + (1.0 - b1) * g;
                    *v = b2 * *v + (1.0 - b2) * g * g;
                    *w -= f * lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                },
            );
            for (dst, &src) in work.w32.iter_mut().zip(w.iter()) {
                *dst = src as f32;
            }
        }
        grad_secs += t0.elapsed().as_secs_f64();
        processed += train.len() as f64;
        let train_loss = epoch_loss / train.len() as f64;
        let val_loss = has_val.then(|| loss(val, terms, &work.w32, k));
        epochs.push(EpochStats { epoch, train_loss, val_loss, lr });
        let msg = format!(
            "epoch {epoch:3}  train {train_loss:.6}{}",
            val_loss.map(|v| format!("  validation {v:.6}")).unwrap_or_default()
        );
        opts.progress.note(&msg);
        opts.progress.emit(Event::Advanced { done: epoch as u64, status: Status::Text(&msg) });
        let score = val_loss.unwrap_or(train_loss);
        if score < best.0 * (1.0 - 1e-7) || !has_val {
            best = (score, epoch, work.w32.clone());
            since_best = 0;
        } else {
            since_best += 1;
            if opts.patience > 0 && since_best >= opts.patience {
                stopped_early = true;
                break;
            }
        }
    }
    opts.progress.emit(Event::Finished);
    let weights = best.2;
    let final_train_loss = loss(train, terms, &weights, k);
    let final_val_loss = has_val.then(|| loss(val, terms, &weights, k));
    Ok(TuneReport {
        k,
        train_positions: train.len(),
        val_positions: val.len(),
        start_train_loss,
        start_val_loss,
        final_train_loss,
        final_val_loss,
        epochs,
        best_epoch: best.1,
        stopped_early,
        gradient_seconds: grad_secs,
        positions_epochs: processed,
        weights,
    })
}
