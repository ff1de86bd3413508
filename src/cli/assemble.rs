//! The Warzone 2100 assembly options shared by `vitrine render` and `vitrine info`:
//! `--template ID|NAME`, `--body/--propulsion/--weapon …`, `--structure ID`; the stats
//! and parts are read through the shared `--data ROOT` flags (repeatable, first wins).

use crate::files::FileRef;
use crate::wz::{self, Assembly, Design, PartFinder, Stats, TurretPose, design::Parts};
use clap::Args;
use std::path::PathBuf;

/// What to assemble and where the game's data is.
#[derive(Debug, Clone, Default, Args)]
pub struct WzArgs {
    /// Assemble a droid template of `templates.json` (id or human name).
    #[arg(long, value_name = "ID|NAME", conflicts_with_all = ["body", "structure"])]
    pub template: Option<String>,
    /// Assemble a droid from parts: the body (id, name or model file).
    #[arg(long, value_name = "ID", conflicts_with = "structure")]
    pub body: Option<String>,
    /// With --body: the propulsion [default: wheels, or the first the body has models for].
    #[arg(long, value_name = "ID", requires = "body")]
    pub propulsion: Option<String>,
    /// With --body: a weapon, once per weapon slot.
    #[arg(long = "weapon", value_name = "ID", requires = "body")]
    pub weapons: Vec<String>,
    /// With --body: a sensor turret.
    #[arg(long, value_name = "ID", requires = "body")]
    pub sensor: Option<String>,
    /// With --body: a construct turret.
    #[arg(long, value_name = "ID", requires = "body")]
    pub construct: Option<String>,
    /// With --body: a repair turret.
    #[arg(long, value_name = "ID", requires = "body")]
    pub repair: Option<String>,
    /// With --body: an ECM turret.
    #[arg(long, value_name = "ID", requires = "body")]
    pub ecm: Option<String>,
    /// With --body: a commander brain (drawn as its turret weapon).
    #[arg(long, value_name = "ID", requires = "body")]
    pub brain: Option<String>,
    /// Assemble a structure of `structure.json` with its turrets (id or human name).
    #[arg(long, value_name = "ID|NAME")]
    pub structure: Option<String>,
    /// Turret direction in degrees.
    #[arg(
        long,
        value_name = "DEGREES",
        default_value = "0",
        allow_negative_numbers = true
    )]
    pub yaw: f32,
    /// Turret pitch in degrees (clamped to each weapon's elevation limits).
    #[arg(
        long,
        value_name = "DEGREES",
        default_value = "0",
        allow_negative_numbers = true
    )]
    pub pitch: f32,
    /// Show the moving models (VTOL jets) instead of the still ones.
    #[arg(long)]
    pub moving: bool,
}

impl WzArgs {
    /// The design asked for, if any.
    pub fn design(&self) -> Option<Design> {
        if let Some(id) = &self.template {
            return Some(Design::Template { id: id.clone() });
        }
        if let Some(id) = &self.structure {
            return Some(Design::Structure { id: id.clone() });
        }
        let body = self.body.clone()?;
        Some(Design::Parts(Parts {
            body,
            propulsion: self.propulsion.clone().unwrap_or_default(),
            weapons: self.weapons.clone(),
            sensor: self.sensor.clone(),
            construct: self.construct.clone(),
            repair: self.repair.clone(),
            ecm: self.ecm.clone(),
            brain: self.brain.clone(),
        }))
    }

    /// The turret pose asked for.
    pub fn pose(&self) -> TurretPose {
        TurretPose {
            yaw_deg: self.yaw,
            pitch_deg: self.pitch,
            moving: self.moving,
        }
    }
}

/// The stats and a part finder over the `--data` roots; stats warnings go to stderr.
pub fn open(data: &[PathBuf]) -> Result<(Stats, PartFinder), String> {
    if data.is_empty() {
        return Err(
            "assembling needs the game's data: --data ROOT (e.g. --data data/mp --data data/base)"
                .into(),
        );
    }
    let roots: Vec<FileRef> = data.iter().map(|p| crate::files::parse(p)).collect();
    let (stats, warnings) = Stats::load(crate::files::disk(), &roots);
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    if !stats.is_present() {
        let list: Vec<_> = roots.iter().map(|r| r.to_string()).collect();
        return Err(format!(
            "no stats/templates.json or stats/body.json in {}",
            list.join(", ")
        ));
    }
    Ok((stats, PartFinder::new(crate::files::disk(), &roots)))
}

/// Assembles `design`, filling a part-by-part design's missing propulsion, and prints
/// the assembly's warnings and notes.
pub fn build(
    stats: &Stats,
    finder: &mut PartFinder,
    design: &Design,
    pose: TurretPose,
) -> Result<Assembly, String> {
    let design = match design {
        Design::Parts(p) if p.propulsion.is_empty() => {
            let mut p = p.clone();
            p.propulsion = wz::design::default_propulsion(stats, &p.body).unwrap_or_default();
            Design::Parts(p)
        }
        d => d.clone(),
    };
    let a = wz::assemble(stats, finder, &design, pose)?;
    for w in &a.warnings {
        eprintln!("warning: {}: {w}", a.name);
    }
    for n in &a.notes {
        eprintln!("note: {}: {n}", a.name);
    }
    Ok(a)
}

