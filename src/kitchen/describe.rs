//! The world, or a task's environment, as readable text for an LLM prompt.

use super::data::simmer::Env;
use super::data::world::World;

const FORMAT: &str = "Write one step per line: [ACTION] <object> (id) <object> (id) …, for \
example [PUT_ON] <lettuce> (1) <cutting_board> (1). Values are bare: [BAKE] <cake> (1) \
<pan> (1) <oven> (1) <30_minutes>. [COMBINE] <bowl> (1) <salad> (1) makes salad_1 in bowl_1.\n";

/// What a task's description holds beyond its objects.
#[derive(Clone, Debug, Default)]
pub struct DescribeOptions<'a> {
    /// The task's goal, as its description states it (`Task: How to Boil Butternut Squash`,
    /// the first line of Simmer's `task_NNN.txt`).
    pub goal: Option<&'a str>,
    /// List every action of the world, not only those the task defines.
    pub all_actions: bool,
}

/// One action line: `[NAME] <role> <role?>: what it does`.
fn action_line(action: &super::data::world::Action) -> String {
    let roles: Vec<String> = action
        .roles
        .iter()
        .map(|r| format!("<{}{}>", r.name, if r.optional { "?" } else { "" }))
        .collect();
    format!(
        "  [{}] {}: {}\n",
        action.name.to_uppercase(),
        roles.join(" "),
        action.doc
    )
}

/// The plan format and the actions with their roles and meaning.
pub fn describe_world(world: &World) -> String {
    let mut out = String::from(FORMAT);
    out.push_str("\nActions (arguments in order; `?` marks an optional one):\n");
    for action in world.actions.values() {
        out.push_str(&action_line(action));
    }
    out
}

/// A task as a prompt needs it, with the task's own actions: see [`task`].
pub fn describe_env(world_model: &World, env: &Env) -> String {
    describe_task(world_model, env, &DescribeOptions::default())
}

/// A task as a prompt needs it: its goal, the agent's state, its objects grouped by where they
/// are with their properties and states, the plan format, and the actions the task defines
/// (Simmer's `action_definitions`; every action when the environment lists none, or with
/// `all_actions`).
pub fn describe_task(world_model: &World, env: &Env, options: &DescribeOptions) -> String {
    let mut out = String::new();
    if let Some(goal) = options.goal.map(str::trim).filter(|g| !g.is_empty()) {
        out.push_str(&format!(
            "Goal: {}\n\n",
            goal.trim_start_matches("Task:").trim()
        ));
    }
    let start = &world_model.config.agent;
    let agent = env.agent.clone().unwrap_or_default();
    let location = agent.location.as_deref().unwrap_or(&start.location);
    let holding = agent.holding.as_deref().unwrap_or("nothing");
    out.push_str(&format!(
        "The agent is in the {location}, holding {holding}"
    ));
    if !agent.states.is_empty() {
        out.push_str(&format!(" [{}]", agent.states.join(", ")));
    }
    out.push_str(".\n");
    if !start.flags.is_empty() {
        out.push_str(&format!("Off at the start: {}.\n", start.flags.join(", ")));
    }
    out.push('\n');
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
    out.push_str("Objects, by place (id (properties) [states]):\n");
    for (place, lines) in places {
        out.push_str(&format!("  in {place}:\n"));
        for line in lines {
            out.push_str(&format!("    {line}\n"));
        }
    }
    out.push('\n');
    out.push_str(FORMAT);
    let own = env.actions.as_ref().filter(|_| !options.all_actions);
    let listed: Vec<&super::data::world::Action> = world_model
        .actions
        .values()
        .filter(|a| own.is_none_or(|names| names.contains(&a.name)))
        .collect();
    match own {
        Some(_) => out.push_str(&format!(
            "\nActions of this task, {} of {} (arguments in order; `?` marks an optional one):\n",
            listed.len(),
            world_model.actions.len()
        )),
        None => out.push_str("\nActions (arguments in order; `?` marks an optional one):\n"),
    }
    for action in listed {
        out.push_str(&action_line(action));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_shows_its_goal_the_agent_and_only_its_own_actions() {
        let env = Env::from_json(
            r#"{"initial_objects": [{"id": 1, "class_name": "egg", "properties": ["edible"],
                 "states": ["raw"], "location": "fridge"}],
                "action_definitions": {"grab": {}, "wash": {}, "no_such_action": {}},
                "agent": {"location": "kitchen", "holding": null, "states": ["hands_empty"]}}"#,
        )
        .expect("an environment");
        let world = World::embedded();
        let options = DescribeOptions {
            goal: Some("Task: How to Wash an Egg"),
            all_actions: false,
        };
        let text = describe_task(&world, &env, &options);
        assert!(text.starts_with("Goal: How to Wash an Egg\n"), "{text}");
        assert!(text.contains("The agent is in the kitchen, holding nothing [hands_empty]."));
        assert!(
            text.contains("  in fridge:\n    egg_1 (edible) [raw]\n"),
            "{text}"
        );
        let actions = |text: &str| text.lines().filter(|l| l.starts_with("  [")).count();
        assert_eq!(actions(&text), 2, "{text}");
        assert!(text.contains("Actions of this task, 2 of 77"));
        let all = describe_task(
            &world,
            &env,
            &DescribeOptions {
                all_actions: true,
                ..options
            },
        );
        assert_eq!(actions(&all), 77);
        // An environment that defines no actions lists them all.
        let bare = Env::from_json(r#"{"initial_objects": []}"#).expect("an environment");
        assert_eq!(actions(&describe_env(&world, &bare)), 77);
    }
}
