//! How far a photographed page is turned, from its lines of text: projected on the
//! right angle, dark pixels pile up in a few rows (the lines) and the row counts'
//! sum of squares peaks. Tesseract reads an MRZ turned 5 degrees as noise.
//!
//! Dark means darker than the neighbourhood (not Otsu's global level, which on a photo
//! splits the table from the page rather than the ink from the paper), and every turn
//! is looked at, a degree apart, then refined: a page held at 30 degrees or stored a
//! quarter turn off is levelled like one held straight.

use image::imageops::{self, FilterType};
use image::{GrayImage, Luma};
use imageproc::distance_transform::Norm;
use imageproc::drawing::draw_polygon_mut;
use imageproc::filter::box_filter;
use imageproc::geometric_transformations::{Interpolation, Projection, warp_into};
use imageproc::geometry::convex_hull;
use imageproc::morphology::dilate;
use imageproc::point::Point;
use imageproc::region_labelling::Connectivity;

use crate::components;

/// The step of the first sweep, over every turn, in degrees.
const COARSE_STEP: f32 = 1.0;

/// How far either way, in degrees, [`residual_skew`] looks.
const RESIDUAL_REACH: f32 = 4.0;

/// How far apart, in degrees, the two turns [`skews`] offers are at least: a cloth's
/// stripes 5 degrees off the page's lines outscored them.
const DISTINCT_DEGREES: f32 = 3.0;

/// How far from the best turn, in degrees, a turn is across it rather than beside it:
/// a page's lines are a quarter turn from its glyphs' uprights.
const ACROSS_DEGREES: f32 = 45.0;

/// The step of the refinement about the best coarse turn, in degrees.
const FINE_STEP: f32 = 0.25;

/// Under this turn, in degrees, a page is read as it is (tesseract copes).
const NEGLIGIBLE: f32 = 1.0;

/// The width the angle is measured at: enough for lines of 30-pixel glyphs to stand out.
const MEASURE_WIDTH: u32 = 700;

/// A pixel is ink when this much darker than the mean around it.
const INK_DELTA: i16 = 20;

/// The radius of that neighbourhood at the measuring width: wider than a stroke.
const INK_RADIUS: u32 = 6;

/// The longest run of ink along a row that is a stroke of text where ink is measured
/// (700-1000 pixels across): the bar of a T or an E of a zone across the whole photo
/// is about 12 pixels; a cloth's stripes turned 16 degrees from the text cross a row in
/// 20 or more.
pub const STROKE_ACROSS: u32 = 16;

/// The longest run of ink down a column that is a stroke: the upright of a zone's glyph
/// on a band as wide as the zone is about 30 pixels.
pub const STROKE_DOWN: u32 = 40;

/// The ink of `gray` (255) at `width` pixels across: pixels `delta` levels or more
/// darker than their neighbourhood, so that neither a dark table nor a shadow counts.
pub fn ink(gray: &GrayImage, width: u32, delta: i16) -> GrayImage {
    let (w, h) = gray.dimensions();
    let height = ((u64::from(h) * u64::from(width) / u64::from(w.max(1))) as u32).max(1);
    let small = imageops::resize(gray, width, height, FilterType::Triangle);
    darker_than_around(&small, INK_RADIUS, delta)
}

/// `dark` (ink 255) without its runs of ink longer than `across` along a row or `down`
/// along a column: strokes of text are short both ways, the stripes of a cloth or a
/// table's boards are long one way or the other, and counted as ink they outscored
/// the text's lines.
pub fn strokes_only(dark: &GrayImage, across: u32, down: u32) -> GrayImage {
    let (width, height) = dark.dimensions();
    let inked = |x: u32, y: u32| dark.get_pixel(x, y).0[0] > 0;
    let mut strokes = dark.clone();
    let mut clear_long = |cells: &mut dyn Iterator<Item = (u32, u32)>, longest: u32| {
        let mut run: Vec<(u32, u32)> = Vec::new();
        for cell in cells.map(Some).chain([None]) {
            match cell {
                Some((x, y)) if inked(x, y) => run.push((x, y)),
                _ => {
                    if run.len() > longest as usize {
                        for &(x, y) in &run {
                            strokes.put_pixel(x, y, Luma([0]));
                        }
                    }
                    run.clear();
                }
            }
        }
    };
    for y in 0..height {
        clear_long(&mut (0..width).map(|x| (x, y)), across);
    }
    for x in 0..width {
        clear_long(&mut (0..height).map(|y| (x, y)), down);
    }
    strokes
}

