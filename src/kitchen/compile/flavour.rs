//! What a compilation is for: the two flavours of the compiled domain.

/// What the compilation is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Flavour {
    /// Faithful to Simmer's executor: preconditions are the checks, effects are the primitives;
    /// with `validate --keep-going` it reports what `kitchen run` reports.
    #[default]
    Audit,
    /// Tightened so that a planner cannot exploit the executor's gaps (docs/kitchen.md).
    Planning,
}

crate::choice::choice!(Flavour, "flavour", {
    "audit" => Flavour::Audit: "faithful to the executor, for checking plans with `validate --keep-going`",
    "planning" => Flavour::Planning: "tightened for planners (docs/kitchen.md lists each tightening)",
});
