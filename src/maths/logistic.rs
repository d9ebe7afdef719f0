//! Maximum-likelihood fits of a game result on a linear predictor `eta = x . beta`:
//!
//! * [`Model::Logistic`]: the result for White (1, 1/2, 0) as a fractional response with
//!   `E[result] = sigma(eta)` (binomial quasi-likelihood; a draw counts half a win).
//! * [`Model::Ordinal`]: the proportional-odds (cumulative logit) model of the three
//!   outcomes, `P(win) = sigma(eta - theta)`, `P(not loss) = sigma(eta + theta)`, with a
//!   draw margin `theta > 0`. It uses the draws as their own outcome instead of half
//!   points, which is the better model when draws are common.
//!
//! Observations come grouped: one row per distinct feature vector with its numbers of
//! losses, draws and wins. Material vectors repeat a lot, so a fit over a hundred thousand
//! positions is a fit over a few thousand rows, which keeps the bootstrap cheap.
//!
//! Both log-likelihoods are concave, so Newton's method with step halving converges from
//! zero. A very weak ridge (`RIDGE`, not on the last column, the intercept) keeps the
//! system solvable when one piece type perfectly predicts the result in a small sample
//! (separation); at realistic sample sizes its pull is far below the statistical error.

use super::linalg::solve_spd;
use ndarray::{Array1, Array2, ArrayView1};

/// Penalty `RIDGE/2 * |beta|^2` on the slopes (see the module comment).
const RIDGE: f64 = 1e-3;
const MAX_ITERATIONS: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    Logistic,
    Ordinal,
}