/// 255 where a pixel of `image` is `delta` levels or more darker than the mean of the
/// square of `radius` around it, 0 elsewhere: flat paper or table has no such pixel,
/// whatever its light.
pub fn darker_than_around(image: &GrayImage, radius: u32, delta: i16) -> GrayImage {
    let mean = box_filter(image, radius, radius);
    GrayImage::from_fn(image.width(), image.height(), |x, y| {
        let (p, m) = (
            i16::from(image.get_pixel(x, y).0[0]),
            i16::from(mean.get_pixel(x, y).0[0]),
        );
        Luma([if p + delta < m { 255 } else { 0 }])
    })
}

/// The angles in degrees, clockwise, in (-90, 90], the text of `gray` is likeliest
/// turned by: the best, the best other peak at least [`DISTINCT_DEGREES`] from it (a
/// cloth's stripes, thin as strokes, can outscore the text) and, when those two are
/// within [`ACROSS_DEGREES`] of each other, the best across them; on a textured table,
/// the turn of the ink on the document's paper (`paper`) first, then the others that
/// differ from it. None for a blank image.
pub fn skews(gray: &GrayImage) -> Vec<f32> {
    let Some(dark) = measured_ink(gray) else {
        return Vec::new();
    };
    let strokes = strokes_only(&dark, STROKE_ACROSS, STROKE_DOWN);
    let Some(profile) = Profile::within(&strokes, None) else {
        return Vec::new();
    };
    let mut turns = peaks(&profile);
    // A document on a textured table: its own ink's turn first, whichever the table's.
    let paper = paper(&dark)
        .and_then(|paper| Profile::within(&strokes, Some(&paper)))
        .and_then(|paper| peaks(&paper).first().copied());
    if let Some(turn) = paper {
        turns.retain(|&other| apart(turn, other));
        turns.insert(0, turn);
        turns.truncate(3);
    }
    turns
}

/// Whether two turns are [`DISTINCT_DEGREES`] or more apart, half a turn being none.
fn apart(one: f32, other: f32) -> bool {
    apart_by(one, other, DISTINCT_DEGREES)
}

/// Whether two turns are `degrees` or more apart, half a turn being none.
fn apart_by(one: f32, other: f32, degrees: f32) -> bool {
    let d = (one - other).rem_euclid(180.0);
    d.min(180.0 - d) >= degrees
}

/// The best turn of `profile`, the best other peak at least [`DISTINCT_DEGREES`] from it
/// and, when those two are within [`ACROSS_DEGREES`], the best peak across them, each
/// refined to a [`FINE_STEP`].
fn peaks(profile: &Profile) -> Vec<f32> {
    let score = |angle: f32| profile.score(angle);
    let coarse: Vec<(f32, f64)> = (-89..=90)
        .map(|step| step as f32 * COARSE_STEP)
        .map(|angle| (angle, score(angle)))
        .collect();
    let best_of = |angles: &mut dyn Iterator<Item = (f32, f64)>| {
        angles
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(angle, _)| angle)
    };
    let refined = |coarse: f32| {
        let fine = profile.best_near(coarse, COARSE_STEP);
        if fine > 90.0 {
            fine - 180.0
        } else if fine <= -90.0 {
            fine + 180.0
        } else {
            fine
        }
    };
    let Some(first) = best_of(&mut coarse.iter().copied()) else {
        return Vec::new();
    };
    // The next turn is a peak of its own, not the best one's slope.
    let n = coarse.len();
    let peaks = (0..n).filter(|&i| {
        let score = coarse[i].1;
        score >= coarse[(i + n - 1) % n].1 && score >= coarse[(i + 1) % n].1
    });
    let peaks: Vec<(f32, f64)> = peaks.map(|i| coarse[i]).collect();
    let second = best_of(&mut peaks.iter().copied().filter(|(a, _)| apart(*a, first)));
    // A page's lines and its glyphs' uprights both pile up: when the two best peaks are
    // one of them, bent apart by keystone (seed 27: -82.5 and -78.5 for a page turned
    // 9.5 degrees), the best across them is the other.
    let across = second
        .filter(|&second| !apart_by(first, second, ACROSS_DEGREES))
        .and_then(|_| {
            best_of(
                &mut peaks
                    .iter()
                    .copied()
                    .filter(|(a, _)| apart_by(*a, first, ACROSS_DEGREES)),
            )
        });
    std::iter::once(first)
        .chain(second)
        .chain(across)
        .map(refined)
        .collect()
}

