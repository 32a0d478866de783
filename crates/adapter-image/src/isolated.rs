//! The analysis of one image in a process of its own (`idv analyse`): the image on its
//! standard input, what is wanted of it as arguments, the [`ImageReport`] as JSON on its
//! standard output.
//!
//! Two things only a process gives: the [`gate`](crate::gate) can stop the work outright
//! while the API needs every core (a thread inside a decoder cannot be paused), and an
//! image that crashes a decoder or exhausts memory ends that process, not the server; it
//! is reported unreadable. The process inherits the analysis thread's idle class and
//! nice value, and starts tesseract as its own child, in its process group.
//!
//! The kernel bounds it, not only its own clock, which is read between stages and cannot
//! stop a decoder that never returns: the process [`confine`]s itself as it starts
//! (processor time, address space, first in line for the OOM killer), and the server
//! kills its whole group once it has run past [`DEADLINE`] (time the gate held it
//! stopped, or the machine had no core to spare, not counted), then reaps it.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use domain::verification::{ImageReport, Wanted};

use rustix::process::{Pid, Resource, Rlimit, Signal, kill_process_group, setrlimit};

use crate::Analyser;
use crate::environment;
use crate::gate::{self, Admitted};
use crate::idle::Idle;

/// How long an analysis process may run, counting only the time the machine had a core
/// to spare for it ([`Idle`]) and the gate did not hold it stopped: its budget of
/// processor time ([`crate::TIME_BUDGET`]) three times over, for the waits on tesseract.
/// Past it, its group is killed.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// How long an analysis process may last by the clock, whatever the load: a machine kept
/// busy for this long by others ends it too, so that its quiz is answered.
pub const CEILING: Duration = Duration::from_secs(600);

/// How often a running analysis's time is counted.
const TICK: Duration = Duration::from_millis(50);

/// Processor time an analysis process may use beyond its budget before the kernel
/// signals it (`SIGXCPU`), and again before it kills it: its own clock ends the work
/// at the budget, between stages.
const CPU_MARGIN: u64 = 5;

/// The address space an analysis process may map: a 50-megapixel image decoded, its
/// copies and the face models fit many times over.
const ADDRESS_SPACE: u64 = 4 << 30;

/// How to start the analysis of one image: a program and the arguments that make it
/// call [`serve`], to which the wanted readings' flags ([`flags`]) are added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisCommand {
    program: PathBuf,
    args: Vec<OsString>,
    deadline: Duration,
}

impl AnalysisCommand {
    /// `program` with `args`.
    pub fn new(
        program: impl Into<PathBuf>,
        args: impl IntoIterator<Item = impl Into<OsString>>,
    ) -> Self {
        Self {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            deadline: DEADLINE,
        }
    }

    /// The same with another deadline.
    pub fn with_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// The report on `image` from a process of its own, under the gate; `None` (logged)
    /// when the process could not be started, did not answer, or ran past its deadline
    /// (its group killed).
    pub fn analyse(&self, image: &[u8], wanted: Wanted) -> Option<ImageReport> {
        let mut child = environment::command(&self.program)
            .args(&self.args)
            .args(flags(wanted))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // Its own group, so that its tesseract is stopped with it.
            .process_group(0)
            .spawn()
            .inspect_err(|error| tracing::warn!(%error, "image analysis not started"))
            .ok()?;
        let gated = Admitted::new(child.id());
        let (finished, deadline) = (mpsc::channel(), self.deadline);
        let (done, waiting) = finished;
        let leader = Pid::from_raw(i32::try_from(child.id()).unwrap_or(0));
        let watchdog = std::thread::Builder::new()
            .name("idv-analysis-deadline".into())
            .spawn(move || watch(leader, deadline, &waiting));
        let mut answer = Vec::new();
        // The process reads all of the image before it writes: no deadlock. A process
        // that died early closes its input; what it said (nothing) is judged below.
        let exchanged = child
            .stdin
            .take()
            .map_or(Ok(()), |mut input| input.write_all(image))
            .and_then(|()| {
                child
                    .stdout
                    .take()
                    .map_or(Ok(0), |mut output| output.read_to_end(&mut answer))
            });
        // The answer is in, or the process closed its output (it ended, or was killed).
        let _ = done.send(());
        let killed = watchdog.is_ok_and(|w| w.join().unwrap_or(false));
        drop(gated);
        let status = child.wait();
        if killed {
            tracing::warn!(
                deadline_s = deadline.as_secs(),
                "image analysis past its deadline: killed"
            );
            return None;
        }
        match (exchanged, status) {
            (Ok(_), Ok(status)) if status.success() => serde_json::from_slice(&answer)
                // What it said is not logged: it may be what a document says.
                .inspect_err(|_| tracing::warn!("image analysis answered unreadably"))
                .ok(),
            (_, status) => {
                tracing::warn!(?status, "image analysis failed");
                None
            }
        }
    }
}

