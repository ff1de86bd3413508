//! The system's fonts as egui fallbacks, for Korean (CJK) text: the window asks for one
//! the first time a character no installed font has is laid out. [`LazySystemFonts`]
//! wraps egui's own `egui_system_font_provider` (fontconfig on Linux, CoreText,
//! DirectWrite), which is only created — and the system fonts only enumerated — on that
//! first request, so a session that never shows such text never pays for it.

use eframe::egui;
use egui::epaint::text::{FallbackRequest, FontInsert, FontProvider};
use egui_system_font_provider::SystemFontProvider;
use std::sync::{Arc, LazyLock, OnceLock};

/// The system font provider, created on the first character egui's fonts lack.
#[derive(Default)]
pub struct LazySystemFonts(OnceLock<SystemFontProvider>);

impl FontProvider for LazySystemFonts {
    fn font_for(&self, request: &FallbackRequest<'_>) -> Option<FontInsert> {
        self.0
            .get_or_init(SystemFontProvider::new)
            .font_for(request)
    }
}

/// One provider for the whole process (the window, the panel's check, the tests).
static SYSTEM_FONTS: LazyLock<Arc<LazySystemFonts>> = LazyLock::new(Arc::default);

/// Adds the system fonts to `ctx`'s fallback chain (nothing is loaded until needed).
pub fn install(ctx: &egui::Context) {
    ctx.add_font_provider(SYSTEM_FONTS.clone());
}

/// Whether the system has a font for Hangul (asked once; the first call enumerates the
/// system fonts).
pub fn cjk_font_installed() -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(|| {
        let request = FallbackRequest {
            cluster: "한",
            family: &egui::FontFamily::Proportional,
        };
        SYSTEM_FONTS.font_for(&request).is_some()
    })
}
