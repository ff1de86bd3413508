//! The light options of `vitrine render` (stills, batches, assemblies and animations
//! alike): the same [`Lighting`] the window's View ▸ Lighting sets.

use crate::render::Lighting;
use clap::Args;

/// `--light-dir`, `--light-intensity`, `--ambient`, `--light-fixed`.
#[derive(Debug, Clone, Default, Args)]
pub struct LightArgs {
    /// Where the light comes from, as AZIMUTH,ELEVATION in degrees: azimuth 0 = from the
    /// front, 90 = from the right, 180 = from behind; elevation 90 = from above
    /// [default: -25,33.6, upper left].
    #[arg(long, value_name = "AZ,EL", value_parser = Lighting::parse_direction, allow_hyphen_values = true)]
    pub light_dir: Option<(f32, f32)>,
    /// Strength of the directional light, 0 (ambient only) to 3 [default: 0.8].
    #[arg(long, value_name = "X", value_parser = intensity)]
    pub light_intensity: Option<f32>,
    /// Ambient light, 0 (faces turned away are black) to 1.5 [default: 0.35].
    #[arg(long, value_name = "X", value_parser = ambient)]
    pub ambient: Option<f32>,
    /// Fix the light to the model instead of the camera: --light-dir is then measured
    /// from the model's front, so every --view and every turntable frame is lit alike.
    #[arg(long)]
    pub light_fixed: bool,
}

impl LightArgs {
    /// The lighting these options ask for.
    pub fn lighting(&self) -> Lighting {
        let mut l = Lighting::DEFAULT;
        if let Some((az, el)) = self.light_dir {
            l.azimuth_deg = az;
            l.elevation_deg = el;
        }
        if let Some(v) = self.light_intensity {
            l.diffuse = v;
        }
        if let Some(v) = self.ambient {
            l.ambient = v;
        }
        l.follows_camera = !self.light_fixed;
        l
    }
}

fn in_range(s: &str, range: std::ops::RangeInclusive<f32>) -> Result<f32, String> {
    let v: f32 = s.trim().parse().map_err(|_| format!("{s}: not a number"))?;
    if range.contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{v}: goes from {} to {}",
            range.start(),
            range.end()
        ))
    }
}

fn intensity(s: &str) -> Result<f32, String> {
    in_range(s, crate::render::lighting::INTENSITY_RANGE)
}

fn ambient(s: &str) -> Result<f32, String> {
    in_range(s, crate::render::lighting::AMBIENT_RANGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn light_options_parse_into_the_lighting() {
        let cli = crate::cli::Cli::try_parse_from([
            "vitrine",
            "render",
            "a.pie",
            "-o",
            "a.png",
            "--light-dir",
            "-120,10",
            "--light-intensity",
            "1.5",
            "--ambient",
            "0",
            "--light-fixed",
        ])
        .unwrap();
        let Some(crate::cli::Command::Render(args)) = cli.command else {
            panic!("not render");
        };
        let l = args.view_settings().lighting;
        assert_eq!((l.azimuth_deg, l.elevation_deg), (-120.0, 10.0));
        assert_eq!((l.diffuse, l.ambient, l.follows_camera), (1.5, 0.0, false));
        for bad in [
            ["--light-dir", "10"],
            ["--light-dir", "0,95"],
            ["--light-intensity", "-1"],
            ["--ambient", "x"],
        ] {
            let args = ["vitrine", "render", "a.pie", "-o", "a.png", bad[0], bad[1]];
            assert!(crate::cli::Cli::try_parse_from(args).is_err(), "{bad:?}");
        }
        let plain =
            crate::cli::Cli::try_parse_from(["vitrine", "render", "a.pie", "-o", "a.png"]).unwrap();
        let Some(crate::cli::Command::Render(args)) = plain.command else {
            panic!("not render");
        };
        assert_eq!(args.view_settings().lighting, Lighting::DEFAULT);
    }
}
