//! How long `duplicate_face` takes among many kept faces (contract §20: at most 100 ms at
//! p95 among 100 000 on the 2-core machine), the comparison alone: the faces already
//! read and opened, as 128 numbers each like dlib's descriptions (drawn at random, unit
//! length). Reading and opening them from the database is measured apart
//! (docs/BENCHMARKS.md). A measurement, not a test.
//!
//! `cargo run --release -p domain --example face_search -- [FACES] [SEARCHES]`

use std::time::{Duration, Instant};

use domain::document::Side;
use domain::profile::ProfileId;
use domain::signals::{Kept, Signal, duplicate_face};
use domain::template::Feature;
use domain::verification::{Examined, FaceDescriptor, ImageReport};

/// A small deterministic generator (xorshift), so runs compare.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    }

    fn face(&mut self) -> Vec<f32> {
        let raw: Vec<f32> = (0..128).map(|_| self.next()).collect();
        let norm = raw.iter().map(|x| x * x).sum::<f32>().sqrt();
        raw.into_iter().map(|x| x / norm).collect()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let faces: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let searches: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let mut draw = Draw(0x9E37_79B9_7F4A_7C15);
    let kept: Vec<Kept> = (0..faces)
        .map(|i| Kept {
            profile_id: ProfileId::new(format!("p{i}")),
            signal: Signal::Face(draw.face().into()),
            blocked: false,
        })
        .collect();
    let own = ProfileId::new("selfie's");
    let mut times: Vec<Duration> = Vec::with_capacity(searches);
    let mut found = 0;
    for _ in 0..searches {
        let selfie = Examined {
            document_id: "d".into(),
            step: Feature::SelfieUpload,
            side: None::<Side>,
            report: ImageReport {
                faces: Some(1),
                descriptor: Some(FaceDescriptor::Found(draw.face())),
                ..ImageReport::default()
            },
        };
        let began = Instant::now();
        let check = duplicate_face(true, &own, &[selfie], &kept);
        times.push(began.elapsed());
        found += usize::from(!check.reasons.is_empty());
    }
    times.sort();
    let at = |q: usize| times[(times.len() * q).div_ceil(100).saturating_sub(1)];
    let bytes = faces * (128 * 4 + std::mem::size_of::<Kept>() + 24);
    println!(
        "{faces} faces, {searches} searches: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms; \
         about {} MB held; {found} searches matched a random face",
        at(50).as_secs_f64() * 1000.0,
        at(95).as_secs_f64() * 1000.0,
        times.last().map_or(0.0, |t| t.as_secs_f64() * 1000.0),
        bytes / 1_000_000
    );
}
