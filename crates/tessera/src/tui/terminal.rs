//! Terminal setup and restore: raw mode, the alternate screen and mouse
//! reports on the way in; everything undone on the way out — on a normal
//! exit, on an error (the guard's `Drop`) and on a panic (a hook that
//! restores the terminal before the panic message is printed, so the
//! message is readable and the shell is usable).

use crossterm::{
    cursor,
    event::{DisableMouseCapture, EnableMouseCapture},
    execute,
    terminal::{self, EnterAlternateScreen, LeaveAlternateScreen},
};
use ratatui::{backend::CrosstermBackend, Terminal};
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

/// Whether play mode is on. Restoring twice would be harmful: leaving the
/// alternate screen a second time moves the cursor back over what was
/// printed since (a panic's message, say).
static ACTIVE: AtomicBool = AtomicBool::new(false);

pub type Tty = Terminal<CrosstermBackend<Stdout>>;

/// The terminal in play mode; restores it when dropped.
pub struct Session {
    pub terminal: Tty,
}

impl Session {
    pub fn start() -> io::Result<Session> {
        install_panic_hook();
        ACTIVE.store(true, Ordering::SeqCst);
        terminal::enable_raw_mode().inspect_err(|_| restore())?;
        let mut stdout = io::stdout();
        if let Err(e) = execute!(stdout, EnterAlternateScreen, EnableMouseCapture) {
            restore();
            return Err(e);
        }
        let terminal = Terminal::new(CrosstermBackend::new(stdout)).inspect_err(|_| restore())?;
        Ok(Session { terminal })
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves play mode, once (later calls do nothing). Safe when setup was
/// only partly done: each step is undone regardless, errors ignored (there
/// is no better terminal left to report them on).
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = terminal::disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}

/// Chains a hook that restores the terminal before the default one prints.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}
