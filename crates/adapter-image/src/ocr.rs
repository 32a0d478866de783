//! Tesseract, run as a subprocess on one image, bounded in processor time: what it read,
//! glyph by glyph, with each glyph's box (the MRZ reader needs the boxes: tesseract's
//! English model misreads the `<` filler, whose box gives it away).

use std::io::{ErrorKind, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::Duration;

use image::GrayImage;

use crate::budget::{Budget, process_time};

/// The characters an MRZ is made of; tesseract is told to read nothing else.
const MRZ_ALPHABET: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<";

/// The most processor time one run may take, whatever is left of the caller's budget.
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// How long a run may last, working or not: only a run that is stuck (or a machine that
/// has left no core idle for this long) reaches it. A run waiting for a core uses no
/// processor time, so without this a stuck one would never be stopped. Counted in the
/// watcher's polls rather than by the clock: the time the analysis's process spends
/// stopped by the [`gate`](crate::gate), its tesseract with it, is no stall.
pub const STALL_LIMIT: Duration = Duration::from_secs(300);

/// How often a running tesseract is looked at.
const POLL: Duration = Duration::from_millis(10);

/// How to run tesseract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ocr {
    command: PathBuf,
    stall_limit: Duration,
}

impl Default for Ocr {
    fn default() -> Self {
        Self::new("tesseract")
    }
}

/// One character tesseract read, and where: pixels, origin at the top left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glyph {
    /// What it was read as.
    pub symbol: char,
    /// Left edge.
    pub left: i32,
    /// Top edge.
    pub top: i32,
    /// Right edge (exclusive).
    pub right: i32,
    /// Bottom edge (exclusive).
    pub bottom: i32,
}

impl Glyph {
    /// Its height.
    pub fn height(&self) -> i32 {
        self.bottom - self.top
    }

    /// Its horizontal centre.
    pub fn centre_x(&self) -> f32 {
        (self.left + self.right) as f32 / 2.0
    }

    /// Its vertical centre.
    pub fn centre_y(&self) -> f32 {
        (self.top + self.bottom) as f32 / 2.0
    }
}

/// Why there is no reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OcrError {
    /// The command is not installed (or not executable) here.
    Unavailable,
    /// It ran past its time limit (or stalled) and was killed.
    TimedOut,
    /// It failed or answered something unreadable.
    Failed,
}

impl Ocr {
    /// Tesseract run as `command` (a name looked up on the `PATH`, or a path).
    pub fn new(command: impl Into<PathBuf>) -> Self {
        Self {
            command: command.into(),
            stall_limit: STALL_LIMIT,
        }
    }

    /// The same, killing a run that lasts `limit` by the clock instead of [`STALL_LIMIT`].
    pub fn with_stall_limit(mut self, limit: Duration) -> Self {
        self.stall_limit = limit;
        self
    }

    /// The MRZ characters tesseract finds in `image`, one text block of uniform lines
    /// (`--psm 6`), killed once its processor time spends what is left of `budget` or
    /// [`TIME_LIMIT`], whichever is less; its time is charged to `budget`.
    pub fn glyphs(&self, image: &GrayImage, budget: &Budget) -> Result<Vec<Glyph>, OcrError> {
        let mut png = Vec::new();
        image
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .map_err(|_| OcrError::Failed)?;
        let whitelist = format!("tessedit_char_whitelist={MRZ_ALPHABET}");
        let mut child = Command::new(&self.command)
            .args([
                "stdin", "stdout", "-l", "eng", "--psm", "6", "-c", &whitelist, "makebox",
            ])
            // One thread: the machine's cores are shared by the jobs, and on small
            // images OpenMP costs more than it gains.
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| match error.kind() {
                ErrorKind::NotFound | ErrorKind::PermissionDenied => OcrError::Unavailable,
                _ => OcrError::Failed,
            })?;
        let limits = Limits {
            time: budget.left().min(TIME_LIMIT),
            stall: self.stall_limit,
        };
        let mut used = Duration::ZERO;
        let output = run(&mut child, png, limits, &mut used);
        budget.charge(used);
        if output.is_err() {
            // Killing an exited child fails harmlessly; waiting reaps it either way.
            let _ = child.kill();
        }
        let _ = child.wait();
        let text = output?;
        Ok(parse_boxes(&text, image.height()))
    }
}

/// What one run may take: processor time, and time watched.
#[derive(Debug, Clone, Copy)]
struct Limits {
    time: Duration,
    stall: Duration,
}

