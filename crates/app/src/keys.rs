//! How a keyboard shortcut is written in menus, buttons and the Help reference.

use egui::{Key, KeyboardShortcut};

/// `shortcut` as this platform writes it (`Ctrl+Shift+O`, `⌘O`), except that a
/// punctuation key is written as its character: egui names it (`Questionmark`, `Plus`,
/// `Equals`) outside macOS. The arrows keep their names (Up, Down, …).
pub fn shortcut_text(ctx: &egui::Context, shortcut: &KeyboardShortcut) -> String {
    let text = ctx.format_shortcut(shortcut);
    let key = shortcut.logical_key;
    let (name, symbol) = (key.name(), key.symbol_or_name());
    let arrow = matches!(
        key,
        Key::ArrowUp | Key::ArrowDown | Key::ArrowLeft | Key::ArrowRight
    );
    match text.strip_suffix(name) {
        Some(modifiers) if !arrow && symbol != name => format!("{modifiers}{symbol}"),
        _ => text,
    }
}