/// `gray` turned back by `degrees` on a canvas grown to hold all of it, the new corners
/// white.
pub fn turned_back(gray: &GrayImage, degrees: f32) -> GrayImage {
    turn_back(gray, degrees, Interpolation::Bilinear, 255).0
}

/// `image` turned back by `degrees` (clockwise) on a canvas grown to hold all of it, the
/// new corners `fill`, with the projection from `image`'s pixels to the canvas's.
pub fn turn_back(
    image: &GrayImage,
    degrees: f32,
    interpolation: Interpolation,
    fill: u8,
) -> (GrayImage, Projection) {
    let theta = degrees.to_radians();
    let (w, h) = (image.width() as f32, image.height() as f32);
    let (sin, cos) = (theta.sin().abs(), theta.cos().abs());
    let (cw, ch) = ((w * cos + h * sin).ceil(), (w * sin + h * cos).ceil());
    let projection = Projection::translate(-w / 2.0, -h / 2.0)
        .and_then(Projection::rotate(-theta))
        .and_then(Projection::translate(cw / 2.0, ch / 2.0));
    let mut canvas = GrayImage::new(cw as u32, ch as u32);
    warp_into(image, &projection, interpolation, Luma([fill]), &mut canvas);
    (canvas, projection)
}

/// The turn left in `gray` already levelled as a whole, within [`RESIDUAL_REACH`]
/// degrees either way, to a [`FINE_STEP`]: a zone's lines on a page photographed at a
/// slant are not parallel to the page's other lines, and are measured on their own band.
pub fn residual_skew(gray: &GrayImage) -> f32 {
    Profile::of(gray).map_or(0.0, |profile| profile.best_near(0.0, RESIDUAL_REACH))
}

/// How far from any ink, in pixels at [`MEASURE_WIDTH`], a pixel is paper or a plain
/// table: a cloth's stripes or waves, some 20 pixels apart there, leave none of it.
const PAPER_RADIUS: u8 = 8;

/// The share of the photo a region clear of ink covers to be a document's paper: less
/// is no document (the corpus's smallest card covers a tenth of the photo, less its
/// print), more is a plain table with the paper.
const PAPER_SHARE: (f64, f64) = (0.04, 0.6);

/// The ink of `gray` at [`MEASURE_WIDTH`], or `None` for an empty image.
fn measured_ink(gray: &GrayImage) -> Option<GrayImage> {
    let (width, height) = gray.dimensions();
    (width > 0 && height > 0).then(|| ink(gray, MEASURE_WIDTH, INK_DELTA))
}

