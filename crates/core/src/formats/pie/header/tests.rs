use super::*;

fn header(src: &str) -> Result<(Header, Vec<Diagnostic>), LoadError> {
    let mut w = Vec::new();
    let mut t = Tokens::new(src.as_bytes());
    parse_header(&mut t, &mut w).map(|h| (h, w))
}

fn base(h: &Header, slot: usize) -> Option<&str> {
    h.settings.textures.base[slot]
        .as_ref()
        .map(|t| t.name.as_str())
}

#[test]
fn versions_and_magic() {
    let cases: &[(&str, Result<u32, ErrorKind>)] = &[
        ("PIE 2\nTYPE 200\nLEVELS 1", Ok(2)),
        ("PIE 3\nTYPE 200\nLEVELS 1", Ok(3)),
        ("PIE 4\nTYPE 200\nLEVELS 1", Ok(4)),
        (
            "PIE 1\nTYPE 200\nLEVELS 1",
            Err(ErrorKind::UnsupportedVersion),
        ),
        (
            "PIE 5\nTYPE 200\nLEVELS 1",
            Err(ErrorKind::UnsupportedVersion),
        ),
        ("PIE x\nTYPE 200\nLEVELS 1", Err(ErrorKind::BadValue)),
        ("PMF1 2", Err(ErrorKind::BadMagic)),
        ("  \n# only a comment\n", Err(ErrorKind::EmptyFile)),
        ("PIE 3\nLEVELS 1", Err(ErrorKind::Missing)),
        ("PIE 3\nTYPE 200\n", Err(ErrorKind::Missing)),
        ("PIE 3\nTYPE 200\nBOGUS 1\nLEVELS 1", Err(ErrorKind::Syntax)),
    ];
    for (src, want) in cases {
        let got = header(src).map(|(h, _)| h.version).map_err(|e| e.kind);
        assert_eq!(&got, want, "{src:?}");
    }
}

#[test]
fn type_flags_are_hex_and_named() {
    let (h, _) = header("PIE 3\nTYPE 10200\nLEVELS 1").unwrap();
    assert_eq!(h.type_flags, 0x10200);
    assert_eq!(
        describe_type(0x10200),
        "0x10200 (textured, team-colour mask)"
    );
    assert_eq!(
        describe_type(0x222),
        "0x222 (additive, pitch to camera, textured)"
    );
    assert_eq!(
        describe_type(0x80200),
        "0x80200 (textured, unknown 0x80000)"
    );
    assert_eq!(describe_type(0), "0x0");
}

#[test]
fn texture_lines() {
    let cases: &[(&str, [Option<&str>; 3])] = &[
        (
            "TEXTURE 0 page-7.png 256 256",
            [Some("page-7.png"), None, None],
        ),
        ("TEXTURE 0 page-7.png", [Some("page-7.png"), None, None]),
        (
            "TEXTURE 0 page-11-player buildings.pcx 256 256",
            [Some("page-11-player buildings.pcx"), None, None],
        ),
        (
            "TEXTURE 0 a.png 0 0\nTEXTURE 2 c.png\nTEXTURE 1 b.png",
            [Some("a.png"), Some("b.png"), Some("c.png")],
        ),
        ("NOTEXTURE 0 NOTEXTURE 256 256", [None, None, None]),
    ];
    for (lines, want) in cases {
        let src = format!("PIE 2\nTYPE 200\n{lines}\nLEVELS 1");
        let (h, _) = header(&src).unwrap();
        for (slot, w) in want.iter().enumerate() {
            assert_eq!(base(&h, slot), *w, "{lines:?} slot {slot}");
        }
    }
    let (h, _) = header("PIE 2\nTYPE 200\nNOTEXTURE 0 NOTEXTURE 256 256\nLEVELS 1").unwrap();
    assert!(h.settings.textures.notexture);
    let e = header("PIE 4\nTYPE 200\nTEXTURE 3 a.png\nLEVELS 1").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert_eq!(e.location, Location::Line(3));
    // PIE 2/3 loaders (the game's 4.3.3) ignore the number: tileset 0, a warning.
    let (h, w) = header("PIE 3\nTYPE 200\nTEXTURE 3 a.png\nLEVELS 1").unwrap();
    assert_eq!(base(&h, 0), Some("a.png"));
    assert_eq!(w[0].rule, Some("pie/tileset-ignored"));
}

#[test]
fn maps_masks_events_and_ignored_directives() {
    let src = "PIE 4\nTYPE 200\nINTERPOLATE 0\nTEXTURE 0 p.png 0 0\nTCMASK 0 p_tc.png\n\
                   NORMALMAP 1 n.png\nSPECULARMAP 0 s.png\nEVENT 1 run.pie\nEVENT 3 die.pie\n\
                   MATERIALS 1 1 1 1 1 1 1 1 1 20\nSHADERS 2 a.vert b.frag\nLEVELS 2";
    let (h, w) = header(src).unwrap();
    let tx = &h.settings.textures;
    assert_eq!(h.settings.interpolate, Some(false));
    assert_eq!(tx.tcmask[0].as_ref().unwrap().name, "p_tc.png");
    assert_eq!(tx.normal[1].as_ref().unwrap().name, "n.png");
    assert_eq!(tx.specular[0].as_ref().unwrap().line, 7);
    assert_eq!(
        h.events,
        vec![
            EventLine {
                kind: 1,
                file: "run.pie".into()
            },
            EventLine {
                kind: 3,
                file: "die.pie".into()
            }
        ]
    );
    assert_eq!((h.levels, h.levels_line), (2, 12));
    let msgs: Vec<_> = w.iter().map(|d| d.message.as_str()).collect();
    // Before LEVELS the 4.3.3 loader gives the model up: an error-level rule.
    assert!(
        w.iter()
            .any(|d| d.message.starts_with("MATERIALS before LEVELS")
                && d.rule == Some("pie/header-directive")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.starts_with("SHADERS before LEVELS")),
        "{msgs:?}"
    );
    // TCMASK in a PIE 3 file is applied with a warning.
    let (h, w) = header("PIE 3\nTYPE 200\nTCMASK 0 m.png\nLEVELS 1").unwrap();
    assert!(h.settings.textures.tcmask[0].is_some());
    assert!(w[0].message.contains("PIE 4 feature"));
}

#[test]
fn several_directives_on_one_line() {
    let (h, _) = header("PIE 2 TYPE 200 TEXTURE 0 page-6.pcx 256 256 LEVELS 1").unwrap();
    assert_eq!(h.type_flags, 0x200);
    assert_eq!(base(&h, 0), Some("page-6.pcx"));
    assert_eq!(h.levels, 1);
}

#[test]
fn level_sets_fall_back_to_the_global_set() {
    let global = TextureSet {
        base: [
            Some(TexName {
                name: "g.png".into(),
                line: 3,
            }),
            None,
            None,
        ],
        ..Default::default()
    };
    let own = TextureSet {
        base: [
            None,
            Some(TexName {
                name: "u.png".into(),
                line: 9,
            }),
            None,
        ],
        ..Default::default()
    };
    let m = own.over(&global);
    assert_eq!(m.base[0].unwrap().name, "g.png");
    assert_eq!(m.base[1].unwrap().name, "u.png");
    let none = TextureSet {
        notexture: true,
        ..Default::default()
    };
    assert!(none.over(&global).base[0].is_none());
}
