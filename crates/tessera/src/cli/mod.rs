//! Command-line front end: argument parsing (clap) and dispatch.
//!
//! Every subcommand returns `Result<(), Failure>`; a [`Failure::Input`] is the
//! user's to fix and exits with code 2, anything else exits with code 1.

/// `println!` for command output: a failed write (a closed pipe,
/// `tessera … | head`) ends the command through [`Failure::Io`], which a
/// closed pipe turns into a quiet success, instead of a panic.
macro_rules! outln {
    () => {
        outln!("")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::failure::Failure::io)?
    }};
}

/// `print!` for command output; see [`outln`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*).map_err($crate::failure::Failure::io)?
    }};
}

mod admin;
mod duration;
mod seeds;
mod shisen;
mod slide;
mod tables;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

use crate::failure::Failure;

/// The jobs of a batch command: `--jobs` when given, else one per core.
/// Answers come out in input order however many run, so using every core
/// costs the user nothing.
fn jobs_or_cores(jobs: Option<u32>) -> usize {
    jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get().min(256)),
        |n| n as usize,
    )
}

/// The threads a batch command answers on: `jobs` of them.
fn pool(jobs: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Failure::Other(e.to_string()))
}

/// Writes a picture or other output to `path`, or to standard output
/// for `-`.
fn write_output(path: &str, bytes: &[u8]) -> Result<(), Failure> {
    use std::io::Write;
    if path == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()?;
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|e| Failure::Other(format!("cannot write {path}: {e}")))
}

