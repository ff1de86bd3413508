use super::*;
use crate::commands::AppCommand;
use crate::model::{Clip, Format, Model};
use crate::settings::Settings;
use crate::wz::Design;

fn state_with_clips() -> AppState {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    let mut model = Model::new(Format::Pie, "3");
    model.clips.push(Clip::new("idle", 10.0, 20, true));
    model.clips.push(Clip::new("fire", 10.0, 30, false));
    s.set_document(
        FileRef::Entry {
            archive: "host/base.wz".into(),
            path: "structs/blderik anim&1.pie".into(),
        },
        model,
    );
    s
}

#[test]
fn a_link_reads_back_as_written() {
    let link = ViewLink {
        model: Some("components/bodies/body5rec.pie".into()),
        design: None,
        team: Some(3),
        clip: Some(ClipRef::Name("fire & smoke".into())),
        time: Some(1.25),
        camera: Some(CameraLink {
            yaw: 45.5,
            pitch: -20.25,
            distance: 312.5,
            target: [0.0, 41.125, -3.5],
            orthographic: true,
        }),
        embed: true,
    };
    let text = link.to_fragment();
    assert_eq!(
        text,
        "model=components/bodies/body5rec.pie&team=3&clip=fire%20%26%20smoke&t=1.25\
         &cam=45.5,-20.25,312.5,0,41.125,-3.5,o&embed=1"
    );
    assert_eq!(parse(&format!("#{text}")), (link, vec![]));
}

#[test]
fn numbers_are_short_and_limited() {
    assert_eq!(number(12.345_678, 2), "12.35");
    assert_eq!(number(-0.0001, 2), "0");
    assert_eq!(number(3.0, 4), "3");
    assert_eq!(significant(312.4568), "312.46");
    assert_eq!(significant(0.012_345_67), "0.012346");
    assert_eq!(significant(123_456.7), "123457");
    assert_eq!(significant(0.0), "0");
}

#[test]
fn each_bad_field_is_named_and_the_rest_applies() {
    let (link, bad) = parse("team=banana&t=1.0&cam=1,2&clip=&embed=maybe&what=ever");
    assert_eq!(link.time, Some(1.0));
    assert_eq!(link.team, None);
    assert_eq!(link.camera, None);
    assert_eq!(link.clip, None);
    assert!(!link.embed);
    assert_eq!(bad.len(), 4, "{bad:?}");
    assert!(
        bad[0].starts_with("team=banana: not a team colour"),
        "{bad:?}"
    );
    assert!(bad[1].starts_with("cam=1,2:"), "{bad:?}");
    assert!(bad[2].starts_with("clip=:"), "{bad:?}");
    assert!(bad[3].starts_with("embed=maybe:"), "{bad:?}");
    for nonsense in [
        "team=16",
        "team=-1",
        "t=-2",
        "t=NaN",
        "t=inf",
        "cam=0,95,10,0,0,0",
        "cam=0,10,0,0,0,0",
        "cam=0,10,5,0,0,0,x",
        "cam=0,10,5,0,0,nan",
        "model=",
    ] {
        let (link, bad) = parse(nonsense);
        assert_eq!(link, ViewLink::default(), "{nonsense}");
        assert_eq!(bad.len(), 1, "{nonsense}: {bad:?}");
    }
    // Six camera numbers: perspective.
    let (link, bad) = parse("cam=10,20,30,1,2,3&embed=1");
    assert!(bad.is_empty());
    assert!(!link.camera.unwrap().orthographic);
    assert!(link.embed);
}

