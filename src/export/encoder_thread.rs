//! [`EncoderThread`]: the thread the desktop lends vitrine-media's animation export
//! ([`vitrine_media::Beside`]), so its encoder runs beside the renderer — the window's
//! exports (through `DesktopHost`) and `vitrine render -o x.gif` alike. The library
//! crates start no thread (`crates/clippy.toml`); the front-end does, here.

use vitrine_media::Beside;

/// A scoped thread per run, named `vitrine: encoder`.
#[derive(Debug, Default, Clone, Copy)]
pub struct EncoderThread;

impl Beside for EncoderThread {
    fn run<'a>(
        &self,
        task: Box<dyn FnOnce() + Send + 'a>,
        here: Box<dyn FnOnce() + 'a>,
    ) -> Result<(), String> {
        std::thread::scope(|s| {
            let thread = std::thread::Builder::new()
                .name("vitrine: encoder".into())
                .spawn_scoped(s, task)
                .map_err(|e| format!("could not start the encoder's thread: {e}"))?;
            here();
            thread.join().map_err(|_| "the encoder crashed".to_string())
        })
    }
}
