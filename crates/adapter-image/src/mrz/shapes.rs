//! Look-alike characters told apart by their shape in OCR-B, the zone's typeface.
//! Tesseract's English model reads the letter O as the digit 0, Q and D too, and G as 6
//! (whose check digit values agree, 16 and 6, so a check digit cannot tell them apart).
//! Where a zone field may hold either (a document number), its check digit fails or,
//! worse, holds for the wrong value. OCR-B draws each pair differently (O wider than 0,
//! G open where 6 is closed): each glyph tesseract read as one
//! of a group is compared with the group's OCR-B shapes, outline and proportions, and
//! takes the nearest. The shapes are drawn from the typeface compiled in
//! (`assets/ocr-b`).

use std::sync::OnceLock;

use ab_glyph::{Font, FontVec, PxScale, point};
use image::imageops::{self, FilterType};
use image::{GrayImage, Luma};
use imageproc::contrast::otsu_level;

use crate::ocr::Glyph;

/// The typeface (`assets/ocr-b`: public domain and permissive, from Debian's
/// `fonts-ocr-b`).
const FONT: &[u8] = include_bytes!("../../../../assets/ocr-b/OCRB.otf");

/// The groups of characters tesseract confuses with each other where only the shape can
/// tell: O and 0 in a document number (Q and D with them), and G and 6, whose check
/// digit values agree. Other look-alikes (1 I, 2 Z, 5 S, 8 B) are left to the fields'
/// letters-or-digits rules and the check digits: their shapes proved less reliable (an
/// I taken for a 1 hid a TD1 zone's document code).
const GROUPS: [&str; 2] = ["0OQD", "6G"];

/// The characters whose shapes are drawn: the zone's, but the filler.
const ALPHABET: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// The filler, drawn too for [`Shapes::classify`].
const FILLER: char = '<';

/// How much nearer (in [`likeness`]) another character's shape must be than the
/// character tesseract read, outside its group, to be taken instead: tesseract read an
/// OCR-B C as 0 where the shapes said C by 0.6.
const OVERRIDE_MARGIN: f32 = 0.1;

/// How many glyphs of its line about a glyph its photo's stretch is measured on: a few
/// cells either way, enough that one glyph misread cannot sway the median.
const NEIGHBOURS: usize = 9;

/// The size shapes are compared at.
const WIDTH: u32 = 20;
/// See [`WIDTH`].
const HEIGHT: u32 = 28;

/// How much a difference of proportions (the log of the ratio of aspect ratios) weighs
/// against a difference of outline (a correlation, -1 to 1): O and 0 differ most in
/// width.
const ASPECT_WEIGHT: f32 = 2.0;

/// A character's shape: its ink's proportions and its ink, scaled to [`WIDTH`] x
/// [`HEIGHT`] and normalised (mean 0, norm 1).
#[derive(Debug, Clone)]
struct Shape {
    symbol: char,
    aspect: f32,
    ink: Vec<f32>,
}

/// The OCR-B shapes of every character of [`GROUPS`].
#[derive(Debug)]
pub struct Shapes {
    shapes: Vec<Shape>,
}

/// The shapes, drawn once.
pub fn shapes() -> &'static Shapes {
    static SHAPES: OnceLock<Shapes> = OnceLock::new();
    SHAPES.get_or_init(|| {
        let font = FontVec::try_from_vec(FONT.to_vec())
            .expect("the OCR-B typeface compiled in is a font (tested)");
        Shapes::drawn(&font)
    })
}

impl Shapes {
    fn drawn(font: &FontVec) -> Self {
        let shapes = ALPHABET
            .chars()
            .chain([FILLER])
            .filter_map(|symbol| {
                let glyph = font
                    .glyph_id(symbol)
                    .with_scale_and_position(PxScale::from(120.0), point(0.0, 120.0));
                let outline = font.outline_glyph(glyph)?;
                let bounds = outline.px_bounds();
                let mut ink = GrayImage::new(bounds.width() as u32, bounds.height() as u32);
                outline.draw(|x, y, coverage| {
                    if x < ink.width() && y < ink.height() {
                        ink.put_pixel(x, y, Luma([(coverage * 255.0) as u8]));
                    }
                });
                shape(symbol, &ink)
            })
            .collect();
        Self { shapes }
    }

