//! Stand-ins for the programs the service runs (tesseract, pg_dump...): a script that
//! keeps what the kernel shows of it in `/proc` (its command line, its environment and
//! its parent's) and then runs the real program with the same arguments.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// What a spy kept of its last run.
pub struct Seen {
    /// Its arguments, one a line.
    pub cmdline: String,
    /// Its environment, one variable a line.
    pub environ: String,
    /// Its parent's environment (the process that started it), one variable a line.
    pub parent_environ: String,
    /// Its parent's resource limits, as `/proc/PID/limits` shows them.
    pub parent_limits: String,
    /// Its parent's `oom_score_adj`.
    pub parent_oom_score_adj: String,
}

/// Writes a spy of `tool` (the one found on the test's search path) into `folder`;
/// returns its path.
pub fn spy(folder: &Path, tool: &str) -> PathBuf {
    let real = std::process::Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .expect("sh runs");
    let real = String::from_utf8(real.stdout).expect("a path");
    assert!(!real.trim().is_empty(), "{tool} is installed");
    // `$$` is the shell's process, which `exec` turns into the real tool.
    let script = format!(
        "#!/bin/sh\n\
         tr '\\0' '\\n' < /proc/$$/cmdline > '{dir}/{tool}.cmdline'\n\
         tr '\\0' '\\n' < /proc/$$/environ > '{dir}/{tool}.environ'\n\
         tr '\\0' '\\n' < /proc/$PPID/environ > '{dir}/{tool}.parent'\n\
         cat /proc/$PPID/limits > '{dir}/{tool}.parent-limits'\n\
         cat /proc/$PPID/oom_score_adj > '{dir}/{tool}.parent-oom'\n\
         exec {real} \"$@\"\n",
        dir = folder.display(),
        real = real.trim(),
    );
    let path = folder.join(tool);
    std::fs::write(&path, script).expect("written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    path
}

/// What the spy of `tool` in `folder` kept; panics when it never ran.
pub fn seen(folder: &Path, tool: &str) -> Seen {
    let read = |what: &str| {
        std::fs::read_to_string(folder.join(format!("{tool}.{what}")))
            .unwrap_or_else(|e| panic!("{tool} ran through its spy: {e}"))
    };
    Seen {
        cmdline: read("cmdline"),
        environ: read("environ"),
        parent_environ: read("parent"),
        parent_limits: read("parent-limits"),
        parent_oom_score_adj: read("parent-oom"),
    }
}
