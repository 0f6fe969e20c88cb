//! Nothing in a help text is false: every example that a subcommand's
//! `--help` ends with is run, as a user would paste it into a shell, and
//! must succeed.
//!
//! `serve` examples run for a few seconds (a server that is still up when
//! stopped has started fine); `play` examples need a terminal, so they are
//! only parsed (`tests/it/play_tmux.rs` plays the games in tmux).

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

fn help(path: &[String]) -> String {
    let output = Command::new(BIN).args(path).arg("--help").output().unwrap();
    assert!(output.status.success(), "{path:?} --help failed");
    String::from_utf8(output.stdout).unwrap()
}

/// The subcommand names listed under `Commands:` in a help text.
fn subcommands(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every leaf subcommand's path and its examples.
fn examples(path: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    let text = help(path);
    let children = subcommands(&text);
    if children.is_empty() {
        let lines = text
            .lines()
            .skip_while(|line| !line.starts_with("Examples:"))
            .skip(1)
            .filter_map(|line| line.strip_prefix("  "))
            .map(str::to_string)
            .collect();
        out.push((path.join(" "), lines));
    }
    for child in children {
        path.push(child);
        examples(path, out);
        path.pop();
    }
}

/// Runs `example` with bash in `dir`, `tessera` being this build.
fn run(example: &str, dir: &Path) -> std::process::Output {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    Command::new("bash")
        .args(["-o", "pipefail", "-c", example])
        .current_dir(dir)
        .env("PATH", path)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("TESSERA_TABLES", "small")
        .output()
        .unwrap()
}

#[test]
fn every_example_in_every_help_runs() {
    let mut all = Vec::new();
    examples(&mut vec![], &mut all);
    assert!(all.len() > 20, "{} subcommands found", all.len());
    let dir = std::env::temp_dir().join(format!("tessera-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // `serve` first: its examples make the database `admin backup` copies.
    all.sort_by_key(|(path, _)| path != "serve");
    let mut failures = Vec::new();
    for (path, lines) in &all {
        assert!(
            !lines.is_empty(),
            "`tessera {path} --help` shows no example"
        );
        for example in lines {
            assert!(example.starts_with("tessera "), "{path}: {example}");
            let (command, stopped_ok) = if path == "serve" {
                (format!("timeout 3 {example}"), Some(124))
            } else if path.starts_with("play ") {
                (format!("{example} --help"), None)
            } else {
                (example.clone(), None)
            };
            let output = run(&command, &dir);
            let code = output.status.code();
            if !(code == Some(0) || (code.is_some() && code == stopped_ok)) {
                failures.push(format!(
                    "{example}\n  exit {code:?}: {}",
                    String::from_utf8_lossy(&output.stderr).trim()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "examples that fail:\n{}",
        failures.join("\n")
    );
}
