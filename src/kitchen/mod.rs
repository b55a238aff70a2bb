//! The Simmer kitchen world as a declarative model, and the engine that executes
//! VirtualHome-style plans in it.
