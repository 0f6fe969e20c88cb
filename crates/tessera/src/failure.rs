//! Why a command failed, and so which exit code it ends with: shared by the
//! command line and the terminal game.

use std::fmt::Display;
use std::process::ExitCode;

/// A command's failure.
#[derive(Debug)]
pub enum Failure {
    /// The input (a flag, an argument, a line of stdin) is wrong: exit 2.
    Input(String),
    /// Reading or writing failed: exit 1, except for a closed pipe.
    Io(std::io::Error),
    /// Something else outside the user's input failed: exit 1.
    Other(String),
}

impl Failure {
    /// An input error.
    pub fn input(message: impl Display) -> Self {
        Failure::Input(message.to_string())
    }

    /// An input error located on line `line` (1-based) of stdin.
    pub fn input_at(line: usize, message: impl Display) -> Self {
        Failure::Input(format!("line {line}: {message}"))
    }

    /// A failed read or write.
    pub fn io(error: std::io::Error) -> Self {
        Failure::Io(error)
    }

    /// Prints the failure and gives its exit code.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Input(message) => {
                eprintln!("tessera: {message}");
                ExitCode::from(2)
            }
            // A closed pipe (`tessera … | head`) is a normal way to stop reading.
            Failure::Io(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {
                ExitCode::SUCCESS
            }
            Failure::Io(error) => {
                eprintln!("tessera: {error}");
                ExitCode::from(1)
            }
            Failure::Other(message) => {
                eprintln!("tessera: {message}");
                ExitCode::from(1)
            }
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Self {
        Failure::Io(error)
    }
}
