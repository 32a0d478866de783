//! The machine-readable zone (ICAO 9303 TD3 passports, TD1 and TD2 cards): found by tesseract
//! in the bottom of the page, rebuilt cell by cell (OCR-B is monospaced), parsed and
//! checked by the `mrz` crate.
//!
//! A photo is levelled first (its text's turn measured over the whole circle), then the
//! zone's band found ([`band`]) and read alone, as it is and upside down; only when no
//! band reads is the levelled photo read by its bottom shares as before.
//!
//! Tesseract's English model reads the `<` filler as `K`, `X` or `E`, or as two
//! glyphs, and drops or adds some, so its text alone does not give 44 cells. The boxes
//! do: every cell is one pitch wide, and a filler is shorter than the capitals and
//! digits around it. What no check digit covers (names, issuer, nationality, sex) is
//! taken loosely; the check digits carry the proof of the rest.

use std::cell::Cell;
use std::time::Duration;

use domain::verification::{DocumentRead, MrzReading, ReadSource};
use image::GrayImage;
use image::imageops::{self, FilterType};
use time::{Date, Month, OffsetDateTime};

use crate::budget::Budget;
use crate::{deskew, light};

mod band;
mod shapes;

/// The widths a band is read at, in turn while its check digits fail (see
/// [`ATTEMPTS`] on why the scale matters).
const BAND_READS: [Read; 4] = [
    Read {
        width: 2750,
        evened: false,
    },
    Read {
        width: 2750,
        evened: true,
    },
    Read {
        width: 2200,
        evened: false,
    },
    Read {
        width: 3300,
        evened: false,
    },
];

/// How a part of a page is given to tesseract.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Read {
    /// The width it is scaled to.
    width: u32,
    /// Whether its light is made even first ([`light::evened`]): that reads a zone under a
    /// shadow, and loses some under heavy noise that the grey levels keep.
    evened: bool,
}

/// The processor time the zone is looked for, tesseract's included. A zone that reads
/// reads within about 4 s (the corpus's slowest); a photo whose zone was never found
/// spent its whole 20 s reading a table's texture.
const SEARCH_TIME: Duration = Duration::from_secs(6);

/// The most runs of tesseract one page gets (each 0.2-0.6 s): the 3 s a photo may take.
const MAX_READS: usize = 8;

/// The most of those the bands get: the rest are the page's bottom shares', which read
/// zones (a card's three lines of 30 among them) that no band cut out well.
const MAX_BAND_READS: usize = 6;
use crate::ocr::{Glyph, Ocr, OcrError};

/// Where the zone is looked for and at what scale, in turn until its check digits hold:
/// the share of the page's height from the bottom (100: the whole page), and the width
/// that part is scaled to. Tesseract misreads small glyphs, and which single digit it
/// misreads changes with the scale: on the fixture page, JPEG q85 (1375 px) read right
/// at 2750 and wrong at 2600; blurred with sigma 3, wrong at 2750, 2200 and 3300, right
/// at 1800. A zone across 2750 px has glyphs about 55 px tall. The bottom half is for a
/// page photographed with a margin around it, whose zone the bottom 30 % cuts.
const ATTEMPTS: [(u32, u32); 6] = [
    (30, 2750),
    (50, 2750),
    (30, 2200),
    (30, 3300),
    (30, 1800),
    (100, 2750),
];

/// The most pixels an image is scaled up to for tesseract (a 2750 x 2900 page).
const READ_PIXELS: f64 = 8_000_000.0;

/// A glyph under this share of the zone's digits' height is a `<` filler, whatever it
/// was read as. Measured on OCR-B: capitals and digits 29 px, fillers 25 px (0.86).
const FILLER_HEIGHT: f32 = 0.88;

/// A line whose letters stand this much of the digits' height is measured by its own
/// ([`line_scale`]): over it, the difference is a pixel's rounding; under it, fillers
/// read as letters outnumber the letters.
const SHORT_LINE: std::ops::Range<f32> = 0.8..0.95;

/// A line of fewer glyphs is no zone's (a TD1 line has 30 cells, some fillers dropped).
const MIN_GLYPHS: usize = 20;

/// A glyph under this share of its line's usual width is a fragment of its neighbour.
const FRAGMENT_WIDTH: f32 = 0.6;

/// A glyph over this share of its line's usual width is a box tesseract drew over
/// several cells.
const WIDE: f32 = 1.5;

/// The most cells of marks beside a zone line that tesseract may read into it (the
/// edge of a card, a table's stripes), at either end.
const EDGE_CELLS: usize = 3;

/// A box taller than this share of the digits' height holds more than glyphs.
const TALLEST: f32 = 1.2;

/// A line of more cells is no zone's (a TD3 line has 44).
const MAX_CELLS: usize = 50;

/// The fewest measures (steps between glyphs, digits' heights) a line is fitted to.
const MIN_STEPS_TO_FIT: usize = 8;

/// The zone in `page` (grey levels), levelled when it is turned: in the bands where a
/// zone may be ([`band`]), levelled by their own turn, then upside down, then as cut,
/// as [`BAND_READS`] says while check digits fail, at the likeliest turn and then at the
/// next ones ([`deskew::skews`]); then the page levelled by the turn where something like
/// a zone was found, else the likeliest, as [`ATTEMPTS`] says, the whole page only when
/// nothing like a zone was found before. At most [`MAX_READS`] runs of tesseract.
pub fn read_mrz(page: &GrayImage, ocr: &Ocr, budget: &Budget) -> MrzReading {
    let budget = &budget.narrowed(SEARCH_TIME);
    let turns = deskew::skews(page);
    let mut found = MrzReading::NotFound;
    let reads = Cell::new(0);
    let read = |part: &GrayImage, how: Read, most: usize| {
        if reads.get() >= most.min(MAX_READS) || budget.is_spent() {
            return Step::Stop;
        }
        reads.set(reads.get() + 1);
        match read_in(part, how, ocr, budget) {
            Ok(None) => Step::Blank,
            Ok(Some(MrzReading::Read(read))) => Step::Answer(Box::new(MrzReading::Read(read))),
            Ok(Some(MrzReading::CheckDigitInvalid)) => Step::Invalid,
            Ok(Some(MrzReading::NotFound | MrzReading::OcrUnavailable)) => Step::Nothing,
            Err(OcrError::Unavailable) => Step::Answer(Box::new(MrzReading::OcrUnavailable)),
            Err(OcrError::TimedOut | OcrError::Failed) => Step::Stop,
        }
    };
    // The page levelled by its likeliest turn, then by the next likeliest while nothing
    // like a zone was found, each turn's bands with their own share of the runs. The
    // page's bottom shares are read at the turn where something like a zone was found,
    // else at the likeliest.
    let mut zone_turn: Option<Option<GrayImage>> = None;
    for &degrees in &turns {
        if found != MrzReading::NotFound {
            break;
        }
        let most = reads.get() + MAX_BAND_READS;
        let levelled = deskew::levelled(page, degrees);
        let turned = levelled.as_ref().unwrap_or(page);
        for band in band::bands(turned) {
            // The zone's own turn, left after the page's (keystone), and upside down;
            // then the band as cut, for that measure can be off (seed 27: a card on a
            // striped table, its band turned a degree too far).
            let uprights = match deskew::residual_skew(&band) {
                0.0 => {
                    let band = band::without_table(&band);
                    let upside_down = imageops::rotate180(&band);
                    vec![band, upside_down]
                }
                degrees => {
                    let turned = band::without_table(&deskew::turned_back(&band, degrees));
                    let upside_down = imageops::rotate180(&turned);
                    vec![turned, upside_down, band::without_table(&band)]
                }
            };
            // A band whose grey levels hold no line of text (a shadow across it) holds
            // none at another width or turned either: it is read evened from then on.
            let mut grey_blank = false;
            'band: for upright in &uprights {
                let mut done: Vec<Read> = Vec::with_capacity(BAND_READS.len());
                for how in BAND_READS {
                    let how = Read {
                        evened: how.evened || grey_blank,
                        ..how
                    };
                    if done.contains(&how) {
                        continue;
                    }
                    done.push(how);
                    match read(upright, how, most) {
                        Step::Answer(answer) => return *answer,
                        // Out of band reads: the page's bottom shares may still read.
                        Step::Stop => break,
                        Step::Invalid => found = MrzReading::CheckDigitInvalid,
                        // No line of text even with the light evened: the edge of a
                        // page on a cloth, say, and no zone upside down either.
                        Step::Blank if how.evened => break 'band,
                        // Nothing like a zone, in grey levels and evened: none at
                        // another width either.
                        Step::Nothing if how.evened => break,
                        Step::Blank => grey_blank = true,
                        Step::Nothing => {}
                    }
                }
            }
        }
        if zone_turn.is_none() || found != MrzReading::NotFound {
            zone_turn = Some(levelled);
        }
    }
    let levelled = zone_turn.flatten();
    let page = levelled.as_ref().unwrap_or(page);
    let (width, height) = page.dimensions();
    for (share, read_width) in ATTEMPTS {
        if share == 100 && found != MrzReading::NotFound {
            break;
        }
        let top = height - height * share / 100;
        let part = imageops::crop_imm(page, 0, top, width, height - top).to_image();
        let how = Read {
            width: read_width,
            evened: false,
        };
        match read(&part, how, MAX_READS) {
            Step::Answer(answer) => return *answer,
            Step::Stop => break,
            Step::Invalid => found = MrzReading::CheckDigitInvalid,
            Step::Nothing | Step::Blank => {}
        }
    }
    found
}

