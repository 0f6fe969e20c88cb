use std::fmt::Display;
use std::process::ExitCode;

/// Why a command failed, and so which exit code it ends with.
#[derive(Debug)]
pub enum Failure {
    /// The input (a flag, an argument, a line of stdin) is wrong: exit 2.
    Input(String),
    /// Something outside the user's input failed (I/O, a broken pipe): exit 1.
    Other(String),
}

impl Failure {
    pub fn input(message: impl Display) -> Self {
        Failure::Input(message.to_string())
    }

    /// An input error located on line `line` (1-based) of stdin.
    pub fn input_at(line: usize, message: impl Display) -> Self {
        Failure::Input(format!("line {line}: {message}"))
    }

    pub fn io(error: std::io::Error) -> Self {
        Failure::Other(error.to_string())
    }

    pub fn report(self) -> ExitCode {
        match self {
            Failure::Input(message) => {
                eprintln!("tessera: {message}");
                ExitCode::from(2)
            }
            // A closed pipe (`tessera … | head`) is a normal way to stop reading.
            Failure::Other(message) if message.contains("Broken pipe") => ExitCode::SUCCESS,
            Failure::Other(message) => {
                eprintln!("tessera: {message}");
                ExitCode::from(1)
            }
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Self {
        Failure::io(error)
    }
}