/// Where the paper of a document on a textured table lies in `dark` (its ink), as a
/// mask: the hull of the largest region with no ink near it ([`PAPER_RADIUS`]), grown
/// to the paper's edge. On a plain table that region is the table and the paper
/// together, nearly the whole photo, and there is no paper of its own (`None`).
fn paper(dark: &GrayImage) -> Option<GrayImage> {
    let mut clear = dilate(dark, Norm::LInf, PAPER_RADIUS);
    imageops::invert(&mut clear);
    let (labels, pieces) = components::pieces(&clear, Connectivity::Four);
    let (&label, piece) = pieces.iter().max_by_key(|(_, piece)| piece.pixels)?;
    let area = u64::from(dark.width()) * u64::from(dark.height());
    let share = piece.pixels as f64 / area as f64;
    if !(PAPER_SHARE.0..PAPER_SHARE.1).contains(&share) {
        return None;
    }
    // Each row's first and last pixel of the region: enough for its hull.
    let in_region = |x: u32, y: u32| labels.get_pixel(x, y).0[0] == label;
    let ends: Vec<Point<i32>> = (piece.top..=piece.bottom)
        .flat_map(|y| {
            let mut row = (piece.left..=piece.right).filter(move |&x| in_region(x, y));
            let first = row.next();
            let last = row.next_back().or(first);
            first
                .into_iter()
                .chain(last)
                .map(move |x| Point::new(x as i32, y as i32))
        })
        .collect();
    let hull = convex_hull(ends);
    if hull.len() < 3 {
        return None;
    }
    let mut paper = GrayImage::new(dark.width(), dark.height());
    draw_polygon_mut(&mut paper, &hull, Luma([255]));
    // The region stops short of the ink along the paper's edge, and a zone's lines run
    // close to it.
    Some(dilate(&paper, Norm::LInf, 2 * PAPER_RADIUS))
}

/// The ink of an image, for scoring turns: turned back by the right angle, its pixels
/// pile up in a few rows (the lines) and the row counts' sum of squares peaks.
struct Profile {
    points: Vec<(f32, f32)>,
    diagonal: usize,
}

impl Profile {
    /// The ink of `gray` at [`MEASURE_WIDTH`], or `None` when it has none.
    fn of(gray: &GrayImage) -> Option<Self> {
        let dark = measured_ink(gray)?;
        Self::within(&strokes_only(&dark, STROKE_ACROSS, STROKE_DOWN), None)
    }

    /// The ink of `strokes` (255), within `region` (255) when there is one, or `None`
    /// when there is none.
    fn within(strokes: &GrayImage, region: Option<&GrayImage>) -> Option<Self> {
        let points: Vec<(f32, f32)> = strokes
            .enumerate_pixels()
            .filter(|(x, y, p)| p.0[0] > 0 && region.is_none_or(|r| r.get_pixel(*x, *y).0[0] > 0))
            .map(|(x, y, _)| (x as f32, y as f32))
            .collect();
        let diagonal = (strokes.width() + strokes.height()) as usize;
        (!points.is_empty()).then_some(Self { points, diagonal })
    }

