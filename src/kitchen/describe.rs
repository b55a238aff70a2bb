//! The world, or a task's environment, as readable text for an LLM prompt.

use super::simmer::Env;
use super::world::World;

const FORMAT: &str = "Write one step per line: [ACTION] <object> (id) <object> (id) …, for \
example [PUT_ON] <lettuce> (1) <cutting_board> (1). Values are bare: [BAKE] <cake> (1) \
<pan> (1) <oven> (1) <30_minutes>. [COMBINE] <bowl> (1) <salad> (1) makes salad_1 in bowl_1.\n";

/// The plan format and the actions with their roles and meaning.
pub fn world(world: &World) -> String {
    let mut out = String::from(FORMAT);
    out.push_str("\nActions (arguments in order; `?` marks an optional one):\n");
    for action in world.actions.values() {
        let roles: Vec<String> = action
            .roles
            .iter()
            .map(|r| format!("<{}{}>", r.name, if r.optional { "?" } else { "" }))
            .collect();
        out.push_str(&format!(
            "  [{}] {}: {}\n",
            action.name.to_uppercase(),
            roles.join(" "),
            action.doc
        ));
    }
    out
}

/// A task's objects, grouped by where they are, then the actions.
pub fn env(world_model: &World, env: &Env) -> String {
    let mut places: Vec<(&str, Vec<String>)> = Vec::new();
    for o in &env.objects {
        let place = o.location.as_deref().unwrap_or("nowhere");
        let line = format!(
            "{} ({}) [{}]",
            o.id,
            o.properties.join(", "),
            o.states.join(", ")
        );
        match places.iter_mut().find(|(p, _)| *p == place) {
            Some((_, lines)) => lines.push(line),
            None => places.push((place, vec![line])),
        }
    }
    let mut out = String::from("Objects, by place (id (properties) [states]):\n");
    for (place, lines) in places {
        out.push_str(&format!("  in {place}:\n"));
        for line in lines {
            out.push_str(&format!("    {line}\n"));
        }
    }
    out.push('\n');
    out.push_str(&world(world_model));
    out
}