/// Feeds `png` to the child and collects what it prints, until it exits or reaches one of
/// its `limits`; `used` is kept at the processor time it was last seen to have used.
fn run(
    child: &mut Child,
    png: Vec<u8>,
    limits: Limits,
    used: &mut Duration,
) -> Result<String, OcrError> {
    // Writing and reading on their own threads: a child blocked on a full pipe would
    // otherwise never finish reading its input.
    let mut stdin = child.stdin.take().ok_or(OcrError::Failed)?;
    let writer = thread::spawn(move || stdin.write_all(&png));
    let mut stdout = child.stdout.take().ok_or(OcrError::Failed)?;
    let reader = thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let mut watched = Duration::ZERO;
    let status = loop {
        // Read before asking whether it exited: once reaped, its time is gone.
        *used = process_time(child.id()).unwrap_or(*used);
        if let Some(status) = child.try_wait().map_err(|_| OcrError::Failed)? {
            break status;
        }
        if *used >= limits.time || watched >= limits.stall {
            return Err(OcrError::TimedOut);
        }
        thread::sleep(POLL);
        watched += POLL;
    };
    // The child has exited, so both pipes are closed and these threads end.
    let _ = writer.join();
    let text = reader
        .join()
        .map_err(|_| OcrError::Failed)?
        .map_err(|_| OcrError::Failed)?;
    if !status.success() {
        return Err(OcrError::Failed);
    }
    Ok(text)
}

/// Tesseract's box format, `symbol left bottom right top page` a line with the origin at
/// the bottom left, turned to [`Glyph`]s.
fn parse_boxes(text: &str, height: u32) -> Vec<Glyph> {
    let height = height as i32;
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let mut symbols = fields.next()?.chars();
            let symbol = symbols.next().filter(|_| symbols.next().is_none())?;
            let mut number = || fields.next()?.parse::<i32>().ok();
            let (left, bottom, right, top) = (number()?, number()?, number()?, number()?);
            Some(Glyph {
                symbol,
                left,
                top: height - top,
                right,
                bottom: height - bottom,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    #[test]
    fn boxes_turn_to_glyphs_from_the_top() {
        let glyphs = parse_boxes("P 54 149 73 178 0\n< 82 152 102 177 0\nbad line\n", 200);
        assert_eq!(glyphs.len(), 2);
        assert_eq!(
            glyphs[0],
            Glyph {
                symbol: 'P',
                left: 54,
                top: 22,
                right: 73,
                bottom: 51
            }
        );
        assert_eq!(glyphs[1].height(), 25);
    }

    #[test]
    fn a_missing_command_is_unavailable_not_an_error() {
        let ocr = Ocr::new("/nonexistent/tesseract");
        let image = GrayImage::new(10, 10);
        let budget = Budget::start(Duration::from_secs(1));
        assert_eq!(ocr.glyphs(&image, &budget), Err(OcrError::Unavailable));
    }

    #[test]
    fn tesseract_reads_printed_capitals_with_their_boxes() {
        let font = fixtures::passport::ocrb_font().expect("the OCR-B font (fonts-ocr-b)");
        let mut image = GrayImage::from_pixel(400, 80, image::Luma([255]));
        imageproc::drawing::draw_text_mut(
            &mut image,
            image::Luma([0]),
            20,
            20,
            40.0,
            &font,
            "AB<12",
        );
        let budget = Budget::start(TIME_LIMIT);
        let glyphs = Ocr::default()
            .glyphs(&image, &budget)
            .expect("tesseract is installed");
        let text: String = glyphs.iter().map(|g| g.symbol).collect();
        assert!(text.starts_with("AB"), "{text}");
        assert!(glyphs.iter().all(|g| g.top >= 10 && g.bottom <= 70));
        // Its run is charged to the budget: tesseract takes tens of milliseconds at least.
        assert!(
            budget.spent() >= Duration::from_millis(10),
            "{:?}",
            budget.spent()
        );
    }

    /// An executable script standing in for tesseract (`sleep stdin ...` would fail at
    /// once), in a folder of its own; the folder goes with the returned guard.
    fn fake_tesseract(body: &str) -> (PathBuf, TempFolder) {
        let dir =
            std::env::temp_dir().join(format!("idv-ocr-{}-{}", std::process::id(), body.len()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let script = dir.join("tesseract.sh");
        std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).expect("a script");
        let mut permissions = std::fs::metadata(&script).expect("metadata").permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        std::fs::set_permissions(&script, permissions).expect("executable");
        (script, TempFolder(dir))
    }

    struct TempFolder(PathBuf);

    impl Drop for TempFolder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_run_that_works_past_the_budget_is_killed_and_charged() {
        let (script, _dir) = fake_tesseract("while :; do :; done");
        let budget = Budget::start(Duration::from_millis(300));
        let result = Ocr::new(&script).glyphs(&GrayImage::new(10, 10), &budget);
        assert_eq!(result, Err(OcrError::TimedOut));
        assert!(budget.is_spent(), "{:?}", budget.spent());
    }

    #[test]
    fn a_run_that_waits_is_not_charged_until_it_stalls() {
        // Waiting uses no processor time, so the budget never stops it: the watch does.
        let (script, _dir) = fake_tesseract("exec sleep 30");
        let budget = Budget::start(Duration::from_millis(300));
        let started = Instant::now();
        let result = Ocr::new(&script)
            .with_stall_limit(Duration::from_secs(1))
            .glyphs(&GrayImage::new(10, 10), &budget);
        assert_eq!(result, Err(OcrError::TimedOut));
        // `sleep` would have ended well, with nothing read: TimedOut says it was killed.
        assert!(started.elapsed() >= Duration::from_secs(1));
        assert!(!budget.is_spent(), "{:?}", budget.spent());
    }
}
