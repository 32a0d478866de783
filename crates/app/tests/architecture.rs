//! The workspace's shape, read from `cargo metadata` rather than claimed: dependencies
//! point inward (docs/ARCHITECTURE.md). The domain and the matcher are pure (their
//! dependencies an allow-list of libraries doing no I/O), no adapter builds on another,
//! only the binary wires adapters, and `anyhow` stays in the binary.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

/// What the domain may depend on: rules, types and text, no I/O, no image, no database.
const DOMAIN_ALLOWED: [&str; 12] = [
    "async-trait",
    "garde",
    "ipnet",
    "regex",
    "screening",
    "secrecy",
    "serde",
    "strum",
    "thiserror",
    "time",
    "unicode-normalization",
    "unicode-properties",
];

/// What the name matcher may depend on: text and dates.
const SCREENING_ALLOWED: [&str; 6] = [
    "deunicode",
    "isocountry",
    "ring",
    "rphonetic",
    "strsim",
    "time",
];

/// The crates that wire adapters together: the binary alone.
const WIRING: &str = "app";

/// Each workspace crate's normal (not dev, not build) dependencies, by crate.
fn workspace() -> BTreeMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .args(["--manifest-path", manifest])
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|package| {
            let normal = package["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().expect("a name").to_owned())
                .collect();
            (package["name"].as_str().expect("a name").to_owned(), normal)
        })
        .collect()
}

fn is_adapter(name: &str) -> bool {
    name.starts_with("adapter-")
}

#[test]
fn the_domain_and_the_matcher_depend_only_on_their_allow_lists() {
    let crates = workspace();
    for (name, allowed) in [
        ("domain", &DOMAIN_ALLOWED[..]),
        ("screening", &SCREENING_ALLOWED[..]),
    ] {
        let outside: Vec<&String> = crates[name]
            .iter()
            .filter(|d| !allowed.contains(&d.as_str()))
            .collect();
        assert!(outside.is_empty(), "{name} depends on {outside:?}");
    }
}

#[test]
fn no_adapter_builds_on_another_and_only_the_binary_wires_them() {
    let crates = workspace();
    assert!(crates.keys().filter(|n| is_adapter(n)).count() >= 4);
    for (name, dependencies) in &crates {
        let adapters: Vec<&String> = dependencies.iter().filter(|d| is_adapter(d)).collect();
        assert!(
            name == WIRING || adapters.is_empty(),
            "{name} depends on {adapters:?}"
        );
        assert!(
            !dependencies.iter().any(|d| d == WIRING),
            "{name} depends on the binary"
        );
    }
}

#[test]
fn anyhow_is_the_binarys_alone() {
    let crates = workspace();
    let using: Vec<&String> = crates
        .iter()
        .filter(|(name, dependencies)| {
            *name != WIRING && dependencies.iter().any(|d| d == "anyhow")
        })
        .map(|(name, _)| name)
        .collect();
    assert!(using.is_empty(), "{using:?} use anyhow");
}
