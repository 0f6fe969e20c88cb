//! The rankings over HTTP: the tier tables an operator gives, pages
//! refused out of range. (What a standing is, from results, is tested
//! where standings are kept: `store::powers`.)

use std::process::Command;

use serde_json::Value;

use crate::common::server::{temp_dir, Server};

const TABLES: &str = include_str!("../../../play/data/power-tiers.json");

#[test]
fn an_empty_ranking_lists_the_tiers_and_nobody() {
    let server = Server::start();
    let mut c = server.client();
    let reply = c.get("/api/rankings");
    assert_eq!(reply.status, 200);
    let body = reply.json();
    assert_eq!(body["players"], Value::Array(vec![]));
    assert_eq!(body["me"], Value::Null);
    let tiers: Vec<&str> = body["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tiers.first(), Some(&"Unranked"));
    assert_eq!(tiers.len(), 24);
    assert!(body["source"].as_str().unwrap().contains("slidysim"));
    let page = c.get("/rankings");
    assert_eq!(page.status, 200);
    assert!(page.text.contains("rankings.js"));
}

#[test]
fn pages_out_of_range_are_refused_naming_what_is_accepted() {
    let server = Server::start();
    let mut c = server.client();
    for (query, named) in [
        ("limit=0", "1 to 100"),
        ("limit=101", "1 to 100"),
        ("offset=100001", "0 to 100000"),
        ("offset=-1", "offset"),
        ("limit=ten", "limit"),
        ("page=2", "page"),
    ] {
        let reply = c.get(&format!("/api/rankings?{query}"));
        assert_eq!(reply.status, 400, "{query}");
        assert!(reply.error().contains(named), "{query}: {}", reply.error());
    }
    assert_eq!(c.get("/api/rankings?offset=100000&limit=100").status, 200);
}

#[test]
fn an_operator_ranks_with_tables_of_their_own() {
    let dir = temp_dir();
    let file = dir.join("tiers.json");
    let renamed = TABLES.replacen("\"Beginner\"", "\"Novice\"", 1);
    std::fs::write(&file, &renamed).unwrap();
    let server = Server::start_with(&["serve", "--tiers", file.to_str().unwrap()], dir);
    let body = server.client().get("/api/rankings").json();
    assert_eq!(body["tiers"][1]["name"], "Novice");
}

#[test]
fn an_operator_ranks_with_the_classic_tables_by_name_or_by_file() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../play/data/power-tiers-gamma.json"
    );
    for tiers in ["gamma", file] {
        let server = Server::start_with(&["serve", "--tiers", tiers], temp_dir());
        let body = server.client().get("/api/rankings").json();
        let names: Vec<&str> = body["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names.get(1), Some(&"Beginner"), "{tiers}");
        assert_eq!(names.last(), Some(&"Gamma"), "{tiers}");
        assert_eq!(names.len(), 13, "{tiers}");
        assert!(
            body["source"].as_str().unwrap().contains("tiersOld"),
            "{tiers}"
        );
    }
}

#[test]
fn tables_that_are_not_tables_stop_the_server_before_it_starts() {
    let dir = temp_dir();
    for (text, named) in [
        (TABLES.replacen("[6500, ", "[", 1), "Beginner"),
        ("not json".to_string(), "not tier tables"),
    ] {
        let file = dir.join("tiers.json");
        std::fs::write(&file, text).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--tiers",
                file.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains(named) && err.contains("--tiers"), "{err}");
    }
    let missing = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["serve", "--tiers", "/nonexistent/tiers.json"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
}