/// Counts the running time of the analysis group led by `leader` (not while the gate
/// holds the analyses stopped, nor while the machine has no core to spare) until
/// `finished` says it ended, or kills the group once that time passes `deadline`, or
/// [`CEILING`] passes by the clock; whether it killed it.
fn watch(leader: Option<Pid>, deadline: Duration, finished: &mpsc::Receiver<()>) -> bool {
    let started = Instant::now();
    let mut running = Duration::ZERO;
    let mut machine = Idle::now();
    while running < deadline && started.elapsed() < CEILING {
        match finished.recv_timeout(TICK) {
            Err(RecvTimeoutError::Timeout) => {
                let now = Idle::now();
                if now.had_spare_core_since(&machine) && !gate::holding() {
                    running += TICK;
                }
                machine = now;
            }
            _ => return false,
        }
    }
    let Some(group) = leader else {
        return false;
    };
    // A stopped group takes SIGKILL as it is; the leader is reaped by its waiter.
    if let Err(error) = kill_process_group(group, Signal::KILL) {
        tracing::debug!(%error, "analysis group not killed: it had ended");
        return false;
    }
    true
}

/// Bounds this process, an `idv analyse`, by the kernel: its processor time a little
/// past the analysis's `budget` (`SIGXCPU`, then `SIGKILL`), its address space to
/// [`ADDRESS_SPACE`], and first in line when the machine runs out of memory
/// (`oom_score_adj` 1000), so that a hostile image ends this process, never the
/// server. Tesseract, its child, inherits the limits. A bound that cannot be set is
/// logged and the analysis goes on under the others.
pub fn confine(budget: Duration) {
    let cpu = budget.as_secs() + CPU_MARGIN;
    for (resource, soft, hard) in [
        (Resource::Cpu, cpu, cpu + CPU_MARGIN),
        (Resource::As, ADDRESS_SPACE, ADDRESS_SPACE),
    ] {
        let limit = Rlimit {
            current: Some(soft),
            maximum: Some(hard),
        };
        if let Err(error) = setrlimit(resource, limit) {
            tracing::warn!(%error, ?resource, "analysis process limit not set");
        }
    }
    if let Err(error) = std::fs::write("/proc/self/oom_score_adj", "1000") {
        tracing::warn!(%error, "analysis process not marked first for the OOM killer");
    }
}

/// The arguments saying what is wanted of an image, read back by [`Wanted`]'s fields in
/// `idv analyse`.
pub fn flags(wanted: Wanted) -> impl Iterator<Item = &'static str> {
    [
        (wanted.barcode, "--barcode"),
        (wanted.mrz, "--mrz"),
        (wanted.faces, "--faces"),
        (wanted.text, "--text"),
    ]
    .into_iter()
    .filter_map(|(on, flag)| on.then_some(flag))
}