#[derive(Parser)]
#[command(name = "tessera", version, about = "Tile puzzles: the sliding puzzle and Shisen-Sho", long_about = None)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand tessera serves the web app, so `tessera --addr …`
    /// works like `tessera serve --addr …`.
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// The sliding puzzle (15 puzzle) of any width × height.
    #[command(subcommand)]
    Slide(slide::SlideCommand),
    /// Shisen-Sho: deal boards, find paths, list moves, solve.
    #[command(subcommand)]
    Shisen(shisen::ShisenCommand),
    /// Play in the terminal: `play slide` or `play shisen`.
    #[command(subcommand)]
    Play(crate::tui::PlayCommand),
    /// Play both games in the browser (the default with no subcommand).
    #[command(after_help = examples!(
        "tessera serve --addr 127.0.0.1:0 --db records.db",
        "tessera serve --addr 127.0.0.1:0 --db records.db --header-timeout 5s --max-connections 2000",
    ))]
    Serve(ServeArgs),
    /// What an operator runs beside the server: `admin backup`, `admin users`.
    #[command(subcommand)]
    Admin(admin::AdminCommand),
    /// The help and a small demonstration puzzle.
    #[command(after_help = examples!(
        "tessera demo",
        "tessera demo | head -3",
    ))]
    Demo,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "TESSERA_ADDR", default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// The records' database: a SQLite file (or sqlite:PATH), created on
    /// first run, or a PostgreSQL URL postgres://user:pass@host:port/db
    /// (the database is created if the user may).
    #[arg(long, env = "DATABASE_URL", default_value = "tessera.db", value_parser = parse_database)]
    db: store::Database,
    /// Most database connections this instance opens.
    #[arg(long, env = "TESSERA_DB_CONNECTIONS", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=512))]
    db_connections: u32,
    /// How long a request waits for a database connection, and SQLite for
    /// its write lock, before it is answered 503 (500ms, 1s; a bare number
    /// is seconds): an unreachable or stuck database fails requests fast
    /// instead of piling them up.
    #[arg(long, env = "TESSERA_DB_TIMEOUT", default_value = "1", value_parser = duration::seconds)]
    db_timeout: std::time::Duration,
    /// How long a client has to send a request's headers (10s, 500ms; a
    /// bare number is seconds); also the longest a kept-alive connection
    /// may stay idle. Protects against clients that open connections and
    /// send slowly or nothing (slowloris).
    #[arg(long, env = "TESSERA_HEADER_TIMEOUT", default_value = "10", value_parser = duration::seconds)]
    header_timeout: std::time::Duration,
    /// Most client connections open at once; beyond it new connections get
    /// a 503 at once while open ones are served. Protects the process from
    /// running out of file descriptors (lowered to fit the open files
    /// limit, which is raised to its hard maximum at start-up).
    #[arg(long, env = "TESSERA_MAX_CONNECTIONS", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,
    /// Most connections open at once from one client address (with
    /// --trust-proxy: requests in flight per client the balancer names).
    /// Protects everyone else from one client taking every connection.
    #[arg(long, env = "TESSERA_MAX_CONNECTIONS_PER_CLIENT", default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections_per_client: u64,
    /// Log lines as text or one JSON object each (levels: RUST_LOG).
    #[arg(long, env = "TESSERA_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: server::LogFormat,
    /// Solver requests (solve, hint, check) a second per client address;
    /// a burst of twice that is allowed, beyond it 429.
    #[arg(long, env = "TESSERA_SOLVER_RATE", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    solver_rate: u32,
    /// Race rooms one client address may open a minute (all at once if it
    /// likes); beyond it 429. Each room is memory and a timer on every
    /// instance that serves it.
    #[arg(long, env = "TESSERA_RACE_RATE", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    race_rate: u32,
    /// How often race sockets are pinged. A socket that sends nothing, not
    /// even the pong, for three of these is dropped, so a dead connection
    /// does not hold a seat or a room (its racer may still come back
    /// within 30 s). Seconds, or a duration as `500ms`.
    #[arg(long, env = "TESSERA_RACE_PING", default_value = "15", value_parser = duration::seconds)]
    race_ping: std::time::Duration,
    /// Tell clients apart by the X-Forwarded-For / X-Real-IP header a load
    /// balancer sets (only behind one: clients could forge it otherwise).
    #[arg(long, env = "TESSERA_TRUST_PROXY")]
    trust_proxy: bool,
    /// Mark the session cookie Secure (only sent over HTTPS): for a site
    /// served over TLS. Behind --trust-proxy it is also set on any request
    /// the balancer forwards with X-Forwarded-Proto: https.
    #[arg(long, env = "TESSERA_SECURE_COOKIES")]
    secure_cookies: bool,
    /// Seconds a request may take before it is answered 503.
    #[arg(long, env = "TESSERA_REQUEST_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    request_timeout: u64,
    /// Seconds in-flight requests may finish after SIGTERM or SIGINT.
    #[arg(long, env = "TESSERA_SHUTDOWN_GRACE", default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=3600))]
    shutdown_grace: u64,
    /// The optimal solver's 4x4 tables. large: the small 6-6-3 set first
    /// (about a second), then the 7-8 set (288 MB; about two minutes on
    /// two cores the first time, then loaded from the cache) built in the
    /// background after start-up, each hint using the strongest set ready.
    /// small: the small set only (hints are still optimal, slower to find).
    #[arg(long, env = "TESSERA_TABLES", default_value = "large", value_parser = parse_tables)]
    tables: ::slide::HeuristicKind,
    /// Directory of the pattern-database cache [default: $XDG_CACHE_HOME/tessera].
    #[arg(long, env = "TESSERA_CACHE_DIR")]
    cache_dir: Option<std::path::PathBuf>,
    /// Tier tables for the rankings: `current` (the default, Open
    /// Slidysim's), `gamma` (its classic tables, Beginner to Gamma), or a
    /// JSON file shaped like crates/play/data/power-tiers.json. Players'
    /// powers are computed again with them at start-up.
    #[arg(long, env = "TESSERA_TIERS", value_parser = parse_tiers, value_name = "current|gamma|FILE")]
    tiers: Option<std::sync::Arc<play::power::Tables>>,
    /// Share race rooms between instances over a Redis server, the
    /// live-play bus (redis://HOST:PORT): moves go through it, and the
    /// database keeps only results, ratings and replays. It must answer
    /// at start-up, or the server does not start. Without it, rooms are
    /// shared through PostgreSQL, or held by the one instance on SQLite.
    #[arg(long, env = "TESSERA_BUS", value_parser = parse_bus, value_name = "redis://HOST:PORT")]
    bus: Option<String>,
}

/// Built-in tier tables by name, or tables from a file, checked whole
/// before the server starts.
fn parse_tiers(path: &str) -> Result<std::sync::Arc<play::power::Tables>, String> {
    if let Some(tables) = play::power::Tables::named(path) {
        return Ok(std::sync::Arc::new(tables));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    play::power::Tables::parse(&text)
        .map(std::sync::Arc::new)
        .map_err(|e| format!("{path}: {e}"))
}

fn parse_tables(text: &str) -> Result<::slide::HeuristicKind, String> {
    match text.parse() {
        Ok(kind @ (::slide::HeuristicKind::Small | ::slide::HeuristicKind::Large)) => Ok(kind),
        _ => Err(format!("unknown tables {text:?}: use large or small")),
    }
}

/// A metric flag: `stm` or `mtm`.
fn parse_metric(s: &str) -> Result<::slide::Metric, String> {
    s.parse()
}

/// A Redis URL, checked before the server starts.
fn parse_bus(text: &str) -> Result<String, String> {
    redis::Client::open(text)
        .map(|_| text.to_string())
        .map_err(|e| format!("not a Redis URL ({e}): use redis://HOST:PORT"))
}

fn parse_database(text: &str) -> Result<store::Database, String> {
    text.parse()
}

/// Runs the command line: parses the arguments, does what they ask, and
/// returns the exit code (0 success, 2 bad input, 1 anything else).
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Slide(command)) => slide::run(command),
        Some(Command::Shisen(command)) => shisen::run(command),
        Some(Command::Play(command)) => crate::tui::run(command),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Admin(command)) => admin::run(command),
        Some(Command::Demo) => demo(),
        None => serve(cli.serve),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// Starts the web server (the `server` crate).
