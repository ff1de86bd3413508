use super::*;

/// Parses `body` as level 1 (the text after `LEVEL 1`) of a file of `version`.
fn level(version: u32, body: &str) -> Result<(Level, Vec<Diagnostic>), LoadError> {
    let mut w = Vec::new();
    let mut t = Tokens::new(body.as_bytes());
    parse_level(&mut t, version, 1, 1, true, &mut w).map(|(l, _)| (l, w))
}

const SQUARE: &str = "POINTS 4\n0 0 0\n10 0 0\n10 10 0\n0 10 0\n";

#[test]
fn points_are_read_in_file_order() {
    let (l, _) = level(3, "POINTS 2\n\t-4.0 4.0 8.0\n\t1 2 3\nPOLYGONS 0").unwrap();
    assert_eq!(
        l.points,
        vec![Vec3::new(-4.0, 4.0, 8.0), Vec3::new(1.0, 2.0, 3.0)]
    );
    // Several points on one line (legacy token stream).
    let (l, _) = level(2, "POINTS 2 -4 4 8 1 2 3 POLYGONS 0").unwrap();
    assert_eq!(l.points.len(), 2);
}

#[test]
fn polygons_table() {
    // (version, polygon lines, corners as (point, u, v), animated)
    type Case = (u32, &'static str, &'static [(u32, f32, f32)], bool);
    let cases: &[Case] = &[
        (
            3,
            "200 3 0 1 2 0.5 0.25 1 0 0 1",
            &[(0, 0.5, 0.25), (1, 1.0, 0.0), (2, 0.0, 1.0)],
            false,
        ),
        (
            2,
            "200 3 0 1 2 128 64 256 0 0 256",
            &[(0, 0.5, 0.25), (1, 1.0, 0.0), (2, 0.0, 1.0)],
            false,
        ),
        // A quad is fanned around its first point, UVs with it.
        (
            2,
            "200 4 0 1 2 3 0 0 256 0 256 256 0 256",
            &[
                (0, 0.0, 0.0),
                (1, 1.0, 0.0),
                (2, 1.0, 1.0),
                (0, 0.0, 0.0),
                (2, 1.0, 1.0),
                (3, 0.0, 1.0),
            ],
            false,
        ),
        // Untextured: no UVs follow.
        (
            3,
            "0 3 2 1 0",
            &[(2, 0.0, 0.0), (1, 0.0, 0.0), (0, 0.0, 0.0)],
            false,
        ),
        // Degenerate triangles are kept.
        (
            3,
            "200 3 1 1 2 0 0 0 0 0 0",
            &[(1, 0.0, 0.0), (1, 0.0, 0.0), (2, 0.0, 0.0)],
            false,
        ),
        // +4000: frames, rate, width, height, then UVs.
        (
            3,
            "4200 3 0 1 2 4 300 0.5 0.5 0 0 0.5 0 0 0.5",
            &[(0, 0.0, 0.0), (1, 0.5, 0.0), (2, 0.0, 0.5)],
            true,
        ),
    ];
    for (version, poly, want, animated) in cases {
        let src = format!("{SQUARE}POLYGONS 1\n\t{poly}\n");
        let (l, _) = level(*version, &src).unwrap_or_else(|e| panic!("{poly}: {e}"));
        let got: Vec<_> = l
            .corners
            .iter()
            .map(|c| (c.point, c.uv[0].x, c.uv[0].y))
            .collect();
        assert_eq!(&got, want, "{poly}");
        assert!(l.corners.iter().all(|c| c.animated == *animated), "{poly}");
    }
}

#[test]
fn animation_blocks_pie2_sizes_are_texels() {
    let src = format!("{SQUARE}POLYGONS 1\n4200 3 0 1 2 8 100 32 16 0 0 0 0 0 0\n");
    let (l, _) = level(2, &src).unwrap();
    let a = l.tex_anim.unwrap();
    assert_eq!((a.frames, a.ms_per_frame), (8, 100.0));
    assert_eq!(a.size, Vec2::new(0.125, 0.0625));
}

