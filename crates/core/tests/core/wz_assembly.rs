//! Warzone 2100 droids and structures assembled from the game's 4.3.3 stats and parts
//! (`../shared/corpus/wz2100`): positions against hand-computed values, the VTOL rule,
//! and every template of `mp` and `base` (folders, and `mp.wz` over `data/base`), read
//! through the corpus's files in memory (`common::corpus`).

use crate::common;

use glam::{Mat4, Vec3};
use vitrine_core::files::FileRef;
use vitrine_core::model::Pose;
use vitrine_core::wz::{self, Design, PartFinder, Stats, TurretPose};
use vitrine_test_needs::vitrine_test;

fn roots(wz: &std::path::Path, layers: &[&str]) -> Vec<FileRef> {
    layers
        .iter()
        .map(|l| common::corpus().parse(&wz.join(l)))
        .collect()
}

fn assemble(roots: &[FileRef], design: Design, pose: TurretPose) -> wz::Assembly {
    let (stats, warnings) = Stats::load(&common::corpus(), roots);
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut finder = PartFinder::new(&common::corpus(), roots);
    wz::assemble(&stats, &mut finder, &design, pose).expect("assembles")
}

fn template(id: &str) -> Design {
    Design::Template { id: id.into() }
}

/// Model-space origin of a part's group node in the rest pose.
fn origin(a: &wz::Assembly, role: &str) -> Vec3 {
    let p = a.part(role).unwrap_or_else(|| panic!("no part {role}"));
    let pose = Pose::rest(&a.model);
    pose.world[p.node.expect("loaded")].transform_point3(Vec3::ZERO)
}

fn close(a: Vec3, b: Vec3) -> bool {
    a.abs_diff_eq(b, 1e-4)
}

#[vitrine_test(shared)]
fn wheeled_viper_machinegun_parts_sit_at_body_connector_0() {
    let wz = common::wz2100();
    let r = roots(&wz, &["data/mp", "data/base"]);
    let a = assemble(&r, template("ViperMG01Wheels"), TurretPose::default());
    assert!(a.complete(), "{:?}", a.warnings);
    // drlbod01.pie connector 0 is written `0 10 23`: used as (x, z, y) = (0, 23, 10) in
    // the game's space; the model mirrors x, which is 0 here.
    let c0 = Vec3::new(0.0, 23.0, 10.0);
    assert!(close(origin(&a, "body"), Vec3::ZERO));
    assert!(close(origin(&a, "propulsion"), Vec3::ZERO));
    // trlmg1.pie has no connectors, so the barrel stays at the body connector.
    assert!(
        close(origin(&a, "weapon 1 mount"), c0),
        "{}",
        origin(&a, "weapon 1 mount")
    );
    assert!(close(origin(&a, "weapon 1"), c0));
    let files: Vec<_> = a
        .parts
        .iter()
        .map(|p| p.file.as_ref().unwrap().file_name().to_lowercase())
        .collect();
    assert_eq!(
        files,
        ["drlbod01.pie", "prlwhl1.pie", "trlmg1.pie", "gnlmg1.pie"]
    );
    // The propulsion is body.json's propulsionExtraModels, not propulsion.json's model.
    // (Python tracks: prhtrk3.pie, while propulsion.json's tracked01 icon is prltrk1.pie.)
    let heavy = assemble(&r, template("A-Python-Trk-HC"), TurretPose::default());
    let prop = heavy.part("propulsion").unwrap();
    assert_eq!(prop.model_name.to_lowercase(), "prhtrk3.pie");
}

#[vitrine_test(shared)]
fn dragon_two_weapons_use_connectors_0_and_1() {
    let wz = common::wz2100();
    let r = roots(&wz, &["data/mp", "data/base"]);
    let a = assemble(
        &r,
        template("Dragon-Hover-SeraphGauss"),
        TurretPose::default(),
    );
    assert!(a.complete(), "{:?}", a.warnings);
    // drhbod14.pie connectors 0 and 1: `0 35 47` and `0 -21 47`.
    assert!(close(origin(&a, "weapon 1"), Vec3::new(0.0, 47.0, 35.0)));
    assert!(close(origin(&a, "weapon 2"), Vec3::new(0.0, 47.0, -21.0)));
    assert_eq!(a.part("weapon 1").unwrap().model_name, "Gnmmslaa.PIE");
    assert_eq!(a.part("weapon 2").unwrap().model_name, "GNHGSS.PIE");
    // Turning the turret 90° swings the mount about its connector, not the body origin.
    let turned = assemble(
        &r,
        template("Dragon-Hover-SeraphGauss"),
        TurretPose {
            yaw_deg: 90.0,
            ..TurretPose::default()
        },
    );
    assert!(close(
        origin(&turned, "weapon 2"),
        Vec3::new(0.0, 47.0, -21.0)
    ));
}

