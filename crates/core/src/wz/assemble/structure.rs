//! Structures as the game draws them (src/display3d.cpp `renderStructureTurrets`): the
//! base model (not for defences), the structure model, and a turret per connector.

use super::*;

pub(super) fn assemble_structure(
    stats: &Stats,
    finder: &mut PartFinder,
    id: &str,
    modules: u32,
    pose: TurretPose,
) -> Result<Assembly, String> {
    let s = stats
        .structures
        .find(id)
        .ok_or_else(|| format!("no structure {id:?} in structure.json"))?;
    let mut b = new_builder(finder);
    if !s.is_defense()
        && let Some(base) = s.base_model.as_deref()
    {
        b.add("base", &s.id, base, None, Mat4::IDENTITY);
    }
    // `structureModel` alternates whole buildings and module-only models: [base,
    // module 1, base + 1, module 2, base + 2] (`buildStructureDir`).
    let models = &s.structure_model;
    let Some(main) = models.get((2 * modules as usize).min(models.len().saturating_sub(1))) else {
        return Err(format!("structure {} names no structureModel", s.id));
    };
    let placed = b.add("structure", &s.id, main, None, Mat4::IDENTITY);
    let root = placed.node.map(|n| (n, Mat4::IDENTITY));
    let yaw = Mat4::from_rotation_y(pose.yaw_deg.to_radians());
    let ecm = id_of(&s.ecm_id).and_then(|e| stats.ecm.find(e));
    let sensor = id_of(&s.sensor_id).and_then(|e| stats.sensors.find(e));
    let mut elevation = None;
    let slots = s.weapons.len().max(1);
    for (i, &c) in placed.connectors.iter().enumerate().take(slots) {
        let base = Mat4::from_translation(c) * yaw;
        let weapon = s
            .weapons
            .get(i)
            .filter(|w| !is_null_id(w))
            .and_then(|w| stats.weapons.find(w));
        if let Some(w) = weapon {
            elevation.get_or_insert(limits(w));
            let pitch = Mat4::from_rotation_x(pitch_for(w, pose.pitch_deg).to_radians());
            weapon_stack(&mut b, root, &format!("weapon {}", i + 1), w, base, pitch);
            if w.model.is_none() {
                b.warnings.push(format!(
                    "weapon {} ({}) has no model; the game shows only its muzzle flash",
                    i + 1,
                    w.id
                ));
            }
        } else if let Some(t) = ecm.or(sensor).filter(|_| i == 0) {
            // renderStructureTurrets: an ECM or sensor only ever fills slot 0.
            let role = if ecm.is_some() { "ecm" } else { "sensor" };
            let as_weapon = stats::Weapon {
                id: t.id.clone(),
                model: t.sensor_model.clone(),
                mount_model: t.mount_model.clone(),
                ..Default::default()
            };
            weapon_stack(&mut b, root, role, &as_weapon, base, Mat4::IDENTITY);
        }
    }
    let kind = if s.is_defense() {
        "defense"
    } else {
        "structure"
    };
    Ok(b.finish(s.name.clone(), kind, elevation))
}