#[test]
fn the_state_makes_a_link_that_shows_the_same_view() {
    let mut s = state_with_clips();
    s.services.settings.team = 5;
    s.view.camera.orbit(40.0, -15.0);
    s.view.camera.zoom(1.5);
    s.view.camera.orthographic = true;
    crate::dispatch::apply(
        &mut s,
        AppCommand::Timeline(TimelineCommand::SelectClip {
            clip: 1,
            motion: None,
        }),
    );
    crate::dispatch::apply(&mut s, AppCommand::Timeline(TimelineCommand::Step(4)));
    let link = ViewLink::of_state(&s, false);
    assert_eq!(
        link.model.as_deref(),
        Some("structs/blderik anim&1.pie"),
        "the entry's path inside its archive"
    );
    assert_eq!(link.clip, Some(ClipRef::Name("fire".into())));
    assert_eq!(link.time, Some(0.4));
    let text = link.to_fragment();
    assert!(text.starts_with("model=structs/blderik%20anim%261.pie&team=5&clip=fire&t=0.4&cam="));

    let mut other = state_with_clips();
    let (read, bad) = parse(&text);
    assert!(bad.is_empty(), "{bad:?}");
    assert!(read.apply_view(&mut other).is_empty());
    assert_eq!(other.services.settings.team, 5);
    let (a, b) = (
        s.document.open.as_ref().unwrap(),
        other.document.open.as_ref().unwrap(),
    );
    assert_eq!(b.playback.clip, Some(1));
    assert!(!b.playback.playing, "paused at the link's time");
    assert!((a.playback.time - b.playback.time).abs() < 1e-4);
    assert_eq!(a.pose, b.pose);
    let (c, d) = (s.view.camera, other.view.camera);
    assert!((c.yaw.rem_euclid(std::f32::consts::TAU) - d.yaw).abs() < 1e-3);
    assert!((c.pitch - d.pitch).abs() < 1e-3);
    assert!((c.distance - d.distance).abs() / c.distance < 1e-4);
    assert!((c.target - d.target).length() < 1e-3);
    assert!(d.orthographic);
    assert!(
        other.view.camera_moved,
        "a resized view keeps the link's camera"
    );
    // The link says the same once more.
    assert_eq!(ViewLink::of_state(&other, false).to_fragment(), text);
}

#[test]
fn the_top_view_and_a_straight_down_link_stay_short_of_the_pole() {
    let mut s = state_with_clips();
    s.view.camera.set_preset(crate::render::ViewPreset::Top);
    let text = ViewLink::of_state(&s, false).to_fragment();
    let (link, bad) = parse(&text);
    assert!(bad.is_empty(), "{text}: {bad:?}");
    let mut other = state_with_clips();
    link.apply_view(&mut other);
    assert!((other.view.camera.pitch - s.view.camera.pitch).abs() < 1e-4);
    let (down, bad) = parse("cam=0,-90,10,0,0,0,p");
    assert!(bad.is_empty());
    down.apply_view(&mut other);
    assert!(other.view.camera.pitch > -std::f32::consts::FRAC_PI_2);
}

#[test]
fn a_playing_model_has_no_time_and_one_clip_is_not_named() {
    let mut s = state_with_clips();
    assert!(s.document.open.as_ref().unwrap().playback.playing);
    let link = ViewLink::of_state(&s, true);
    assert_eq!(link.time, None);
    assert_eq!(link.clip, Some(ClipRef::Name("idle".into())));
    assert!(link.to_fragment().ends_with("&embed=1"));
    s.document.open.as_mut().unwrap().model.clips.truncate(1);
    assert_eq!(ViewLink::of_state(&s, false).clip, None);
}

#[test]
fn a_clip_the_model_lacks_is_noted_the_rest_applies() {
    let mut s = state_with_clips();
    let (link, _) = parse("clip=walk&t=0.5&team=2");
    let notes = link.apply_view(&mut s);
    assert_eq!(
        notes,
        vec!["clip=walk: the model has no such clip".to_string()]
    );
    let doc = s.document.open.as_ref().unwrap();
    assert_eq!(doc.playback.clip, Some(0));
    assert!((doc.playback.time - 0.5).abs() < 1e-6);
    assert_eq!(s.services.settings.team, 2);
    let (by_index, _) = parse("clip=1");
    assert!(by_index.apply_view(&mut s).is_empty());
    assert_eq!(s.document.open.as_ref().unwrap().playback.clip, Some(1));
}

#[test]
fn models_resolve_beside_the_open_one() {
    let entry = FileRef::Entry {
        archive: "h/base.wz".into(),
        path: "a/b.pie".into(),
    };
    assert_eq!(
        resolve_model("c/d.pie", Some(&entry)),
        FileRef::Entry {
            archive: "h/base.wz".into(),
            path: "c/d.pie".into()
        }
    );
    let disk = FileRef::Disk("h/x/b.pie".into());
    assert_eq!(model_path(&disk).as_deref(), Some("h/x/b.pie"));
    assert_eq!(
        resolve_model("h/x/c.pie", Some(&disk)),
        FileRef::Disk("h/x/c.pie".into())
    );
    assert_eq!(percent_decode("a%2"), "a%2");
    assert_eq!(percent_decode("%E2%96%B8x"), "▸x");
}