#[test]
fn polygon_errors() {
    let cases: &[(&str, ErrorKind, u32, &str)] = &[
        (
            "200 3 0 1 52 0 0 0 0 0 0",
            ErrorKind::IndexOutOfRange,
            7,
            "polygon 0 uses point 52, but POINTS declared 4",
        ),
        (
            "200 2 0 1 0 0 0 0",
            ErrorKind::Invalid,
            7,
            "polygon 0 has 2 points",
        ),
        (
            "200 17 0 1 2",
            ErrorKind::Invalid,
            7,
            "polygon 0 has 17 points",
        ),
        ("zz 3 0 1 2", ErrorKind::BadValue, 7, "polygon 0 flags"),
        (
            "200 3 0 1 2 0 0 0 0 0",
            ErrorKind::Truncated,
            7,
            "polygon 0 v2",
        ),
        (
            "200 3 0 1 2 0 0 0 0 0 nan",
            ErrorKind::BadValue,
            7,
            "polygon 0 v2",
        ),
    ];
    for (poly, kind, line, msg) in cases {
        let src = format!("{SQUARE}POLYGONS 1\n{poly}");
        let e = level(3, &src).unwrap_err();
        assert_eq!(e.kind, *kind, "{poly}: {e}");
        assert_eq!(e.location, Location::Line(*line), "{poly}: {e}");
        assert!(e.message.contains(msg), "{poly}: {}", e.message);
    }
    // Past the game's 8192 polygons: read on (the checker reports it), or refused
    // when the data cannot hold them.
    let e = level(3, &format!("{SQUARE}POLYGONS 8193\n")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::CountTooLarge);
    let many = "200 3 0 1 2 0 0 0 0 0 0\n".repeat(8193);
    let (l, w) = level(3, &format!("{SQUARE}POLYGONS 8193\n{many}")).unwrap();
    assert_eq!(l.polygons, 8193);
    assert_eq!(w[0].rule, Some("pie/polygon-limit"));
    assert_eq!(w[0].location, Location::Line(6));
    let e = level(3, "POINTS 99999999\n0 0 0\nPOLYGONS 0").unwrap_err();
    assert_eq!(e.kind, ErrorKind::CountTooLarge);
    let e = level(3, "POLYGONS 0").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Missing);
}

#[test]
fn normals_match_polygons_or_are_dropped() {
    let n = "NORMALS 1\n0 0 1 0 0 1 0 1 0\n";
    let src = format!("{SQUARE}{n}POLYGONS 1\n200 3 0 1 2 0 0 0 0 0 0\n");
    let (l, w) = level(3, &src).unwrap();
    assert!(w.is_empty());
    assert_eq!(l.corners[2].normal, Some(Vec3::Y));
    let src = format!("{SQUARE}{n}POLYGONS 2\n200 3 0 1 2 0 0 0 0 0 0\n200 3 0 2 3 0 0 0 0 0 0\n");
    let (l, w) = level(3, &src).unwrap();
    assert!(l.corners.iter().all(|c| c.normal.is_none()));
    assert_eq!(w[0].location, Location::Line(6));
    assert!(
        w[0].message.contains("NORMALS 1 does not match POLYGONS 2"),
        "{w:?}"
    );
}

#[test]
fn blocks_after_polygons() {
    let src = format!(
        "{SQUARE}POLYGONS 0\nCONNECTORS 2\n1 2 3\n-4 5.5 6\n\
             ANIMOBJECT 150 2 2\n0 0 0 0 0 0 0 1 1 1\n1 1000 0 0 0 0 0 -1 -1 -1\n\
             SHADOWPOINTS 3\n0 0 0\n1 0 0\n0 1 0\nSHADOWPOLYGONS 1\n0 3 0 1 2\n\
             BSP 2\n-1 -1 -1 1\n2 0 -1 -1 -1\n"
    );
    let (l, w) = level(3, &src).unwrap();
    assert_eq!(l.connectors, vec![[1.0, 2.0, 3.0], [-4.0, 5.5, 6.0]]);
    let a = l.anim.unwrap();
    assert_eq!((a.time, a.cycles, a.frames.len()), (150.0, 2, 2));
    assert_eq!(a.frames[1].position, [1000.0, 0.0, 0.0]);
    assert_eq!(a.frames[1].scale, [-1.0; 3]);
    let s = l.shadow.unwrap();
    assert_eq!((s.points.len(), s.triangles), (3, vec![[0, 1, 2]]));
    assert!(
        w.iter()
            .any(|d| d.message.contains("BSP block (10 numbers) skipped")),
        "{w:?}"
    );
}

