//! The mutation set: one fault each, of every kind the game's PIE loader knows, made in
//! a PIE 3 the writer wrote of one of the game's own models.

/// One fault of the kind the game's loader knows, made in a written PIE 3.
pub struct Mutation {
    /// What it is (README's table).
    pub name: &'static str,
    /// Changes the file's lines.
    pub edit: fn(&mut Vec<String>),
}

/// Index of the first line starting with `word` (the directive must be there).
fn at(lines: &[String], word: &str) -> usize {
    lines
        .iter()
        .position(|l| l.split_whitespace().next() == Some(word))
        .unwrap_or_else(|| panic!("no {word} line"))
}

/// Replaces word `k` of line `i`.
fn set_word(lines: &mut [String], i: usize, k: usize, value: &str) {
    let mut w: Vec<String> = lines[i].split_whitespace().map(String::from).collect();
    w[k] = value.to_string();
    let tab = if lines[i].starts_with('\t') { "\t" } else { "" };
    lines[i] = format!("{tab}{}", w.join(" "));
}

/// Adds `by` to the count on the first `word` line.
fn bump(lines: &mut [String], word: &str, by: i64) {
    let i = at(lines, word);
    let n: i64 = lines[i].split_whitespace().nth(1).unwrap().parse().unwrap();
    set_word(lines, i, 1, &(n + by).to_string());
}

