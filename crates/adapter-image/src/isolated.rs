//! The analysis of one image in a process of its own (`idv analyse`): the image on its
//! standard input, what is wanted of it as arguments, the [`ImageReport`] as JSON on its
//! standard output.
//!
//! Two things only a process gives: the [`gate`](crate::gate) can stop the work outright
//! while the API needs every core (a thread inside a decoder cannot be paused), and an
//! image that crashes a decoder or exhausts memory ends that process, not the server; it
//! is reported unreadable. The process inherits the analysis thread's idle class and
//! nice value, and starts tesseract as its own child, in its process group.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Stdio;

use domain::verification::{ImageReport, Wanted};

use crate::Analyser;
use crate::environment;
use crate::gate::Admitted;

/// How to start the analysis of one image: a program and the arguments that make it
/// call [`serve`], to which the wanted readings' flags ([`flags`]) are added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisCommand {
    program: PathBuf,
    args: Vec<OsString>,
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
        }
    }

    /// The report on `image` from a process of its own, under the gate; `None` (logged)
    /// when the process could not be started or did not answer.
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
        drop(gated);
        let status = child.wait();
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

/// The arguments saying what is wanted of an image, read back by [`Wanted`]'s fields in
/// `idv analyse`.
pub fn flags(wanted: Wanted) -> impl Iterator<Item = &'static str> {
    [
        (wanted.barcode, "--barcode"),
        (wanted.mrz, "--mrz"),
        (wanted.faces, "--faces"),
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
        };
        assert_eq!(flags(wanted).collect::<Vec<_>>(), ["--barcode", "--faces"]);
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
    fn a_report_comes_back_as_the_process_wrote_it() {
        let report = ImageReport::unreadable(Wanted {
            barcode: true,
            mrz: true,
            faces: true,
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
