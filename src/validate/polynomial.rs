//! Polynomials in the time elapsed since the start of an interval, for the values that PDDL+
//! processes and `#t` effects change: their arithmetic, their integral, and their real roots on
//! an interval (isolated between the roots of the derivative, then bisected), which is where a
//! numeric condition can change its truth.

/// `c0 + c1·τ + c2·τ² + …`; the coefficients, lowest degree first.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Polynomial {
    coefficients: Vec<f64>,
}

/// The highest degree handled; a value whose change is of a higher degree is not interpreted.
pub(super) const MAX_DEGREE: usize = 8;

impl Polynomial {
    pub fn constant(value: f64) -> Polynomial {
        Polynomial {
            coefficients: vec![value],
        }
    }

    /// The constant term, the value at `τ = 0`.
    pub fn at_start(&self) -> f64 {
        self.coefficients.first().copied().unwrap_or(0.0)
    }

    /// Whether the value does not change with time.
    pub fn is_constant(&self) -> bool {
        self.coefficients.iter().skip(1).all(|c| *c == 0.0)
    }

    pub fn degree(&self) -> usize {
        self.coefficients
            .iter()
            .rposition(|c| *c != 0.0)
            .unwrap_or(0)
    }

    pub fn value(&self, tau: f64) -> f64 {
        self.coefficients
            .iter()
            .rev()
            .fold(0.0, |acc, c| acc * tau + c)
    }

    pub fn add(&self, other: &Polynomial) -> Polynomial {
        let n = self.coefficients.len().max(other.coefficients.len());
        let at = |p: &Polynomial, i: usize| p.coefficients.get(i).copied().unwrap_or(0.0);
        Polynomial {
            coefficients: (0..n).map(|i| at(self, i) + at(other, i)).collect(),
        }
    }

    pub fn scale(&self, factor: f64) -> Polynomial {
        Polynomial {
            coefficients: self.coefficients.iter().map(|c| c * factor).collect(),
        }
    }

    pub fn sub(&self, other: &Polynomial) -> Polynomial {
        self.add(&other.scale(-1.0))
    }

    /// The product, or `None` past [`MAX_DEGREE`].
    pub fn mul(&self, other: &Polynomial) -> Option<Polynomial> {
        if self.degree() + other.degree() > MAX_DEGREE {
            return None;
        }
        let mut coefficients = vec![0.0; self.degree() + other.degree() + 1];
        for (i, a) in self.coefficients.iter().enumerate().take(self.degree() + 1) {
            for (j, b) in other
                .coefficients
                .iter()
                .enumerate()
                .take(other.degree() + 1)
            {
                if let Some(slot) = coefficients.get_mut(i + j) {
                    *slot += a * b;
                }
            }
        }
        Some(Polynomial { coefficients })
    }

    /// The integral from 0 to `τ`, or `None` past [`MAX_DEGREE`].
    pub fn integral(&self) -> Option<Polynomial> {
        if self.degree() + 1 > MAX_DEGREE {
            return None;
        }
        let mut coefficients = vec![0.0];
        for (i, c) in self.coefficients.iter().enumerate().take(self.degree() + 1) {
            coefficients.push(c / (i as f64 + 1.0));
        }
        Some(Polynomial { coefficients })
    }

    fn derivative(&self) -> Polynomial {
        let coefficients: Vec<f64> = self
            .coefficients
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, c)| c * i as f64)
            .collect();
        if coefficients.is_empty() {
            Polynomial::constant(0.0)
        } else {
            Polynomial { coefficients }
        }
    }

    /// The roots in `(low, high]`, ascending: where the value is zero, including where it only
    /// touches zero. A polynomial that is zero everywhere has none (nothing changes).
    pub fn roots(&self, low: f64, high: f64) -> Vec<f64> {
        if high.partial_cmp(&low) != Some(std::cmp::Ordering::Greater) {
            return Vec::new();
        }
        let scale = self
            .coefficients
            .iter()
            .fold(0.0f64, |m, c| m.max(c.abs()))
            .max(1.0);
        let zero = |v: f64| v.abs() <= 1e-12 * scale;
        match self.degree() {
            0 => Vec::new(),
            1 => {
                let (c0, c1) = (
                    self.at_start(),
                    self.coefficients.get(1).copied().unwrap_or(0.0),
                );
                let root = -c0 / c1;
                if root > low && root <= high {
                    vec![root]
                } else {
                    Vec::new()
                }
            }
            _ => {
                // Between two roots of the derivative the polynomial is monotone: at most one
                // root there, found by bisection.
                let mut points = vec![low];
                points.extend(self.derivative().roots(low, high));
                points.push(high);
                let mut out: Vec<f64> = Vec::new();
                for pair in points.windows(2) {
                    let (mut a, mut b) = match pair {
                        [a, b] if b > a => (*a, *b),
                        _ => continue,
                    };
                    let (fa, fb) = (self.value(a), self.value(b));
                    let root = if zero(fb) {
                        Some(b)
                    } else if zero(fa) || fa.signum() == fb.signum() {
                        None
                    } else {
                        let rising = fb > fa;
                        for _ in 0..200 {
                            let middle = a + (b - a) / 2.0;
                            if middle <= a || middle >= b {
                                break;
                            }
                            if (self.value(middle) < 0.0) == rising {
                                a = middle;
                            } else {
                                b = middle;
                            }
                        }
                        Some(b)
                    };
                    if let Some(root) = root
                        && root > low
                        && out.last().is_none_or(|last| root > *last)
                    {
                        out.push(root);
                    }
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Polynomial;

    fn poly(coefficients: &[f64]) -> Polynomial {
        Polynomial {
            coefficients: coefficients.to_vec(),
        }
    }

    #[test]
    fn a_line_crosses_once() {
        assert_eq!(poly(&[-10.0, 2.0]).roots(0.0, 100.0), vec![5.0]);
        assert!(poly(&[-10.0, 2.0]).roots(0.0, 4.0).is_empty());
        // The start of the interval is excluded, its end included.
        assert!(poly(&[0.0, 2.0]).roots(0.0, 4.0).is_empty());
        assert_eq!(poly(&[-8.0, 2.0]).roots(0.0, 4.0), vec![4.0]);
    }

    #[test]
    fn a_parabola_has_its_two_roots_and_its_touching_root() {
        // (τ - 1)(τ - 3) = τ² - 4τ + 3.
        let roots = poly(&[3.0, -4.0, 1.0]).roots(0.0, 10.0);
        assert_eq!(roots.len(), 2);
        assert!((roots[0] - 1.0).abs() < 1e-9 && (roots[1] - 3.0).abs() < 1e-9);
        // (τ - 2)² touches zero at 2.
        let roots = poly(&[4.0, -4.0, 1.0]).roots(0.0, 10.0);
        assert_eq!(roots.len(), 1);
        assert!((roots[0] - 2.0).abs() < 1e-6);
    }

    #[test]
    fn integral_and_product() {
        // The integral of 2 + 6τ is 2τ + 3τ².
        let integral = poly(&[2.0, 6.0]).integral().unwrap_or(poly(&[]));
        assert_eq!(integral.value(2.0), 16.0);
        let product = poly(&[1.0, 1.0]).mul(&poly(&[-1.0, 1.0]));
        assert_eq!(product.map(|p| p.value(3.0)), Some(8.0));
    }
}