/// What one run of tesseract came to.
enum Step {
    /// The search ends with this.
    Answer(Box<MrzReading>),
    /// Out of runs, time or tesseract: the search ends with what it found so far.
    Stop,
    /// A zone whose check digits fail.
    Invalid,
    /// Lines of text, nothing like a zone.
    Nothing,
    /// No line of text at all.
    Blank,
}

/// `image` scaled and read `how` says: `None` when it holds no line of text at all.
fn read_in(
    image: &GrayImage,
    how: Read,
    ocr: &Ocr,
    budget: &Budget,
) -> Result<Option<MrzReading>, OcrError> {
    // Too small to hold a zone (and to scale: a zero side would not).
    if image.width() < 30 || image.height() < 10 {
        return Ok(None);
    }
    // At most READ_PIXELS: a tall photo read whole at the zone's width would be huge.
    let (have_width, have_height) = (f64::from(image.width()), f64::from(image.height()));
    let width = f64::from(how.width).min((READ_PIXELS * have_width / have_height).sqrt());
    let height = (have_height * width / have_width).max(1.0);
    let image = imageops::resize(image, width as u32, height as u32, FilterType::CatmullRom);
    let image = if how.evened {
        light::evened(&image)
    } else {
        image
    };
    let mut glyphs = ocr.glyphs(&image, budget)?;
    let shapes = shapes::shapes();
    shapes.settle(&image, &mut glyphs);
    let classify = |piece: &Glyph| shapes.classify(&image, piece);
    let lines = cells(glyphs, &classify);
    Ok((!lines.is_empty()).then(|| zone(&lines)))
}

/// The lines of glyphs, each rebuilt as its cells: fillers recognised by their height,
/// fragments merged into their cell, a box tesseract drew over several cells split and
/// each part told by `classify`, empty cells taken as fillers.
fn cells(glyphs: Vec<Glyph>, classify: &dyn Fn(&Glyph) -> char) -> Vec<String> {
    let digit_height = median(
        glyphs
            .iter()
            .filter(|g| g.symbol.is_ascii_digit())
            .map(Glyph::height),
    );
    let Some(digit_height) = digit_height.or_else(|| median(glyphs.iter().map(Glyph::height)))
    else {
        return Vec::new();
    };
    let lines: Vec<Vec<Glyph>> = lines(glyphs, digit_height as f32)
        .into_iter()
        .filter(|line| line.len() >= MIN_GLYPHS)
        .collect();
    // The digits' height along the zone: a page photographed at a slant (keystone) has
    // glyphs up to an eighth smaller at its far end, more than a filler is shorter than
    // a digit, so each glyph is weighed against the digits' height where it stands.
    let digits: Vec<(f32, f32)> = lines
        .iter()
        .flatten()
        .filter(|g| g.symbol.is_ascii_digit())
        .map(|g| (g.centre_x(), g.height() as f32))
        .collect();
    let digit_height =
        median_f32(digits.iter().map(|&(_, height)| height)).unwrap_or(digit_height as f32);
    let height_at = fitted_along(&digits, digit_height);
    lines
        .iter()
        .filter_map(|line| {
            let scale = line_scale(line, &height_at);
            line_cells(line, &|x| height_at(x) * scale, classify)
        })
        .collect()
}

/// How tall `line`'s own letters and digits stand against the digits' height where each
/// stands (the upper quartile, for fillers misread as letters are short), when that is
/// clearly short of it ([`SHORT_LINE`]), else 1. OCR-B's letters lack the digits' round
/// overshoot, and a name line has no digits of its own: seed 27 read a name line's
/// letters at 0.9 of the number line's digits, and its D, at 0.875, was taken for a
/// filler. 1 too when the line has too few letters and digits to say.
fn line_scale(line: &[Glyph], height_at: &dyn Fn(f32) -> f32) -> f32 {
    let mut ratios: Vec<f32> = line
        .iter()
        .filter(|g| g.symbol.is_ascii_alphanumeric())
        .map(|g| g.height() as f32 / height_at(g.centre_x()))
        .collect();
    if ratios.len() < MIN_STEPS_TO_FIT {
        return 1.0;
    }
    ratios.sort_by(f32::total_cmp);
    match ratios[ratios.len() * 3 / 4] {
        short if SHORT_LINE.contains(&short) => short,
        _ => 1.0,
    }
}

/// Glyphs grouped into lines by their vertical centre, top to bottom, each left to right.
fn lines(mut glyphs: Vec<Glyph>, digit_height: f32) -> Vec<Vec<Glyph>> {
    glyphs.sort_by(|a, b| a.centre_y().total_cmp(&b.centre_y()));
    let mut lines: Vec<Vec<Glyph>> = Vec::new();
    for glyph in glyphs {
        match lines.last_mut() {
            Some(line) if (glyph.centre_y() - mean_centre_y(line)).abs() < digit_height / 2.0 => {
                line.push(glyph)
            }
            _ => lines.push(vec![glyph]),
        }
    }
    for line in &mut lines {
        line.sort_by(|a, b| a.centre_x().total_cmp(&b.centre_x()));
    }
    lines
}

fn mean_centre_y(line: &[Glyph]) -> f32 {
    line.iter().map(Glyph::centre_y).sum::<f32>() / line.len().max(1) as f32
}

