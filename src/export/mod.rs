//! Exporters: what Vitrine writes for other programs and for forum posts.

#[cfg(feature = "gui")]
pub mod animation;