    /// What each of `glyphs` of `image` (dark ink on light paper) is, written over what
    /// tesseract read: the nearest shape of its group when tesseract read one of a group,
    /// another character when its shape is clearly nearer ([`OVERRIDE_MARGIN`]), else
    /// what tesseract read. Proportions are compared after the photo's own stretch
    /// about each glyph ([`Self::stretches`]) is taken out.
    pub fn settle(&self, image: &GrayImage, glyphs: &mut [Glyph]) {
        let seen: Vec<Option<Shape>> = glyphs.iter().map(|g| seen_shape(image, g)).collect();
        let stretches = self.stretches(glyphs, &seen);
        for ((glyph, seen), stretch) in glyphs.iter_mut().zip(seen).zip(stretches) {
            if let Some(mut seen) = seen {
                seen.aspect /= stretch;
                glyph.symbol = self.nearest(&seen);
            }
        }
    }

    /// How much wider than OCR-B's the glyphs about each of `glyphs` are (a page
    /// photographed at a slant, or levelled, is stretched one way): the median ratio of
    /// proportions to their characters' over the [`NEIGHBOURS`] nearest glyphs of its
    /// line of the characters no group confuses. O is 5 % wider than 0: a slant alone made every 0 of
    /// a zone an O, and a keystone tilt, widening one end of a line more than the other,
    /// made the two zeros of a number at the wide end Os by a hair (passports seed 33,
    /// read `5O1O866`, whose check digit holds as well as `5010866`'s).
    fn stretches(&self, glyphs: &[Glyph], seen: &[Option<Shape>]) -> Vec<f32> {
        let centre = |g: &Glyph| {
            (
                (g.left + g.right) as f32 / 2.0,
                (g.top + g.bottom) as f32 / 2.0,
            )
        };
        let ratios: Vec<((f32, f32), f32)> = glyphs
            .iter()
            .zip(seen)
            .filter_map(|(glyph, seen)| Some((centre(glyph), self.ratio(seen.as_ref()?)?)))
            .collect();
        glyphs
            .iter()
            .map(|glyph| {
                let (x, y) = centre(glyph);
                // Its own line's glyphs: the end of the line above can be a run of
                // fillers read as letters, whose proportions are no measure.
                let tall = (glyph.bottom - glyph.top) as f32;
                let mut near: Vec<(f32, f32)> = ratios
                    .iter()
                    .filter(|((_, cy), _)| (cy - y).abs() < tall)
                    .map(|&((cx, _), ratio)| ((cx - x).abs(), ratio))
                    .collect();
                near.sort_by(|a, b| a.0.total_cmp(&b.0));
                let mut near: Vec<f32> = near.into_iter().take(NEIGHBOURS).map(|n| n.1).collect();
                near.sort_by(f32::total_cmp);
                near.get(near.len() / 2).copied().unwrap_or(1.0)
            })
            .collect()
    }

    /// How much wider than its character's in OCR-B `seen` is, `None` for a character
    /// of a group (whose width is what is in doubt).
    fn ratio(&self, seen: &Shape) -> Option<f32> {
        if GROUPS.iter().any(|g| g.contains(seen.symbol)) {
            return None;
        }
        let drawn = self.shapes.iter().find(|s| s.symbol == seen.symbol)?;
        Some(seen.aspect / drawn.aspect)
    }

