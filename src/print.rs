//! AST to canonical PDDL text.
