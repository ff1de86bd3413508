//! Korean (and any CJK) text in the window. egui's built-in fonts cover Latin, Greek and
//! Cyrillic only, so PangYa event scripts (`*msg("발소리")`), bone and motion names would
//! draw as boxes; the front-end adds fonts for them (the desktop the system's). When the
//! open model has CJK text and the front-end has no font for it
//! ([`super::host::Host::cjk_font_installed`]), the side panel says so and names the
//! packages to install ([`missing_cjk_note_ui`]).

use crate::model::Model;

/// Whether `c` is Hangul, a CJK ideograph, kana or a CJK symbol: the scripts PangYa's
/// code page 949 holds beyond ASCII.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}'   // Hangul Jamo
        | '\u{2E80}'..='\u{2FDF}' // CJK radicals
        | '\u{3000}'..='\u{30FF}' // CJK symbols, hiragana, katakana
        | '\u{3130}'..='\u{318F}' // Hangul compatibility jamo
        | '\u{3200}'..='\u{33FF}' // enclosed CJK, CJK compatibility
        | '\u{3400}'..='\u{4DBF}' // CJK extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK unified ideographs (Hanja)
        | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
        | '\u{F900}'..='\u{FAFF}' // CJK compatibility ideographs
        | '\u{FF00}'..='\u{FFEF}' // full-width forms
    )
}

/// Whether the model shows any CJK text: node, material, texture and motion names,
/// event scripts, property values.
pub fn model_needs_cjk(m: &Model) -> bool {
    let cjk = |s: &str| s.chars().any(is_cjk);
    m.nodes.iter().any(|n| cjk(&n.name))
        || m.materials.iter().any(|x| cjk(&x.name))
        || m.textures.iter().any(|t| cjk(&t.name))
        || m.properties.iter().any(|p| cjk(&p.value))
        || m.clips.iter().any(|c| {
            cjk(&c.name)
                || c.events.iter().any(|e| cjk(&e.text))
                || c.motions.iter().any(|mo| cjk(&mo.name))
        })
}

/// A note under the file name when the model has CJK text and no installed font can
/// draw it. Draws nothing otherwise.
pub fn missing_cjk_note_ui(ui: &mut egui::Ui, m: &Model, host: &dyn super::host::Host) {
    if !model_needs_cjk(m) || host.cjk_font_installed() {
        return;
    }
    egui::Frame::new()
        .fill(egui::Color32::from_rgb(110, 80, 20))
        .inner_margin(6.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.add(
                egui::Label::new(
                    egui::RichText::new(
                        "No Korean (CJK) font is installed: the model's Korean text shows as \
                         boxes. Install one (Debian/Ubuntu: fonts-noto-cjk or fonts-nanum) \
                         and start Vitrine again.",
                    )
                    .color(egui::Color32::WHITE),
                )
                .wrap(),
            );
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_ranges() {
        for c in ['발', 'ㄱ', '漢', '㈜', 'カ', '　'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'é', 'Ж', '*', '"'] {
            assert!(!is_cjk(c), "{c}");
        }
    }
}
