//! A helper program (tesseract, poppler's PDF tools) run on bytes fed to its standard
//! input, bounded in processor time (charged to the image's budget) and in time watched,
//! killed and reaped when it reaches either.

use std::io::{ErrorKind, Read, Write};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::Duration;

use crate::budget::{Budget, process_time};

/// How often a running child is looked at.
const POLL: Duration = Duration::from_millis(10);

/// What one run may take: processor time (at most what is left of the budget), and
/// time watched. Watching is counted in polls rather than by the clock: the time the
/// analysis's process spends stopped by the [`gate`](crate::gate), its child with it,
/// is no stall.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Processor time.
    pub time: Duration,
    /// Time watched.
    pub stall: Duration,
}

/// Why a run gave nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildError {
    /// The program is not installed (or not executable) here.
    Unavailable,
    /// It ran past one of its limits and was killed.
    TimedOut,
    /// It failed, or could not be fed or read.
    Failed,
}

/// What `command` prints given `input`, within `limits` and what is left of `budget`;
/// its processor time is charged to `budget`.
pub fn run(
    command: &mut Command,
    input: Vec<u8>,
    limits: Limits,
    budget: &Budget,
) -> Result<Vec<u8>, ChildError> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|error| match error.kind() {
            ErrorKind::NotFound | ErrorKind::PermissionDenied => ChildError::Unavailable,
            _ => ChildError::Failed,
        })?;
    let limits = Limits {
        time: budget.left().min(limits.time),
        ..limits
    };
    let mut used = Duration::ZERO;
    let output = watch(&mut child, input, limits, &mut used);
    budget.charge(used);
    if output.is_err() {
        // Killing an exited child fails harmlessly; waiting reaps it either way.
        let _ = child.kill();
    }
    let _ = child.wait();
    output
}

/// Feeds `input` to the child and collects what it prints, until it exits or reaches
/// one of its `limits`; `used` is kept at the processor time it was last seen to have
/// used.
fn watch(
    child: &mut Child,
    input: Vec<u8>,
    limits: Limits,
    used: &mut Duration,
) -> Result<Vec<u8>, ChildError> {
    // Writing and reading on their own threads: a child blocked on a full pipe would
    // otherwise never finish reading its input.
    let mut stdin = child.stdin.take().ok_or(ChildError::Failed)?;
    let writer = thread::spawn(move || stdin.write_all(&input));
    let mut stdout = child.stdout.take().ok_or(ChildError::Failed)?;
    let reader = thread::spawn(move || {
        let mut output = Vec::new();
        stdout.read_to_end(&mut output).map(|_| output)
    });
    let mut watched = Duration::ZERO;
    let status = loop {
        // Read before asking whether it exited: once reaped, its time is gone.
        *used = process_time(child.id()).unwrap_or(*used);
        if let Some(status) = child.try_wait().map_err(|_| ChildError::Failed)? {
            break status;
        }
        if *used >= limits.time || watched >= limits.stall {
            return Err(ChildError::TimedOut);
        }
        thread::sleep(POLL);
        watched += POLL;
    };
    // The child has exited, so both pipes are closed and these threads end.
    let _ = writer.join();
    let output = reader
        .join()
        .map_err(|_| ChildError::Failed)?
        .map_err(|_| ChildError::Failed)?;
    if !status.success() {
        return Err(ChildError::Failed);
    }
    Ok(output)
}