    /// The best-scoring angle within `reach` degrees of `centre`, a [`FINE_STEP`] apart.
    fn best_near(&self, centre: f32, reach: f32) -> f32 {
        let steps = (reach / FINE_STEP) as i32;
        (-steps..=steps)
            .map(|step| centre + step as f32 * FINE_STEP)
            .map(|angle| (angle, self.score(angle)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(centre, |(angle, _)| angle)
    }

    /// How well the ink, turned back by `angle` degrees, piles up in rows.
    fn score(&self, angle: f32) -> f64 {
        let (sin, cos) = angle.to_radians().sin_cos();
        let mut rows = vec![0u32; 2 * self.diagonal + 1];
        for (x, y) in &self.points {
            // The row of the point on a page turned back by `angle`.
            let row = (y * cos - x * sin).round() as isize + self.diagonal as isize;
            if let Some(count) = rows.get_mut(row.max(0) as usize) {
                *count += 1;
            }
        }
        rows.iter().map(|c| f64::from(*c).powi(2)).sum::<f64>()
    }
}

/// `gray` turned back by `degrees`, or `None` when that is under [`NEGLIGIBLE`]
/// (tesseract copes). A quarter or half turn is undone exactly, pixel for pixel, and only
/// what is left beyond it resampled: resampling a whole quarter turn left a seam along the
/// canvas's edge, a row of alternating fill and table whose hundreds of edges outnumbered
/// a zone's (seed 27, a passport photo stored a quarter turn off without EXIF).
pub fn levelled(gray: &GrayImage, degrees: f32) -> Option<GrayImage> {
    let quarters = (degrees / 90.0).round();
    let rest = degrees - quarters * 90.0;
    // Turning back a clockwise turn is turning counter-clockwise.
    let quartered = match quarters.rem_euclid(4.0) as u8 {
        1 => Some(imageops::rotate270(gray)),
        2 => Some(imageops::rotate180(gray)),
        3 => Some(imageops::rotate90(gray)),
        _ => None,
    };
    if rest.abs() > NEGLIGIBLE {
        Some(turned_back(quartered.as_ref().unwrap_or(gray), rest))
    } else {
        quartered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixtures::degrade;
    use fixtures::passport::Passport;

    #[test]
    fn only_strokes_short_both_ways_are_kept() {
        let mut dark = GrayImage::new(60, 60);
        // A glyph's upright, 12 rows tall and 2 wide; a stripe 50 long; a bar 50 tall.
        for (x, y) in (10..12).flat_map(|x| (5..17).map(move |y| (x, y))) {
            dark.put_pixel(x, y, Luma([255]));
        }
        for x in 5..55 {
            dark.put_pixel(x, 30, Luma([255]));
        }
        for y in 5..55 {
            dark.put_pixel(50, y, Luma([255]));
        }
        let strokes = strokes_only(&dark, 16, 40);
        let kept = |x, y| strokes.get_pixel(x, y).0[0] > 0;
        assert!(kept(10, 5) && kept(11, 16));
        assert!(!kept(5, 30) && !kept(30, 30));
        assert!(!kept(50, 10) && !kept(50, 54));
    }

    #[test]
    fn the_turn_of_a_page_is_measured_to_the_step() {
        let page = Passport::sample().page(None).expect("the OCR-B typeface");
        for degrees in [-8.0, -3.0, 0.0, 5.0, 25.0, -40.0, 90.0] {
            let turned = image::DynamicImage::ImageRgb8(degrade::rotate(&page, degrees)).to_luma8();
            let measured = skews(&turned);
            assert!(
                (measured[0] - degrees).abs() <= FINE_STEP,
                "{degrees}: {measured:?}"
            );
        }
        assert!(skews(&GrayImage::new(0, 0)).is_empty());
        assert!(skews(&GrayImage::from_pixel(50, 50, Luma([200]))).is_empty());
    }

    #[test]
    fn a_page_stored_a_quarter_turn_off_is_turned_back_pixel_for_pixel() {
        let page = sample_page();
        for stored in [imageops::rotate90(&page), imageops::rotate270(&page)] {
            let measured = skews(&stored);
            let levelled = levelled(&stored, measured[0]).expect("a quarter turn");
            // The page's lines level either way up: which is tesseract's to tell.
            assert!(
                levelled == page || imageops::rotate180(&levelled) == page,
                "measured {measured:?}"
            );
        }
    }

    #[test]
    fn the_turn_across_two_close_peaks_is_offered_too() {
        // A keystoned page's glyph uprights leaning two ways (-82.5 and -78.5 degrees)
        // outscore its lines (9.75): the lines' turn is offered third.
        let line = |angle: f32, (x0, y0): (f32, f32), length: usize| {
            let (sin, cos) = angle.to_radians().sin_cos();
            (0..length).map(move |t| (x0 + t as f32 * cos, y0 + t as f32 * sin))
        };
        let mut points: Vec<(f32, f32)> = Vec::new();
        for k in 0..12 {
            points.extend(line(-82.5, (100.0 + 20.0 * k as f32, 400.0), 120));
            points.extend(line(-78.5, (400.0 + 20.0 * k as f32, 400.0), 120));
        }
        for k in 0..4 {
            points.extend(line(9.75, (100.0, 100.0 + 40.0 * k as f32), 150));
        }
        let turns = peaks(&Profile {
            points,
            diagonal: 1400,
        });
        let near = |turn: f32, want: f32| (turn - want).abs() <= FINE_STEP;
        assert!(
            turns.len() == 3
                && near(turns[0], -82.5)
                && near(turns[1], -78.5)
                && near(turns[2], 9.75),
            "{turns:?}"
        );
    }

    fn sample_page() -> GrayImage {
        let page = Passport::sample().page(None).expect("the OCR-B typeface");
        image::DynamicImage::ImageRgb8(page).to_luma8()
    }

    #[test]
    fn a_page_on_a_striped_cloth_is_offered_its_own_turn_too() {
        let page = sample_page();
        // Dark stripes 6 px wide every 16 px, at 30 degrees, all around the page.
        let (sin, cos) = 30f32.to_radians().sin_cos();
        let mut photo = GrayImage::from_fn(page.width() + 800, page.height() + 800, |x, y| {
            let across = (y as f32 * cos - x as f32 * sin).rem_euclid(16.0);
            Luma([if across < 6.0 { 50 } else { 170 }])
        });
        imageops::replace(&mut photo, &page, 400, 400);
        let measured = skews(&photo);
        // The stripes' and the page's, and across them.
        assert_eq!(measured.len(), 3, "{measured:?}");
        assert!(
            measured.iter().any(|m| m.abs() <= FINE_STEP),
            "{measured:?}"
        );
    }

    #[test]
    fn a_page_on_a_cloth_whose_stripes_outweigh_its_print_is_levelled_by_its_own_turn() {
        let page = sample_page();
        let (page_width, page_height) = (page.width() as f32, page.height() as f32);
        // The page turned 12 degrees clockwise about the middle of a photo three pages
        // wide, on `table`.
        let photo = |table: &dyn Fn(u32, u32) -> u8| {
            let (width, height) = (page.width() * 3, page.height() * 3);
            let (sin, cos) = 12f32.to_radians().sin_cos();
            GrayImage::from_fn(width, height, |x, y| {
                let (dx, dy) = (
                    x as f32 - width as f32 / 2.0,
                    y as f32 - height as f32 / 2.0,
                );
                let (px, py) = (
                    dx * cos + dy * sin + page_width / 2.0,
                    dy * cos - dx * sin + page_height / 2.0,
                );
                let on_page = (0.0..page_width).contains(&px) && (0.0..page_height).contains(&py);
                Luma([match on_page {
                    true => page.get_pixel(px as u32, py as u32).0[0],
                    false => table(x, y),
                }])
            })
        };
        // Dark stripes at 60 degrees, 40 of each 100 px: more ink than the page's print,
        // thin enough to pass for strokes.
        let (sin, cos) = 60f32.to_radians().sin_cos();
        let striped = photo(&|x, y| {
            let across = (y as f32 * cos - x as f32 * sin).rem_euclid(100.0);
            if across < 40.0 { 40 } else { 160 }
        });
        let measured = skews(&striped);
        assert!((measured[0] - 12.0).abs() <= FINE_STEP, "{measured:?}");
        let paper_of = |photo: &GrayImage| measured_ink(photo).and_then(|dark| paper(&dark));
        assert!(paper_of(&striped).is_some());
        // On a plain table the paper is no region of its own: the photo's turns as before.
        assert!(paper_of(&photo(&|_, _| 90)).is_none());
    }

    #[test]
    fn a_zone_left_turned_on_a_levelled_page_is_levelled_on_its_own() {
        let page = sample_page();
        let (w, h) = page.dimensions();
        let zone = imageops::crop_imm(&page, 0, h * 3 / 4, w, h / 4).to_image();
        for degrees in [-2.5, 1.75, 3.5] {
            let turned = turned_back(&zone, -degrees);
            let measured = residual_skew(&turned);
            assert!(
                (measured - degrees).abs() <= FINE_STEP,
                "{degrees}: {measured}"
            );
        }
        assert_eq!(
            residual_skew(&GrayImage::from_pixel(50, 50, Luma([200]))),
            0.0
        );
    }
}
