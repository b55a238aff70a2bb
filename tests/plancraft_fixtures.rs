//! The fixtures named after Plancraft's codes (fixtures/plancraft/M60x_*) give their code: a
//! world with a recipe of an unknown item (M601), an example with an unknown target (M602),
//! and messages run on the fixture split's E1 (oak_planks from one oak_log in [I1]): a
//! format error (M603), an unknown message (M604), a refused move (M605), a message after
//! success (M606).

use pddlc::diagnostics::FileId;
use pddlc::plancraft::{self, EpisodeOptions, Example, ITEMS_TOML, TAGS_TOML, World};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/plancraft")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).expect("fixture")
}

#[test]
fn each_plancraft_fixture_gives_its_code() {
    let recipes = read("M601_recipe_unknown_item.toml");
    let refused = World::from_toml(ITEMS_TOML, TAGS_TOML, &recipes).map(|_| ());
    assert_eq!(refused.map_err(|d| d.code.as_str()), Err("M601"));
    let world = World::embedded().expect("world");
    let unknown = Example::from_json(&world, &read("M602_unknown_target.json")).map(|_| ());
    assert_eq!(unknown.map_err(|d| d.code.as_str()), Err("M602"));
    let split = read("eval/examples.json");
    let example = Example::select(&world, &split, Some("E1")).expect("E1");
    for (name, code, line) in [
        ("M603_quantity_zero.txt", "M603", 1),
        ("M604_no_action.txt", "M604", 1),
        ("M605_empty_source.txt", "M605", 1),
        ("M606_after_success.txt", "M606", 3),
    ] {
        let text = read(name);
        let result = plancraft::run(
            &world,
            &example,
            &text,
            FileId(0),
            EpisodeOptions::default(),
        );
        let codes: Vec<&str> = result.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, [code], "{name}");
        let start = result.diagnostics[0].labels[0].span.start;
        assert_eq!(text[..start].matches('\n').count() + 1, line, "{name}");
    }
}
