//! An action's variants (one per subset of its optional roles left unbound) and their PDDL
//! names, and what an action creates: read off the world's action tables, before any lowering.

use crate::kitchen::data::world::{Action, Primitive};

/// The roles an action's PDDL parameters stand for, in order, and whether each variant binds
/// each optional role: one variant per subset of the optional roles left unbound.
pub fn variants(action: &Action) -> Vec<Vec<bool>> {
    let optional: Vec<usize> = (0..action.roles.len())
        .filter(|&i| action.roles[i].optional)
        .collect();
    let mut out = Vec::new();
    for mask in 0..(1usize << optional.len()) {
        let mut bound = vec![true; action.roles.len()];
        for (bit, &i) in optional.iter().enumerate() {
            if mask & (1 << bit) != 0 {
                bound[i] = false;
            }
        }
        out.push(bound);
    }
    out
}

/// The PDDL name of an action variant: the action, then `-without-<role>` for unbound roles.
pub fn variant_name(action: &Action, bound: &[bool]) -> String {
    let mut name = action.name.clone();
    for (role, &is_bound) in action.roles.iter().zip(bound) {
        if !is_bound {
            name.push_str("-without-");
            name.push_str(&role.name);
        }
    }
    name
}

/// Whether the action creates an object through a primitive that needs a spare parameter.
pub fn creates(action: &Action) -> bool {
    action.effects.iter().any(|e| {
        matches!(
            e.primitive,
            Primitive::Derive(..)
                | Primitive::Byproduct(..)
                | Primitive::Product(..)
                | Primitive::GrateInto(..)
        )
    })
}

/// The kind of derivative an action makes (`chunks`), if any.
pub fn derivative_kind(action: &Action) -> Option<&str> {
    action.effects.iter().find_map(|e| match &e.primitive {
        Primitive::Derive(_, c) | Primitive::Byproduct(_, c) | Primitive::GrateInto(_, _, c) => {
            Some(c.value.as_str())
        }
        Primitive::Product(_, c) => Some(c.value.as_str()),
        _ => None,
    })
}
