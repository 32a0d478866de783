//! Where the zone lies on a levelled photo: its lines are the page's longest, so the
//! rows of ink that cross the most strokes are looked for, and a band around each of the
//! busiest lines (room for two lines above and below, and the line's own width) is cut
//! out. Tesseract then reads a band of the page rather than a photo of a table with a
//! page somewhere on it: fewer pixels, and none of the table's texture read as text.

use image::imageops;
use image::{GrayImage, Luma};
use imageproc::region_labelling::Connectivity;

use crate::components::{self, Piece};
use crate::deskew::{STROKE_ACROSS, STROKE_DOWN, ink, strokes_only};
use crate::quality;

/// How much darker than around it a pixel is to be a zone's ink here: printed black,
/// it stands out more than the weave of a cloth, whose countless fine marks outscored
/// the zone's lines, or the page's guilloches.
const BAND_INK_DELTA: i16 = 40;

/// The width the lines are looked for at.
const MEASURE_WIDTH: u32 = 1000;

/// A row belongs to a line when it crosses at least this share of the busiest row's
/// strokes.
const LINE_SHARE: f32 = 0.45;

/// Rows crossing fewer strokes than this are no line at all (a blank photo).
const MIN_EDGES: u32 = 30;

/// The fewest rows a line of text spans at [`MEASURE_WIDTH`]: a zone across a third
/// of a photo has glyphs about 10 rows tall there, and the edge of a page on a table,
/// its noise crossing it many times, one or two.
const MIN_LINE_ROWS: u32 = 4;

/// A row between two lines of ink crossing under this share of the strokes of the
/// busiest rows of each: two lines, not one.
const VALLEY: f32 = 0.75;

/// The most bands cut: the busiest line is the zone's but on a striped table.
const MAX_BANDS: usize = 3;

/// The band's reach above and below its line, in line heights: the other lines of a
/// TD1 (three) or TD3 (two) zone, with their spacing. A line's rows over the threshold
/// can be fewer than its glyphs' (a name line's few capitals among its fillers): seed
/// 29 had a zone's lines 3.7 of them apart, and at 3.6 its name line was cut in half.
const REACH: f32 = 4.5;

/// The tallest a band is for its width: a TD1 zone's three lines with their margins
/// are under 0.3 as tall as they are wide, a TD3 zone's two about 0.15.
const MAX_HEIGHT_SHARE: f32 = 0.35;

/// The narrowest a band is, as a share of the photo's width: a zone spans nearly all of
/// its document's width, and the corpus's smallest documents fill 30 % of the photo (the
/// narrowest zone read, 0.29 of it). Narrower marks are a table's or a guilloche's, and
/// reading one, scaled up twentyfold, cost a second of tesseract for nothing.
const MIN_WIDTH_SHARE: f32 = 0.15;

/// The most lines a zone has (TD1).
const ZONE_LINES: usize = 3;

/// The room kept over the highest and under the lowest line of a zone, in line heights.
const MARGIN: f32 = 1.2;

/// A line of ink: its rows and how many strokes its busiest row crosses.
#[derive(Debug, Clone, Copy)]
struct Line {
    top: u32,
    bottom: u32,
    edges: u32,
}

