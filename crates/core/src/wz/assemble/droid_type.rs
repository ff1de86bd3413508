//! The game's droid types that change how a droid is drawn, from its template's type
//! and parts (src/droid.cpp `droidTemplateType`).

use super::*;

/// The game's droid types that change how a droid is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DroidType {
    Weapon,
    Cyborg,
    CyborgConstruct,
    CyborgRepair,
    Person,
    Transporter,
    Command,
    Sensor,
    Ecm,
    Construct,
    Repair,
    Default,
}

impl DroidType {
    pub(super) fn name(self) -> &'static str {
        match self {
            DroidType::Weapon => "weapon",
            DroidType::Cyborg => "cyborg",
            DroidType::CyborgConstruct => "cyborg construct",
            DroidType::CyborgRepair => "cyborg repair",
            DroidType::Person => "person",
            DroidType::Transporter => "transporter",
            DroidType::Command => "command",
            DroidType::Sensor => "sensor",
            DroidType::Ecm => "ecm",
            DroidType::Construct => "construct",
            DroidType::Repair => "repair",
            DroidType::Default => "default",
        }
    }

    pub(super) fn is_cyborg(self) -> bool {
        matches!(
            self,
            DroidType::Cyborg | DroidType::CyborgConstruct | DroidType::CyborgRepair
        )
    }
}

pub(super) fn id_of(o: &Option<String>) -> Option<&str> {
    o.as_deref().filter(|s| !is_null_id(s))
}

/// droid.cpp `droidTemplateType`: the template's `type` for people, cyborgs and
/// transporters, else the first of brain, sensor turret, ECM turret, construct, repair
/// turret, weapon. A design built part by part on Legged propulsion counts as a cyborg.
pub(super) fn droid_type(stats: &Stats, kind: Option<&str>, p: &Parts) -> DroidType {
    let legged = stats
        .propulsion
        .get(&p.propulsion)
        .and_then(|x| x.kind.as_deref())
        .is_some_and(|k| k.eq_ignore_ascii_case("legged"));
    let by_kind = match kind.map(str::to_ascii_uppercase).as_deref() {
        Some("PERSON") => Some(DroidType::Person),
        Some("CYBORG") | Some("CYBORG_SUPER") => Some(DroidType::Cyborg),
        Some("CYBORG_CONSTRUCT") => Some(DroidType::CyborgConstruct),
        Some("CYBORG_REPAIR") => Some(DroidType::CyborgRepair),
        Some("TRANSPORTER") | Some("SUPERTRANSPORTER") => Some(DroidType::Transporter),
        _ => None,
    };
    if let Some(t) = by_kind {
        return t;
    }
    let turret = |t: Option<&stats::SystemTurret>| t.is_some_and(|t| t.is_turret());
    let repair_turret = id_of(&p.repair)
        .and_then(|r| stats.repair.get(r))
        .is_some_and(|r| {
            r.location
                .as_deref()
                .is_none_or(|l| l.eq_ignore_ascii_case("turret"))
        });
    let t = if id_of(&p.brain).is_some() {
        DroidType::Command
    } else if turret(id_of(&p.sensor).and_then(|s| stats.sensors.get(s))) {
        DroidType::Sensor
    } else if turret(id_of(&p.ecm).and_then(|s| stats.ecm.get(s))) {
        DroidType::Ecm
    } else if id_of(&p.construct).is_some() {
        DroidType::Construct
    } else if repair_turret {
        DroidType::Repair
    } else if p.weapons.iter().any(|w| !is_null_id(w)) {
        DroidType::Weapon
    } else {
        DroidType::Default
    };
    match (legged, t) {
        (true, DroidType::Weapon) => DroidType::Cyborg,
        (true, DroidType::Construct) => DroidType::CyborgConstruct,
        (true, DroidType::Repair) => DroidType::CyborgRepair,
        _ => t,
    }
}

/// Whether template `id` makes a construction droid as the game types it
/// (`DROID_CONSTRUCT`: a truck; a cyborg engineer is `DROID_CYBORG_CONSTRUCT`, not one);
/// `None` when the stats have no template `id`.
pub fn is_construct_template(stats: &Stats, id: &str) -> Option<bool> {
    let t = stats.templates.find(id)?;
    let parts = template_parts(t);
    Some(droid_type(stats, t.kind.as_deref(), &parts) == DroidType::Construct)
}

/// The parts template `t` names.
pub(super) fn template_parts(t: &stats::Template) -> Parts {
    Parts {
        body: t.body.clone(),
        propulsion: t.propulsion.clone(),
        weapons: t.weapons.clone(),
        sensor: t.sensor.clone(),
        construct: t.construct.clone(),
        repair: t.repair.clone(),
        ecm: t.ecm.clone(),
        brain: t.brain.clone(),
    }
}
