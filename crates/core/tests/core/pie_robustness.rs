//! 12 000 deterministic mutations of real PIE files (truncation, flipped bytes, inserted
//! junk, huge counts, deleted / duplicated lines): the loader must never panic, what it
//! accepts must be a valid model, and what it holds must be bounded by the input size
//! (a header count must never make it allocate what the bytes cannot back).

use crate::common;

use common::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use vitrine_core::formats;
use vitrine_core::model::{Format, Pose};
use vitrine_test_needs::vitrine_test;

const VARIANTS: usize = 12_000;

fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    files.extend(common::model_files(&common::wz2100()));
    files.extend(common::model_files(&common::fixtures().join("pie")));
    files
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

const JUNK: &[&str] = &[
    "LEVEL",
    "LEVELS",
    "POINTS",
    "POLYGONS",
    "NORMALS",
    "CONNECTORS",
    "ANIMOBJECT",
    "SHADOWPOINTS",
    "SHADOWPOLYGONS",
    "BSP",
    "TEXTURE",
    "TCMASK",
    "EVENT",
    "TYPE",
    "PIE",
    "-",
    ".",
    "1e39",
    "-1e39",
    "nan",
    "inf",
    "-1",
    "0",
    "4294967295",
    "ffffffffff",
    "\r",
    "\n",
    "\r\n",
    "#",
    "\x1a",
    "\0",
    "\t",
    "  ",
    "é",
    "\u{feff}",
    "999999999999999999999",
];

const HUGE: &[&str] = &[
    "99999999",
    "4294967295",
    "4294967296",
    "8192",
    "8193",
    "65536",
    "0",
];

const COUNTED: &[&str] = &[
    "POINTS",
    "POLYGONS",
    "NORMALS",
    "CONNECTORS",
    "LEVELS",
    "ANIMOBJECT",
    "SHADOWPOINTS",
    "SHADOWPOLYGONS",
    "LEVEL",
    "PIE",
];

fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&b| b == b'\n').collect()
}

/// One mutation of `src`; returns the bytes and what was done.
fn mutate(rng: &mut Rng, src: &[u8]) -> (Vec<u8>, String) {
    let mut out = src.to_vec();
    let len = out.len();
    match rng.below(7) {
        0 => {
            let at = rng.below(len + 1);
            out.truncate(at);
            (out, format!("truncate at {at}"))
        }
        1 => {
            let n = 1 + rng.below(8);
            for _ in 0..n {
                if !out.is_empty() {
                    let at = rng.below(out.len());
                    out[at] = rng.next() as u8;
                }
            }
            (out, format!("flip {n} bytes"))
        }
        2 => {
            let at = rng.below(len + 1);
            let junk = if rng.below(2) == 0 {
                let mut s = format!(" {} ", JUNK[rng.below(JUNK.len())]);
                if rng.below(2) == 0 {
                    s.push_str(JUNK[rng.below(JUNK.len())]);
                }
                s.into_bytes()
            } else {
                (0..1 + rng.below(16)).map(|_| rng.next() as u8).collect()
            };
            out.splice(at..at, junk);
            (out, format!("insert junk at {at}"))
        }
        3 => {
            // A huge (or edge) count after a counted directive.
            let word = COUNTED[rng.below(COUNTED.len())].as_bytes();
            let starts: Vec<usize> = out
                .windows(word.len())
                .enumerate()
                .filter(|(_, w)| *w == word)
                .map(|(i, _)| i)
                .collect();
            let huge = HUGE[rng.below(HUGE.len())];
            if starts.is_empty() {
                return (out, "no directive to inflate".into());
            }
            let at = starts[rng.below(starts.len())] + word.len();
            // Replace the number after the directive.
            let num_start = at
                + out[at..]
                    .iter()
                    .take_while(|b| **b == b' ' || **b == b'\t')
                    .count();
            let num_end = num_start
                + out[num_start..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'.' || **b == b'-')
                    .count();
            out.splice(num_start..num_end, huge.bytes());
            (out, format!("count {huge} at {at}"))
        }
        4 | 5 => {
            let ls = lines(src);
            if ls.is_empty() {
                return (out, "empty".into());
            }
            let i = rng.below(ls.len());
            let mut v: Vec<u8> = Vec::with_capacity(len * 2);
            for (k, l) in ls.iter().enumerate() {
                if k != i {
                    v.extend_from_slice(l);
                } else if rng.below(2) == 0 {
                    // duplicate
                    v.extend_from_slice(l);
                    v.extend_from_slice(l);
                }
            }
            (v, format!("delete or duplicate line {}", i + 1))
        }
        _ => {
            // Several mutations at once.
            let (a, da) = mutate(rng, src);
            let (b, db) = mutate(rng, &a);
            (b, format!("{da}; {db}"))
        }
    }
}

