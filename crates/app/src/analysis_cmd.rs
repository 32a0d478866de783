//! The image analysis: built for `idv serve`, which runs each image in a process of its
//! own, and `idv analyse`, that process.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;

use adapter_image::Analyser;
use adapter_image::isolated::{self, AnalysisCommand};
use anyhow::Context;
use clap::ValueEnum;
use domain::verification::Wanted;

use crate::cli::{AnalysisArgs, LogArgs};

/// `idv serve`'s analysis: the face models read here (to know whether faces are
/// matched), each image analysed by this same program as `idv analyse`.
pub fn for_the_server(args: &AnalysisArgs, log: &LogArgs) -> anyhow::Result<Analyser> {
    let analyser =
        Analyser::new(Some(args.tesseract.clone())).with_face_models(args.face_models.as_deref());
    let program = std::env::current_exe().context("finding this program, to analyse images")?;
    let mut command: Vec<OsString> = vec![
        "analyse".into(),
        "--log".into(),
        log.log.clone().into(),
        "--log-format".into(),
        log_format(log).into(),
        "--tesseract".into(),
        args.tesseract.clone().into(),
    ];
    // Only models this server could read: the process would warn about the others at
    // every image.
    if let Some(models) = args
        .face_models
        .as_ref()
        .filter(|_| analyser.matches_faces())
    {
        command.extend(["--face-models".into(), models.clone().into()]);
    }
    Ok(analyser.in_processes(AnalysisCommand::new(program, command)))
}

fn log_format(log: &LogArgs) -> String {
    log.log_format
        .to_possible_value()
        .map(|value| value.get_name().to_owned())
        .unwrap_or_default()
}

/// `idv analyse`: the report on the image on standard input, on standard output.
pub fn run(wanted: Wanted, tesseract: PathBuf, face_models: Option<PathBuf>) -> anyhow::Result<()> {
    isolated::confine(adapter_image::TIME_BUDGET);
    let analyser = Analyser::new(Some(tesseract));
    // The models are read only for an image whose faces are wanted, and only when the
    // server gave them (it gives only models it could read).
    let analyser = match face_models.filter(|_| wanted.faces) {
        Some(models) => analyser.with_face_models(Some(&models)),
        None => analyser,
    };
    isolated::serve(&analyser, wanted, io::stdin().lock(), io::stdout().lock())
        .context("analysing the image on standard input")
}
