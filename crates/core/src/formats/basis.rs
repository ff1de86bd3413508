//! The Basis Universal transcoder behind [`super::ktx2`]: the pure-Rust `basisu` crate
//! where the core's `ktx2` feature builds it in, else the one the host installed
//! ([`crate::engines::install_transcoder`]: the page's `vitrine_ktx2` module). Errors are
//! the transcoder's own words; [`super::ktx2`] names the offset.

pub use crate::engines::BasisInfo;

/// The Basis data of one file, opened for transcoding.
pub struct Transcoder<'a> {
    #[cfg(feature = "ktx2")]
    inner: basisu::Transcoder<'a>,
    #[cfg(not(feature = "ktx2"))]
    bytes: &'a [u8],
    #[cfg(not(feature = "ktx2"))]
    engine: crate::engines::Transcode,
    info: BasisInfo,
}

impl<'a> Transcoder<'a> {
    /// Reads the Basis data of `bytes` (a whole KTX2 file).
    ///
    /// # Errors
    /// The transcoder's refusal; without a transcoder, that there is none.
    pub fn new(bytes: &'a [u8]) -> Result<Self, String> {
        #[cfg(feature = "ktx2")]
        {
            let inner = basisu::Transcoder::new(bytes).map_err(|e| format!("{e:?}"))?;
            let (width, height) = inner.base_dimensions();
            let info = BasisInfo {
                width,
                height,
                levels: inner.level_count(),
            };
            Ok(Transcoder { inner, info })
        }
        #[cfg(not(feature = "ktx2"))]
        {
            let engine = crate::engines::installed_transcoder()?;
            let info = (engine.describe)(bytes)?;
            Ok(Transcoder {
                bytes,
                engine,
                info,
            })
        }
    }

    /// Level 0's size and the level count.
    pub fn info(&self) -> BasisInfo {
        self.info
    }

    /// Level `level` as RGBA8, row-major.
    ///
    /// # Errors
    /// The transcoder's refusal (a broken level, a kind it lacks).
    pub fn rgba(&self, level: u32) -> Result<Vec<u8>, String> {
        #[cfg(feature = "ktx2")]
        {
            self.inner
                .transcode(
                    level,
                    basisu::TargetFormat::Rgba32,
                    basisu::DecodeFlags::NONE,
                )
                .map_err(|e| format!("{e:?}"))
        }
        #[cfg(not(feature = "ktx2"))]
        {
            (self.engine.level)(self.bytes, level)
        }
    }
}

/// [`Transcoder::info`] of `bytes`: what an engine module answers
/// ([`crate::engines::Transcode::describe`]).
///
/// # Errors
/// As [`Transcoder::new`].
pub fn describe(bytes: &[u8]) -> Result<BasisInfo, String> {
    Transcoder::new(bytes).map(|t| t.info())
}

/// Level `level` of `bytes` as RGBA8: what an engine module answers
/// ([`crate::engines::Transcode::level`]).
///
/// # Errors
/// As [`Transcoder::new`] and [`Transcoder::rgba`].
pub fn transcode_level(bytes: &[u8], level: u32) -> Result<Vec<u8>, String> {
    Transcoder::new(bytes)?.rgba(level)
}
