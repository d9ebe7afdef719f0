//! Small dense linear algebra on `ndarray` for the estimators' few-parameter fits
//! (a handful of piece types): Cholesky solve and inverse of symmetric positive definite
//! matrices. ndarray itself has no solver and these systems are at most ~16x16, so a
//! direct factorisation is simpler than pulling in LAPACK.

use ndarray::{Array1, Array2};

/// Lower-triangular Cholesky factor `L` with `A = L L^T`, or `None` when `A` is not
/// (numerically) positive definite. A pivot below `1e-12` times the largest diagonal
/// entry counts as singular: in a fit that means a parameter the data do not determine.
pub fn cholesky(a: &Array2<f64>) -> Option<Array2<f64>> {
    let n = a.nrows();
    if a.ncols() != n {
        return None;
    }
    let scale = (0..n).map(|i| a[[i, i]].abs()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let mut l = Array2::<f64>::zeros((n, n));
    for j in 0..n {
        let mut d = a[[j, j]];
        for k in 0..j {
            d -= l[[j, k]] * l[[j, k]];
        }
        if d.is_nan() || d <= 1e-12 * scale {
            return None;
        }
        let d = d.sqrt();
        l[[j, j]] = d;
        for i in j + 1..n {
            let mut s = a[[i, j]];
            for k in 0..j {
                s -= l[[i, k]] * l[[j, k]];
            }
            l[[i, j]] = s / d;
        }
    }
    Some(l)
}

/// Solves `A x = b` given the Cholesky factor of `A`.
pub fn cholesky_solve(l: &Array2<f64>, b: &Array1<f64>) -> Array1<f64> {
    let n = l.nrows();
    let mut y = Array1::<f64>::zeros(n);
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= l[[i, k]] * y[k];
        }
        y[i] = s / l[[i, i]];
    }
    let mut x = Array1::<f64>::zeros(n);
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= l[[k, i]] * x[k];
        }
        x[i] = s / l[[i, i]];
    }
    x
}

/// Solves `A x = b` for symmetric positive definite `A`; `None` if `A` is singular.
pub fn solve_spd(a: &Array2<f64>, b: &Array1<f64>) -> Option<Array1<f64>> {
    cholesky(a).map(|l| cholesky_solve(&l, b))
}

/// Inverse of a symmetric positive definite matrix; `None` if it is singular.
pub fn inverse_spd(a: &Array2<f64>) -> Option<Array2<f64>> {
    let l = cholesky(a)?;
    let n = a.nrows();
    let mut inv = Array2::<f64>::zeros((n, n));
    for j in 0..n {
        let mut e = Array1::<f64>::zeros(n);
        e[j] = 1.0;
        inv.column_mut(j).assign(&cholesky_solve(&l, &e));
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn solves_and_inverts_a_known_system() {
        let a = array![[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]];
        let x_true = array![1.0, -2.0, 0.5];
        let b = a.dot(&x_true);
        let x = solve_spd(&a, &b).unwrap();
        assert!((&x - &x_true).iter().all(|d| d.abs() < 1e-12));
        let eye = a.dot(&inverse_spd(&a).unwrap());
        for i in 0..3 {
            for j in 0..3 {
                assert!((eye[[i, j]] - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn singular_matrices_are_refused() {
        let a = array![[1.0, 2.0], [2.0, 4.0]];
        assert!(cholesky(&a).is_none());
        assert!(solve_spd(&array![[0.0]], &array![1.0]).is_none());
    }
}