/// The bands of `page` (levelled) where a zone may be, the likeliest first.
pub fn bands(page: &GrayImage) -> Vec<GrayImage> {
    if page.width() < 30 || page.height() < 10 {
        return Vec::new();
    }
    let dark = no_larger_than_glyphs(&strokes_only(
        &ink(page, MEASURE_WIDTH, BAND_INK_DELTA),
        STROKE_ACROSS,
        STROKE_DOWN,
    ));
    let edges: Vec<u32> = (0..dark.height())
        .map(|y| {
            (1..dark.width())
                .filter(|&x| dark.get_pixel(x, y).0[0] != dark.get_pixel(x - 1, y).0[0])
                .count() as u32
        })
        .collect();
    // The busiest line, not row: a rule a row or two tall (a page's dotted border)
    // crossed twice a line's strokes, and set the bar over a zone's name line.
    let busiest = edges
        .windows(MIN_LINE_ROWS as usize)
        .map(|rows| rows.iter().copied().min().unwrap_or(0))
        .max()
        .unwrap_or(0);
    if busiest < MIN_EDGES {
        return Vec::new();
    }
    let threshold = (busiest as f32 * LINE_SHARE) as u32;
    let mut lines: Vec<Line> = Vec::new();
    for (y, &count) in edges.iter().enumerate() {
        let y = y as u32;
        if count < threshold {
            continue;
        }
        match lines.last_mut() {
            Some(line) if line.bottom + 1 == y => {
                line.bottom = y;
                line.edges = line.edges.max(count);
            }
            _ => lines.push(Line {
                top: y,
                bottom: y,
                edges: count,
            }),
        }
    }
    let mut lines: Vec<Line> = lines
        .into_iter()
        .flat_map(|line| split(&edges, line))
        .collect();
    let by_position = lines.clone();
    lines.sort_by_key(|line| std::cmp::Reverse(line.edges));
    let scale = page.width() as f32 / MEASURE_WIDTH as f32;
    let mut cut: Vec<(u32, u32)> = Vec::new();
    let mut bands = Vec::new();
    for line in lines {
        if bands.len() == MAX_BANDS {
            break;
        }
        // A row or two of noise along the page's edge is no line of text.
        if line.bottom - line.top + 1 < MIN_LINE_ROWS {
            continue;
        }
        // A line already inside a band is the same zone.
        if cut
            .iter()
            .any(|&(top, bottom)| line.top >= top && line.bottom <= bottom)
        {
            continue;
        }
        let (top, bottom) = rows(&by_position, line, dark.height());
        let height = (line.bottom - line.top + 1).max(3) as f32;
        let (left, right) = extent(&dark, line, height as u32);
        let (top, bottom) = no_taller(top, bottom, right - left);
        cut.push((top, bottom));
        let (x, y) = ((left as f32 * scale) as u32, (top as f32 * scale) as u32);
        let (w, h) = (
            (((right - left) as f32 * scale) as u32).min(page.width() - x),
            (((bottom - top) as f32 * scale) as u32).min(page.height() - y),
        );
        if w as f32 >= page.width() as f32 * MIN_WIDTH_SHARE && h >= 10 {
            bands.push(imageops::crop_imm(page, x, y, w, h).to_image());
        }
    }
    bands
}

/// The most pixels a piece of a zone's ink spans either way at [`MEASURE_WIDTH`]: a
/// TD1 zone across the whole photo has glyphs about 33 pixels apart and as tall, and a
/// glyph joined by blur to its neighbour stays under twice that.
const GLYPH_SPAN: u32 = 60;

/// `dark` without its pieces of ink larger than [`GLYPH_SPAN`] either way. A cloth's
/// weave is short runs joined into long pieces, which [`strokes_only`] keeps: its
/// stripes crossed more rows of strokes than a small zone's thin glyphs, and every
/// band cut went to the cloth (seeds 30 and 31, phone photos).
fn no_larger_than_glyphs(dark: &GrayImage) -> GrayImage {
    let (labels, pieces) = components::pieces(dark, Connectivity::Eight);
    let mut glyphs = dark.clone();
    for (x, y, pixel) in glyphs.enumerate_pixels_mut() {
        let larger = pieces
            .get(&labels.get_pixel(x, y).0[0])
            .is_some_and(|p| p.right - p.left > GLYPH_SPAN || p.bottom - p.top > GLYPH_SPAN);
        if larger {
            pixel.0[0] = 0;
        }
    }
    glyphs
}

/// `line` cut at its deepest valley, and each part as deep, while a valley holds
/// under [`VALLEY`] of the peaks either side of it: a zone's lines close together, or
/// blurred, cross the threshold in the rows between them too, and as one line twice as
/// tall they were taken for no zone's.
fn split(edges: &[u32], line: Line) -> Vec<Line> {
    let peak = |rows: std::ops::Range<u32>| rows.map(|y| edges[y as usize]).max().unwrap_or(0);
    let valley = (line.top + 1..line.bottom)
        .filter(|&y| {
            let deepest = peak(line.top..y).min(peak(y + 1..line.bottom + 1));
            (edges[y as usize] as f32) < VALLEY * deepest as f32
        })
        .min_by_key(|&y| edges[y as usize]);
    match valley {
        Some(y) => [(line.top, y - 1), (y + 1, line.bottom)]
            .into_iter()
            .flat_map(|(top, bottom)| {
                let edges_at = peak(top..bottom + 1);
                split(
                    edges,
                    Line {
                        top,
                        bottom,
                        edges: edges_at,
                    },
                )
            })
            .collect(),
        None => vec![line],
    }
}