/// The assembly `args` ask for (`--template`, `--body`…, `--structure`), as its one-line
/// label and the composed model; `None` when they ask for none (an animated export of an
/// assembly uses this).
pub fn design_model(
    args: &crate::cli::render::RenderArgs,
) -> Option<(String, Result<crate::model::Model, String>)> {
    let design = args.wz.design()?;
    let model = open(&args.load.data)
        .and_then(|(stats, mut finder)| build(&stats, &mut finder, &design, args.wz.pose()))
        .map(|a| a.model);
    Some((design.to_line(), model))
}

/// `vitrine render --template/--body/--structure … -o out.png`, or `--all-templates -o DIR`.
pub fn render(
    args: &crate::cli::render::RenderArgs,
    gpu: &crate::render::Gpu,
    scene: &mut crate::render::SceneRenderer,
    target: &crate::render::RenderTarget,
    view: &crate::render::ViewSettings,
) -> i32 {
    use crate::cli::render::{render_model, write_png_atomic};
    let (stats, mut finder) = match open(&args.load.data) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("vitrine render: {e}");
            return crate::cli::exit::USAGE;
        }
    };
    let pose = args.wz.pose();
    if !args.all_templates
        && let Some(ext) = args.output.extension().and_then(|e| e.to_str())
        && !ext.eq_ignore_ascii_case("png")
    {
        eprintln!(
            "vitrine render: {}: an assembly is written as PNG (-o NAME.png)",
            args.output.display()
        );
        return crate::cli::exit::USAGE;
    }
    let one = |finder: &mut PartFinder,
               scene: &mut crate::render::SceneRenderer,
               design: &Design,
               out: &std::path::Path|
     -> Result<Assembly, String> {
        let a = build(&stats, finder, design, pose)?;
        let at = args.anim.resolve(&a.model, true)?;
        let img = render_model(gpu, scene, target, &a.model, view, at)?;
        write_png_atomic(out, &img)?;
        Ok(a)
    };
    if !args.all_templates {
        let Some(design) = args.wz.design() else {
            return crate::cli::exit::USAGE;
        };
        return match one(&mut finder, scene, &design, &args.output) {
            Ok(_) => crate::cli::exit::OK,
            Err(e) => {
                eprintln!("vitrine render: {e}");
                crate::cli::exit::FAILED
            }
        };
    }
    let start = std::time::Instant::now();
    let mut failures = Vec::new();
    let mut incomplete = 0;
    let total = stats.templates.len();
    let mut names = crate::files::names::UniqueNames::new();
    for t in &stats.templates.entries {
        let named = names.take(&t.id, "png", "template");
        if let Some(note) = &named.note {
            eprintln!("note: template {note}");
        }
        let out = args.output.join(named.file);
        match one(
            &mut finder,
            scene,
            &Design::Template { id: t.id.clone() },
            &out,
        ) {
            Ok(a) if !a.complete() => incomplete += 1,
            Ok(_) => {}
            Err(e) => failures.push((t.id.clone(), e)),
        }
    }
    eprintln!(
        "{} of {total} templates rendered to {} in {:.2} s; {incomplete} with missing parts",
        total - failures.len(),
        args.output.display(),
        start.elapsed().as_secs_f64()
    );
    for (id, e) in &failures {
        eprintln!("  {id}: {e}");
    }
    i32::from(!failures.is_empty())
}

/// `vitrine info [--json] --template ID --data …`: the parts, their files, nodes and
/// where each sits (file axes, i.e. the game's x, height, z).
pub fn info(args: &crate::cli::info::InfoArgs, design: &Design) -> i32 {
    let result = open(&args.load.data)
        .and_then(|(stats, mut finder)| build(&stats, &mut finder, design, args.wz.pose()));
    let a = match result {
        Ok(a) => a,
        Err(e) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::json!({ "design": design.to_line(), "error": e })
                );
            } else {
                eprintln!("vitrine info: {e}");
            }
            return crate::cli::exit::FAILED;
        }
    };
    let label = design.to_line();
    if args.json {
        let path = std::path::Path::new(&label);
        match crate::cli::info::model_json(&a.model, path, args) {
            Ok(mut o) => {
                if let Some(obj) = o.as_object_mut() {
                    obj.remove("pie");
                    obj.insert("design".into(), label.clone().into());
                    if let crate::model::Details::Assembly(d) = &a.model.details {
                        let assembly = serde_json::to_value(&d.assembly).unwrap_or_default();
                        obj.insert("assembly".into(), assembly);
                    }
                    obj.insert("notes".into(), a.notes.clone().into());
                }
                println!("{o}");
            }
            Err(e) => {
                eprintln!("vitrine info: {e}");
                return crate::cli::exit::FAILED;
            }
        }
    } else {
        println!("{label}: {} ({})", a.name, a.kind);
        for p in &a.parts {
            let pos = a.model.axes.point_to_file(p.position());
            let file = p
                .file
                .as_ref()
                .map_or_else(|| "MISSING".to_string(), |f| f.to_string());
            println!(
                "  {:<16} {:<20} {:<16} at ({}, {}, {})  {file}",
                p.role, p.stats_id, p.model_name, pos.x, pos.y, pos.z
            );
        }
        for n in &a.notes {
            println!("  note: {n}");
        }
    }
    i32::from(!a.complete())
}
