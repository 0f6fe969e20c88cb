//! The options of the Shisen-Sho commands that read boards, and the
//! parsers of the values they take.

use clap::Args;
use play::limits::STDIN_LINE_BYTES;
use shisen::{Board, Boards, Matching, ParseError, Point, Size, TileSet};

use crate::cli::Failure;

/// What a command says when `-` or `@FILE` holds no board (nothing, or
/// only blank lines): the same rule as the sliding puzzle's, exit 2.
const NO_BOARD: &str =
    "no board in the input: give rows of tiles, one a line, boards split by a blank line";

/// A board of a run answered (or how the answer failed), or the board's
/// parse error.
type Answered = Result<Result<(), Failure>, ParseError>;

/// Options of commands that read boards.
#[derive(Args)]
pub struct Input {
    /// Chinese matching: any flower matches any flower, any season any season.
    #[arg(long)]
    pub chinese: bool,
    /// Tiles fall after a removal: `solve` and `hint` search under gravity
    /// (their answers differ); paths, move lists and pictures of a given
    /// board do not depend on it.
    #[arg(long)]
    pub gravity: bool,
    /// A board (rows separated by newlines or /), - for boards on stdin
    /// (the default), or @FILE for the boards of a file (one that exists:
    /// `@` is also a tile).
    #[arg(default_value = "-")]
    pub board: String,
}

pub fn parse_size(s: &str) -> Result<Size, String> {
    s.parse().map_err(|e: shisen::SizeError| e.to_string())
}

pub fn parse_preset(s: &str) -> Result<Size, String> {
    Size::preset(s).map_err(|e| e.to_string())
}

pub fn parse_tiles(s: &str) -> Result<TileSet, String> {
    s.parse().map_err(|e: shisen::TileSetError| e.to_string())
}

pub fn parse_point(s: &str) -> Result<Point, String> {
    s.parse().map_err(|e: shisen::PointError| e.to_string())
}

impl Input {
    pub fn matching(&self) -> Matching {
        if self.chinese {
            Matching::Chinese
        } else {
            Matching::Standard
        }
    }

    /// The file `@FILE` names. `@` is also a tile, so a board whose first
    /// cell is `@` stays a board unless a file of that name exists.
    fn file(&self) -> Option<&str> {
        let path = self.board.strip_prefix('@')?;
        std::path::Path::new(path).is_file().then_some(path)
    }

