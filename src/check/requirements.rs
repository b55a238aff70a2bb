//! Requirement flags: which exist, what each implies, and which features need which.

use std::collections::BTreeSet;

/// Every requirement flag of PDDL 1.2 to 3.1, PDDL+, and the probabilistic and
/// non-deterministic extensions found in practice.
pub const KNOWN: &[&str] = &[
    ":strips",
    ":typing",
    ":negative-preconditions",
    ":disjunctive-preconditions",
    ":equality",
    ":existential-preconditions",
    ":universal-preconditions",
    ":quantified-preconditions",
    ":conditional-effects",
    ":fluents",
    ":numeric-fluents",
    ":object-fluents",
    ":adl",
    ":durative-actions",
    ":duration-inequalities",
    ":continuous-effects",
    ":derived-predicates",
    ":timed-initial-literals",
    ":preferences",
    ":constraints",
    ":action-costs",
    ":goal-utilities",
    ":time",
    // PDDL 1.2 flags that later versions dropped.
    ":domain-axioms",
    ":subgoals-through-axioms",
    ":safety-constraints",
    ":expression-evaluation",
    ":open-world",
    ":true-negation",
    ":ucpop",
    ":action-expansions",
    ":foreach-expansions",
    ":dag-expansions",
    ":expressions",
    // PPDDL and FOND.
    ":probabilistic-effects",
    ":rewards",
    ":non-deterministic",
    ":mdp",
];

/// The flags a flag implies, directly.
fn implies(flag: &str) -> &'static [&'static str] {
    match flag {
        ":adl" => &[
            ":strips",
            ":typing",
            ":negative-preconditions",
            ":disjunctive-preconditions",
            ":equality",
            ":quantified-preconditions",
            ":conditional-effects",
        ],
        ":quantified-preconditions" => &[":existential-preconditions", ":universal-preconditions"],
        ":fluents" => &[":numeric-fluents", ":object-fluents"],
        ":ucpop" => &[":adl", ":domain-axioms", ":safety-constraints"],
        ":timed-initial-literals" => &[":durative-actions"],
        ":duration-inequalities" => &[":durative-actions"],
        // PDDL+: processes and events come with continuous change and numbers.
        ":time" => &[
            ":continuous-effects",
            ":numeric-fluents",
            ":durative-actions",
        ],
        ":continuous-effects" => &[":numeric-fluents"],
        ":domain-axioms" => &[":derived-predicates"],
        ":expression-evaluation" | ":expressions" => &[":numeric-fluents"],
        _ => &[],
    }
}

/// The declared flags and everything they imply, lower-cased.
#[derive(Clone, Debug, Default)]
pub struct Requirements {
    closure: BTreeSet<String>,
}

impl Requirements {
    pub fn new<'a>(flags: impl IntoIterator<Item = &'a str>) -> Requirements {
        let mut closure = BTreeSet::new();
        let mut stack: Vec<String> = flags.into_iter().map(str::to_ascii_lowercase).collect();
        while let Some(flag) = stack.pop() {
            if closure.insert(flag.clone()) {
                stack.extend(implies(&flag).iter().map(|f| f.to_string()));
            }
        }
        Requirements { closure }
    }

    /// Whether `flag` is declared or implied.
    pub fn allows(&self, flag: &str) -> bool {
        self.closure.contains(flag)
    }

    /// Whether `declared` (a declared flag) is one of the flags that allow `used`.
    pub fn covers(declared: &str, used: &str) -> bool {
        Requirements::new([declared]).allows(used)
    }
}

pub fn is_known(flag: &str) -> bool {
    KNOWN.iter().any(|k| k.eq_ignore_ascii_case(flag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implications_are_transitive() {
        let adl = Requirements::new([":ADL"]);
        assert!(adl.allows(":existential-preconditions"));
        assert!(adl.allows(":negative-preconditions"));
        assert!(!adl.allows(":numeric-fluents"));
        let fluents = Requirements::new([":fluents"]);
        assert!(fluents.allows(":numeric-fluents") && fluents.allows(":object-fluents"));
        // Action costs are their own flag: they do not bring numeric fluents.
        assert!(!Requirements::new([":action-costs"]).allows(":numeric-fluents"));
        assert!(Requirements::covers(":ucpop", ":universal-preconditions"));
    }
}
