//! Where a command's inputs come from: one argument, `-` for many on
//! stdin, or `@FILE` for many in a file.
//!
//! Stdin is read a line at a time, and no line may be longer than
//! [`play::limits::STDIN_LINE_BYTES`]: a longer one is an input error
//! raised after reading that much of it, so a runaway line (a gigabyte
//! without a newline) ends in a clear message instead of exhausting
//! memory. The lines before it have been answered already: nothing is lost.

use std::io::{BufRead, IsTerminal, Read};

use clap::Args;
use play::limits::STDIN_LINE_BYTES;

use crate::cli::Failure;

/// One input item and where it came from (for error messages).
pub struct Item {
    /// 1-based stdin line, or `None` for a command-line argument.
    pub line: Option<usize>,
    pub text: String,
}

/// What a command says when `-` or `@FILE` holds no item (only blank
/// lines, or nothing): the same rule for both games, exit 2.
pub const NO_POSITION: &str =
    "no position in the input: give one a line, such as 1 2 3/4 5 6/7 8 0";

/// The positions a batch command answers (`slide check`, `slide solve`),
/// and how many it works on at once.
#[derive(Args)]
pub struct Positions {
    /// Answer this many positions at once (output stays in input order)
    /// [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// A position such as "1 2 3/4 5 6/7 8 0", - for one per stdin line
    /// (the default), or @FILE for one per line of a file.
    #[arg(default_value = "-")]
    position: String,
}

impl Positions {
    /// `--jobs`, else one per core.
    pub fn jobs(&self) -> usize {
        crate::cli::jobs_or_cores(self.jobs)
    }

    /// Whether they are read from stdin.
    pub fn on_stdin(&self) -> bool {
        self.position == "-"
    }

    /// Whether they are typed at a terminal, to be answered one by one as
    /// they are entered.
    pub fn typed(&self) -> bool {
        self.on_stdin() && std::io::stdin().is_terminal()
    }

    /// The positions, as [`items`] reads them.
    pub fn items(&self) -> Box<dyn Iterator<Item = Result<Item, Failure>>> {
        items(&self.position, NO_POSITION)
    }
}

/// The inputs named by `arg`: the argument itself, or with `-` every
/// non-empty line of stdin. Reading is lazy so thousands of lines stream.
/// A stdin or file without any item is an input error saying `empty`:
/// silence would pass for an answer.
pub fn items(arg: &str, empty: &'static str) -> Box<dyn Iterator<Item = Result<Item, Failure>>> {
    let items = lines(arg);
    if arg == "-" || arg.starts_with('@') {
        Box::new(AtLeastOne {
            items,
            empty: Some(empty),
        })
    } else {
        items
    }
}

/// The next `size` items read (fewer at the end of the input), and the
/// failure that cut them short, if one did: a batch command answers the
/// items before a failure, then stops with it. Reading a batch at a time
/// keeps memory bounded however long the input.
pub fn next_batch<T>(
    items: impl Iterator<Item = Result<T, Failure>>,
    size: usize,
) -> (Vec<T>, Option<Failure>) {
    let mut batch = Vec::with_capacity(size);
    for item in items.take(size) {
        match item {
            Ok(item) => batch.push(item),
            Err(failure) => return (batch, Some(failure)),
        }
    }
    (batch, None)
}

/// Items, then `empty` as an error if there were none.
struct AtLeastOne<I> {
    items: I,
    /// The message, until an item has come.
    empty: Option<&'static str>,
}

impl<I: Iterator<Item = Result<Item, Failure>>> Iterator for AtLeastOne<I> {
    type Item = Result<Item, Failure>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.items.next() {
            Some(item) => {
                self.empty = None;
                Some(item)
            }
            None => self
                .empty
                .take()
                .map(|message| Err(Failure::input(message))),
        }
    }
}

