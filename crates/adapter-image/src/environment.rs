//! The environment the analysis's children start with: what a program needs to be found
//! and to run (the search path, the locale, tesseract's data folder, the log filter),
//! never the rest of the server's. The server's environment holds its secrets
//! (`IDV_MASTER_KEY`, `AWS_SECRET_ACCESS_KEY`, the database's URL), and a decoder or
//! tesseract that a hostile image subverts must find none of them.

use std::ffi::{OsStr, OsString};
use std::process::Command;

/// The variables a child is given, when the server has them.
const PASSED: &[&str] = &[
    "PATH",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "TESSDATA_PREFIX",
    "IDV_LOG",
];

/// A command of `program` whose environment is [`PASSED`] of this process's only;
/// variables set on it afterwards are added.
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let mut command = Command::new(program);
    command.env_clear().envs(passed(std::env::vars_os()));
    command
}

/// Of `vars`, those a child is given.
fn passed(
    vars: impl IntoIterator<Item = (OsString, OsString)>,
) -> impl Iterator<Item = (OsString, OsString)> {
    vars.into_iter()
        .filter(|(name, _)| PASSED.iter().any(|passed| name == passed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(name: &str, value: &str) -> (OsString, OsString) {
        (name.into(), value.into())
    }

    #[test]
    fn only_the_search_path_locale_and_tools_settings_pass() {
        let server = [
            pair("PATH", "/usr/bin"),
            pair("IDV_MASTER_KEY", "0f1e"),
            pair("AWS_SECRET_ACCESS_KEY", "secret"),
            pair("IDV_DATABASE_URL", "postgres://u:p@db/idv"),
            pair("TESSDATA_PREFIX", "/usr/share/tessdata"),
            pair("HOME", "/root"),
            pair("LANG", "C.UTF-8"),
        ];
        let names: Vec<OsString> = passed(server).map(|(name, _)| name).collect();
        assert_eq!(names, ["PATH", "TESSDATA_PREFIX", "LANG"]);
    }

    #[test]
    fn a_child_sees_none_of_the_rest() {
        // Cargo gives every test process CARGO_MANIFEST_DIR: the child must not see it.
        assert!(std::env::var_os("CARGO_MANIFEST_DIR").is_some());
        let out = command("sh")
            .args(["-c", "env"])
            .env("OMP_THREAD_LIMIT", "1")
            .output()
            .expect("sh runs");
        let env = String::from_utf8(out.stdout).expect("text");
        assert!(!env.contains("CARGO_MANIFEST_DIR"), "{env}");
        assert!(env.lines().any(|l| l == "OMP_THREAD_LIMIT=1"), "{env}");
        let path = std::env::var("PATH").map(|p| format!("PATH={p}"));
        assert!(path.is_ok_and(|p| env.lines().any(|l| l == p)), "{env}");
    }
}
