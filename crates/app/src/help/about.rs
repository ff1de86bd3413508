//! What the Help window says about the formats and about this build.

/// One supported format: name, extensions, what it is, where its specification is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FormatInfo {
    /// The format's name.
    pub name: &'static str,
    /// Its file extensions.
    pub extensions: &'static str,
    /// Which game or tool it comes from.
    pub origin: &'static str,
    /// (link text, address) of its specifications.
    pub specs: &'static [(&'static str, &'static str)],
}

/// The formats Vitrine opens.
pub const FORMATS: &[FormatInfo] = &[
    FormatInfo {
        name: "PIE 2, 3 and 4",
        extensions: ".pie",
        origin: "Warzone 2100 (1999–today): droids, structures, features, effects; \
                 also the 1999 PIE 2 files with .pcx pages",
        specs: &[(
            "doc/PIE.md in the Warzone 2100 sources",
            "https://github.com/Warzone2100/warzone2100/blob/HEAD/doc/PIE.md",
        )],
    },
    FormatInfo {
        name: "PMF (PMF1)",
        extensions: ".pmf",
        origin: "Piece Model Editor (Post Apocalyptic Petra): rigid pieces, rotation \
                 animations",
        specs: &[(
            "Piece Model Editor (format description included)",
            "http://runtimeterror.com/tools/piecemod/",
        )],
    },
    FormatInfo {
        name: "PET, APET, BPET, MPET",
        extensions: ".pet .apet .bpet .mpet",
        origin: "PangYa (Puppet models): skinned meshes, skeletons, motions; multi-file \
                 characters are assembled",
        specs: &[(
            "retreev/Documentation: pc/file-formats/pet.md",
            "https://github.com/retreev/Documentation/blob/HEAD/pc/file-formats/pet.md",
        )],
    },
    FormatInfo {
        name: "TPM",
        extensions: ".tpm",
        origin: "Trespasser community tools (TresEd, GeomAdd): text models with \
                 instances and bones",
        specs: &[
            (
                "Trespasser file formats (trescom.org)",
                "https://www.trescom.org/files/docs/formats.html#TPM",
            ),
            (
                "Blender-TPM: TPM Specification",
                "https://github.com/LtSten/Blender-TPM/blob/HEAD/Documentation/TPM%20Specification.md",
            ),
        ],
    },
    FormatInfo {
        name: "glTF 2.0",
        extensions: ".glb .gltf",
        origin: "Blender, Blockbench and most 3D tools; read as levels, connectors and \
                 shadow meshes by the names `vitrine export` writes",
        specs: &[(
            "Khronos glTF 2.0 specification",
            "https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html",
        )],
    },
    FormatInfo {
        name: "Wavefront OBJ",
        extensions: ".obj",
        origin: "Blender, WMIT and most 3D tools: meshes with an MTL material file",
        specs: &[(
            "Object Files (.obj), Paul Bourke's copy of the specification",
            "https://paulbourke.net/dataformats/obj/",
        )],
    },
];

/// Texture pages Vitrine decodes.
pub const TEXTURES: &str = "PNG, JPEG, BMP, DDS (DXT1/3/5), PCX; inside folders or .wz / \
                            .zip archives";

/// The About text: version, the commit and day of the build, licence, the GPU adapter in
/// use and the platform — what a bug report needs (the Copy button copies exactly this).
pub fn about_text(adapter: Option<&str>) -> String {
    let mut text = format!(
        "Vitrine {version}\n\
         A viewer for retro game 3D models.\n\
         Commit: {commit}\n\
         Built: {date}\n\
         Licence: {licence}\n\
         GPU adapter: {adapter}\n\
         Platform: {os} {arch}",
        version = env!("CARGO_PKG_VERSION"),
        commit = env!("VITRINE_COMMIT"),
        date = env!("VITRINE_BUILD_DATE"),
        licence = env!("CARGO_PKG_LICENSE"),
        adapter = adapter.unwrap_or("none (no GPU device was created)"),
        os = std::env::consts::OS,
        arch = std::env::consts::ARCH,
    );
    if let Some(repo) = option_env!("CARGO_PKG_REPOSITORY").filter(|r| !r.is_empty()) {
        text.push_str(&format!("\nSource: {repo}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_names_version_licence_and_adapter() {
        let t = about_text(Some("llvmpipe (Vulkan, Cpu)"));
        assert!(t.contains(env!("CARGO_PKG_VERSION")), "{t}");
        // The commit and the day of the build, as `vitrine --version` says them.
        assert!(
            t.contains(&format!("\nCommit: {}\n", env!("VITRINE_COMMIT"))),
            "{t}"
        );
        assert!(
            t.contains(&format!("\nBuilt: {}\n", env!("VITRINE_BUILD_DATE"))),
            "{t}"
        );
        assert!(t.contains("MIT OR Apache-2.0"), "{t}");
        assert!(t.contains("GPU adapter: llvmpipe (Vulkan, Cpu)"), "{t}");
        assert!(about_text(None).contains("GPU adapter: none"));
    }

    #[test]
    fn every_openable_extension_is_listed_with_a_spec_link() {
        for ext in [
            "pie", "pmf", "pet", "apet", "bpet", "mpet", "tpm", "glb", "gltf", "obj",
        ] {
            assert!(
                crate::formats::is_model_name(&format!("x.{ext}")),
                "{ext} opens"
            );
            let f = FORMATS
                .iter()
                .find(|f| f.extensions.split(' ').any(|e| e == format!(".{ext}")))
                .unwrap_or_else(|| panic!(".{ext} missing from the Help window"));
            assert!(f.specs.iter().all(|(_, url)| url.starts_with("http")));
        }
    }
}
