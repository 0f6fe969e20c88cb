//! Where a command's inputs come from: one argument, or `-` for many on stdin.

use std::io::BufRead;

/// One input item and where it came from (for error messages).
pub struct Item {
    /// 1-based stdin line, or `None` for a command-line argument.
    pub line: Option<usize>,
    pub text: String,
}

/// The inputs named by `arg`: the argument itself, or with `-` every
/// non-empty line of stdin. Reading is lazy so thousands of lines stream.
pub fn items(arg: &str) -> Box<dyn Iterator<Item = std::io::Result<Item>>> {
    if arg == "-" {
        let lines = std::io::stdin().lock().lines();
        Box::new(
            lines
                .enumerate()
                .map(|(i, line)| {
                    line.map(|text| Item {
                        line: Some(i + 1),
                        text,
                    })
                })
                .filter(|item| !matches!(item, Ok(item) if item.text.trim().is_empty())),
        )
    } else {
        Box::new(std::iter::once(Ok(Item {
            line: None,
            text: arg.to_string(),
        })))
    }
}

impl Item {
    /// An input failure located at this item.
    pub fn failure(&self, message: impl std::fmt::Display) -> super::Failure {
        match self.line {
            Some(line) => super::Failure::input_at(line, message),
            None => super::Failure::input(message),
        }
    }
}
