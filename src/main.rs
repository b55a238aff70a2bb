//! The `pddlc` command: parses arguments and hands over to `cli`.

mod cli;

fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
    cli::run()
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`pddlc fmt big.pddl | head -1`) would
/// panic. Like other Unix tools, pddlc is ended quietly by the signal instead.
#[cfg(unix)]
fn restore_default_sigpipe() {
    // SAFETY: called first thing in `main`, before any thread exists; setting a signal's
    // disposition to its default has no other effect on the process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_default_sigpipe() {}