/// The rows of the band about `line`: it and the lines like it (as tall, as the zone's
/// other lines are), the nearest first, each within [`REACH`] line heights of those
/// taken and [`ZONE_LINES`] at most, with [`MARGIN`] line heights over and under;
/// [`REACH`] either way when no line is like it. A band reaching past the page took in the table, and a striped
/// one made tesseract find no line at all.
fn rows(lines: &[Line], line: Line, height: u32) -> (u32, u32) {
    let tall = (line.bottom - line.top + 1).max(3) as f32;
    let reach = REACH * tall;
    let alike =
        |other: &Line| (0.5..=2.0).contains(&((other.bottom - other.top + 1) as f32 / tall));
    let (mut top, mut bottom, mut taken) = (line.top, line.bottom, 1);
    // The zone's other lines, the nearest first, each within reach of those taken: a
    // TD1's third line is two spacings from its first.
    while taken < ZONE_LINES {
        let gap = |other: &Line| {
            (other.bottom < top)
                .then(|| top - other.bottom)
                .or_else(|| (other.top > bottom).then(|| other.top - bottom))
        };
        let next = lines
            .iter()
            .filter(|other| {
                alike(other)
                    && other.top as f32 >= top as f32 - reach
                    && other.bottom as f32 <= bottom as f32 + reach
            })
            .filter_map(|other| Some((gap(other)?, other)))
            .min_by_key(|(gap, _)| *gap);
        let Some((_, other)) = next else { break };
        (top, bottom, taken) = (top.min(other.top), bottom.max(other.bottom), taken + 1);
    }
    let margin = if taken > 1 { MARGIN * tall } else { reach };
    (
        (top as f32 - margin).max(0.0) as u32,
        ((bottom as f32 + margin) as u32).min(height - 1),
    )
}

/// The rows `top..bottom` cut to [`MAX_HEIGHT_SHARE`] of the band's `width`, about
/// their middle: a band tall for its width reached past the zone, and the table there
/// only slowed tesseract down and misled it.
fn no_taller(top: u32, bottom: u32, width: u32) -> (u32, u32) {
    let half = (width as f32 * MAX_HEIGHT_SHARE / 2.0) as u32;
    let centre = (top + bottom) / 2;
    let top = top.max(centre.saturating_sub(half));
    (top, bottom.min(centre + half).max(top))
}

/// The columns the ink of `line` spans, with `margin` either side: from the first to
/// the last column whose ink is within a few line heights of more ink (a stray mark
/// beside the zone does not widen it). When that is nearly the whole photo, only ink in
/// pieces the size of a glyph counts: a striped table's stripes run on far above and
/// below the line, a zone's glyphs stay within it, and a band cut across the stripes
/// read as "1111" rather than its zone.
fn extent(dark: &GrayImage, line: Line, margin: u32) -> (u32, u32) {
    let whole = widest_run(dark, line, margin, |_| true);
    if (whole.1 - whole.0) * 10 < dark.width() * WHOLE_WIDTH_TENTHS {
        return whole;
    }
    let tall = line.bottom - line.top + 1;
    // The line's rows and room for a glyph's piece to show its size around them.
    let top = line.top.saturating_sub(2 * tall);
    let bottom = (line.bottom + 2 * tall).min(dark.height() - 1);
    let rows = imageops::crop_imm(dark, 0, top, dark.width(), bottom - top + 1).to_image();
    let (labels, pieces) = components::pieces(&rows, Connectivity::Eight);
    let glyph_sized = |p: &Piece| {
        p.bottom - p.top < GLYPH_TALLEST * tall && p.right - p.left < GLYPH_WIDEST * tall
    };
    widest_run(dark, line, margin, |x| {
        (line.top..=line.bottom).any(|y| {
            pieces
                .get(&labels.get_pixel(x, y - top).0[0])
                .is_some_and(glyph_sized)
        })
    })
}