#[vitrine_test(shared)]
fn mutated_files_never_panic_and_stay_bounded() {
    let seeds = seeds();
    assert!(!seeds.is_empty());
    let mut rng = Rng::new(0x005E_ED0F_091E);
    let (mut ok, mut failed) = (0usize, 0usize);
    for v in 0..VARIANTS {
        let (name, src) = &seeds[v % seeds.len()];
        let (bytes, what) = mutate(&mut rng, src);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let parsed = formats::parse(Format::Pie, &bytes, "m.pie", &Default::default());
            if let Ok(m) = &parsed {
                // The sampler must cope with whatever the loader accepted.
                for t in [0.0, 0.37, 1e6] {
                    let _ = Pose::sample(m, Some(0), t, 3);
                }
            }
            parsed
        }));
        let dump = || {
            let p = std::env::temp_dir().join(format!("pie-robustness-{v}.pie"));
            std::fs::write(&p, &bytes).ok();
            format!("variant {v} of {name} ({what}); bytes in {}", p.display())
        };
        let model = match result {
            Err(_) => panic!("panic on {}", dump()),
            Ok(Err(e)) => {
                assert!(!e.message.is_empty(), "empty message on {}", dump());
                failed += 1;
                continue;
            }
            Ok(Ok(m)) => m,
        };
        ok += 1;
        if let Err(e) = model.validate() {
            panic!("invalid model ({e}) on {}", dump());
        }
        // Everything held is backed by input bytes: a point needs at least 3 tokens
        // (6 bytes), a triangle corner at least 1 index token, a frame 10 tokens.
        let budget = 2 * bytes.len() + 64;
        let held: usize = model
            .meshes
            .iter()
            .map(|m| m.points.capacity() + m.corners.capacity())
            .sum::<usize>()
            + model.connectors.capacity()
            + model
                .shadow_meshes
                .iter()
                .map(|s| s.points.capacity() + 3 * s.triangles.capacity())
                .sum::<usize>()
            + model
                .clips
                .iter()
                .flat_map(|c| &c.node_tracks)
                .map(|t| t.translation.as_ref().map_or(0, |k| k.times.capacity()))
                .sum::<usize>();
        assert!(
            held <= budget,
            "{held} elements held for {} bytes on {}",
            bytes.len(),
            dump()
        );
    }
    eprintln!("{VARIANTS} variants: {ok} loaded, {failed} refused with an error");
    // Both outcomes must occur, or the mutations are not exercising the loader.
    assert!(
        ok > VARIANTS / 10 && failed > VARIANTS / 10,
        "{ok} ok, {failed} failed"
    );
}

#[test]
fn huge_counts_are_refused_before_allocating() {
    let cases = [
        "PIE 3 TYPE 200 LEVELS 99999999 LEVEL 1 POINTS 0 POLYGONS 0",
        "PIE 3 TYPE 200 LEVELS 1 LEVEL 1 POINTS 4294967295 0 0 0",
        "PIE 3 TYPE 200 LEVELS 1 LEVEL 1 POINTS 0 NORMALS 99999999 POLYGONS 0",
        "PIE 3 TYPE 200 LEVELS 1 LEVEL 1 POINTS 0 POLYGONS 8192",
        "PIE 3 TYPE 200 LEVELS 1 LEVEL 1 POINTS 0 POLYGONS 0 CONNECTORS 99999999",
        "PIE 3 TYPE 200 LEVELS 1 LEVEL 1 POINTS 0 POLYGONS 0 SHADOWPOINTS 99999999",
    ];
    for src in cases {
        let e = formats::parse(Format::Pie, src.as_bytes(), "huge.pie", &Default::default())
            .unwrap_err();
        assert_eq!(e.kind, formats::ErrorKind::CountTooLarge, "{src}: {e}");
    }
    // ANIMOBJECT frames past the end: the game reads the lines that are there (and
    // complains), so the loader does too, reserving nothing for the count.
    let src = "PIE 3 TYPE 200 LEVELS 1 LEVEL 1 POINTS 0 POLYGONS 0 ANIMOBJECT 1 0 99999999";
    let m = formats::parse(Format::Pie, src.as_bytes(), "huge.pie", &Default::default()).unwrap();
    assert_eq!(m.details.to_json()["levels"][0]["animation"]["frames"], 0);
    assert_eq!(m.diagnostics[0].rule, Some("pie/animobject-frames"));
}