/// One line's cells, or `None` when it is too short to be part of a zone.
fn line_cells(
    line: &[Glyph],
    height_at: &dyn Fn(f32) -> f32,
    classify: &dyn Fn(&Glyph) -> char,
) -> Option<String> {
    if line.len() < MIN_GLYPHS {
        return None;
    }
    let usual_width = median(line.iter().map(|g| g.right - g.left))?;
    let placed = cell_numbers(line, usual_width, height_at)?;
    let mut best: Vec<Option<(char, i32)>> = Vec::new();
    let mut filler: Vec<bool> = Vec::new();
    let mut put = |cell: usize, symbol: char, width: i32, is_filler: bool| {
        if cell >= MAX_CELLS {
            return;
        }
        if best.len() <= cell {
            best.resize(cell + 1, None);
            filler.resize(cell + 1, false);
        }
        filler[cell] |= is_filler;
        if best[cell].is_none_or(|(_, widest)| width > widest) {
            best[cell] = Some((symbol, width));
        }
    };
    // Tesseract gave up on a run of cells (the fillers before a zone's last digits, most
    // often, or its first two letters) and drew one box over them: how many.
    let spans = |glyph: &Glyph, pitch: f32| {
        let width = glyph.right - glyph.left;
        (width as f32 > usual_width as f32 * WIDE)
            .then(|| 1 + ((width - usual_width) as f32 / pitch).round().max(1.0) as i64)
    };
    // A box before the first whole glyph that runs into it, as tall as glyphs, holds the
    // line's first cells (seed 27: a passport number's S0), and the line starts with it.
    // A taller one holds a table's stripes crossing the line too (seed 27 again: stripes
    // and a B read as 1s, and a 1 for a B no check digit sees).
    let lead = line
        .iter()
        .zip(&placed)
        .filter(|(glyph, _)| glyph.height() as f32 <= height_at(glyph.centre_x()) * TALLEST)
        .filter_map(|(glyph, &(cell, pitch))| {
            let spans = spans(glyph, pitch)?;
            (cell < 0 && cell + spans == 0).then_some(-cell)
        })
        .max()
        .unwrap_or(0);
    for (glyph, &(cell, pitch)) in line.iter().zip(&placed) {
        let width = glyph.right - glyph.left;
        let cell = cell + lead;
        if let Some(spans) = spans(glyph, pitch) {
            for part in 0..spans {
                // Other parts before the line's first cell are marks beside the zone (a
                // table's stripe a cell before its first letter): left out, not piled on
                // the first cells.
                let Ok(part_cell) = usize::try_from(cell + part) else {
                    continue;
                };
                let left = glyph.left + (part as f32 * pitch) as i32;
                let piece = Glyph {
                    left,
                    right: left + usual_width,
                    ..*glyph
                };
                let symbol = classify(&piece);
                put(part_cell, symbol, usual_width, symbol == '<');
            }
            continue;
        }
        let cell = usize::try_from(cell).unwrap_or(0);
        put(cell, glyph.symbol, width, is_filler(glyph, height_at));
    }
    if best.len() >= MAX_CELLS {
        return None;
    }
    Some(
        best.iter()
            .zip(&filler)
            .map(|(best, filler)| match best {
                // Only the zone's alphabet, so that every cell is one byte.
                Some((symbol, _)) if !filler && symbol.is_ascii_alphanumeric() => {
                    symbol.to_ascii_uppercase()
                }
                _ => '<',
            })
            .collect(),
    )
}

/// A measure (the pitch, the digits' height) at each point of a zone, from where it
/// was taken and what it was (x, value): a straight line fitted through them, for a
/// slant shrinks the cells steadily from one end to the other, and the cells beside a
/// run of dropped fillers or of fillers have no measure of their own. `usual` where
/// there are too few to fit.
fn fitted_along(points: &[(f32, f32)], usual: f32) -> impl Fn(f32) -> f32 {
    let n = points.len() as f32;
    let (mean_x, mean_value) = (
        points.iter().map(|(x, _)| x).sum::<f32>() / n.max(1.0),
        points.iter().map(|(_, v)| v).sum::<f32>() / n.max(1.0),
    );
    let spread: f32 = points.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
    let (base, slope) = if points.len() >= MIN_STEPS_TO_FIT && spread > 0.0 {
        let covariance: f32 = points
            .iter()
            .map(|(x, v)| (x - mean_x) * (v - mean_value))
            .sum();
        (mean_value, covariance / spread)
    } else {
        (usual, 0.0)
    };
    // Never far from the usual, whatever one bad box does to the fit.
    move |x| (base + slope * (x - mean_x)).clamp(usual * 0.75, usual * 1.25)
}

/// Whether `glyph` is a `<` filler, whatever it was read as: shorter than the digits
/// where it stands.
fn is_filler(glyph: &Glyph, height_at: &dyn Fn(f32) -> f32) -> bool {
    glyph.symbol == '<' || (glyph.height() as f32) < height_at(glyph.centre_x()) * FILLER_HEIGHT
}

/// The cell of each glyph of `line` (left to right), counted from its first whole
/// glyph's (negative before it), and the pitch there. The pitch is followed along the line rather than taken
/// once: on a page photographed at a slant (keystone) the cells at the far end are
/// narrower, and one pitch for the whole line put a glyph a cell off by its end.
fn cell_numbers(
    line: &[Glyph],
    usual_width: i32,
    height_at: &dyn Fn(f32) -> f32,
) -> Option<Vec<(i64, f32)>> {
    let width_of = |g: &Glyph| (g.right - g.left) as f32 / usual_width as f32;
    let whole: Vec<&Glyph> = line
        .iter()
        .filter(|g| (FRAGMENT_WIDTH..=WIDE).contains(&width_of(g)))
        .collect();
    // Steps between letters and digits only: tesseract spreads the boxes of a run of
    // fillers evenly over the run, one box short or over.
    let steps: Vec<(f32, f32)> = whole
        .windows(2)
        .filter(|pair| !pair.iter().any(|g| is_filler(g, height_at)))
        .map(|pair| {
            let (a, b) = (pair[0].centre_x(), pair[1].centre_x());
            ((a + b) / 2.0, b - a)
        })
        .collect();
    let pitch = median_f32(steps.iter().map(|(_, step)| *step))?;
    if pitch <= 0.0 {
        return None;
    }
    // The steps of one cell (a step over dropped fillers is several).
    let single: Vec<(f32, f32)> = steps
        .into_iter()
        .filter(|(_, step)| *step < pitch * 1.5)
        .collect();
    let pitch_at = fitted_along(&single, pitch);
    let whole: Vec<f32> = whole.iter().map(|g| g.centre_x()).collect();
    let first = *whole.first()?;
    let mut cells = Vec::with_capacity(line.len());
    // The last whole glyph placed, and its cell.
    let (mut anchor, mut anchor_cell) = (first, 0_i64);
    for glyph in line {
        // A box over several cells is placed by its first.
        let x = if width_of(glyph) > WIDE {
            glyph.left as f32 + usual_width as f32 / 2.0
        } else {
            glyph.centre_x()
        };
        let local = pitch_at((anchor + x) / 2.0);
        let cell = anchor_cell + ((x - anchor) / local).round() as i64;
        if whole.contains(&x) && cell >= anchor_cell {
            (anchor, anchor_cell) = (x, cell);
        }
        cells.push((cell, local));
    }
    Some(cells)
}

fn median(values: impl Iterator<Item = i32>) -> Option<i32> {
    let mut values: Vec<i32> = values.collect();
    values.sort_unstable();
    values.get(values.len() / 2).copied()
}

fn median_f32(values: impl Iterator<Item = f32>) -> Option<f32> {
    let mut values: Vec<f32> = values.collect();
    values.sort_by(f32::total_cmp);
    values.get(values.len() / 2).copied()
}