/// The tenths of the photo's width from which only glyph-sized ink counts.
const WHOLE_WIDTH_TENTHS: u32 = 9;

/// A piece of ink as tall as this many line heights, or as wide, is no glyph's (glyphs
/// run together by blur stay narrower).
const GLYPH_TALLEST: u32 = 2;
const GLYPH_WIDEST: u32 = 4;

/// The longest run of the columns with ink in `line`'s rows that `counts`, with no gap
/// wider than three `margin`s, and `margin` either side.
fn widest_run(
    dark: &GrayImage,
    line: Line,
    margin: u32,
    counts: impl Fn(u32) -> bool,
) -> (u32, u32) {
    let inked: Vec<u32> = (0..dark.width())
        .filter(|&x| (line.top..=line.bottom).any(|y| dark.get_pixel(x, y).0[0] > 0))
        .filter(|&x| counts(x))
        .collect();
    let gap = margin * 3;
    // The longest run of inked columns with no gap wider than `gap`.
    let (mut best, mut start) = ((0, 0), None::<u32>);
    let mut last = 0;
    for &x in &inked {
        match start {
            Some(s) if x - last <= gap => {
                if x - s > best.1 - best.0 {
                    best = (s, x);
                }
            }
            _ => start = Some(x),
        }
        last = x;
    }
    (
        best.0.saturating_sub(margin),
        (best.1 + margin).min(dark.width() - 1),
    )
}

/// The share of a band's width, at either end, where the table beside the page is
/// looked for ([`without_table`]): a zone spans nearly all of its band.
const TABLE_SHARE: f32 = 0.15;

/// A column with ink in this share of the rows where the zone has none is the table's
/// (a cloth's weave, the page's edge): a glyph reaching out of its line crosses a row
/// or two of them.
const TABLE_COLUMN: f32 = 0.25;

/// A band with more than this share of its middle columns like the table's has ink of
/// its own between its lines (a guilloche, heavy noise): nothing is taken for a table.
const INKED_PAPER: f32 = 0.02;

/// A row with ink in fewer than this share of the band's busiest row's columns holds
/// none of the zone's lines.
const EMPTY_ROW: f32 = 0.02;

/// `band` (levelled) with the table beside the page made paper: the columns at either
/// end, within [`TABLE_SHARE`] of its width, up to the last whose ink reaches into the
/// rows where the zone has none (between, over and under its lines), take the paper's
/// light. Tesseract drew one box over a cloth's weave and the zone's first letter beside
/// it, taller than a glyph, and the letter was lost with it (seed 29: a number line read
/// without its first cell).
pub fn without_table(band: &GrayImage) -> GrayImage {
    let dark = ink(band, MEASURE_WIDTH.min(band.width()), BAND_INK_DELTA);
    let (width, height) = dark.dimensions();
    let inked = |x: u32, y: u32| dark.get_pixel(x, y).0[0] > 0;
    let middle = width / 4..width * 3 / 4;
    let per_row: Vec<usize> = (0..height)
        .map(|y| middle.clone().filter(|&x| inked(x, y)).count())
        .collect();
    let busiest = per_row.iter().copied().max().unwrap_or(0);
    // The zone's rows and a few either side, for its lines drift a row or two from one
    // end of the band to the other.
    let room = (height / 30).max(2) as usize;
    let lined: Vec<bool> = per_row
        .iter()
        .map(|&count| count as f32 > busiest as f32 * EMPTY_ROW)
        .collect();
    let empty: Vec<u32> = (0..height as usize)
        .filter(|&y| {
            !lined[y.saturating_sub(room)..(y + room + 1).min(lined.len())].contains(&true)
        })
        .map(|y| y as u32)
        .collect();
    if busiest == 0 || empty.len() < 4 {
        return band.clone();
    }
    let is_table = |x: u32| {
        empty.iter().filter(|&&y| inked(x, y)).count() as f32 >= empty.len() as f32 * TABLE_COLUMN
    };
    let inked_middle = middle.clone().filter(|&x| is_table(x)).count();
    if inked_middle as f32 > middle.len() as f32 * INKED_PAPER {
        return band.clone();
    }
    let reach = (width as f32 * TABLE_SHARE) as u32;
    let scale = |x: u32| (x as f32 * band.width() as f32 / width as f32) as u32;
    let strip = scale(reach) / 4;
    // The most columns made paper beyond the table's last: a glyph whose line drifts
    // into the rows taken for empty is not taken for the table's fringe.
    let fringe = width / 50;
    // A glyph's column: ink in the zone's rows, none in the others.
    let zone_ink = |x: u32| (0..height).any(|y| inked(x, y)) && !empty.iter().any(|&y| inked(x, y));
    // From the last table column from the left (the first from the right) to halfway to
    // the zone's first glyph beyond it: the table's last faint marks along the page's
    // edge go with it (left, they read as a 1 or an I before the zone), and the zone's
    // first glyph keeps its margin. Beside it, the paper whose light it takes.
    let left = (0..reach).rev().find(|&x| is_table(x)).map(|x| {
        let ink = (x + 1..width).find(|&x| zone_ink(x)).unwrap_or(x + 1);
        let end = scale(((x + 1 + ink) / 2).min(x + 1 + fringe));
        (0..end, end..end + strip)
    });
    let right = (width - reach..width).find(|&x| is_table(x)).map(|x| {
        let ink = (0..x).rev().find(|&x| zone_ink(x)).unwrap_or(x);
        let start = scale((x + ink).div_ceil(2).max(x.saturating_sub(fringe)));
        (start..band.width(), start.saturating_sub(strip)..start)
    });
    let mut cleared = band.clone();
    for (table, paper) in [left, right].into_iter().flatten() {
        let light = paper_light(band, paper);
        for x in table.filter(|&x| x < band.width()) {
            for y in 0..band.height() {
                cleared.put_pixel(x, y, Luma([light]));
            }
        }
    }
    cleared
}