/// The items of `arg` as [`items`] reads them, possibly none.
fn lines(arg: &str) -> Box<dyn Iterator<Item = Result<Item, Failure>>> {
    let blank =
        |item: &Result<Item, Failure>| matches!(item, Ok(item) if item.text.trim().is_empty());
    if arg == "-" {
        if std::io::stdin().is_terminal() {
            // Typed by hand: say what is awaited rather than wait silently.
            eprintln!("tessera: reading one item a line from the terminal (Ctrl-D ends)");
        }
        let lines = Lines::new(std::io::stdin().lock(), STDIN_LINE_BYTES);
        Box::new(lines.filter(move |item| !blank(item)))
    } else if let Some(path) = arg.strip_prefix('@') {
        // `@FILE`: every non-empty line of the file, as with stdin.
        match std::fs::File::open(path) {
            Ok(file) => {
                let lines = Lines::new(std::io::BufReader::new(file), STDIN_LINE_BYTES);
                Box::new(lines.filter(move |item| !blank(item)))
            }
            Err(e) => Box::new(std::iter::once(Err(Failure::input(format!(
                "cannot read {path}: {e}"
            ))))),
        }
    } else {
        Box::new(std::iter::once(Ok(Item {
            line: None,
            text: arg.to_string(),
        })))
    }
}

/// One whole input named by `arg`: the argument itself, all of stdin for
/// `-`, or all of a file for `@FILE`. For inputs too large for a command
/// line (a 1000×1000 position, a fast solution of 10⁷ moves), which the
/// shell refuses as an argument. `what` names the input in errors.
pub fn whole(arg: &str, what: &str) -> Result<String, Failure> {
    let text = if arg == "-" {
        read_all(std::io::stdin().lock(), STDIN_LINE_BYTES)?
    } else if let Some(path) = arg.strip_prefix('@') {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::input(format!("{what}: cannot read {path}: {e}")))?;
        read_all(std::io::BufReader::new(file), STDIN_LINE_BYTES)?
    } else {
        return Ok(arg.to_string());
    };
    let text = text.trim();
    if text.is_empty() {
        return Err(Failure::input(format!("{what}: {arg} is empty")));
    }
    Ok(text.to_string())
}

/// The lines of a reader as [`Item`]s, none longer than `limit` bytes.
pub struct Lines<R> {
    reader: R,
    limit: usize,
    line: usize,
    done: bool,
    /// The length of the last line: the next is likely as long, so its
    /// buffer is allocated once at that size instead of grown.
    last: usize,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, each at most `limit` bytes (without its
    /// newline).
    pub fn new(reader: R, limit: usize) -> Lines<R> {
        Lines {
            reader,
            limit,
            line: 0,
            done: false,
            last: 0,
        }
    }

    /// Reads the next line into `bytes`; `false` at the end of the input.
    /// At most one byte past the limit is read before the line is refused.
    fn read(&mut self, bytes: &mut Vec<u8>) -> Result<bool, Failure> {
        let most = self.limit as u64 + 1;
        if (&mut self.reader).take(most).read_until(b'\n', bytes)? == 0 {
            return Ok(false);
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        } else if bytes.len() > self.limit {
            return Err(too_long(self.line, self.limit));
        }
        Ok(true)
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<Item, Failure>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.line += 1;
        let mut bytes = Vec::with_capacity(self.last + 2);
        let read = self.read(&mut bytes).and_then(|more| {
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
            self.last = bytes.len();
            let text = String::from_utf8(bytes)
                .map_err(|_| Failure::input_at(self.line, "the line is not UTF-8 text"))?;
            Ok(more.then_some(text))
        });
        match read {
            Ok(Some(text)) => Some(Ok(Item {
                line: Some(self.line),
                text,
            })),
            Ok(None) => None,
            Err(failure) => {
                self.done = true;
                Some(Err(failure))
            }
        }
    }
}

/// All of `reader` as text, in large blocks, none of its lines longer
/// than `limit` bytes: for inputs parsed as a whole (Shisen-Sho boards,
/// which span lines), where line-by-line strings would only be copied
/// back together.
pub fn read_all(mut reader: impl BufRead, limit: usize) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    // Bytes of the current line read so far.
    let mut run = 0;
    loop {
        let block = reader.fill_buf()?;
        if block.is_empty() {
            break;
        }
        let n = block.len();
        if run + n <= limit {
            // No line can pass the limit in this block: only the length
            // of its last line matters, not every line end.
            run = memchr::memrchr(b'\n', block).map_or(run + n, |at| n - at - 1);
        } else {
            // Where the current line starts in the block.
            let mut start = 0;
            for at in memchr::memchr_iter(b'\n', block) {
                if run + (at - start) > limit {
                    return Err(too_long(line_at(&bytes, &block[..start]), limit));
                }
                run = 0;
                start = at + 1;
            }
            run += n - start;
            if run > limit {
                return Err(too_long(line_at(&bytes, &block[..start]), limit));
            }
        }
        bytes.extend_from_slice(block);
        reader.consume(n);
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        Failure::input_at(line, "the line is not UTF-8 text")
    })
}

