//! The shape of the code, checked: no import circles between modules, and
//! the layers depend one way only (engines → play → front ends). What a
//! crate boundary already says, Cargo enforces (the store, a crate the
//! front ends depend on, cannot import them; nor the server, the web front
//! end's crate, the binary); this checks what it cannot:
//! circles inside a crate, and which outside crates each layer may use.
//!
//! Modules are read from the source tree; a module's uses are the paths it
//! names from `crate::` or `super::`. A use between two modules is charged
//! to the siblings under their closest common parent (`cli::slide::solve` using
//! `cli::board` is `slide → board` inside `cli`; `tui::x` using `cli::y` is
//! `tui → cli` at the top), and every parent's sibling graph must have no
//! cycle. A child using its parent's items is not a dependency between
//! siblings and is not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every module file under `src` and its path (`cli/slide/solve.rs` →
/// `[cli, slide, solve]`, `cli/mod.rs` → `[cli]`, `main.rs` → `[]`).
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut module: Module = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "main" | "lib")
            ) {
                module.pop();
            }
            found.insert(module, path);
        }
    }
    found
}

/// The paths named after each `crate::` or `super::…::` in `text`,
/// resolved from `module` (`use super::{a, b::C}` names `a` and `b::C`).
fn references(module: &Module, text: &str) -> Vec<Module> {
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let mut base = module.clone();
        let mut at = i;
        if boundary && bytes[i..].starts_with(b"crate::") {
            base.clear();
            at += "crate::".len();
        } else if boundary && bytes[i..].starts_with(b"super::") {
            while bytes[at..].starts_with(b"super::") {
                base.pop();
                at += "super::".len();
            }
        } else {
            i += 1;
            continue;
        }
        let (mut prefix, end) = segments(&code[at..]);
        at += end;
        if code[at..].starts_with('{') {
            let close = code[at..].find('}').map_or(code.len(), |c| at + c);
            for item in code[at + 1..close].split(',') {
                let (more, _) = segments(item.trim());
                let mut target = base.clone();
                target.extend(prefix.iter().cloned());
                target.extend(more);
                found.push(target);
            }
            at = close;
        } else {
            base.append(&mut prefix);
            found.push(base);
        }
        i = at.max(i + 1);
    }
    found
}