/// The zone among `lines`: a valid one if any, else one whose check digits fail, else
/// none. A line fitted to a zone's width in two ways that both hold every check digit
/// but give another number or date is no valid zone: a double misread the check digits
/// cannot see (seed 26: `XGJ9696861` one cell too long, and without its X, `GJ9696861`
/// held the number's and the composite's digits as `XG9696861` did). Fits that differ
/// in a cell no digit covers (the sex) keep the first, as the check digits leave them.
fn zone(lines: &[String]) -> MrzReading {
    let mut found = MrzReading::NotFound;
    for (i, first) in lines.iter().enumerate() {
        // The document code is a letter: a 1 there is an I.
        let first = &fixed(first, 0..1, letters);
        let Some(second) = lines.get(i + 1) else {
            continue;
        };
        let passport = passport_first_line(first).map(|first| pad(&first, 44));
        let card = is_card_code(first);
        let td3s = fitted(second, 44)
            .into_iter()
            .filter_map(|second| Some(td3(passport.as_ref()?, &second)));
        let (td1_firsts, td1_seconds) = match card {
            true => (td1_first_lines(first), td1_second_lines(second)),
            false => Default::default(),
        };
        let td1s = td1_seconds.into_iter().flat_map(|second| {
            let third = lines.get(i + 2);
            td1_firsts
                .iter()
                .filter_map(move |first| Some(td1(first, &second, &pad(third?, 30))))
        });
        let td2s = fitted(second, 36)
            .into_iter()
            .filter(|_| card)
            .map(|second| td2(&pad(first, 36), &second));
        let mut valid: Option<MrzReading> = None;
        for candidate in td3s.chain(td1s).chain(td2s) {
            match candidate {
                MrzReading::Read(_)
                    if valid
                        .as_ref()
                        .is_some_and(|v| checked(v) != checked(&candidate)) =>
                {
                    return MrzReading::CheckDigitInvalid;
                }
                MrzReading::Read(_) => valid = Some(candidate),
                MrzReading::CheckDigitInvalid => found = candidate,
                MrzReading::NotFound | MrzReading::OcrUnavailable => {}
            }
        }
        if let Some(valid) = valid {
            return valid;
        }
    }
    found
}

/// What a reading's check digits cover: its number and its dates.
fn checked(reading: &MrzReading) -> Option<(Option<&str>, Option<Date>, Option<Date>)> {
    match reading {
        MrzReading::Read(read) => Some((
            read.document_number.as_deref(),
            read.date_of_birth,
            read.expires_on,
        )),
        _ => None,
    }
}

/// `line` as a zone line of `width` cells: as it is; one cell longer (tesseract split a
/// cell in two, or read the card's edge as a glyph), with each cell taken out in turn;
/// up to [`EDGE_CELLS`] longer, each run of `width` cells in it (a striped table beside
/// a card read as glyphs after its zone, or before), and longer still, its first and its
/// last `width` cells (a table's stripes read as a run of 1s). The check digits say
/// which is right (they cover every cell of a second line, and a run one cell off moves
/// them all).
fn fitted(line: &str, width: usize) -> Vec<String> {
    let cells: Vec<char> = line.chars().collect();
    let n = cells.len();
    let mut fits = Vec::new();
    if n == width {
        fits.push(line.to_owned());
    }
    if n == width + 1 {
        fits.extend((0..n).map(|k| cells[..k].iter().chain(&cells[k + 1..]).collect()));
    }
    // One cell longer, its two runs are among the cells taken out above.
    if n > width + 1 && n <= width + EDGE_CELLS {
        fits.extend(
            cells
                .windows(width)
                .map(|run| run.iter().collect::<String>()),
        );
    } else if n > width + EDGE_CELLS {
        // More marks than that: a zone line is only what starts or ends the line.
        fits.extend([&cells[..width], &cells[n - width..]].map(|run| run.iter().collect()));
    }
    fits
}

/// Where a TD1 card's optional data starts on its first line, after the document
/// number's check digit.
const TD1_FIRST_OPTIONAL: usize = 15;

/// Where a TD1 card's optional data starts on its second line, after the nationality.
const TD1_SECOND_OPTIONAL: usize = 18;

/// `first` as a TD1 card's first line of 30 cells: as read; then with its optional data
/// cleared of marks standing alone among fillers (a filler read as a C where the zone
/// runs to the card's edge, the edge read as a glyph) and, when what was read there is
/// [`mostly_fillers`], with none (most cards have none). The number and its check digit
/// are kept as read, and only the composite check digit, which covers these cells, says
/// which holds. Each alternative is one more try of the composite, the last guard of a
/// number misread with its own check digit holding, so there are at most two, and none
/// for a number longer than 9 characters (a filler in cell 14), which runs on into the
/// optional data.
fn td1_first_lines(first: &str) -> Vec<String> {
    let cells: Vec<char> = first.chars().collect();
    let mut lines = vec![pad(first, 30)];
    if cells.len() <= TD1_FIRST_OPTIONAL || cells[TD1_FIRST_OPTIONAL - 1] == '<' {
        return lines;
    }
    let filler = |c: Option<&char>| c.is_none_or(|c| *c == '<');
    let cleared: String = cells
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let lone = k >= TD1_FIRST_OPTIONAL
                && c != '<'
                && filler(cells.get(k - 1))
                && filler(cells.get(k + 1));
            if lone { '<' } else { c }
        })
        .collect();
    let empty = mostly_fillers(&cells[TD1_FIRST_OPTIONAL..])
        .then(|| pad(&cells[..TD1_FIRST_OPTIONAL].iter().collect::<String>(), 30));
    for line in std::iter::once(pad(&cleared, 30)).chain(empty) {
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

/// Whether optional data as read is two thirds fillers or more: marks left among
/// fillers, not data. Only then is it tried empty, for a card whose composite check
/// digit was broken could pass one time in ten with its data dropped.
fn mostly_fillers(cells: &[char]) -> bool {
    cells.iter().filter(|c| **c == '<').count() * 3 >= cells.len() * 2
}

/// `second` as a TD1 card's second line: as [`fitted`] makes it; then, when what it
/// holds between its nationality and its last cell is [`mostly_fillers`], its dates
/// and nationality as read, no optional data, and its last cell as the composite check
/// digit (marks a table or the card's edge left among the fillers). The dates' check
/// digits and the composite say which holds.
fn td1_second_lines(second: &str) -> Vec<String> {
    let cells: Vec<char> = second.chars().collect();
    let mut lines = fitted(second, 30);
    if let Some(composite) = cells
        .last()
        .filter(|_| cells.len() > TD1_SECOND_OPTIONAL + 1)
        .filter(|_| mostly_fillers(&cells[TD1_SECOND_OPTIONAL..cells.len() - 1]))
    {
        let mut blank = pad(&cells[..TD1_SECOND_OPTIONAL].iter().collect::<String>(), 29);
        blank.push(*composite);
        if !lines.contains(&blank) {
            lines.push(blank);
        }
    }
    lines
}

/// `line` as a passport's first line, which starts with its document code P: as it is
/// when it does; else, when it is a zone line's length and its code was misread (or
/// split in two, a P read as 1L) but the filler or issuer after it was not, from the
/// cell before that filler, the code taken for P. No check digit covers this line:
/// what is taken here only gives the issuer and the names, and `name_match` judges
/// those. A line longer than a zone's whose excess cells come before a `P<` begins
/// there: marks of the table beside the page, read as glyphs.
fn passport_first_line(line: &str) -> Option<String> {
    if line.starts_with('P') {
        return Some(line.to_string());
    }
    let excess = line.len().saturating_sub(44);
    if let Some(k) = (1..=excess).find(|&k| line.get(k..k + 2) == Some("P<")) {
        return line.get(k..).map(str::to_string);
    }
    if !(42..=47).contains(&line.len()) {
        return None;
    }
    (0..=2)
        .find(|&k| line.get(k + 1..k + 2) == Some("<"))
        .and_then(|k| line.get(k + 1..))
        .map(|rest| format!("P{rest}"))
}

/// A line whose end is fillers (a name line), brought to `width`: tesseract drops or
/// adds fillers at the end of a line.
fn pad(line: &str, width: usize) -> String {
    let mut cells: String = line.chars().take(width).collect();
    while cells.len() < width {
        cells.push('<');
    }
    cells
}

/// Where digits are expected: letters tesseract reads for digits of the same shape.
fn digits(cells: &str) -> String {
    cells
        .chars()
        .map(|c| match c {
            'O' | 'Q' | 'D' => '0',
            'I' | 'L' => '1',
            'Z' => '2',
            'S' => '5',
            'G' => '6',
            'B' => '8',
            other => other,
        })
        .collect()
}

/// Where letters are expected (country codes, names): the other way round.
fn letters(cells: &str) -> String {
    cells
        .chars()
        .map(|c| match c {
            '0' => 'O',
            '1' => 'I',
            '2' => 'Z',
            '5' => 'S',
            '6' => 'G',
            '8' => 'B',
            other => other,
        })
        .collect()
}

/// `line` with the cells in `range` passed through `fix`.
fn fixed(line: &str, range: std::ops::Range<usize>, fix: fn(&str) -> String) -> String {
    match (
        line.get(..range.start),
        line.get(range.clone()),
        line.get(range.end..),
    ) {
        (Some(before), Some(cells), Some(after)) => format!("{before}{}{after}", fix(cells)),
        _ => line.to_string(),
    }
}

/// The second line of a TD3 or TD2 zone, laid out alike up to the expiry's check
/// digit (number, its check digit, nationality, birth and its check digit, sex, expiry
/// and its check digit), with digits put back where they belong, `check_digits` (the
/// line's last) among them.
fn number_line(line: &str, check_digits: std::ops::Range<usize>) -> String {
    let line = fixed(line, 9..10, digits);
    let line = fixed(&line, 10..13, letters);
    let line = fixed(&line, 13..20, digits);
    let line = fixed(&line, 21..28, digits);
    fixed(&line, check_digits, digits)
}

fn td3(line1: &str, line2: &str) -> MrzReading {
    let line1 = fixed(line1, 2..44, letters);
    let read = |line2: &str| {
        // The personal number's check digit (a filler when there is none) and the
        // composite.
        let line2 = number_line(line2, 42..44);
        let parsed = ::mrz::parse_td3(&line1, &line2);
        judged(parsed, line2.as_bytes()[9], || DocumentFields {
            document_type: "passport",
            issuer: &line1[2..5],
            names: &line1[5..44],
            birth: &line2[13..19],
            sex: &line2[20..21],
            expiry: &line2[21..27],
            nationality: &line2[10..13],
        })
    };
    or_with_zeros(read, line2, &[0..9, 28..42])
}

/// What `read` makes of `line`, or, when its check digits fail, of `line` with each O
/// in `fields` (a number or optional data, letters or digits) a 0. Whether a glyph there
/// is an O or a 0 only its shape says (`shapes`), and a shape measured on a photo's
/// noise can be off by a hair: a personal number's 0 read as O failed its check (seed
/// 32, `BW98359O`). Issuers print far more digits than Os in numbers, and the check
/// digits still have the last word: the other way round, or for a zone that held, none
/// is tried.
fn or_with_zeros(
    read: impl Fn(&str) -> MrzReading,
    line: &str,
    fields: &[std::ops::Range<usize>],
) -> MrzReading {
    let reading = read(line);
    if reading != MrzReading::CheckDigitInvalid {
        return reading;
    }
    let zeros: String = line
        .char_indices()
        .map(|(i, c)| match c {
            'O' if fields.iter().any(|field| field.contains(&i)) => '0',
            other => other,
        })
        .collect();
    if zeros == line {
        return reading;
    }
    match read(&zeros) {
        MrzReading::Read(read) => MrzReading::Read(read),
        _ => reading,
    }
}

/// Whether `line` starts with the document code of a card (TD1 or TD2): A, C or I.
fn is_card_code(line: &str) -> bool {
    matches!(line.chars().next(), Some('I' | 'A' | 'C'))
}

/// What a card's document code says it is (contract §18): A, C or I followed by R is a
/// residence permit, any other an ID card.
fn card_type(code: &str) -> &'static str {
    match code.as_bytes() {
        [b'A' | b'C' | b'I', b'R', ..] => "residence_permit",
        _ => "id_card",
    }
}