    /// What the part `piece` of `image` holds, by shape alone (its symbol unused): a
    /// filler when it holds no ink.
    pub fn classify(&self, image: &GrayImage, piece: &Glyph) -> char {
        let Some(seen) = cut(image, piece).and_then(|crop| shape(FILLER, &crop)) else {
            return FILLER;
        };
        self.shapes
            .iter()
            .map(|s| (s.symbol, likeness(&seen, s)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(FILLER, |(symbol, _)| symbol)
    }

    /// The character `seen` (read by tesseract as `seen.symbol`) most likely is.
    fn nearest(&self, seen: &Shape) -> char {
        let read = self
            .shapes
            .iter()
            .find(|s| s.symbol == seen.symbol)
            .map_or(f32::MIN, |s| likeness(seen, s));
        let Some((best, score)) = self
            .shapes
            .iter()
            .map(|s| (s.symbol, likeness(seen, s)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
        else {
            return seen.symbol;
        };
        let same_group = GROUPS
            .iter()
            .any(|g| g.contains(seen.symbol) && g.contains(best));
        if same_group || score - read > OVERRIDE_MARGIN {
            best
        } else {
            seen.symbol
        }
    }
}

/// The shape of `glyph` in `image`, `None` when its box holds no ink or is not one of
/// the zone's characters (a filler is told by its height, not its shape).
fn seen_shape(image: &GrayImage, glyph: &Glyph) -> Option<Shape> {
    if !ALPHABET.contains(glyph.symbol) {
        return None;
    }
    shape(glyph.symbol, &cut(image, glyph)?)
}

/// The box of `glyph` cut out of `image`, inverted (ink bright), `None` when it is
/// (almost) empty.
fn cut(image: &GrayImage, glyph: &Glyph) -> Option<GrayImage> {
    let (left, top) = (glyph.left.max(0) as u32, glyph.top.max(0) as u32);
    let right = (glyph.right.max(0) as u32).min(image.width());
    let bottom = (glyph.bottom.max(0) as u32).min(image.height());
    if right <= left + 2 || bottom <= top + 2 {
        return None;
    }
    let mut crop = imageops::crop_imm(image, left, top, right - left, bottom - top).to_image();
    imageops::invert(&mut crop);
    Some(crop)
}

/// How alike two shapes are: their outlines' correlation, less their proportions'
/// difference.
fn likeness(a: &Shape, b: &Shape) -> f32 {
    let correlation: f32 = a.ink.iter().zip(&b.ink).map(|(x, y)| x * y).sum();
    correlation - ASPECT_WEIGHT * (a.aspect / b.aspect).ln().abs()
}

/// The shape of the ink (bright on dark) in `ink`: cut to the ink's own box (pixels
/// over Otsu's level), scaled and normalised; `None` when there is no ink.
fn shape(symbol: char, ink: &GrayImage) -> Option<Shape> {
    let level = otsu_level(ink);
    let lit: Vec<(u32, u32)> = ink
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[0] > level)
        .map(|(x, y, _)| (x, y))
        .collect();
    let (x0, x1) = (
        lit.iter().map(|p| p.0).min()?,
        lit.iter().map(|p| p.0).max()?,
    );
    let (y0, y1) = (
        lit.iter().map(|p| p.1).min()?,
        lit.iter().map(|p| p.1).max()?,
    );
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let cut = imageops::crop_imm(ink, x0, y0, w, h).to_image();
    let scaled = imageops::resize(&cut, WIDTH, HEIGHT, FilterType::Triangle);
    let values: Vec<f32> = scaled.pixels().map(|p| f32::from(p.0[0])).collect();
    let mean = values.iter().sum::<f32>() / values.len() as f32;
    let centred: Vec<f32> = values.iter().map(|v| v - mean).collect();
    let norm = centred.iter().map(|v| v * v).sum::<f32>().sqrt();
    (norm > 0.0).then(|| Shape {
        symbol,
        aspect: w as f32 / h as f32,
        ink: centred.iter().map(|v| v / norm).collect(),
    })
}

#[cfg(test)]
mod tests {
    use fixtures::passport::ocrb_font;
    use imageproc::drawing::draw_text_mut;

    use super::*;

    /// `text` printed in OCR-B at the size tesseract reads a zone at (glyphs about 60
    /// px tall), blurred as in a photo, its width stretched by `stretch`, with each
    /// character's box (read as the character).
    fn printed(font: &FontVec, text: &str, stretch: f32) -> (GrayImage, Vec<Glyph>) {
        let size = 84.0;
        let mut page = GrayImage::from_pixel(text.len() as u32 * 60 + 40, 120, Luma([235]));
        draw_text_mut(
            &mut page,
            Luma([25]),
            20,
            15,
            PxScale::from(size),
            font,
            text,
        );
        let page = imageproc::filter::gaussian_blur_f32(&page, 2.0);
        let width = (page.width() as f32 * stretch) as u32;
        let page = imageops::resize(&page, width, page.height(), FilterType::Triangle);
        // Each run of inked columns is a character.
        let inked: Vec<bool> = (0..page.width())
            .map(|x| (0..page.height()).any(|y| page.get_pixel(x, y).0[0] < 130))
            .collect();
        let mut glyphs = Vec::new();
        let mut symbols = text.chars().filter(|c| !c.is_whitespace());
        let mut x = 0;
        while x < inked.len() {
            if !inked[x] {
                x += 1;
                continue;
            }
            let left = x;
            while x < inked.len() && inked[x] {
                x += 1;
            }
            let rows: Vec<u32> = (0..page.height())
                .filter(|&y| (left..x).any(|c| page.get_pixel(c as u32, y).0[0] < 130))
                .collect();
            glyphs.push(Glyph {
                symbol: symbols.next().unwrap_or('?'),
                left: left as i32,
                top: rows[0] as i32,
                right: x as i32,
                bottom: *rows.last().unwrap_or(&0) as i32 + 1,
            });
        }
        (page, glyphs)
    }

    #[test]
    fn each_look_alike_printed_in_ocr_b_is_told_from_its_twins() {
        let (shapes, font) = (shapes(), ocrb_font().expect("the OCR-B typeface"));
        // Whatever tesseract took each for within its group, its shape says what it is.
        for group in GROUPS {
            for truth in group.chars() {
                let (page, mut glyphs) = printed(&font, &truth.to_string(), 1.0);
                glyphs[0].symbol = group.chars().find(|&c| c != truth).unwrap_or(truth);
                shapes.settle(&page, &mut glyphs);
                assert_eq!(glyphs[0].symbol, truth, "{group}");
            }
        }
        let mut outside = [Glyph {
            symbol: 'K',
            left: 0,
            top: 0,
            right: 5,
            bottom: 5,
        }];
        shapes.settle(&GrayImage::new(10, 10), &mut outside);
        assert_eq!(outside[0].symbol, 'K');
    }

    #[test]
    fn a_photo_stretched_either_way_keeps_its_zeros_and_its_os() {
        let (shapes, font) = (shapes(), ocrb_font().expect("the OCR-B typeface"));
        // O is 5 % wider than 0 in OCR-B: zeros 9 % wider than printed, each read as
        // O, and Os 8 % narrower, each read as 0, are still what they are.
        for (text, stretch, misread) in [
            ("L0722929<4UT09702097F", 1.09, ('0', 'O')),
            ("P<UTOKOWALCZYK<<JOSE<OLGA", 0.92, ('O', '0')),
        ] {
            let (page, mut glyphs) = printed(&font, text, stretch);
            for glyph in &mut glyphs {
                if glyph.symbol == misread.0 {
                    glyph.symbol = misread.1;
                }
            }
            shapes.settle(&page, &mut glyphs);
            let read: String = glyphs.iter().map(|g| g.symbol).collect();
            assert_eq!(read, text, "{stretch}");
        }
    }

    #[test]
    fn a_keystone_widening_one_end_of_a_line_keeps_its_zeros_there() {
        let (shapes, font) = (shapes(), ocrb_font().expect("the OCR-B typeface"));
        // A number at the near end, 12 % wider than printed, its zeros read as Os; the
        // rest of the line 5 % narrower, its Os read as 0. One stretch for the whole
        // line, in between, took the zeros for Os and the Os for zeros.
        let (near, far) = ("L0722929<4", "UTOKOWALCZYK<<JOSE<<<");
        let (near_page, mut glyphs) = printed(&font, near, 1.12);
        let (far_page, far_glyphs) = printed(&font, far, 0.95);
        let mut page = GrayImage::from_pixel(
            near_page.width() + far_page.width(),
            near_page.height(),
            Luma([235]),
        );
        imageops::replace(&mut page, &near_page, 0, 0);
        imageops::replace(&mut page, &far_page, i64::from(near_page.width()), 0);
        let shift = near_page.width() as i32;
        glyphs.extend(far_glyphs.into_iter().map(|g| Glyph {
            left: g.left + shift,
            right: g.right + shift,
            ..g
        }));
        for glyph in &mut glyphs {
            glyph.symbol = match glyph.symbol {
                '0' => 'O',
                'O' => '0',
                other => other,
            };
        }
        shapes.settle(&page, &mut glyphs);
        let read: String = glyphs.iter().map(|g| g.symbol).collect();
        assert_eq!(read, format!("{near}{far}"));
    }

    #[test]
    fn a_part_of_a_line_is_told_by_its_shape_alone() {
        let (shapes, font) = (shapes(), ocrb_font().expect("the OCR-B typeface"));
        let (page, glyphs) = printed(&font, "C<7", 1.0);
        let told: String = glyphs
            .iter()
            .map(|glyph| {
                let piece = Glyph {
                    symbol: '?',
                    ..*glyph
                };
                shapes.classify(&page, &piece)
            })
            .collect();
        assert_eq!(told, "C<7");
        let blank = Glyph {
            symbol: '?',
            left: 0,
            top: 0,
            right: 20,
            bottom: 30,
        };
        assert_eq!(
            shapes.classify(&GrayImage::from_pixel(40, 40, Luma([235])), &blank),
            '<'
        );
    }
}