/// The faults tried on the game: each line of the game's loader that can refuse or
/// complain, and the two disagreements the issue reported.
pub const MUTATIONS: &[Mutation] = &[
    Mutation {
        name: "unmodified",
        edit: |_| {},
    },
    Mutation {
        name: "version PIE 5",
        edit: |l| l[0] = "PIE 5".into(),
    },
    Mutation {
        name: "version PIE 1",
        edit: |l| l[0] = "PIE 1".into(),
    },
    Mutation {
        name: "first word not PIE",
        edit: |l| l[0] = "PIF 3".into(),
    },
    Mutation {
        name: "TYPE missing",
        edit: |l| {
            l.remove(at(l, "TYPE"));
        },
    },
    Mutation {
        name: "TYPE unknown bits",
        edit: |l| {
            let i = at(l, "TYPE");
            set_word(l, i, 1, "80200");
        },
    },
    Mutation {
        name: "TEXTURE not .png",
        edit: |l| {
            let i = at(l, "TEXTURE");
            set_word(l, i, 2, "page-11-player-buildings.bmp");
        },
    },
    Mutation {
        name: "TEXTURE page found nowhere",
        edit: |l| {
            let i = at(l, "TEXTURE");
            set_word(l, i, 2, "page-98-vitrine-nowhere.png");
        },
    },
    Mutation {
        name: "TEXTURE named by its page number only",
        edit: |l| {
            // The hosts' page is page-17-droid-weapons.png: old engines found it by its
            // `page-17` prefix, 4.3.3 looks the exact name up.
            let i = at(l, "TEXTURE");
            set_word(l, i, 2, "page-17-vitrine-prefix.png");
        },
    },
    Mutation {
        name: "TEXTURE page undecodable",
        edit: |l| {
            let i = at(l, "TEXTURE");
            set_word(l, i, 2, "page-99-vitrine-huge.png");
        },
    },
    Mutation {
        name: "TEXTURE tileset 3",
        edit: |l| {
            let i = at(l, "TEXTURE");
            set_word(l, i, 1, "3");
        },
    },
    Mutation {
        name: "TEXTURE missing",
        edit: |l| {
            l.remove(at(l, "TEXTURE"));
        },
    },
    Mutation {
        name: "EVENT type 4",
        edit: |l| {
            let i = at(l, "LEVELS");
            l.insert(i, "EVENT 4 gnmcan.pie".into());
        },
    },
    Mutation {
        name: "EVENT model found nowhere",
        edit: |l| {
            let i = at(l, "LEVELS");
            l.insert(i, "EVENT 1 vitrine-nowhere.pie".into());
        },
    },
    Mutation {
        name: "MATERIALS line",
        edit: |l| {
            let i = at(l, "LEVELS");
            l.insert(i, "MATERIALS 1 1 1 1 1 1 1 1 1 20".into());
        },
    },
    Mutation {
        name: "LEVELS one more than present",
        edit: |l| bump(l, "LEVELS", 1),
    },
    Mutation {
        name: "LEVELS missing",
        edit: |l| {
            l.remove(at(l, "LEVELS"));
        },
    },
    Mutation {
        name: "LEVEL out of sequence",
        edit: |l| {
            let i = at(l, "LEVEL");
            l[i] = "LEVEL 2".into();
        },
    },
    Mutation {
        name: "POINTS one more than present",
        edit: |l| bump(l, "POINTS", 1),
    },
    Mutation {
        name: "POINTS one fewer than present",
        edit: |l| bump(l, "POINTS", -1),
    },
    Mutation {
        name: "point with two numbers",
        edit: |l| {
            let i = at(l, "POINTS") + 1;
            let w: Vec<String> = l[i].split_whitespace().take(2).map(String::from).collect();
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "NORMALS one fewer line",
        edit: |l| {
            bump(l, "NORMALS", -1);
            let i = at(l, "NORMALS") + 1;
            l.remove(i);
        },
    },
    Mutation {
        name: "NORMALS count off by one",
        edit: |l| bump(l, "NORMALS", 1),
    },
    Mutation {
        name: "normal with 8 numbers",
        edit: |l| {
            let i = at(l, "NORMALS") + 1;
            let w: Vec<String> = l[i].split_whitespace().take(8).map(String::from).collect();
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "POLYGONS one more than present",
        edit: |l| bump(l, "POLYGONS", 1),
    },
    Mutation {
        name: "POLYGONS one fewer than present",
        edit: |l| bump(l, "POLYGONS", -1),
    },
    Mutation {
        name: "polygon with 4 points",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            let mut w: Vec<String> = l[i].split_whitespace().map(String::from).collect();
            w[1] = "4".into();
            let idx = w[2].clone();
            w.insert(5, idx);
            w.push("0".into());
            w.push("0".into());
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "polygon with 2 points",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            let mut w: Vec<String> = l[i].split_whitespace().map(String::from).collect();
            w[1] = "2".into();
            w.remove(4);
            w.truncate(w.len() - 2);
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "polygon index past POINTS",
        edit: |l| {
            let i = at(l, "POINTS");
            let n = l[i].split_whitespace().nth(1).unwrap().to_string();
            let p = at(l, "POLYGONS") + 1;
            set_word(l, p, 2, &n);
        },
    },
    Mutation {
        name: "polygon flags 0 (untextured)",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            let mut w: Vec<String> = l[i].split_whitespace().map(String::from).collect();
            w[0] = "0".into();
            w.truncate(5);
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "polygon flags 4200, 1 frame",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            let mut w: Vec<String> = l[i].split_whitespace().map(String::from).collect();
            w[0] = "4200".into();
            for (k, v) in ["1", "1", "0.5", "0.5"].iter().enumerate() {
                w.insert(5 + k, v.to_string());
            }
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "polygon UV not a number",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            set_word(l, i, 5, "x");
        },
    },
    Mutation {
        name: "CONNECTORS one more than present",
        edit: |l| {
            let i = l.len();
            l.insert(i, "CONNECTORS 2".into());
            l.push("\t1 2 3".into());
        },
    },
    Mutation {
        name: "connector with fractions",
        edit: |l| {
            l.push("CONNECTORS 1".into());
            l.push("\t1.5 -2.25 3.75".into());
        },
    },
    Mutation {
        name: "connector with two numbers",
        edit: |l| {
            l.push("CONNECTORS 1".into());
            l.push("\t1 2".into());
        },
    },
    Mutation {
        name: "ANIMOBJECT time 0",
        edit: |l| {
            l.push("ANIMOBJECT 0 0 1".into());
            l.push("\t0 0 0 0 0 0 0 1 1 1".into());
        },
    },
    Mutation {
        name: "ANIMOBJECT more frames than lines",
        edit: |l| {
            l.push("ANIMOBJECT 100 0 2".into());
            l.push("\t0 0 0 0 0 0 0 1 1 1".into());
        },
    },
    Mutation {
        name: "ANIMOBJECT frame not numbers",
        edit: |l| {
            l.push("ANIMOBJECT 100 0 1".into());
            l.push("\t0 a b c 0 0 0 1 1 1".into());
        },
    },
    Mutation {
        name: "ANIMOBJECT good",
        edit: |l| {
            l.push("ANIMOBJECT 100 0 2".into());
            l.push("\t0 0 0 0 0 0 0 1 1 1".into());
            l.push("\t1 0 1000 0 0 90000 0 1 1 1".into());
        },
    },
    Mutation {
        name: "SHADOWPOLYGONS without SHADOWPOINTS",
        edit: |l| {
            l.push("SHADOWPOLYGONS 1".into());
            l.push("\t0 3 0 1 2".into());
        },
    },
    Mutation {
        name: "SHADOWPOINTS without SHADOWPOLYGONS",
        edit: |l| {
            l.extend(["SHADOWPOINTS 3", "\t0 0 0", "\t1 0 0", "\t0 1 0"].map(String::from));
        },
    },
    Mutation {
        name: "shadow polygon flags 200",
        edit: |l| {
            l.extend(
                [
                    "SHADOWPOINTS 3",
                    "\t0 0 0",
                    "\t1 0 0",
                    "\t0 1 0",
                    "SHADOWPOLYGONS 1",
                    "\t200 3 0 1 2",
                ]
                .map(String::from),
            );
        },
    },
    Mutation {
        name: "shadow index past SHADOWPOINTS",
        edit: |l| {
            l.extend(
                [
                    "SHADOWPOINTS 3",
                    "\t0 0 0",
                    "\t1 0 0",
                    "\t0 1 0",
                    "SHADOWPOLYGONS 1",
                    "\t0 3 0 1 3",
                ]
                .map(String::from),
            );
        },
    },
    Mutation {
        name: "shadow mesh good",
        edit: |l| {
            l.extend(
                [
                    "SHADOWPOINTS 3",
                    "\t0 0 0",
                    "\t1 0 0",
                    "\t0 1 0",
                    "SHADOWPOLYGONS 1",
                    "\t0 3 0 1 2",
                ]
                .map(String::from),
            );
        },
    },
    Mutation {
        name: "unknown directive after the last level",
        edit: |l| l.push("BSP 1 2 3".into()),
    },
    Mutation {
        name: "CRLF line ends",
        edit: |l| {
            for x in l.iter_mut() {
                x.push('\r');
            }
        },
    },
    Mutation {
        name: "truncated inside POLYGONS",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            l.truncate(i);
        },
    },
];

/// Bitwise CRC-32 (PNG's), for the undecodable page.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for b in bytes {
        c ^= u32::from(*b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// A PNG that declares 60000 × 60000 pixels and holds a few bytes of them.
pub fn undecodable_png() -> Vec<u8> {
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut c = (data.len() as u32).to_be_bytes().to_vec();
        let body = [kind, data].concat();
        c.extend(&body);
        c.extend(crc32(&body).to_be_bytes());
        c
    };
    let mut ihdr = 60_000u32.to_be_bytes().to_vec();
    ihdr.extend(60_000u32.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    // A zlib stream of stored zero bytes, cut short.
    let mut idat = vec![0x78, 0x01, 0x00, 0x00, 0x40, 0xff, 0xbf];
    idat.extend(std::iter::repeat_n(0u8, 0x4000));
    [
        b"\x89PNG\r\n\x1a\n".to_vec(),
        chunk(b"IHDR", &ihdr),
        chunk(b"IDAT", &idat),
        chunk(b"IEND", &[]),
    ]
    .concat()
}