impl Model {
    pub fn parse(s: &str) -> Result<Model, String> {
        match s {
            "logistic" => Ok(Model::Logistic),
            "ordinal" => Ok(Model::Ordinal),
            _ => Err(format!("model '{s}' must be logistic or ordinal")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Model::Logistic => "logistic",
            Model::Ordinal => "ordinal",
        }
    }
}

/// Grouped observations: `x` is rows x features (the last column is the constant 1),
/// `counts` is rows x 3 with the number of White losses, draws and wins per row.
#[derive(Clone, Debug)]
pub struct Grouped {
    pub x: Array2<f64>,
    pub counts: Array2<f64>,
}

#[derive(Clone, Debug)]
pub struct Fit {
    pub beta: Array1<f64>,
    /// Draw margin of the ordinal model (`None` for the logistic one).
    pub theta: Option<f64>,
    pub log_likelihood: f64,
    pub iterations: usize,
}

fn log_sigmoid(z: f64) -> f64 {
    // -softplus(-z), written so neither branch overflows.
    if z >= 0.0 {
        -(-z).exp().ln_1p()
    } else {
        z - z.exp().ln_1p()
    }
}

fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// Fits `model` to grouped data.
pub fn fit(model: Model, data: &Grouped) -> Result<Fit, String> {
    let (m, p) = data.x.dim();
    if data.counts.dim() != (m, 3) {
        return Err("counts must have one row of (losses, draws, wins) per feature row".into());
    }
    if p == 0 || data.counts.sum() <= 0.0 {
        return Err("no observations to fit".into());
    }
    match model {
        Model::Logistic => fit_logistic(data),
        Model::Ordinal => {
            let draws: f64 = data.counts.column(1).sum();
            if draws <= 0.0 {
                // Without draws the ordinal model is the logistic one with theta = 0.
                return fit_logistic(data).map(|f| Fit { theta: Some(0.0), ..f });
            }
            fit_ordinal(data)
        }
    }
}

fn penalty(beta: &Array1<f64>) -> f64 {
    let n = beta.len();
    0.5 * RIDGE * beta.iter().take(n - 1).map(|b| b * b).sum::<f64>()
}

fn logistic_loglik(data: &Grouped, beta: &Array1<f64>) -> f64 {
    let eta = data.x.dot(beta);
    let mut ll = 0.0;
    for (k, &e) in eta.iter().enumerate() {
        let c = data.counts.row(k);
        let (n, s) = (c[0] + c[1] + c[2], c[2] + 0.5 * c[1]);
        if n > 0.0 {
            ll += s * log_sigmoid(e) + (n - s) * log_sigmoid(-e);
        }
    }
    ll - penalty(beta)
}

/// Newton iterations with step halving, shared by both models: `step` returns the
/// gradient and the negated Hessian at `params`, `objective` the penalised log-likelihood.
fn newton(
    mut params: Array1<f64>,
    objective: impl Fn(&Array1<f64>) -> f64,
    step: impl Fn(&Array1<f64>) -> (Array1<f64>, Array2<f64>),
    feasible: impl Fn(&Array1<f64>) -> bool,
) -> Result<(Array1<f64>, f64, usize), String> {
    let mut value = objective(&params);
    for it in 1..=MAX_ITERATIONS {
        let (g, neg_h) = step(&params);
        let delta = solve_spd(&neg_h, &g)
            .ok_or("the fit is singular: some piece type never varies independently of the others")?;
        let mut t = 1.0;
        loop {
            let cand = &params + &(&delta * t);
            if feasible(&cand) {
                let v = objective(&cand);
                if v.is_finite() && v >= value - 1e-12 * value.abs().max(1.0) {
                    let done = (&delta * t).iter().all(|d| d.abs() < 1e-9) || (v - value).abs() < 1e-12;
                    params = cand;
                    value = v;
                    if done {
                        return Ok((params, value, it));
                    }
                    break;
                }
            }
            t *= 0.5;
            if t < 1e-12 {
                // No ascent direction left: we are at the optimum up to rounding.
                return Ok((params, value, it));
            }
        }
    }
    Err(format!("the fit did not converge in {MAX_ITERATIONS} Newton steps"))
}

fn ridge_terms(beta: ArrayView1<f64>, g: &mut Array1<f64>, h: &mut Array2<f64>, n: usize) {
    for j in 0..n - 1 {
        g[j] -= RIDGE * beta[j];
        h[[j, j]] += RIDGE;
    }
}

fn fit_logistic(data: &Grouped) -> Result<Fit, String> {
    let p = data.x.ncols();
    let step = |beta: &Array1<f64>| {
        let eta = data.x.dot(beta);
        let mut g = Array1::<f64>::zeros(p);
        let mut h = Array2::<f64>::zeros((p, p));
        for (k, &e) in eta.iter().enumerate() {
            let c = data.counts.row(k);
            let (n, s) = (c[0] + c[1] + c[2], c[2] + 0.5 * c[1]);
            if n <= 0.0 {
                continue;
            }
            let pr = sigmoid(e);
            let (r, w) = (s - n * pr, n * pr * (1.0 - pr));
            let x = data.x.row(k);
            g.scaled_add(r, &x);
            for i in 0..p {
                if x[i] != 0.0 {
                    for j in 0..p {
                        h[[i, j]] += w * x[i] * x[j];
                    }
                }
            }
        }
        ridge_terms(beta.view(), &mut g, &mut h, p);
        (g, h)
    };
    let (beta, ll, iterations) =
        newton(Array1::zeros(p), |b| logistic_loglik(data, b), step, |b| b.iter().all(|v| v.is_finite()))?;
    Ok(Fit { beta, theta: None, log_likelihood: ll, iterations })
}

/// Per-row derivatives of the ordinal log-likelihood with respect to `a = eta - theta` and
/// `b = eta + theta`: (value, g_a, g_b, h_aa, h_bb, h_ab), summed over the row's counts.
fn ordinal_terms(eta: f64, theta: f64, c: ArrayView1<f64>) -> (f64, f64, f64, f64, f64, f64) {
    let (a, b) = (eta - theta, eta + theta);
    let (sa, sb) = (sigmoid(a), sigmoid(b));
    let (mut v, mut ga, mut gb, mut haa, mut hbb, mut hab) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    if c[2] > 0.0 {
        // Win: log sigma(a).
        v += c[2] * log_sigmoid(a);
        ga += c[2] * (1.0 - sa);
        haa -= c[2] * sa * (1.0 - sa);
    }
    if c[0] > 0.0 {
        // Loss: log sigma(-b).
        v += c[0] * log_sigmoid(-b);
        gb -= c[0] * sb;
        hbb -= c[0] * sb * (1.0 - sb);
    }
    if c[1] > 0.0 {
        // Draw: log(sigma(b) - sigma(a)) = log sigma(b) + log sigma(-a) + log(1 - e^(a-b)),
        // the form that stays accurate when theta is small.
        let r = 1.0 / (2.0 * theta).exp_m1();
        v += c[1] * (log_sigmoid(b) + log_sigmoid(-a) + (-(-2.0 * theta).exp_m1()).ln());
        gb += c[1] * ((1.0 - sb) + r);
        ga += c[1] * (-sa - r);
        hbb += c[1] * (-sb * (1.0 - sb) - r * (1.0 + r));
        haa += c[1] * (-sa * (1.0 - sa) - r * (1.0 + r));
        hab += c[1] * r * (1.0 + r);
    }
    (v, ga, gb, haa, hbb, hab)
}

fn fit_ordinal(data: &Grouped) -> Result<Fit, String> {
    let p = data.x.ncols();
    let total = data.counts.sum();
    let draw_ratio = (data.counts.column(1).sum() / total).clamp(1e-6, 1.0 - 1e-6);
    // Start where eta = 0 reproduces the overall draw ratio: 2 sigma(theta) - 1 = d.
    let theta0 = ((1.0 + draw_ratio) / (1.0 - draw_ratio)).ln();
    let mut start = Array1::<f64>::zeros(p + 1);
    start[p] = theta0;
    let objective = |q: &Array1<f64>| {
        let beta = q.slice(ndarray::s![..p]).to_owned();
        let theta = q[p];
        let eta = data.x.dot(&beta);
        let ll: f64 = eta.iter().enumerate().map(|(k, &e)| ordinal_terms(e, theta, data.counts.row(k)).0).sum();
        ll - penalty(&beta)
    };
    let step = |q: &Array1<f64>| {
        let beta = q.slice(ndarray::s![..p]);
        let theta = q[p];
        let eta = data.x.dot(&beta);
        let mut g = Array1::<f64>::zeros(p + 1);
        let mut h = Array2::<f64>::zeros((p + 1, p + 1));
        for (k, &e) in eta.iter().enumerate() {
            let c = data.counts.row(k);
            if c.sum() <= 0.0 {
                continue;
            }
            let (_, ga, gb, haa, hbb, hab) = ordinal_terms(e, theta, c);
            let x = data.x.row(k);
            let (g_eta, g_theta) = (ga + gb, gb - ga);
            // Negated second derivatives (the solver wants a positive definite matrix).
            let h_ee = -(haa + 2.0 * hab + hbb);
            let h_et = -(hbb - haa);
            let h_tt = -(haa - 2.0 * hab + hbb);
            g.slice_mut(ndarray::s![..p]).scaled_add(g_eta, &x);
            g[p] += g_theta;
            for i in 0..p {
                if x[i] == 0.0 {
                    continue;
                }
                for j in 0..p {
                    h[[i, j]] += h_ee * x[i] * x[j];
                }
                h[[i, p]] += h_et * x[i];
                h[[p, i]] += h_et * x[i];
            }
            h[[p, p]] += h_tt;
        }
        for j in 0..p - 1 {
            g[j] -= RIDGE * beta[j];
            h[[j, j]] += RIDGE;
        }
        (g, h)
    };
    let (q, ll, iterations) = newton(start, objective, step, |q| q[p] > 0.0 && q.iter().all(|v| v.is_finite()))?;
    Ok(Fit { beta: q.slice(ndarray::s![..p]).to_owned(), theta: Some(q[p]), log_likelihood: ll, iterations })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn logistic_fit_of_exact_frequencies_returns_the_generating_coefficients() {
        // Two covariate values with result frequencies exactly sigma(eta): the MLE is exact.
        let (b1, b0) = (0.8, 0.2);
        let x = array![[0.0, 1.0], [1.0, 1.0], [-1.0, 1.0]];
        let mut counts = Array2::zeros((3, 3));
        for k in 0..3 {
            let p = sigmoid(b1 * x[[k, 0]] + b0);
            counts[[k, 2]] = 1e6 * p;
            counts[[k, 0]] = 1e6 * (1.0 - p);
        }
        let f = fit(Model::Logistic, &Grouped { x, counts }).unwrap();
        assert!((f.beta[0] - b1).abs() < 1e-4, "{:?}", f.beta);
        assert!((f.beta[1] - b0).abs() < 1e-4, "{:?}", f.beta);
    }

    #[test]
    fn ordinal_fit_of_exact_frequencies_returns_coefficients_and_margin() {
        let (b1, b0, theta) = (0.6, -0.1, 0.7);
        let x = array![[0.0, 1.0], [1.0, 1.0], [-1.0, 1.0], [2.0, 1.0]];
        let mut counts = Array2::zeros((4, 3));
        for k in 0..4 {
            let eta = b1 * x[[k, 0]] + b0;
            let (pw, pnl) = (sigmoid(eta - theta), sigmoid(eta + theta));
            counts[[k, 0]] = 1e6 * (1.0 - pnl);
            counts[[k, 1]] = 1e6 * (pnl - pw);
            counts[[k, 2]] = 1e6 * pw;
        }
        let f = fit(Model::Ordinal, &Grouped { x, counts }).unwrap();
        assert!((f.beta[0] - b1).abs() < 1e-4, "{:?}", f.beta);
        assert!((f.beta[1] - b0).abs() < 1e-4, "{:?}", f.beta);
        assert!((f.theta.unwrap() - theta).abs() < 1e-4, "{:?}", f.theta);
    }

    #[test]
    fn empty_data_is_an_error_and_separation_stays_finite() {
        let empty = Grouped { x: Array2::zeros((1, 2)), counts: Array2::zeros((1, 3)) };
        assert!(fit(Model::Logistic, &empty).unwrap_err().contains("no observations"));
        // The side with the extra piece always wins: the unpenalised MLE is infinite; the
        // ridge keeps it finite and positive.
        let x = array![[1.0, 1.0], [-1.0, 1.0]];
        let counts = array![[0.0, 0.0, 5.0], [5.0, 0.0, 0.0]];
        let f = fit(Model::Logistic, &Grouped { x, counts }).unwrap();
        assert!(f.beta[0].is_finite() && f.beta[0] > 3.0, "{:?}", f.beta);
    }
}