#[test]
fn a_design_link_names_the_assembly_and_reads_back() {
    for line in [
        "template:ViperMG01Wheels",
        "structure:A0LightFactory",
        "parts:body=Body5REC;propulsion=tracked01;weapons=MG1Mk1,Rocket-LtA-T;sensor=SensorTurret1Mk1",
    ] {
        let design = Design::from_line(line).unwrap();
        let link = ViewLink {
            design: Some(design.clone()),
            team: Some(2),
            ..ViewLink::default()
        };
        let text = link.to_fragment();
        assert!(text.starts_with("design="), "{text}");
        assert!(!text.contains("model="), "{text}");
        let value = text["design=".len()..].split('&').next().unwrap();
        assert!(
            !value.contains(['=', '#', ' ']),
            "the line is percent-encoded: {text}"
        );
        assert_eq!(parse(&text), (link, vec![]), "{line}");
    }
    assert_eq!(
        ViewLink {
            design: Design::from_line("parts:body=B;propulsion=P;weapons=W1,W2"),
            ..ViewLink::default()
        }
        .to_fragment(),
        "design=parts:body%3DB;propulsion%3DP;weapons%3DW1,W2"
    );
}

#[test]
fn a_nonsense_design_is_noted_and_a_design_wins_over_a_model() {
    for nonsense in [
        "design=banana",
        "design=",
        "design=template:",
        "design=parts:x=1",
    ] {
        let (link, bad) = parse(&format!("{nonsense}&team=4"));
        assert_eq!(link.design, None, "{nonsense}");
        assert_eq!(link.team, Some(4), "the rest applies: {nonsense}");
        assert_eq!(bad.len(), 1, "{nonsense}: {bad:?}");
        assert!(bad[0].contains(": not a design"), "{bad:?}");
    }
    let (link, bad) = parse("model=a/b.pie&design=template:ViperMG01Wheels&t=0.5");
    assert_eq!(link.model, None);
    assert_eq!(link.design, Design::from_line("template:ViperMG01Wheels"));
    assert_eq!(link.time, Some(0.5));
    assert_eq!(
        bad,
        vec!["model=a/b.pie: the link's design is shown instead".to_string()]
    );
}

#[test]
fn an_assembly_on_screen_makes_a_design_link_and_takes_the_view() {
    let mut s = state_with_clips();
    let design = Design::from_line("template:ViperMG01Wheels").unwrap();
    let model = s.document.open.take().unwrap().model;
    s.set_document(design_path(&design), model);
    s.services.settings.team = 7;
    let link = ViewLink::of_state(&s, false);
    assert_eq!(link.design.as_ref(), Some(&design));
    assert_eq!(link.model, None);
    let text = link.to_fragment();
    assert!(
        text.starts_with("design=template:ViperMG01Wheels&team=7&clip=idle&cam="),
        "{text}"
    );

    // Team, clip, time and camera apply to an assembly as to a model.
    let mut other = state_with_clips();
    let model = other.document.open.take().unwrap().model;
    other.set_document(design_path(&design), model);
    let (read, bad) = parse(&format!("{text}&clip=fire&t=0.2"));
    assert!(bad.is_empty(), "{bad:?}");
    assert!(read.apply_view(&mut other).is_empty());
    assert_eq!(other.services.settings.team, 7);
    let doc = other.document.open.as_ref().unwrap();
    assert_eq!(doc.playback.clip, Some(1));
    assert!((doc.playback.time - 0.2).abs() < 1e-6);
}

#[test]
fn a_droid_asked_for_without_propulsion_is_shown_with_one() {
    let asked =
        design_path(&Design::from_line("parts:body=Body5REC;propulsion=;weapons=MG1Mk1").unwrap());
    let got = design_path(
        &Design::from_line("parts:body=Body5REC;propulsion=wheeled01;weapons=MG1Mk1").unwrap(),
    );
    let other = design_path(
        &Design::from_line("parts:body=Body11ABT;propulsion=wheeled01;weapons=MG1Mk1").unwrap(),
    );
    assert!(shows(&asked, &got));
    assert!(shows(&got, &got));
    assert!(!shows(&asked, &other));
    assert!(
        !shows(&got, &asked),
        "a propulsion asked for is the one shown"
    );
    let file = FileRef::Disk("a.pie".into());
    assert!(shows(&file, &file));
    assert!(!shows(&file, &got));
}
