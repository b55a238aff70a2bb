//! A conservation argument for impossibility: weigh each item by the least amount of one
//! held item it can be made from. No recipe then makes more weight than it consumes, so the
//! inventory's total weight never grows; when it is below the target's weight, no sequence of
//! recipes, however long, makes the target. Weights are exact fractions.

use super::model::CounterModel;

/// A non-negative fraction in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fraction {
    pub numerator: u64,
    pub denominator: u64,
}

impl Fraction {
    fn new(numerator: u64, denominator: u64) -> Option<Fraction> {
        if denominator == 0 {
            return None;
        }
        let g = gcd(numerator, denominator).max(1);
        Some(Fraction {
            numerator: numerator / g,
            denominator: denominator / g,
        })
    }

    const ZERO: Fraction = Fraction {
        numerator: 0,
        denominator: 1,
    };

    fn add(self, other: Fraction) -> Option<Fraction> {
        let numerator = self
            .numerator
            .checked_mul(other.denominator)?
            .checked_add(other.numerator.checked_mul(self.denominator)?)?;
        Fraction::new(numerator, self.denominator.checked_mul(other.denominator)?)
    }

    fn scaled(self, factor: u64) -> Option<Fraction> {
        Fraction::new(self.numerator.checked_mul(factor)?, self.denominator)
    }

    fn divided(self, divisor: u64) -> Option<Fraction> {
        Fraction::new(self.numerator, self.denominator.checked_mul(divisor)?)
    }

    fn less_than(self, other: Fraction) -> bool {
        u128::from(self.numerator) * u128::from(other.denominator)
            < u128::from(other.numerator) * u128::from(self.denominator)
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.denominator == 1 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator)
        }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A weighing that proves the target out of reach.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The held item (local index) weights count in.
    pub unit: usize,
    /// Every relevant item's weight (`None`: it cannot be made from finite amounts).
    pub weights: Vec<Option<Fraction>>,
    pub inventory: Fraction,
}

/// A certificate with one of the held items as the unit, if one exists.
pub fn certificate(model: &CounterModel, start: &[u16]) -> Option<Certificate> {
    (0..model.items.len())
        .filter(|&unit| start[unit] > 0 && unit != model.target)
        .find_map(|unit| weigh(model, start, unit))
}

fn weigh(model: &CounterModel, start: &[u16], unit: usize) -> Option<Certificate> {
    let made: Vec<bool> = (0..model.items.len())
        .map(|item| model.transitions.iter().any(|t| t.makes == item))
        .collect();
    // The unit weighs 1, items nothing makes weigh 0, the rest start unbounded and come down
    // to the least their recipes give, as shortest paths do.
    let mut weights: Vec<Option<Fraction>> = (0..model.items.len())
        .map(|item| match (item == unit, made[item]) {
            (true, _) => Fraction::new(1, 1),
            (false, false) => Some(Fraction::ZERO),
            (false, true) => None,
        })
        .collect();
    let mut settled = false;
    for _ in 0..=model.items.len() {
        let mut changed = false;
        for transition in &model.transitions {
            // An unbounded input leaves the recipe's inequality true whatever it makes.
            if transition
                .consumes
                .iter()
                .any(|&(item, _)| weights[item].is_none())
            {
                continue;
            }
            let mut total = Fraction::ZERO;
            for &(item, n) in &transition.consumes {
                // Overflow abandons this unit: its inequalities could not be checked.
                total = total.add(weights[item]?.scaled(u64::from(n))?)?;
            }
            let candidate = total.divided(u64::from(transition.count))?;
            if weights[transition.makes].is_none_or(|w| candidate.less_than(w)) {
                weights[transition.makes] = Some(candidate);
                changed = true;
            }
        }
        if !changed {
            settled = true;
            break;
        }
    }
    if !settled {
        return None;
    }
    let mut inventory = Fraction::ZERO;
    for (item, &count) in start.iter().enumerate() {
        if count > 0 {
            inventory = inventory.add(weights[item]?.scaled(u64::from(count))?)?;
        }
    }
    let target = weights[model.target]?;
    inventory.less_than(target).then_some(Certificate {
        unit,
        weights,
        inventory,
    })
}