/// `idv analyse`: the report on the image read from `input`, as JSON on `output`.
pub fn serve(
    analyser: &Analyser,
    wanted: Wanted,
    mut input: impl Read,
    mut output: impl Write,
) -> io::Result<()> {
    let mut image = Vec::new();
    input.read_to_end(&mut image)?;
    let report = analyser.analyse(&image, wanted);
    serde_json::to_writer(&mut output, &report)?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_name_what_is_wanted() {
        let wanted = Wanted {
            barcode: true,
            mrz: false,
            faces: true,
            text: false,
        };
        assert_eq!(flags(wanted).collect::<Vec<_>>(), ["--barcode", "--faces"]);
        let text = Wanted {
            text: true,
            ..Wanted::default()
        };
        assert_eq!(flags(text).collect::<Vec<_>>(), ["--text"]);
        assert_eq!(flags(Wanted::default()).count(), 0);
    }

    #[test]
    fn a_process_that_fails_or_answers_nonsense_gives_no_report() {
        let image = b"not an image";
        let dies = AnalysisCommand::new("sh", ["-c", "cat > /dev/null; exit 3"]);
        assert_eq!(dies.analyse(image, Wanted::default()), None);
        let garbles = AnalysisCommand::new("sh", ["-c", "cat > /dev/null; echo '{nonsense'"]);
        assert_eq!(garbles.analyse(image, Wanted::default()), None);
        let absent = AnalysisCommand::new("/nonexistent/idv", ["analyse"]);
        assert_eq!(absent.analyse(image, Wanted::default()), None);
    }

    #[test]
    fn a_process_that_never_answers_is_killed_at_its_deadline_and_reaped() {
        // It reads the image, starts a child in its group (as tesseract is), says which,
        // and never answers.
        let folder = tempfile::tempdir().expect("a folder");
        let said = folder.path().join("child");
        let script = format!(
            "cat > /dev/null; sleep 600 & echo $! > '{}'; wait",
            said.display()
        );
        let hangs = AnalysisCommand::new("sh", ["-c", script.as_str()])
            .with_deadline(Duration::from_millis(300));
        assert_eq!(hangs.analyse(b"image", Wanted::default()), None);
        // Its child went with it: gone, or a zombie left to whoever reaps orphans here.
        // A signal is delivered on the process's way back to user space: its state is
        // watched until it shows, for ten seconds at most.
        let child = std::fs::read_to_string(&said).expect("the child's id");
        let state = || {
            std::fs::read_to_string(format!("/proc/{}/stat", child.trim()))
                .ok()
                .and_then(|stat| {
                    Some(
                        stat.rsplit_once(')')?
                            .1
                            .split_whitespace()
                            .next()?
                            .to_owned(),
                    )
                })
        };
        let ended = |state: Option<String>| state.as_deref().is_none_or(|s| s == "Z");
        let watched = std::time::Instant::now();
        while !ended(state()) && watched.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(ended(state()), "the group's sleep is {:?}", state());
    }

    #[test]
    fn the_watchdog_kills_only_past_the_deadline_and_not_a_group_that_ended() {
        let (done, finished) = mpsc::channel();
        done.send(()).expect("sent");
        assert!(
            !watch(None, Duration::from_secs(60), &finished),
            "ended first"
        );
        let (_done, never) = mpsc::channel::<()>();
        let mut child = std::process::Command::new("sleep")
            .arg("600")
            .process_group(0)
            .spawn()
            .expect("sleep runs");
        let leader = Pid::from_raw(i32::try_from(child.id()).expect("a pid"));
        assert!(watch(leader, Duration::from_millis(100), &never), "killed");
        let status = child.wait().expect("reaped");
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(9),
            "SIGKILL"
        );
    }

    #[test]
    fn a_report_comes_back_as_the_process_wrote_it() {
        let report = ImageReport::unreadable(Wanted {
            barcode: true,
            mrz: true,
            faces: true,
            text: true,
        });
        let json = serde_json::to_string(&report).expect("json");
        let echoes = AnalysisCommand::new(
            "sh",
            [
                "-c".to_owned(),
                format!("cat > /dev/null; printf '%s' '{json}'"),
            ],
        );
        assert_eq!(echoes.analyse(b"image", Wanted::default()), Some(report));
    }
}