/// TD2, two lines of 36: residence documents and older ID cards.
fn td2(line1: &str, line2: &str) -> MrzReading {
    let line1 = fixed(line1, 2..36, letters);
    let read = |line2: &str| {
        let line2 = number_line(line2, 35..36);
        let parsed = ::mrz::parse_td2(&line1, &line2);
        judged(parsed, line2.as_bytes()[9], || DocumentFields {
            document_type: card_type(&line1[0..2]),
            issuer: &line1[2..5],
            names: &line1[5..36],
            birth: &line2[13..19],
            sex: &line2[20..21],
            expiry: &line2[21..27],
            nationality: &line2[10..13],
        })
    };
    or_with_zeros(read, line2, &[0..9, 28..35])
}

fn td1(line1: &str, line2: &str, line3: &str) -> MrzReading {
    let line2 = fixed(line2, 0..7, digits);
    let line2 = fixed(&line2, 8..15, digits);
    let line2 = fixed(&line2, 15..18, letters);
    let line2 = fixed(&line2, 29..30, digits);
    let line3 = letters(line3);
    let read = |line1: &str| {
        let line1 = fixed(line1, 2..5, letters);
        let line1 = fixed(&line1, 14..15, digits);
        let parsed = ::mrz::parse_td1(&line1, &line2, &line3);
        judged(parsed, line1.as_bytes()[14], || DocumentFields {
            document_type: card_type(&line1[0..2]),
            issuer: &line1[2..5],
            names: &line3,
            birth: &line2[0..6],
            sex: &line2[7..8],
            expiry: &line2[8..14],
            nationality: &line2[15..18],
        })
    };
    // The number and the optional data that may run on from it, on the first line.
    or_with_zeros(read, line1, &[5..14, 15..30])
}

/// The zone's fields no check digit covers, as printed, and its dates as printed.
struct DocumentFields<'a> {
    document_type: &'static str,
    issuer: &'a str,
    names: &'a str,
    birth: &'a str,
    sex: &'a str,
    expiry: &'a str,
    nationality: &'a str,
}

fn judged<'a>(
    parsed: Result<::mrz::MrzData, ::mrz::MrzError>,
    number_check: u8,
    fields: impl FnOnce() -> DocumentFields<'a>,
) -> MrzReading {
    let data = match parsed {
        // A filler for the number's check digit says the number runs on into the optional
        // data; the `mrz` crate counts it a 0 where it does not, and a card's line read a
        // cell off, its check digit moved out of place, passed with a wrong number (seed
        // 34: `I<SASW22830625<<<...` for `I<USASW22830625<<...`, the composite holding by
        // chance).
        Ok(data) if number_check == b'<' && data.document_number_full.is_none() => {
            return MrzReading::CheckDigitInvalid;
        }
        Ok(data) if data.valid() => data,
        Ok(_) | Err(::mrz::MrzError::BadChecksum { .. }) => return MrzReading::CheckDigitInvalid,
        Err(_) => return MrzReading::NotFound,
    };
    let fields = fields();
    let (surname, given) = names(fields.names);
    let mut given = given.split(' ').filter(|name| !name.is_empty());
    let first_name = given.next().map(str::to_string);
    let middle: Vec<&str> = given.collect();
    let today = OffsetDateTime::now_utc().date();
    MrzReading::Read(DocumentRead {
        source: Some(ReadSource::Mrz),
        document_type: Some(fields.document_type.to_string()),
        issuer: code(fields.issuer),
        first_name,
        middle_name: (!middle.is_empty()).then(|| middle.join(" ")),
        last_name: (!surname.is_empty()).then_some(surname),
        date_of_birth: birth_date(fields.birth, today),
        document_number: Some(
            data.full_document_number()
                .trim_end_matches('<')
                .to_string(),
        )
        .filter(|number| !number.is_empty()),
        expires_on: yymmdd(fields.expiry, 2000),
        sex: matches!(fields.sex, "M" | "F" | "X").then(|| fields.sex.to_string()),
        country: code(fields.nationality),
        ..DocumentRead::default()
    })
}