#[test]
fn block_errors_and_junk() {
    let cases: &[(&str, ErrorKind)] = &[
        ("SHADOWPOLYGONS 1\n0 3 0 1 2", ErrorKind::Invalid),
        (
            "SHADOWPOINTS 3\n0 0 0\n1 0 0\n0 1 0\nSHADOWPOLYGONS 1\n0 3 0 1 3",
            ErrorKind::IndexOutOfRange,
        ),
        ("SHADOWPOINTS 0", ErrorKind::Invalid),
        ("CONNECTORS 1\n1 2    ", ErrorKind::Truncated),
    ];
    for (tail, kind) in cases {
        let src = format!("{SQUARE}POLYGONS 0\n{tail}");
        let e = level(3, &src).unwrap_err();
        assert_eq!(e.kind, *kind, "{tail}: {e}");
    }
    // What the game (4.3.3) complains about and still loads: a warning with its rule.
    let tolerated: &[(&str, &str)] = &[
        (
            "ANIMOBJECT 0 0 1\n0 0 0 0 0 0 0 1 1 1",
            "pie/animobject-time",
        ),
        (
            "ANIMOBJECT 100 0 2\n0 0 0 0 0 0 0 1 1 1",
            "pie/animobject-frames",
        ),
        (
            "ANIMOBJECT 100 0 2\n0 0 0 0 0 0 0 1 1 1\n1 0 0 0                            \n",
            "pie/animobject-frames",
        ),
        (
            "ANIMOBJECT 100 0 1\n0 a b c 0 0 0 1 1 1",
            "pie/animobject-frames",
        ),
        (
            "SHADOWPOINTS 3\n0 0 0\n1 0 0\n0 1 0\nSHADOWPOLYGONS 1\n200 3 0 1 2",
            "pie/shadow-flags",
        ),
    ];
    for (tail, rule) in tolerated {
        let src = format!("{SQUARE}POLYGONS 0\n{tail}");
        let (l, w) = level(3, &src).unwrap_or_else(|e| panic!("{tail}: {e}"));
        let rules: Vec<_> = w.iter().chain(&l.notes).filter_map(|d| d.rule).collect();
        assert!(rules.contains(rule), "{tail}: {rules:?}");
    }
    // Shadow points without polygons are dropped with a warning.
    let (l, w) = level(3, &format!("{SQUARE}POLYGONS 0\nSHADOWPOINTS 1\n0 0 0\n")).unwrap();
    assert!(l.shadow.is_none());
    assert!(w[0].message.contains("shadow mesh dropped"));
    // After the last level an unknown word ends the file with a warning ...
    let (_, w) = level(3, &format!("{SQUARE}POLYGONS 0\nJUNK 1 2 3")).unwrap();
    assert!(w[0].message.contains("rest of the file is ignored"));
    // ... but before another level it is an error.
    let mut t = Tokens::new(b"POINTS 0 POLYGONS 0 JUNK");
    let e = parse_level(&mut t, 3, 1, 1, false, &mut Vec::new()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.message.contains("LEVEL 2"), "{e}");
}

#[test]
fn pie4_overrides_before_points() {
    let src = "TYPE 10200\nINTERPOLATE 0\nTEXTURE 0 b.png 0 0\nTCMASK 0 m.png\n\
                   MATERIALS 1 1 1 1 1 1 1 1 1 20\nPOINTS 0\nPOLYGONS 0";
    let (l, w) = level(4, src).unwrap();
    assert_eq!(l.settings.type_flags, Some(0x10200));
    assert_eq!(l.settings.interpolate, Some(false));
    assert_eq!(
        l.settings.textures.tcmask[0].as_ref().unwrap().name,
        "m.png"
    );
    assert_eq!(w.len(), 1, "only MATERIALS warns in PIE 4: {w:?}");
    let (_, w) = level(3, "TYPE 200\nPOINTS 0\nPOLYGONS 0").unwrap();
    assert!(w[0].message.contains("PIE 4 feature"));
}