/// The paper's light in `columns` of `band`: the level three quarters of their pixels
/// are under (glyphs' ink is a small share of a zone's rows).
fn paper_light(band: &GrayImage, columns: std::ops::Range<u32>) -> u8 {
    let (left, right) = (
        columns.start.min(band.width()),
        columns.end.min(band.width()),
    );
    let strip = imageops::crop_imm(band, left, 0, right - left, band.height()).to_image();
    quality::percentile(&strip, 0.75)
}

#[cfg(test)]
mod tests {
    use image::DynamicImage;

    use super::*;
    use fixtures::passport::Passport;

    #[test]
    fn the_zone_is_the_busiest_band_of_a_page_on_a_table() {
        let page = Passport::sample().page(None).expect("the OCR-B typeface");
        let page = DynamicImage::ImageRgb8(page).into_luma8();
        // The page on a dark table, 300 px of it around.
        let mut photo = GrayImage::from_pixel(page.width() + 600, page.height() + 600, Luma([60]));
        imageops::replace(&mut photo, &page, 300, 300);
        let found = bands(&photo);
        let zone = found.first().expect("a band");
        // The zone: most of the page's width, a few lines tall, none of the table.
        assert!(
            zone.width() > page.width() * 8 / 10,
            "{:?}",
            zone.dimensions()
        );
        assert!(zone.width() < page.width() + 100, "{:?}", zone.dimensions());
        assert!(zone.height() < page.height() / 2, "{:?}", zone.dimensions());
        assert!(bands(&GrayImage::from_pixel(800, 600, Luma([200]))).is_empty());
    }

    #[test]
    fn a_striped_table_beside_the_page_is_left_out_of_the_band() {
        let page = Passport::sample().page(None).expect("the OCR-B typeface");
        let page = DynamicImage::ImageRgb8(page).into_luma8();
        // Dark stripes 24 px thick every 60 px, slanting down 1 in 2, 400 px either side.
        let mut photo = GrayImage::from_fn(page.width() + 800, page.height() + 200, |x, y| {
            Luma([if (y + x / 2) % 60 < 24 { 50 } else { 170 }])
        });
        imageops::replace(&mut photo, &page, 400, 100);
        let zone = bands(&photo).into_iter().next().expect("a band");
        assert!(
            zone.width() > page.width() * 8 / 10,
            "{:?}",
            zone.dimensions()
        );
        assert!(zone.width() < page.width() + 100, "{:?}", zone.dimensions());
    }

