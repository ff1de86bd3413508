//! The `vitrine` binary: a thin shell over the library.

use clap::Parser;
use vitrine::cli::{Cli, Command};

fn main() {
    // A panic writes a crash report and names the file being processed.
    vitrine::crash::install_hook();
    let cli = Cli::parse();
    let code = match &cli.command {
        Some(Command::Info(args)) => vitrine::cli::info::run(args),
        Some(Command::Render(args)) => vitrine::cli::render::run(args),
        Some(Command::Check(args)) => vitrine::cli::check::run(args),
        Some(Command::Export(args)) => vitrine::cli::export::run(args),
        Some(Command::Convert(args)) => vitrine::cli::convert::run(args),
        Some(Command::Publish(args)) => vitrine::cli::publish::run(args),
        Some(Command::InstallDesktop(args)) => vitrine::cli::desktop::run(args),
        Some(Command::Completions { shell }) => vitrine::cli::completions(*shell),
        None => vitrine::desktop::window::run(cli.file.clone()),
    };
    std::process::exit(code);
}