/// The number of the line that starts after `read` and `block` (read
/// after it): counted only for an error.
fn line_at(read: &[u8], block: &[u8]) -> usize {
    1 + memchr::memchr_iter(b'\n', read).count() + memchr::memchr_iter(b'\n', block).count()
}

fn too_long(line: usize, limit: usize) -> Failure {
    Failure::input_at(
        line,
        format!(
            "the line is longer than {} MiB, the most a line may hold",
            limit >> 20
        ),
    )
}

impl Item {
    /// An input failure located at this item.
    pub fn failure(&self, message: impl std::fmt::Display) -> Failure {
        match self.line {
            Some(line) => Failure::input_at(line, message),
            None => Failure::input(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8], limit: usize) -> Vec<Result<String, String>> {
        Lines::new(text, limit)
            .map(|item| {
                item.map(|i| i.text).map_err(|e| match e {
                    Failure::Input(message) => message,
                    other => format!("{other:?}"),
                })
            })
            .collect()
    }

    #[test]
    fn lines_end_at_newlines_with_or_without_a_last_one() {
        assert_eq!(
            lines(b"a\nbb\r\n\nc", 8),
            [
                Ok("a".into()),
                Ok("bb".into()),
                Ok(String::new()),
                Ok("c".into())
            ]
        );
        assert_eq!(lines(b"a\n", 8), [Ok("a".to_string())]);
        assert!(lines(b"", 8).is_empty());
    }

    #[test]
    fn a_line_over_the_limit_is_an_error_naming_it_and_ends_the_input() {
        let read = lines(b"12345678\n123456789\nafter\n", 8);
        assert_eq!(
            read[0],
            Ok("12345678".to_string()),
            "exactly the limit is fine"
        );
        let error = read[1].clone().unwrap_err();
        assert!(error.contains("line 2"), "{error}");
        assert_eq!(read.len(), 2, "nothing is read after it");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_an_error_on_their_line() {
        let read = lines(b"ok\n\xff\xfe\n", 8);
        assert!(read[1]
            .clone()
            .unwrap_err()
            .contains("line 2: the line is not UTF-8"));
    }

    fn all(text: &[u8], limit: usize, block: usize) -> Result<String, String> {
        let reader = std::io::BufReader::with_capacity(block, text);
        read_all(reader, limit).map_err(|e| match e {
            Failure::Input(message) => message,
            other => format!("{other:?}"),
        })
    }

    #[test]
    fn read_all_keeps_every_byte_and_bounds_every_line_across_blocks() {
        let text = b"AB\nBA\n\n12345678\nCD\r\nDC";
        for block in [1, 2, 3, 7, 64] {
            assert_eq!(all(text, 8, block).unwrap().as_bytes(), text, "{block}");
            let error = all(b"ok\n\n123456789\nafter", 8, block).unwrap_err();
            assert!(error.contains("line 3"), "{block}: {error}");
            let error = all(b"ok\n123456789", 8, block).unwrap_err();
            assert!(error.contains("line 2"), "{block}: {error}");
            // Lines of exactly the limit, on either side of block ends.
            assert!(all(b"12345678\n12345678\n1\n12345678", 8, block).is_ok());
            let error = all(b"12345678\n1234\n123456789\n1", 8, block).unwrap_err();
            assert!(error.contains("line 3"), "{block}: {error}");
        }
        let error = all(b"ok\nok\n\xff", 8, 4).unwrap_err();
        assert!(error.contains("line 3: the line is not UTF-8"), "{error}");
    }
}