    #[test]
    fn a_fine_weave_above_and_below_the_page_is_no_band() {
        let page = Passport::sample().page(None).expect("the OCR-B typeface");
        let page = DynamicImage::ImageRgb8(page).into_luma8();
        // A weave of thin dark threads crossing at 45 degrees, 16 px apart: each row
        // of it crosses more strokes than the zone's, none longer than a glyph's.
        let weave = |x: u32, y: u32| (x + y) % 16 < 3 || (x + 16_000 - y) % 16 < 3;
        let mut photo = GrayImage::from_fn(page.width(), page.height() + 1200, |x, y| {
            Luma([if weave(x, y) { 40 } else { 190 }])
        });
        imageops::replace(&mut photo, &page, 0, 600);
        let zone = bands(&photo).into_iter().next().expect("a band");
        // The zone's band is the page's light paper with a few lines of glyphs; a band
        // of the weave is a fifth or more dark threads.
        let dark = zone.pixels().filter(|p| p.0[0] < 100).count();
        assert!(
            dark * 8 < (zone.width() * zone.height()) as usize,
            "{dark} dark pixels in {:?}",
            zone.dimensions()
        );
        assert!(zone.height() < page.height() / 2, "{:?}", zone.dimensions());
    }

    #[test]
    fn only_pieces_of_ink_the_size_of_glyphs_are_kept() {
        let mut dark = GrayImage::new(300, 200);
        // A glyph 20 by 30, and a thread 1 px wide running 100 px down a slant.
        for (x, y) in (10..30).flat_map(|x| (10..40).map(move |y| (x, y))) {
            dark.put_pixel(x, y, Luma([255]));
        }
        for i in 0..100 {
            dark.put_pixel(100 + i, 50 + i, Luma([255]));
        }
        let kept = no_larger_than_glyphs(&dark);
        assert_eq!(kept.get_pixel(20, 20).0[0], 255);
        assert_eq!(kept.get_pixel(150, 100).0[0], 0);
        assert_eq!(kept.pixels().filter(|p| p.0[0] > 0).count(), 20 * 30);
    }

    #[test]
    fn a_dotted_rule_a_row_tall_does_not_hide_a_sparse_name_line() {
        // A name line of bars 24 px apart over a number line of bars 12 apart (25 rows
        // each, 16 between them), and under them a dotted rule crossing twice as many
        // strokes as the number line in one row (a page's border).
        let photo = GrayImage::from_fn(1000, 800, |x, y| {
            let across = (200..800).contains(&x);
            let name = (300..325).contains(&y) && x % 24 < 6;
            let number = (341..366).contains(&y) && x % 12 < 6;
            let rule = y == 400 && x % 6 < 3;
            Luma([if across && (name || number || rule) {
                20
            } else {
                200
            }])
        });
        let zone = bands(&photo).into_iter().next().expect("a band");
        // Both lines with a margin (66 rows and 30 either side), not the number line
        // alone with room for lines it did not find (25 and 112 either side).
        assert!(
            (66..150).contains(&zone.height()),
            "{:?}",
            zone.dimensions()
        );
    }

    #[test]
    fn marks_narrower_than_a_zone_of_the_smallest_document_make_no_band() {
        // Three lines of glyph-like bars (6 px wide, 6 apart, 24 tall) on a plain photo
        // 3000 px wide, `width` px of it.
        let marks = |width: u32| {
            GrayImage::from_fn(3000, 2000, |x, y| {
                let (x, y) = (x.wrapping_sub(1000), y.wrapping_sub(900));
                let bar = x < width && x % 12 < 6 && y < 120 && y % 40 < 24;
                Luma([if bar { 20 } else { 200 }])
            })
        };
        // Across a third of the photo, as a small document's zone: a band.
        let zone = bands(&marks(1000)).into_iter().next().expect("a band");
        assert!(zone.width() >= 1000, "{:?}", zone.dimensions());
        // Across a tenth: a table's pattern or a guilloche, not worth a read.
        assert!(bands(&marks(300)).is_empty());
    }