#[vitrine_test(shared)]
fn cyborg_gun_sits_at_the_torso_connector() {
    let wz = common::wz2100();
    let r = roots(&wz, &["data/mp", "data/base"]);
    let (stats, _) = Stats::load(&common::corpus(), &r);
    let t = stats
        .templates
        .entries
        .iter()
        .find(|t| t.kind.as_deref() == Some("CYBORG"))
        .unwrap();
    let a = assemble(&r, template(&t.id), TurretPose::default());
    assert!(a.complete(), "{:?}", a.warnings);
    assert!(a.part("propulsion").is_none(), "cyborgs draw no propulsion");
    let legs = a.part("body").unwrap().model_name.to_lowercase();
    assert_eq!(legs, "cybd_std.pie");
    assert_eq!(
        a.part("weapon 1 mount").unwrap().model_name.to_lowercase(),
        "cybody.pie"
    );
    // Legs connector `0 0 32` → (0, 32, 0); torso connector `-16 0 12` → game (−16, 12, 0),
    // mirrored into the model as (16, 12, 0).
    assert!(close(
        origin(&a, "weapon 1 mount"),
        Vec3::new(0.0, 32.0, 0.0)
    ));
    assert!(
        close(origin(&a, "weapon 1"), Vec3::new(16.0, 44.0, 0.0)),
        "{}",
        origin(&a, "weapon 1")
    );
}

#[vitrine_test(shared)]
fn vtol_weapon_hangs_below_the_body() {
    let wz = common::wz2100();
    let r = roots(&wz, &["data/mp", "data/base"]);
    let a = assemble(
        &r,
        template("ATESTVTOL"),
        TurretPose {
            moving: true,
            ..TurretPose::default()
        },
    );
    assert!(a.complete(), "{:?}", a.warnings);
    // drmbod07.pie connector 5 is `0 -19 7` → (0, 7, −19), then rolled 180° about Z.
    assert!(close(origin(&a, "weapon 1"), Vec3::new(0.0, 7.0, -19.0)));
    let pose = Pose::rest(&a.model);
    let world = |role: &str| pose.world[a.part(role).unwrap().node.unwrap()];
    assert!(
        world("weapon 1")
            .transform_vector3(Vec3::Y)
            .abs_diff_eq(-Vec3::Y, 1e-5),
        "upside down"
    );
    // Every point of the rocket pod is below the body's middle.
    let (bmin, bmax) = bounds(&a, "body", &pose);
    let (_, wmax) = bounds(&a, "weapon 1", &pose);
    assert!(
        wmax.y < (bmin.y + bmax.y) / 2.0,
        "weapon top {} body {}..{}",
        wmax.y,
        bmin.y,
        bmax.y
    );
    assert!(
        a.part("moving").is_some(),
        "the VTOL jets show while moving"
    );
    let still = assemble(&r, template("ATESTVTOL"), TurretPose::default());
    assert!(still.part("moving").is_none());
    let _ = world;
}

/// World-space bounds of everything under a part's group node.
fn bounds(a: &wz::Assembly, role: &str, pose: &Pose) -> (Vec3, Vec3) {
    let group = a.part(role).unwrap().node.unwrap();
    let mut lo = Vec3::splat(f32::MAX);
    let mut hi = Vec3::splat(f32::MIN);
    for (i, n) in a.model.nodes.iter().enumerate() {
        let mut p = Some(i);
        let mut under = false;
        while let Some(x) = p {
            if x == group {
                under = true;
                break;
            }
            p = a.model.nodes[x].parent;
        }
        if let (true, Some(m)) = (under, n.mesh) {
            let w: Mat4 = pose.world[i];
            for q in &a.model.meshes[m].points {
                let q = w.transform_point3(*q);
                lo = lo.min(q);
                hi = hi.max(q);
            }
        }
    }
    (lo, hi)
}

