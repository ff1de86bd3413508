//! Korean text in the window: a PangYa model's event script (`*msg("발소리")`, code page
//! 949 in the file) is listed in the side panel and drawn with a system font found through
//! the window's font provider — no boxes. The expected script comes from the synthetic
//! corpus's MANIFEST.json (written by a generator outside this project); what is checked
//! is what the UI drew: the text shapes egui painted (each Korean character a glyph of its
//! own in the font atlas) and, with a GPU adapter, the rendered pixels of those glyphs.
//! egui_kittest also refuses to lay out a character no font has, so a missing fallback
//! fails the run itself. CI installs `fonts-nanum` (`.ci/run`).

use crate::app_support;
use crate::common;

use eframe::egui;
use eframe::egui::epaint::text::Galley;
use egui_kittest::kittest::Queryable;
use std::sync::Arc;
use vitrine::app::commands::{AppCommand, DocumentCommand};
use vitrine::app::dispatch::apply;
use vitrine_test_needs::vitrine_test;

/// Every text shape of a frame: where its galley sits, the galley, and its clip rect.
fn drawn_text(shapes: &[egui::epaint::ClippedShape]) -> Vec<(egui::Pos2, Arc<Galley>, egui::Rect)> {
    fn walk(
        shape: &egui::Shape,
        clip: egui::Rect,
        out: &mut Vec<(egui::Pos2, Arc<Galley>, egui::Rect)>,
    ) {
        match shape {
            egui::Shape::Text(t) => out.push((t.pos, t.galley.clone(), clip)),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, clip, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in shapes {
        walk(&c.shape, c.clip_rect, &mut out);
    }
    out
}

#[vitrine_test(shared, gpu)]
fn pet_event_text_renders_with_a_system_cjk_font() {
    let dir = common::synthetic();
    assert!(
        vitrine::desktop::window::fonts::cjk_font_installed(),
        "no CJK font on this system: install fonts-nanum or fonts-noto-cjk"
    );
    // The FRAM script the generator wrote in code page 949.
    let facts = &common::manifest(&dir)["files"]["pet/puppet_v13.pet"];
    let script = facts["fram_scripts"]
        .as_array()
        .expect("fram_scripts")
        .iter()
        .filter_map(|s| s.as_str())
        .find(|s| !s.is_ascii())
        .expect("a FRAM script with non-ASCII text")
        .to_string();
    let korean: Vec<char> = script.chars().filter(|c| !c.is_ascii()).collect();
    assert!(korean.len() >= 2, "{script}");

    let mut h = app_support::fresh_harness(1000.0);
    h.run();
    let file = dir.join("pet/puppet_v13.pet");
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(file.as_path().into())),
    );
    h.run();
    assert!(
        h.state().document.load_error.is_none(),
        "{:?}",
        h.state().document.load_error
    );
    let model = &h.state().document.open.as_ref().unwrap().model;
    assert!(vitrine::app::fonts::model_needs_cjk(model));
    // With the font found, the panel does not ask for one.
    assert!(h.query_by_label_contains("No Korean (CJK) font").is_none());

    // The text egui painted: the script, decoded (not replaced), in one galley.
    let drawn = drawn_text(&h.output().shapes);
    let Some((pos, galley, clip)) = drawn.iter().find(|(_, g, _)| g.text().contains(&script))
    else {
        let texts: Vec<&str> = drawn.iter().map(|(_, g, _)| g.text()).collect();
        panic!("no drawn text contains the FRAM script {script:?}; drawn: {texts:?}");
    };
    // Each Korean character is a glyph of its own, with texels in the font atlas (a
    // missing glyph would be one shared replacement box), placed where the panel shows.
    let mut glyphs = Vec::new();
    for row in &galley.rows {
        for g in row.row.glyphs.iter().filter(|g| korean.contains(&g.chr)) {
            let rect = g
                .logical_rect()
                .translate(pos.to_vec2() + row.pos.to_vec2());
            glyphs.push((g.chr, g.uv_rect, rect));
        }
    }
    assert_eq!(
        glyphs.iter().map(|g| g.0).collect::<Vec<_>>(),
        korean,
        "the Korean characters drawn"
    );
    for (c, uv, rect) in &glyphs {
        assert!(
            uv.max[0] > uv.min[0] && uv.max[1] > uv.min[1] && uv.size.x > 1.0,
            "{c}: no texels in the font atlas ({uv:?})"
        );
        assert!(
            clip.contains_rect(*rect),
            "{c} at {rect:?} is clipped by {clip:?}"
        );
    }
    for (i, a) in glyphs.iter().enumerate() {
        for b in &glyphs[i + 1..] {
            if a.0 != b.0 {
                assert_ne!(
                    a.1.min, b.1.min,
                    "{} and {} share one atlas glyph",
                    a.0, b.0
                );
            }
        }
    }

    // The pixels of those glyphs, as the window's renderer draws them: ink in each
    // character's cell, and different ink for different characters.
    crate::common::needs_gpu();
    let image = h.render().expect("the window renders");
    let ppp = h.ctx.pixels_per_point();
    let cells: Vec<(char, Vec<[u8; 4]>)> = glyphs
        .iter()
        .map(|(c, _, rect)| {
            let (x0, y0) = ((rect.min.x * ppp) as u32, (rect.min.y * ppp) as u32);
            let (x1, y1) = ((rect.max.x * ppp) as u32, (rect.max.y * ppp) as u32);
            let mut px = Vec::new();
            for y in y0..y1.min(image.height()) {
                for x in x0..x1.min(image.width()) {
                    px.push(image.get_pixel(x, y).0);
                }
            }
            (*c, px)
        })
        .collect();
    for (c, px) in &cells {
        // The background is the cell's corner; ink is whatever differs from it clearly.
        let bg = px.first().copied().unwrap_or_default();
        let ink = px
            .iter()
            .filter(|p| p.iter().zip(bg).any(|(a, b)| a.abs_diff(b) > 48))
            .count();
        assert!(
            ink * 20 >= px.len(),
            "{c}: {ink} of {} pixels in its cell are ink",
            px.len()
        );
    }
    for (i, (a, pa)) in cells.iter().enumerate() {
        for (b, pb) in &cells[i + 1..] {
            if a != b && pa.len() == pb.len() {
                assert_ne!(pa, pb, "{a} and {b} are drawn alike");
            }
        }
    }
}