fn serve(args: ServeArgs) -> Result<(), Failure> {
    let config = server::Config {
        addr: args.addr,
        database: args.db,
        connections: args.db_connections,
        db_timeout: args.db_timeout,
        limits: server::Limits {
            header_timeout: args.header_timeout,
            max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
            max_per_client: usize::try_from(args.max_connections_per_client).unwrap_or(usize::MAX),
        },
        log_format: args.log_format,
        solver_rate: args.solver_rate,
        race_rate: args.race_rate,
        race_ping: args.race_ping,
        trust_proxy: args.trust_proxy,
        secure_cookies: args.secure_cookies,
        request_timeout: std::time::Duration::from_secs(args.request_timeout),
        shutdown_grace: std::time::Duration::from_secs(args.shutdown_grace),
        tiers: args.tiers,
        clock: server::Clock::from_env(),
        bus: args.bus,
    };
    install_solver(args.tables, args.cache_dir);
    server::serve(config).map_err(|e| Failure::Other(e.to_string()))
}

/// The games' solver for this server: the small tables first, then
/// `tables` if stronger, built in the background (the server starts on
/// the default 4x4 game's at once, other boards' when first dealt).
fn install_solver(tables: ::slide::HeuristicKind, cache_dir: Option<std::path::PathBuf>) {
    use play::slide_game::Solver;
    use play::tables::TableConfig;
    let config = TableConfig {
        heuristic: ::slide::HeuristicKind::Small,
        cache_dir,
    };
    let solver = Solver::new(config).with_upgrade(tables).on_ready(|ready| {
        // A gauge per set ready, for the operator's dashboard.
        // The gauge's label is the set's name in lower case.
        let name = ready.tables.to_string();
        let tables = name.to_lowercase();
        metrics::gauge!(
            "tessera_pattern_databases_ready",
            "size" => ready.size.to_string(),
            "tables" => tables,
        )
        .set(1.0);
        tracing::info!(
            size = %ready.size,
            goal_blank = ready.goal_blank,
            tables = %name,
            seconds = ready.took.as_secs_f64(),
            built = ready.built,
            "pattern databases ready"
        );
    });
    Solver::install(solver);
}

/// The help and a small demonstration.
fn demo() -> Result<(), Failure> {
    use clap::CommandFactory;
    Cli::command().print_help().map_err(Failure::io)?;
    outln!();
    slide::demo()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every leaf subcommand, by its path of names.
    fn leaves(
        command: &clap::Command,
        path: &mut Vec<String>,
        out: &mut Vec<(String, clap::Command)>,
    ) {
        let subcommands: Vec<_> = command
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .collect();
        if subcommands.is_empty() {
            out.push((path.join(" "), command.clone()));
        }
        for sub in subcommands {
            path.push(sub.get_name().to_string());
            leaves(sub, path, out);
            path.pop();
        }
    }

    #[test]
    fn every_argument_has_a_description() {
        let mut all = Vec::new();
        leaves(&super::Cli::command(), &mut Vec::new(), &mut all);
        let mut bare = Vec::new();
        for (path, command) in &all {
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if ["help", "version"].contains(&id) {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    bare.push(format!("{path}: {id}"));
                }
            }
        }
        assert!(
            bare.is_empty(),
            "arguments without a description: {bare:#?}"
        );
    }

    #[test]
    fn every_subcommand_ends_its_help_with_examples() {
        let mut all = Vec::new();
        leaves(&super::Cli::command(), &mut Vec::new(), &mut all);
        let without: Vec<&str> = all
            .iter()
            .filter(|(_, c)| {
                !c.get_after_help()
                    .is_some_and(|h| h.to_string().starts_with("Examples:"))
            })
            .map(|(path, _)| path.as_str())
            .collect();
        assert!(without.is_empty(), "no examples in --help: {without:?}");
    }
}