/// Surname and given names from a name field: the surname up to the first `<<`, the
/// given names up to the next one (what follows is filler, however it was misread),
/// single `<` as spaces.
fn names(field: &str) -> (String, String) {
    let (surname, rest) = field.split_once("<<").unwrap_or((field, ""));
    let given = rest.split("<<").next().unwrap_or("");
    let spaced = |part: &str| part.replace('<', " ").trim().to_string();
    (spaced(surname), spaced(given))
}

/// A country code without its fillers (`D<<` is Germany).
fn code(cells: &str) -> Option<String> {
    let code = cells.trim_end_matches('<');
    (!code.is_empty() && code.chars().all(|c| c.is_ascii_uppercase())).then(|| code.to_string())
}

/// A date of birth: the latest century that does not put it in the future.
fn birth_date(cells: &str, today: Date) -> Option<Date> {
    yymmdd(cells, 2000)
        .filter(|date| *date <= today)
        .or_else(|| yymmdd(cells, 1900))
}

fn yymmdd(cells: &str, century: i32) -> Option<Date> {
    let number = |range: std::ops::Range<usize>| cells.get(range)?.parse::<u8>().ok();
    let month = Month::try_from(number(2..4)?).ok()?;
    Date::from_calendar_date(century + i32::from(number(0..2)?), month, number(4..6)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    const TD3: [&str; 2] = [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    ];

    fn read(lines: &[&str]) -> MrzReading {
        zone(
            &lines
                .iter()
                .map(|line| line.to_string())
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn a_td3_zone_reads_with_every_field() {
        let MrzReading::Read(read) = read(&["PASSPORT UTOPIA", TD3[0], TD3[1]]) else {
            panic!("not read");
        };
        assert_eq!(read.source, Some(ReadSource::Mrz));
        assert_eq!(read.document_type.as_deref(), Some("passport"));
        assert_eq!(read.issuer.as_deref(), Some("UTO"));
        assert_eq!(read.last_name.as_deref(), Some("ERIKSSON"));
        assert_eq!(read.first_name.as_deref(), Some("ANNA"));
        assert_eq!(read.middle_name.as_deref(), Some("MARIA"));
        assert_eq!(read.document_number.as_deref(), Some("L898902C3"));
        assert_eq!(read.date_of_birth, Some(date!(1974 - 08 - 12)));
        assert_eq!(read.expires_on, Some(date!(2012 - 04 - 15)));
        assert_eq!(read.sex.as_deref(), Some("F"));
        assert_eq!(read.country.as_deref(), Some("UTO"));
    }

    #[test]
    fn misread_digits_are_fixed_where_digits_belong_and_fillers_are_padded() {
        let line2 = "L898902C36UT07408I22F12O4159ZE184226B<<<<<10";
        let short_line1 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<";
        assert!(matches!(read(&[short_line1, line2]), MrzReading::Read(_)));
    }

    #[test]
    fn a_failing_check_digit_is_named_and_text_without_a_zone_is_not_found() {
        let broken = "L898902C36UTO7408123F1204159ZE184226B<<<<<10";
        assert_eq!(read(&[TD3[0], broken]), MrzReading::CheckDigitInvalid);
        assert_eq!(
            read(&["PASSPORT", "UTOPIA", "ERIKSSON"]),
            MrzReading::NotFound
        );
    }

    #[test]
    fn a_td1_zone_reads_as_an_id_card() {
        let zone = [
            "I<UTOD231458907<<<<<<<<<<<<<<<",
            "7408122F1204159UTO<<<<<<<<<<<6",
            "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ];
        let MrzReading::Read(card) = read(&zone) else {
            panic!("not read");
        };
        assert_eq!(card.document_type.as_deref(), Some("id_card"));
        assert_eq!(card.document_number.as_deref(), Some("D23145890"));
        assert_eq!(card.last_name.as_deref(), Some("ERIKSSON"));
        let permit = zone[0].replacen("I<", "AR", 1);
        let MrzReading::Read(permit) = read(&[&permit, zone[1], zone[2]]) else {
            panic!("not read");
        };
        assert_eq!(permit.document_type.as_deref(), Some("residence_permit"));
    }

    #[test]
    fn a_td1_first_lines_fillers_misread_at_the_cards_edge_are_fillers_again() {
        let zone = [
            "I<UTOD231458907<<<<<<<<<<<<<<<",
            "7408122F1204159UTO<<<<<<<<<<<6",
            "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ];
        // Read from photos of cards whose zone runs to the edge (seed 31): a filler
        // read as a C, the edge read as one cell more, a line ending in a C.
        for first in [
            "I<UTOD231458907<<<<<<<<<<<<C<<",
            "I<UTOD231458907<<<<<<<<<<C<<<<<",
            "I<UTOD231458907<<<<<<<<<<<<C",
        ] {
            let MrzReading::Read(card) = read(&[first, zone[1], zone[2]]) else {
                panic!("{first}: not read");
            };
            assert_eq!(
                card.document_number.as_deref(),
                Some("D23145890"),
                "{first}"
            );
        }
        // Marks after the number and among the second line's fillers (seed 32: a card
        // stored a quarter turn off, read at 3300 px): no optional data.
        let MrzReading::Read(card) = read(&[
            "I<UTOD231458907<<<<<<<<<<<K<<XBC",
            "7408122F1204159UTO<<H<H<<<<<<<<W6",
            zone[2],
        ]) else {
            panic!("marks among fillers: not read");
        };
        assert_eq!(card.date_of_birth, Some(date!(1974 - 08 - 12)));
        // A card with optional data: of its ten composite digits only its own reads,
        // none by dropping the data.
        let with_data = "I<UTOD231458907AB12346<<<<<<<<";
        let reading = (0..10).filter(|d| {
            let second = format!("7408122F1204159UTO<<<<<<<<<<<{d}");
            matches!(read(&[with_data, &second, zone[2]]), MrzReading::Read(_))
        });
        assert_eq!(reading.count(), 1);
        // A number longer than 9 characters runs on into the optional data: no
        // alternative, which would cut it short.
        assert_eq!(td1_first_lines("I<UTOD23145890<1238<<<<<<<<C<<").len(), 1);
        // A number misread is never mended here: its check digit still fails.
        let misread = "I<UTOD231458807<<<<<<<<<<<<C<<";
        assert_eq!(
            read(&[misread, zone[1], zone[2]]),
            MrzReading::CheckDigitInvalid
        );
    }

    /// A date of the `mrz` crate's zones.
    fn day(year: i32, month: u32, day: u32) -> ::mrz::MrzDate {
        ::mrz::MrzDate::Calendar(::mrz::Date::new(year, month, day))
    }

    /// The zone of a card (TD1) holding `number`, for ANNA ERIKSSON.
    fn card_zone(number: &str) -> String {
        ::mrz::format_td1(&::mrz::Td1Fields {
            document_code: "I".into(),
            issuing_country: "UTO".into(),
            document_number: number.into(),
            optional_data_1: None,
            surname: "ERIKSSON".into(),
            given_names: "ANNA".into(),
            nationality: "UTO".into(),
            date_of_birth: day(1974, 8, 12),
            sex: ::mrz::Sex::Female,
            date_of_expiry: day(2032, 4, 15),
            optional_data_2: None,
        })
    }

    #[test]
    fn a_zero_read_as_o_in_a_number_or_optional_data_is_put_back_where_the_checks_say_so() {
        let passport = |number: &str, personal: &str| {
            ::mrz::format_td3(&::mrz::Td3Fields {
                issuing_country: "UTO".into(),
                document_number: number.into(),
                surname: "JOHNSON".into(),
                given_names: "ALEXANDRA".into(),
                nationality: "UTO".into(),
                date_of_birth: day(1981, 6, 20),
                sex: ::mrz::Sex::Male,
                date_of_expiry: day(2031, 7, 26),
                personal_number: Some(personal.into()),
                ..::mrz::Td3Fields::default()
            })
        };
        let number = |reading: MrzReading| match reading {
            MrzReading::Read(read) => read.document_number,
            other => panic!("{other:?}"),
        };
        // Seed 32: the personal number's last 0 read as an O failed its check.
        let zone = passport("P2635144", "BW983590");
        let lines: Vec<&str> = zone.lines().collect();
        let misread = lines[1].replacen("BW983590", "BW98359O", 1);
        assert_eq!(
            number(read(&[lines[0], &misread])).as_deref(),
            Some("P2635144")
        );
        // A number's zeros read as Os, on a passport and on a card's first line.
        let zone = passport("B3605505", "");
        let lines: Vec<&str> = zone.lines().collect();
        let misread = lines[1].replacen("B3605505", "B36O55O5", 1);
        assert_eq!(
            number(read(&[lines[0], &misread])).as_deref(),
            Some("B3605505")
        );
        let card = card_zone("D2304589");
        let lines: Vec<&str> = card.lines().collect();
        let misread = lines[0].replacen("D2304589", "D23O4589", 1);
        assert_eq!(
            number(read(&[&misread, lines[1], lines[2]])).as_deref(),
            Some("D2304589")
        );
        // A true O whose check digits hold stays an O; an O that no 0 mends is refused.
        let zone = passport("KO304112", "");
        let lines: Vec<&str> = zone.lines().collect();
        assert_eq!(number(read(&lines)).as_deref(), Some("KO304112"));
        let misread = lines[1].replacen("KO304112", "KO3O4113", 1);
        assert_eq!(read(&[lines[0], &misread]), MrzReading::CheckDigitInvalid);
    }

    #[test]
    fn a_number_whose_check_digit_is_a_filler_with_nothing_run_on_is_refused() {
        // Seed 34's two cards, each line 1 read a cell off: the check digit's cell a
        // filler, and the composite holding by chance.
        let lost_a_cell = [
            "I<SASW22830625<<<<<<<<<<<<<<<",
            "9606210X3305267USA<<<<<<<<<<<8",
            "KOWALCZYK<<JOSE<<<<<<<<<<<<<<<",
        ];
        assert_eq!(read(&lost_a_cell), MrzReading::CheckDigitInvalid);
        let gained_a_cell = [
            "I<HUSA1819131<<8<<<<<<<<<<<<<<",
            "7007020X2910253USA<<<<<<<<<<<0",
            "LI<<ANA<KRZYSZTOF<<<<<<<<<<<<<",
        ];
        assert_eq!(read(&gained_a_cell), MrzReading::CheckDigitInvalid);
        // A number that does run on into the optional data still reads.
        let zone = card_zone("D23145890734");
        let lines: Vec<&str> = zone.lines().collect();
        assert_eq!(&lines[0][14..15], "<", "{zone}");
        match read(&lines) {
            MrzReading::Read(read) => {
                assert_eq!(read.document_number.as_deref(), Some("D23145890734"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_second_line_one_cell_too_long_reads_where_the_check_digits_say() {
        let zone = [
            "I<UTOD231458907<<<<<<<<<<<<<<<",
            "7408122F1204159UTO<<<<<<<<<<<6",
            "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
        ];
        // A cell split in two, a card's edge read as a glyph.
        for second in [
            "74081223F1204159UTO<<<<<<<<<<<6",
            "7408122F1204159UTO<<<<<<<<<<<6I",
        ] {
            let MrzReading::Read(card) = read(&[zone[0], second, zone[2]]) else {
                panic!("{second}: not read");
            };
            assert_eq!(card.date_of_birth, Some(date!(1974 - 08 - 12)), "{second}");
        }
        // A split cell and an edge's glyph together: only runs of 30 are tried, and none
        // holds its check digits.
        let twice = "74081223F1204159UTO<<<<<<<<<<<6I";
        assert_eq!(
            read(&[zone[0], twice, zone[2]]),
            MrzReading::CheckDigitInvalid
        );
    }

    #[test]
    fn a_line_that_fits_two_ways_each_holding_its_check_digits_is_not_trusted() {
        let first = "P<USATANAKA<<FATIMA<<<<<<<<<<<<<<<<<<<<<<<<<";
        let second = "XG96968618USA5706031F3007044YD573179<<<<<<78";
        let MrzReading::Read(passport) = read(&[first, second]) else {
            panic!("not read");
        };
        assert_eq!(passport.document_number.as_deref(), Some("XG9696861"));
        // A J read between the G and the 9: without the J it reads as it should, and
        // without the X as GJ9696861, whose check digits hold too.
        let one_too_many = "XGJ96968618USA5706031F3007044YD573179<<<<<<78";
        assert_eq!(read(&[first, one_too_many]), MrzReading::CheckDigitInvalid);
    }

    #[test]
    fn a_td2_zone_reads_and_a_residence_permit_is_named_by_its_code() {
        let line2 = "D231458907UTO7408122F1204159<<<<<<<6";
        for (code, document_type) in [("I<", "id_card"), ("IR", "residence_permit")] {
            let line1 = format!("{code}UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<");
            let MrzReading::Read(card) = read(&[&line1, line2]) else {
                panic!("{code}: not read");
            };
            assert_eq!(card.document_type.as_deref(), Some(document_type));
            assert_eq!(card.document_number.as_deref(), Some("D23145890"));
            assert_eq!(card.date_of_birth, Some(date!(1974 - 08 - 12)));
            assert_eq!(card.expires_on, Some(date!(2012 - 04 - 15)));
            assert_eq!(card.last_name.as_deref(), Some("ERIKSSON"));
            assert_eq!(card.first_name.as_deref(), Some("ANNA"));
            assert_eq!(card.country.as_deref(), Some("UTO"));
        }
        // The composite check digit covers the optional data too.
        let broken = "D231458907UTO7408122F1204159<<<<<<<5";
        assert_eq!(
            read(&["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<", broken]),
            MrzReading::CheckDigitInvalid
        );
    }

    #[test]
    fn marks_beside_a_zone_read_as_cells_are_left_out_by_the_check_digits() {
        let line1 = "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<";
        let line2 = "D231458907UTO7408122F1204159<<<<<<<6";
        // A striped table after the card (two cells), or before it (three).
        for second in [format!("{line2}IY"), format!("I1<{line2}")] {
            let MrzReading::Read(card) = read(&[&format!("{line1}I<"), &second]) else {
                panic!("{second}: not read");
            };
            assert_eq!(card.document_number.as_deref(), Some("D23145890"));
        }
        // A run of stripes read as 1s after it: the line's first cells.
        let MrzReading::Read(card) = read(&[line1, &format!("{line2}<1111111111")]) else {
            panic!("a run of 1s after the zone: not read");
        };
        assert_eq!(card.document_number.as_deref(), Some("D23145890"));
        // Marks inside the line are no zone line's.
        let split = format!("{}1111{}", &line2[..18], &line2[18..]);
        assert_ne!(read(&[line1, &split]), MrzReading::Read(card));
    }

    #[test]
    fn names_stop_at_the_fillers_however_misread_and_births_are_never_in_the_future() {
        assert_eq!(
            names("ERIKSSON<<ANNA<MARIA<<<K<<KE<<<"),
            ("ERIKSSON".to_string(), "ANNA MARIA".to_string())
        );
        assert_eq!(
            names("VAN<DER<BERG<<JAN"),
            ("VAN DER BERG".to_string(), "JAN".to_string())
        );
        let today = date!(2026 - 11 - 24);
        assert_eq!(birth_date("261124", today), Some(date!(2026 - 11 - 24)));
        assert_eq!(birth_date("261125", today), Some(date!(1926 - 11 - 25)));
        assert_eq!(birth_date("991301", today), None);
    }

    #[test]
    fn glyphs_become_cells_fillers_by_their_height() {
        let glyph = |symbol, cell: i32, height| Glyph {
            symbol,
            left: cell * 20,
            top: 100 - height,
            right: cell * 20 + 16,
            bottom: 100,
        };
        let mut line: Vec<Glyph> = (0..25).map(|cell| glyph('1', cell, 30)).collect();
        line[3] = glyph('K', 3, 25);
        line.remove(5);
        assert_eq!(cells(line, &|_| '?'), ["111<1<1111111111111111111"]);
    }

    #[test]
    fn glyphs_at_the_far_end_of_a_slanted_line_are_weighed_against_their_neighbours() {
        // A zone photographed at a slant: its glyphs grow from 26 to 32 pixels tall
        // from one end to the other; the fillers are 0.86 of the letters beside them,
        // and shorter than the letters at the near end only there.
        let zone = [
            "P<UTOSMITH<<DMITRI<<<<<<<<<<<<<<<<<<<<<<<<<<",
            "W2207072<8UTO9805105F3006070SD319358<<<<<<48",
        ];
        let glyphs: Vec<Glyph> = zone
            .iter()
            .enumerate()
            .flat_map(|(row, line)| {
                line.chars().enumerate().map(move |(cell, symbol)| {
                    let tall = 26.0 + 6.0 * cell as f32 / 43.0;
                    let height = if symbol == '<' { tall * 0.86 } else { tall };
                    let bottom = 100 + 50 * row as i32;
                    Glyph {
                        // Every filler read as a K: only its height tells it.
                        symbol: if symbol == '<' { 'K' } else { symbol },
                        left: cell as i32 * 24,
                        top: bottom - height as i32,
                        right: cell as i32 * 24 + 17,
                        bottom,
                    }
                })
            })
            .collect();
        assert_eq!(cells(glyphs, &|_| '?'), zone);
    }

    #[test]
    fn the_personal_numbers_check_digit_is_a_digit_or_a_filler() {
        // No personal number: its check digit a filler or a 0, read as O.
        for check in ['<', 'O'] {
            let line2 = format!("L898902C36UTO7408122F1204159<<<<<<<<<<<<<<{check}8");
            assert!(
                matches!(read(&[TD3[0], &line2]), MrzReading::Read(_)),
                "{line2}"
            );
        }
    }

    #[test]
    fn cells_narrowing_along_a_slanted_line_are_counted_to_its_end() {
        // A line photographed at a slant: its pitch shrinks from 26 to 20 pixels
        // from one end to the other, and the twelve fillers before its last digit
        // were not read at all.
        let mut x = 0.0_f32;
        let mut line = Vec::new();
        for cell in 0..44 {
            let pitch = 26.0 - 6.0 * cell as f32 / 43.0;
            if !(31..43).contains(&cell) {
                line.push(Glyph {
                    symbol: '7',
                    left: x as i32,
                    top: 70,
                    right: (x + pitch * 0.7) as i32,
                    bottom: 100,
                });
            }
            x += pitch;
        }
        let read = cells(line, &|_| '?');
        assert_eq!(read, [format!("{}{}7", "7".repeat(31), "<".repeat(12))]);
    }

    /// A glyph of a line 30 pixels tall, `width` wide from `left`.
    fn glyph(symbol: char, left: i32, width: i32) -> Glyph {
        Glyph {
            symbol,
            left,
            top: 70,
            right: left + width,
            bottom: 100,
        }
    }

    #[test]
    fn a_box_drawn_over_several_cells_is_split_and_each_part_told() {
        // 30 digits, then one box over the next four cells (where tesseract gave up),
        // then the last digit.
        let mut line: Vec<Glyph> = (0..30).map(|cell| glyph('4', cell * 20, 14)).collect();
        line.push(glyph('Q', 600, 74));
        line.push(glyph('9', 680, 14));
        // The parts, told by their place: fillers but the last.
        let told = |piece: &Glyph| if piece.left >= 660 { '8' } else { '<' };
        assert_eq!(cells(line, &told), [format!("{}<<<89", "4".repeat(30))]);
    }

    #[test]
    fn a_box_over_a_tables_stripe_before_the_line_is_left_out() {
        // A stripe beside the card, read as one box four cells wide and ending a cell
        // before the line's first glyph (seed 27's textured table), then 30 digits.
        let mut line = vec![glyph('<', 0, 74)];
        line.extend((0..30).map(|cell| glyph('4', 100 + cell * 20, 14)));
        // Told as letters, its parts would be read as the line's first cells.
        let told = |_: &Glyph| 'K';
        assert_eq!(cells(line, &told), ["4".repeat(30)]);
    }

    #[test]
    fn a_name_lines_letters_are_weighed_against_their_own_height() {
        // Seed 27: a name line's letters 64-66 pixels tall, its D 63, over a number
        // line whose digits stand 72 (0.875 of them is under the fillers' 0.88).
        let mut name: Vec<Glyph> = (0..30).map(|cell| glyph('K', cell * 20, 14)).collect();
        for g in &mut name {
            g.top = 36;
        }
        name[10] = Glyph {
            symbol: 'D',
            top: 37,
            ..name[10]
        };
        let digits = (0..30).map(|cell| Glyph {
            top: 128,
            bottom: 200,
            ..glyph('7', cell * 20, 14)
        });
        name.extend(digits);
        let read = cells(name, &|_| '?');
        assert_eq!(read[0], format!("{}D{}", "K".repeat(10), "K".repeat(19)));
        assert_eq!(read[1], "7".repeat(30));
    }

    #[test]
    fn a_box_over_the_lines_first_cells_starts_the_line() {
        // A passport number's first two cells read as one box (seed 27, a page stored
        // upside down), running into the line's first whole glyph; then 42 digits.
        let mut line = vec![glyph('<', 0, 34)];
        line.extend((0..42).map(|cell| glyph('4', 40 + cell * 20, 14)));
        let told = |piece: &Glyph| if piece.left < 10 { 'S' } else { '0' };
        assert_eq!(
            cells(line.clone(), &told),
            [format!("S0{}", "4".repeat(42))]
        );
        // As tall as three lines: a table's stripes crossing the line, left out.
        line[0].top -= 60;
        assert_eq!(cells(line, &told), ["4".repeat(42)]);
    }

    #[test]
    fn a_passport_line_whose_code_was_misread_still_starts_with_p() {
        let names = "UTOSAMPLE<<OLUWASEUN<<<<<<<<<<<<<<<<<<<<<<";
        assert_eq!(
            passport_first_line(&format!("P<{names}")).as_deref(),
            Some(format!("P<{names}").as_str())
        );
        // The P split in two (1L), or read as another letter.
        for misread in ["1L<", "R<"] {
            assert_eq!(
                passport_first_line(&format!("{misread}{names}")).as_deref(),
                Some(format!("P<{names}").as_str()),
                "{misread}"
            );
        }
        // Marks beside the page read before the zone.
        assert_eq!(
            passport_first_line(&format!("4J<1JP<{names}")).as_deref(),
            Some(format!("P<{names}").as_str())
        );
        // A line of the page's other text is no zone line.
        assert_eq!(passport_first_line("SURNAME<GIVEN<NAMES"), None);
        assert_eq!(passport_first_line(&"K".repeat(44)), None);
    }
}
