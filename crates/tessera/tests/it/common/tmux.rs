//! The real binary in a real terminal: a tmux pane, driven by keys and
//! read back from the screen.
//!
//! Needs tmux; `scripts/test` installs it. Without tmux these tests fail
//! rather than skip, so a missing terminal cannot pass unnoticed.

use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A private tmux server (its own socket) holding one 80 × 24 pane, killed
/// on drop.
pub struct Pane {
    socket: String,
}

impl Pane {
    /// Runs `command` in a fresh pane; after it exits the pane reports the
    /// exit status and the terminal modes, then idles so they can be read.
    pub fn start(name: &str, args: &str) -> Pane {
        let socket = format!("tessera-test-{name}-{}", std::process::id());
        let binary = env!("CARGO_BIN_EXE_tessera");
        let script = format!(
            "{binary} {args}; echo \"exit=$?\"; echo \"modes: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e -icanon -e icanon -e -echo -e echo | tr '\\n' ' ')\"; sleep 60"
        );
        let pane = Pane { socket };
        let out = pane.tmux(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "sh",
            "-c",
            &script,
        ]);
        assert!(
            out.status.success(),
            "tmux new-session failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        pane
    }

    pub fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux must be installed to run the terminal tests (apt-get install -y tmux)")
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        assert!(self.tmux(&args).status.success());
    }

    pub fn screen(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-t", "0"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `#{alternate_on} #{mouse_any_flag}` and the like.
    pub fn format(&self, format: &str) -> String {
        let out = self.tmux(&["display-message", "-p", "-t", "0", format]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Waits (up to 20 s) for the screen to satisfy `ready`.
    pub fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "timed out waiting for {what}; the screen:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// The numbers inside the Board box, row by row, blank omitted.
pub fn slide_tiles(screen: &str) -> Vec<u32> {
    screen
        .lines()
        .filter_map(|line| {
            let mut parts = line.split('│');
            parts.next()?;
            parts.next()
        })
        .flat_map(|inside| inside.split_whitespace().map(|n| n.parse::<u32>().unwrap()))
        .collect()
}

/// The arrow key that moves a tile in `direction`.
fn arrow(direction: slide::Direction) -> &'static str {
    match direction {
        slide::Direction::Up => "Up",
        slide::Direction::Down => "Down",
        slide::Direction::Left => "Left",
        slide::Direction::Right => "Right",
    }
}

/// Presses the arrow of every move, a few at a time.
pub fn press(pane: &Pane, moves: &slide::Moves) {
    let keys: Vec<&str> = moves.iter().map(arrow).collect();
    for chunk in keys.chunks(20) {
        pane.keys(chunk);
    }
}