/// The identifiers of a path at the start of `text` (`a::b::C` → a, b, C)
/// and where they end (after a trailing `::` before a group).
fn segments(text: &str) -> (Vec<String>, usize) {
    let mut names = Vec::new();
    let mut at = 0;
    loop {
        let end = text[at..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(text.len(), |e| at + e);
        if end == at {
            return (names, at);
        }
        names.push(text[at..end].to_string());
        at = end;
        if !text[at..].starts_with("::") {
            return (names, at);
        }
        at += 2;
    }
}

/// The longest prefix of `target` that is a module.
fn resolve(target: &Module, known: &BTreeMap<Module, PathBuf>) -> Module {
    let mut target = target.clone();
    while !known.contains_key(&target) {
        target.pop();
    }
    target
}

/// For each parent, the dependencies between its children.
fn sibling_graphs(src: &Path) -> BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> {
    let known = modules(src);
    let mut graphs: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (module, path) in &known {
        let text = std::fs::read_to_string(path).unwrap();
        for target in references(module, &text) {
            let target = resolve(&target, &known);
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.len() || common == target.len() {
                continue; // a module and its own ancestor or descendant
            }
            graphs
                .entry(module[..common].to_vec())
                .or_default()
                .entry(module[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    graphs
}

/// A cycle in `graph`, if there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

fn crate_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name)
}

#[test]
fn no_module_imports_another_that_imports_it_back() {
    for name in [
        "tessera", "server", "store", "play", "accounts", "picture", "slide", "shisen", "common",
    ] {
        let src = crate_dir(name).join("src");
        for (parent, graph) in sibling_graphs(&src) {
            if let Some(cycle) = cycle(&graph) {
                panic!(
                    "import circle in {name}::{}: {}",
                    parent.join("::"),
                    cycle.join(" → ")
                );
            }
        }
    }
}

#[test]
fn the_checker_sees_circles_and_siblings() {
    // The check itself, on made-up modules: `a` under `cli` names a
    // sibling's item, its parent's, and another top-level module's.
    let module = |p: &[&str]| p.iter().map(ToString::to_string).collect::<Module>();
    let refs = references(
        &module(&["cli", "a"]),
        "use super::{b::X, Failure};\nuse crate::tui::y; // crate::web",
    );
    assert_eq!(
        refs,
        vec![
            module(&["cli", "b", "X"]),
            module(&["cli", "Failure"]),
            module(&["tui", "y"])
        ]
    );
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycle(&graph),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    graph.remove("b");
    assert_eq!(cycle(&graph), None);
}

/// The crates a package depends on (normal dependencies only).
fn dependencies(name: &str) -> BTreeSet<String> {
    let manifest = std::fs::read_to_string(crate_dir(name).join("Cargo.toml")).unwrap();
    manifest
        .split("\n[")
        .filter(|section| section.starts_with("dependencies]"))
        .flat_map(|section| section.lines().skip(1))
        .filter_map(|line| line.split('=').next())
        .map(|key| key.trim().to_string())
        .filter(|key| !key.is_empty() && !key.starts_with('#'))
        .collect()
}

#[test]
fn layers_depend_one_way() {
    for engine in ["slide", "shisen"] {
        let deps = dependencies(engine);
        for forbidden in [
            "play", "tessera", "axum", "ratatui", "clap", "sqlx", "tokio",
        ] {
            assert!(
                !deps.contains(forbidden),
                "the {engine} engine depends on {forbidden}"
            );
        }
    }
    let play = dependencies("play");
    assert!(
        play.contains("slide") && play.contains("shisen"),
        "{play:?}"
    );
    for front_end in [
        "tessera",
        "axum",
        "ratatui",
        "crossterm",
        "clap",
        "sqlx",
        "tokio",
        "indicatif",
    ] {
        assert!(
            !play.contains(front_end),
            "play depends on the front ends' {front_end}"
        );
        assert!(
            !dependencies("accounts").contains(front_end),
            "accounts depends on the front ends' {front_end}"
        );
        assert!(
            !dependencies("picture").contains(front_end),
            "picture depends on the front ends' {front_end}"
        );
    }
    // The store keeps what the front ends hand it: it serves them all and
    // speaks none of their protocols, nor draws.
    let store = dependencies("store");
    for front_end in [
        "axum",
        "ratatui",
        "crossterm",
        "clap",
        "indicatif",
        "picture",
    ] {
        assert!(
            !store.contains(front_end),
            "the store depends on the front ends' {front_end}"
        );
    }
    // The server speaks HTTP over play and the store: no terminal, no
    // progress bars, and not the binary that starts it (which Cargo would
    // refuse as a cycle anyway).
    let server = dependencies("server");
    for front_end in ["tessera", "ratatui", "crossterm", "indicatif"] {
        assert!(
            !server.contains(front_end),
            "the server depends on the other front ends' {front_end}"
        );
    }
    // SQL is the store's: the server reaches the database through it
    // alone, the race log's notices included.
    assert!(
        !server.contains("sqlx"),
        "the server depends on sqlx: ask the store"
    );
    // Pictures are drawn from engine types alone: no session rules.
    assert!(
        !dependencies("picture").contains("play"),
        "picture depends on play"
    );
    // Accounts are a crate of their own so that what needs none (the
    // Python package, which depends on play) links no password hashing.
    for hashing in ["argon2", "zxcvbn", "accounts"] {
        assert!(!play.contains(hashing), "play depends on {hashing}");
        assert!(
            !dependencies("python").contains(hashing),
            "the Python package depends on {hashing}"
        );
    }
}

/// The parameters of every public function in `text`: (function, name,
/// type), as written.
fn public_parameters(text: &str) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("pub ") {
        let rest = &text[at..];
        let Some(fn_at) = rest.find("fn ") else {
            continue;
        };
        // Only `pub fn` and `pub async fn` (not a `pub` field or type).
        if !matches!(rest[..fn_at].trim(), "pub" | "pub async") {
            continue;
        }
        let signature = &rest[fn_at + 3..];
        let Some(open) = signature.find('(') else {
            continue;
        };
        let name = signature[..open].split('<').next().unwrap().trim();
        // The parameter list: up to the parenthesis that closes it.
        let mut depth = 0;
        let mut close = open;
        for (i, c) in signature[open..].char_indices() {
            match c {
                '(' | '<' | '[' => depth += 1,
                ')' | '>' | ']' if signature[..open + i].ends_with('-') => {}
                ')' | '>' | ']' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                close = open + i;
                break;
            }
        }
        let mut depth = 0;
        let mut current = String::new();
        let mut parameters = Vec::new();
        for c in signature[open + 1..close].chars() {
            match c {
                '(' | '<' | '[' => depth += 1,
                '>' if current.ends_with('-') => {}
                ')' | '>' | ']' => depth -= 1,
                ',' if depth == 0 => {
                    parameters.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
            current.push(c);
        }
        parameters.push(current);
        for parameter in parameters {
            if let Some((pattern, ty)) = parameter.split_once(':') {
                let words = pattern.split_whitespace().collect::<Vec<_>>().join(" ");
                found.push((name.to_string(), words, ty.trim().to_string()));
            }
        }
    }
    found
}

#[test]
fn the_store_takes_the_domains_types_not_their_names() {
    // A game, a format, a control or a display is `play`'s type at the
    // store's boundary: its text is the store's own business (its column
    // form, written once), so no caller spells it.
    let src = crate_dir("store").join("src");
    let mut files = vec![src.clone()];
    let mut checked = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (function, name, ty) in public_parameters(&text) {
            checked += 1;
            let named = ["game", "kind", "format", "control", "display"].contains(&name.as_str());
            assert!(
                !(named && (ty.contains("str") || ty.contains("String"))),
                "{}: {function} takes {name}: {ty}",
                path.display()
            );
        }
    }
    assert!(
        checked > 50,
        "only {checked} parameters read: is the scan broken?"
    );
}

#[test]
fn the_parameter_scan_reads_signatures() {
    let text = "pub async fn records(\n        &self,\n        game: &str,\n        \
                f: impl Fn(&str) -> Result<(), E>,\n    ) -> X {}\n\
                pub(super) fn hidden(game: &str) {}\npub struct S { pub game: String }";
    let found = public_parameters(text);
    assert_eq!(
        found,
        [
            (
                "records".to_string(),
                "game".to_string(),
                "&str".to_string()
            ),
            (
                "records".to_string(),
                "f".to_string(),
                "impl Fn(&str) -> Result<(), E>".to_string()
            )
        ]
    );
}
