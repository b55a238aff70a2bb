//! Semantic checks of domains and problems, and the tarski 0.8.2 acceptance profile.

pub mod tarski;
