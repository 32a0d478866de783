//! Tesseract, run as a subprocess on one image, bounded in processor time: what it read,
//! glyph by glyph, with each glyph's box (the MRZ reader needs the boxes: tesseract's
//! English model misreads the `<` filler, whose box gives it away).

use std::path::PathBuf;
use std::time::Duration;

use image::GrayImage;

use crate::bounded::{self, ChildError, Limits};
use crate::budget::Budget;
use crate::environment;

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

/// How tesseract parts ink from paper (its `thresholding_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ink {
    /// One level for the whole page (Otsu's): sharp on a page evenly lit, and fast.
    OneLevel = 0,
    /// A level for each neighbourhood (Sauvola's): where light falls off across the
    /// page, one level takes the dim part for ink and tesseract finds no text in it. It
    /// takes twice as long and, on pages evenly lit, misreads more.
    Local = 2,
}

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
        let whitelist = format!("tessedit_char_whitelist={MRZ_ALPHABET}");
        let text = self.run(image, &["--psm", "6", "-c", &whitelist, "makebox"], budget)?;
        Ok(parse_boxes(&text, image.height()))
    }

    /// The text of a page (a bill, a statement), its blocks found by tesseract
    /// (`--psm 3`), in reading order, with how sure tesseract is of it, its ink parted
    /// from its paper as `ink` says; bounded as [`Self::glyphs`] is.
    pub fn page_text(
        &self,
        image: &GrayImage,
        ink: Ink,
        budget: &Budget,
    ) -> Result<PageText, OcrError> {
        let method = format!("thresholding_method={}", ink as u8);
        let tsv = self.run(image, &["--psm", "3", "-c", &method, "tsv"], budget)?;
        Ok(PageText::of_tsv(&tsv))
    }

    /// What tesseract prints for `image` in English with `args`.
    fn run(&self, image: &GrayImage, args: &[&str], budget: &Budget) -> Result<String, OcrError> {
        let mut png = Vec::new();
        image
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .map_err(|_| OcrError::Failed)?;
        let mut command = environment::command(&self.command);
        command
            .args(["stdin", "stdout", "-l", "eng"])
            .args(args)
            // One thread: the machine's cores are shared by the jobs, and on small
            // images OpenMP costs more than it gains.
            .env("OMP_THREAD_LIMIT", "1");
        let limits = Limits {
            time: TIME_LIMIT,
            stall: self.stall_limit,
        };
        let output =
            bounded::run(&mut command, png, limits, budget).map_err(|error| match error {
                ChildError::Unavailable => OcrError::Unavailable,
                ChildError::TimedOut => OcrError::TimedOut,
                ChildError::Failed => OcrError::Failed,
            })?;
        String::from_utf8(output).map_err(|_| OcrError::Failed)
    }
}

/// A page as tesseract read it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageText {
    /// Its lines, a blank line between blocks.
    pub text: String,
    /// How sure tesseract is that it read words: the sum, over the words of three letters
    /// or more, of its confidence in each (0 to 1). A page read upside down gives as
    /// many "words", of marks and fragments, each with little confidence.
    pub words: f32,
}

impl PageText {
    /// Tesseract's TSV (`level page block paragraph line word left top width height
    /// confidence text`), its words put back in lines.
    fn of_tsv(tsv: &str) -> Self {
        let mut page = Self::default();
        let mut at = None;
        for row in tsv.lines().skip(1) {
            let fields: Vec<&str> = row.split('\t').collect();
            let [
                _,
                _,
                block,
                paragraph,
                line,
                _,
                _,
                _,
                _,
                _,
                confidence,
                word,
            ] = fields[..]
            else {
                continue;
            };
            let (Ok(confidence), word) = (confidence.parse::<f32>(), word.trim()) else {
                continue;
            };
            if word.is_empty() || confidence < 0.0 {
                continue;
            }
            let here = (block, paragraph, line);
            match at {
                Some((b, _, _)) if b != block => page.text.push_str("\n\n"),
                Some(previous) if previous != here => page.text.push('\n'),
                Some(_) => page.text.push(' '),
                None => {}
            }
            at = Some(here);
            page.text.push_str(word);
            if word.chars().count() >= 3 && word.chars().all(char::is_alphabetic) {
                page.words += confidence / 100.0;
            }
        }
        page
    }
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
    fn a_pages_words_are_put_back_in_lines_and_weighed_by_confidence() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
                   4\t1\t1\t1\t1\t0\t0\t0\t9\t9\t-1\t\n\
                   5\t1\t1\t1\t1\t1\t0\t0\t9\t9\t96.0\tNORTHWIND\n\
                   5\t1\t1\t1\t1\t2\t0\t0\t9\t9\t90.0\tENERGY\n\
                   5\t1\t1\t1\t2\t1\t0\t0\t9\t9\t80.0\t75201\n\
                   5\t1\t2\t1\t1\t1\t0\t0\t9\t9\t20.0\taBueyd\n";
        let page = PageText::of_tsv(tsv);
        assert_eq!(page.text, "NORTHWIND ENERGY\n75201\n\naBueyd");
        assert!((page.words - 2.06).abs() < 1e-4, "{}", page.words);
    }

    #[test]
    fn a_missing_command_is_unavailable_not_an_error() {
        let ocr = Ocr::new("/nonexistent/tesseract");
        let image = GrayImage::new(10, 10);
        let budget = Budget::start(Duration::from_secs(1));
        assert_eq!(ocr.glyphs(&image, &budget), Err(OcrError::Unavailable));
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
