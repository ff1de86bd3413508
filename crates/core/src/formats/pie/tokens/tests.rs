use super::*;

fn all(input: &[u8]) -> Vec<(String, u32)> {
    let mut t = Tokens::new(input);
    std::iter::from_fn(|| t.next_token())
        .map(|t| (String::from_utf8_lossy(t.text).into_owned(), t.line))
        .collect()
}

#[test]
fn tokens_carry_line_numbers_across_line_endings() {
    type Case = (&'static [u8], &'static [(&'static str, u32)]);
    let cases: &[Case] = &[
        (
            b"PIE 2\nTYPE 200\n",
            &[("PIE", 1), ("2", 1), ("TYPE", 2), ("200", 2)],
        ),
        (
            b"PIE 2\r\nTYPE 200\r\n",
            &[("PIE", 1), ("2", 1), ("TYPE", 2), ("200", 2)],
        ),
        (
            b"PIE 2\rTYPE 200\r",
            &[("PIE", 1), ("2", 1), ("TYPE", 2), ("200", 2)],
        ),
        (
            b"PIE 2\n\n\tTYPE 200",
            &[("PIE", 1), ("2", 1), ("TYPE", 3), ("200", 3)],
        ),
        (b"a b \t \n\x1a", &[("a", 1), ("b", 1)]),
        (b"# whole line\nA # trailing B\nC#D", &[("A", 2), ("C", 3)]),
        (b"", &[]),
    ];
    for (input, want) in cases {
        let want: Vec<_> = want.iter().map(|(s, l)| (s.to_string(), *l)).collect();
        assert_eq!(
            all(input),
            want,
            "input {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn byte_classes_agree_with_the_shared_text_helpers() {
    for b in 0..=255u8 {
        let class = CLASS[b as usize];
        let separator = matches!(class, SPACE | LF | CR);
        assert_eq!(separator, text::is_space(b), "byte {b:#x}");
    }
    // Line numbers agree with `text::Lines` on every mix of line endings.
    let inputs: &[&[u8]] = &[
        b"a\nb c\r\nd\re\r\r\nf g\n\n",
        b"\r\n\r\n x\n\ry",
        b"a # c d\r e\n#x\r\nf",
    ];
    for input in inputs {
        let mut want = Vec::new();
        for (n, line) in text::Lines::new(input) {
            let line = match line.iter().position(|&b| b == b'#') {
                Some(i) => &line[..i],
                None => line,
            };
            want.extend(text::tokens(line).map(|t| (String::from_utf8_lossy(t).into_owned(), n)));
        }
        assert_eq!(all(input), want, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn peek_does_not_consume_and_remaining_bytes_shrinks() {
    let mut t = Tokens::new(b"A  BB\nC");
    assert_eq!(t.remaining_bytes(), 7);
    assert_eq!(t.peek().unwrap().text, b"A");
    assert_eq!(t.remaining_bytes(), 7);
    t.next_token();
    assert_eq!(t.peek().unwrap().text, b"BB");
    assert_eq!(t.remaining_bytes(), 4);
    t.next_token();
    t.next_token();
    assert_eq!(t.remaining_bytes(), 0);
    assert!(t.next_token().is_none());
}

#[test]
fn counts_must_fit_in_the_rest_of_the_file() {
    let t = Tokens::new(b"1 2 3 4 5 6");
    assert_eq!(t.check_count(2, 3, "POINTS", 1).unwrap(), 2);
    let e = t.check_count(3, 3, "POINTS", 1).unwrap_err();
    assert_eq!(e.kind, ErrorKind::CountTooLarge);
    assert!(t.check_count(u64::MAX, 3, "POINTS", 1).is_err());
}

#[test]
fn floats_match_the_standard_library() {
    let cases = [
        "0",
        "-4",
        "8.0",
        "0.707111",
        "-0.000000",
        "1.",
        ".5",
        "+3",
        "-36.6678",
        "4.76837e-07",
        "123456789.5",
        "0.00000000001",
        "16777217",
        "1e3",
    ];
    for s in cases {
        let want: f32 = s.parse().unwrap();
        let got = parse_f32(s.as_bytes()).unwrap();
        assert_eq!(got.to_bits(), want.to_bits(), "{s}");
    }
    for bad in ["", "-", ".", "abc", "1.2.3", "inf", "nan", "1x", "--1"] {
        assert_eq!(parse_f32(bad.as_bytes()), None, "{bad}");
    }
    assert_eq!(parse_f32(b"1e39"), Some(f32::INFINITY));
}

#[test]
fn fused_fast_paths_agree_with_the_token_parsers() {
    let cases = [
        "0",
        "7",
        "-4",
        "8.0",
        "0.707111",
        "-0.000000",
        "1.",
        ".5",
        "+3",
        "-36.6678",
        "4.76837e-07",
        "16777216",
        "16777217",
        "1234567890",
        "99999999999",
        "200",
        "10200",
        "2a00",
        "ffffffff",
        "1ffffffff",
        "0x200",
        "1.5x",
        "1.2.3",
        "-",
        ".",
        "nan",
        "x",
        "12#c",
        "3\x1a",
    ];
    for s in cases {
        for sep in ["", " ", "\n", "#x"] {
            let input = format!("{s}{sep}");
            let token = Tokens::new(input.as_bytes()).next_token().unwrap();
            let f = Tokens::new(input.as_bytes()).f32(String::new).ok();
            let want = parse_f32(token.text).filter(|v| v.is_finite());
            assert_eq!(f.map(f32::to_bits), want.map(f32::to_bits), "f32 {input:?}");
            let u = Tokens::new(input.as_bytes()).uint(String::new).ok();
            assert_eq!(u, parse_uint(token.text), "uint {input:?}");
            let h = Tokens::new(input.as_bytes()).hex(String::new).ok();
            assert_eq!(h, parse_hex(token.text), "hex {input:?}");
        }
    }
}

#[test]
fn swar_digit_runs_match_a_digit_loop() {
    // Every length 0..=9 at every offset, with assorted tails, against the scalar rule.
    let mut rng = fastrand::Rng::with_seed(0x9e37_79b9_7f4a_7c15);
    let mut next = || rng.u64(..);
    let tails: [&[u8]; 6] = [
        b" 1 2 3 4 5 6 7",
        b"\n\t9",
        b".5 0 0 0 0 0",
        b"x",
        b"",
        b"e-07 1 2 3 4",
    ];
    for _ in 0..4000 {
        let len = (next() % 10) as usize;
        let digits: String = (0..len)
            .map(|_| char::from(b'0' + (next() % 10) as u8))
            .collect();
        let tail = tails[(next() % 6) as usize];
        let mut input = digits.clone().into_bytes();
        input.extend_from_slice(tail);
        let want: Option<(u32, usize)> = if len >= 8 {
            None
        } else {
            Some((digits.parse().unwrap_or(0), len))
        };
        let got = digit_run(&input, 0);
        match (got, want) {
            (None, None) => {}
            (Some(g), Some(w)) => assert_eq!(g, w, "{:?}", String::from_utf8_lossy(&input)),
            // Short inputs take the scalar loop, which accepts long runs.
            (Some((v, n)), None) if input.len() < 8 => {
                assert_eq!((u64::from(v), n), (digits.parse::<u64>().unwrap(), len))
            }
            other => panic!("{other:?} for {:?}", String::from_utf8_lossy(&input)),
        }
    }
}

#[test]
fn integers_and_hex() {
    let ints: &[(&str, Option<i64>)] = &[
        ("0", Some(0)),
        ("+7", Some(7)),
        ("-1", Some(-1)),
        ("4294967295", Some(4294967295)),
        ("4294967296", None),
        ("1.5", None),
        ("", None),
        ("-", None),
    ];
    for (s, want) in ints {
        assert_eq!(parse_int(s.as_bytes()), *want, "{s}");
    }
    assert_eq!(parse_uint(b"-1"), None);
    let hex: &[(&str, Option<u32>)] = &[
        ("200", Some(0x200)),
        ("10200", Some(0x10200)),
        ("2a00", Some(0x2a00)),
        ("0x4200", Some(0x4200)),
        ("ffffffff", Some(u32::MAX)),
        ("100000000", None),
        ("g", None),
        ("", None),
    ];
    for (s, want) in hex {
        assert_eq!(parse_hex(s.as_bytes()), *want, "{s}");
    }
}

#[test]
fn errors_name_the_line_and_the_field() {
    let mut t = Tokens::new(b"1\n2 x\n");
    assert_eq!(t.uint(|| "a".into()).unwrap(), 1);
    assert_eq!(t.uint(|| "b".into()).unwrap(), 2);
    let e = t.f32(|| "point 0 y".into()).unwrap_err();
    assert_eq!(e.location, Location::Line(2));
    assert!(e.message.contains("point 0 y"), "{}", e.message);
    let e = t.f32(|| "point 0 z".into()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert!(e.message.contains("file ends while reading point 0 z"));
}
