//! The `pddlc` command: parses arguments and hands over to `cli`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