    #[test]
    fn two_lines_merged_by_the_rows_between_them_are_split_at_the_valley() {
        // Rows 10-16 of one line, 18-22 of another, row 17 between them busy enough
        // to pass the threshold but well under both.
        let mut edges = vec![0; 30];
        edges[10..17].copy_from_slice(&[40, 56, 70, 72, 68, 56, 42]);
        edges[17] = 32;
        edges[18..23].copy_from_slice(&[44, 46, 48, 42, 40]);
        let merged = Line {
            top: 10,
            bottom: 22,
            edges: 72,
        };
        let parts: Vec<(u32, u32)> = split(&edges, merged)
            .iter()
            .map(|line| (line.top, line.bottom))
            .collect();
        assert_eq!(parts, [(10, 16), (18, 22)]);
        // One line's own dips are no valley.
        let one = Line {
            top: 10,
            bottom: 16,
            edges: 72,
        };
        assert_eq!(split(&edges, one).len(), 1);
    }

    /// A band 1200 x 160 of paper (200) with two lines of glyph-like bars (10 px wide,
    /// 25 tall, every 26 px from x 120) and a cloth's weave (dots of 60) where `weave`
    /// says.
    fn band_with(weave: impl Fn(u32, u32) -> bool) -> GrayImage {
        GrayImage::from_fn(1200, 160, |x, y| {
            let line = (40..65).contains(&y) || (100..125).contains(&y);
            let bar = line && (120..1150).contains(&x) && (x - 120) % 26 < 10;
            let dot = weave(x, y) && x % 6 < 3 && y % 6 < 3;
            Luma([if bar || dot { 60 } else { 200 }])
        })
    }

    #[test]
    fn the_table_beside_a_band_is_made_paper_and_the_zone_kept() {
        // A weave at either end, up to 80 px from the bars.
        let band = band_with(|x, _| !(40..1190).contains(&x));
        let cleared = without_table(&band);
        let darkest = |x: std::ops::Range<u32>| {
            x.flat_map(|x| (0..160).map(move |y| (x, y)))
                .map(|(x, y)| cleared.get_pixel(x, y).0[0])
                .min()
        };
        assert!(darkest(0..40) > Some(150), "{:?}", darkest(0..40));
        assert!(darkest(1190..1200) > Some(150), "{:?}", darkest(1190..1200));
        // Every bar as it was.
        for x in 110..1160 {
            for y in 0..160 {
                assert_eq!(cleared.get_pixel(x, y), band.get_pixel(x, y), "{x},{y}");
            }
        }
    }

    #[test]
    fn a_band_with_ink_between_its_lines_throughout_or_nowhere_is_left_as_it_is() {
        // A guilloche (here a weave) across the whole band: no table to tell apart.
        let everywhere = band_with(|_, _| true);
        assert_eq!(without_table(&everywhere), everywhere);
        let nowhere = band_with(|_, _| false);
        assert_eq!(without_table(&nowhere), nowhere);
    }

    #[test]
    fn a_band_is_never_much_taller_than_a_zone_for_its_width() {
        // 400 columns wide: at most 140 rows, about the middle.
        assert_eq!(no_taller(410, 630, 400), (450, 590));
        // A band already short enough is kept.
        assert_eq!(no_taller(490, 540, 400), (490, 540));
    }

    #[test]
    fn a_band_spans_the_zone_lines_and_little_more() {
        let line = |top, bottom, edges| Line { top, bottom, edges };
        // A zone's two lines, 10 rows tall, a line of the page's text far above, and a
        // cloth's stripes just under the page.
        let lines = [
            line(20, 29, 80),
            line(100, 109, 120),
            line(125, 134, 118),
            line(160, 400, 200),
        ];
        let (top, bottom) = rows(&lines, lines[1], 1000);
        assert_eq!((top, bottom), (88, 146));
        // A line alone: room for the zone's other lines either way.
        let (top, bottom) = rows(&lines[..1], lines[0], 1000);
        assert_eq!((top, bottom), (0, 74));
        // Seed 29's zone: a name line's rows over the threshold (its fillers' middle)
        // 3.7 line heights over its number line's, still the zone's.
        let zone = [line(545, 553, 112), line(578, 586, 122)];
        assert_eq!(rows(&zone, zone[1], 1000), (534, 596));
    }
}