    /// The text to parse: the argument, or all of stdin (no line past the
    /// line limit: see [`crate::cli::slide::input`]).
    fn text(&self) -> Result<String, Failure> {
        if self.board == "-" {
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                eprintln!("tessera: reading boards from the terminal, split by a blank line (Ctrl-D ends)");
            }
            // Large reads: a batch is megabytes, and stdin buffers 8 KiB.
            let stdin = std::io::BufReader::with_capacity(1 << 18, std::io::stdin().lock());
            crate::cli::slide::input::read_all(stdin, STDIN_LINE_BYTES)
        } else if let Some(path) = self.file() {
            let file = std::fs::File::open(path)
                .map_err(|e| Failure::input(format!("cannot read {path}: {e}")))?;
            crate::cli::slide::input::read_all(std::io::BufReader::new(file), STDIN_LINE_BYTES)
        } else if self.board.contains('\n') {
            Ok(self.board.clone())
        } else {
            self.file_name_given()?;
            Ok(self.board.replace('/', "\n"))
        }
    }

    /// Refuses an argument that is a file's name rather than a board (a
    /// one-row board is text too, so `b14.txt` would otherwise be read as
    /// tiles and fail on its odd kinds): only when it does not read as a
    /// board, and it names a file or looks like a name with an ending.
    fn file_name_given(&self) -> Result<(), Failure> {
        let name = self.board.as_str();
        let looks_like_a_file = name.rsplit_once('.').is_some_and(|(stem, ending)| {
            !stem.is_empty()
                && (1..=4).contains(&ending.len())
                && ending.bytes().all(|b| b.is_ascii_alphanumeric())
        });
        if name.contains('/') || !(looks_like_a_file || std::path::Path::new(name).is_file()) {
            return Ok(());
        }
        match shisen::parse_boards(name, self.matching()).next_ref() {
            Some(Err(_)) => Err(Failure::input(format!(
                "{name:?} is not a board; to read boards from the file {name}, write @{name} (or - for stdin)"
            ))),
            _ => Ok(()),
        }
    }

    /// Answers every board of the input with `answer` (which appends its
    /// lines to the string it is given; `first` is true for the input's
    /// first board) and writes the answers to `out` in input order. With
    /// more than one job, the text is cut at blank lines into runs of
    /// boards answered side by side, each run read into a board of its
    /// own. A malformed board stops the answers there, as with one job.
    pub fn answer_each(
        &self,
        jobs: usize,
        out: &mut impl std::io::Write,
        answer: impl Fn(&Board, bool, &mut String) -> Result<(), Failure> + Sync,
    ) -> Result<(), Failure> {
        self.answer_runs(jobs, out, |boards, first, answers| {
            let board = boards.next_ref()?;
            Some(board.map(|board| answer(board, first, answers)))
        })
    }

    /// Answers every board's move count with `answer`, as
    /// [`Input::answer_each`] does, reading the boards the batch way
    /// ([`shisen::Boards::next_count`]: no board is built where the text
    /// allows).
    pub fn count_each(
        &self,
        jobs: usize,
        out: &mut impl std::io::Write,
        answer: impl Fn(usize, &mut String) + Sync,
    ) -> Result<(), Failure> {
        self.answer_runs(jobs, out, |boards, _, answers| {
            let count = boards.next_count()?;
            Some(count.map(|count| {
                answer(count, answers);
                Ok(())
            }))
        })
    }

    /// The runs of [`Input::answer_each`]: `step` reads the next board of
    /// a run (`None` at its end), answers it into the string and says how
    /// that went, or gives the board's parse error.
    fn answer_runs(
        &self,
        jobs: usize,
        out: &mut impl std::io::Write,
        step: impl Fn(&mut Boards<'_>, bool, &mut String) -> Option<Answered> + Sync,
    ) -> Result<(), Failure> {
        let text = self.text()?;
        let runs = runs(&text, if jobs == 1 { 1 } else { 4 * jobs });
        // Per run: its answers, how many boards it holds, and where it
        // stopped.
        let answer_run = |&(line, run): &(usize, &str)| -> (String, usize, Option<Failure>) {
            let mut answers = String::new();
            let mut read = 0;
            let mut boards = shisen::parse_boards(run, self.matching());
            let mut first = line == 0;
            while let Some(answered) = step(&mut boards, first, &mut answers) {
                let done = answered.unwrap_or_else(|mut e| {
                    e.line += line;
                    Err(Failure::input(e))
                });
                read += 1;
                if let Err(failure) = done {
                    return (answers, read, Some(failure));
                }
                first = false;
            }
            (answers, read, None)
        };
        let answered: Vec<(String, usize, Option<Failure>)> = if jobs == 1 {
            runs.iter().map(answer_run).collect()
        } else {
            let pool = crate::cli::pool(jobs)?;
            pool.install(|| {
                use rayon::prelude::*;
                runs.par_iter().map(answer_run).collect()
            })
        };
        if answered.iter().all(|(_, read, _)| *read == 0) {
            return Err(Failure::input(NO_BOARD));
        }
        for (answers, _, failure) in answered {
            out.write_all(answers.as_bytes())?;
            if let Some(failure) = failure {
                out.flush()?;
                return Err(failure);
            }
        }
        Ok(())
    }

    /// Calls `each` on every board of the input, stopping at the first
    /// malformed one. The boards are read into one reused board: a batch
    /// allocates nothing per board.
    pub fn for_each(
        &self,
        mut each: impl FnMut(&Board) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let text = self.text()?;
        let mut any = false;
        let mut boards = shisen::parse_boards(&text, self.matching());
        while let Some(board) = boards.next_ref() {
            each(board.map_err(Failure::input)?)?;
            any = true;
        }
        if any {
            Ok(())
        } else {
            Err(Failure::input(NO_BOARD))
        }
    }
}

/// `text` cut into about `parts` runs of whole boards, each cut at the
/// start of a line after a blank line, with the number of lines before
/// it. Cutting at a blank line never splits a board.
fn runs(text: &str, parts: usize) -> Vec<(usize, &str)> {
    let mut runs = Vec::with_capacity(parts);
    let (mut start, mut line) = (0, 0);
    for part in 1..parts {
        let Some(cut) = cut_after(text, (text.len() * part / parts).max(start)) else {
            break;
        };
        runs.push((line, &text[start..cut]));
        line += text.as_bytes()[start..cut]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        start = cut;
    }
    runs.push((line, &text[start..]));
    runs
}

/// The start of the first line at or after `at` that follows an empty
/// line ("\n\n" or "\n\r\n"): a place between two boards.
fn cut_after(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    (at..bytes.len()).find_map(|i| match &bytes[i..] {
        [b'\n', b'\n', ..] => Some(i + 2),
        [b'\n', b'\r', b'\n', ..] => Some(i + 3),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cut_between_boards_and_count_lines() {
        let text = "ab\nba\n\ncd\ndc\n\r\nef\nfe\n\n\ngh\nhg\n";
        for parts in 1..12 {
            let runs = runs(text, parts);
            assert_eq!(runs.iter().map(|r| r.1).collect::<String>(), text);
            let mut offset = 0;
            for (line, run) in &runs {
                assert_eq!(*line, text[..offset].matches('\n').count());
                // Every run holds whole boards: its text parses alone.
                assert!(shisen::parse_boards(run, Matching::Standard).all(|b| b.is_ok()));
                offset += run.len();
            }
        }
        assert!(runs(text, 4).len() > 1);
    }
}