#[vitrine_test(shared)]
fn guard_tower_carries_its_machinegun() {
    let wz = common::wz2100();
    let r = roots(&wz, &["data/mp", "data/base"]);
    let a = assemble(
        &r,
        Design::Structure {
            id: "GuardTower1".into(),
        },
        TurretPose::default(),
    );
    assert!(a.complete(), "{:?}", a.warnings);
    assert!(a.part("base").is_none(), "defences have no base plate");
    // BLGUARDM.PIE connector `0 0 116` → (0, 116, 0).
    assert!(close(origin(&a, "weapon 1"), Vec3::new(0.0, 116.0, 0.0)));
}

/// Every template assembles with every part file found; returns (count, failures).
fn all_templates(r: &[FileRef]) -> (usize, Vec<String>) {
    let (stats, warnings) = Stats::load(&common::corpus(), r);
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut finder = PartFinder::new(&common::corpus(), r);
    let mut failures = Vec::new();
    for t in &stats.templates.entries {
        match wz::assemble(&stats, &mut finder, &template(&t.id), TurretPose::default()) {
            Ok(a) if a.complete() && a.warnings.is_empty() => {
                a.model.validate().unwrap();
                // Every texture found (parts in mp.wz find their pages in base).
                let missing: Vec<_> = a
                    .model
                    .textures
                    .iter()
                    .filter(|t| t.resolved.is_none())
                    .map(|t| t.name.clone())
                    .collect();
                if !missing.is_empty() {
                    failures.push(format!("{}: textures not found: {missing:?}", t.id));
                }
                // A turret is drawn exactly when the body has connectors (scavenger
                // vehicles carry their gun in the body model; the game draws no turret).
                let turret = a.parts.iter().any(|p| {
                    p.role.starts_with("weapon")
                        || p.role.starts_with("sensor")
                        || p.role.starts_with("construct")
                        || p.role.starts_with("repair")
                        || p.role.starts_with("ecm")
                });
                let body_connectors = a
                    .model
                    .connectors
                    .iter()
                    .filter(|c| c.node == a.part("body").unwrap().node.unwrap() + 1)
                    .count();
                let kind_draws_turret =
                    !matches!(a.kind.as_str(), "person" | "transporter" | "default");
                assert_eq!(
                    turret,
                    kind_draws_turret && body_connectors > 0,
                    "{}: {:?}",
                    t.id,
                    a.notes
                );
            }
            Ok(a) => failures.push(format!("{}: {}", t.id, a.warnings.join("; "))),
            Err(e) => failures.push(format!("{}: {e}", t.id)),
        }
    }
    (stats.templates.len(), failures)
}

#[vitrine_test(shared)]
fn every_template_assembles_from_folders_and_from_mp_wz() {
    let wz = common::wz2100();
    let (n, f) = all_templates(&roots(&wz, &["data/mp", "data/base"]));
    eprintln!(
        "mp over base (folders): {n} templates, {} failed: {f:#?}",
        f.len()
    );
    let (nb, fb) = all_templates(&roots(&wz, &["data/base"]));
    eprintln!("base: {nb} templates, {} failed: {fb:#?}", fb.len());
    let (nz, fz) = all_templates(&roots(&wz, &["archives/mp.wz", "data/base"]));
    eprintln!(
        "mp.wz over base: {nz} templates, {} failed: {fz:#?}",
        fz.len()
    );
    assert_eq!((n, nb, nz), (280, 165, 280));
    assert!(f.is_empty() && fb.is_empty() && fz.is_empty());
}

#[vitrine_test(shared)]
fn every_structure_assembles_and_defences_carry_their_weapons() {
    let wz = common::wz2100();
    let r = roots(&wz, &["data/mp", "data/base"]);
    let (stats, _) = Stats::load(&common::corpus(), &r);
    let mut finder = PartFinder::new(&common::corpus(), &r);
    let mut failures = Vec::new();
    let mut armed = 0;
    for s in &stats.structures.entries {
        let d = Design::Structure { id: s.id.clone() };
        match wz::assemble(&stats, &mut finder, &d, TurretPose::default()) {
            Ok(a) if a.complete() => {
                a.model.validate().unwrap();
                armed += usize::from(a.part("weapon 1").is_some());
            }
            Ok(a) => failures.push(format!("{}: {}", s.id, a.warnings.join("; "))),
            Err(e) => failures.push(format!("{}: {e}", s.id)),
        }
    }
    eprintln!(
        "{} structures, {armed} with a drawn weapon, {} failed: {failures:#?}",
        stats.structures.len(),
        failures.len()
    );
    assert_eq!(stats.structures.len(), 160);
    assert!(armed > 50, "{armed}");
    assert!(failures.is_empty());
}
