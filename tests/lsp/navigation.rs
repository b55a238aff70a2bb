//! Definition, references, highlights, rename, hover and the outline on the delivery fixture
//! (fixtures/lsp/delivery/): a typed domain and a problem of it.

use crate::broken;
use crate::client::{Client, fixture, uri};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn delivery() -> (Client, PathBuf, PathBuf) {
    let mut client = Client::start(&fixture("lsp"));
    let domain = fixture("lsp/delivery/domain.pddl");
    let problem = fixture("lsp/delivery/problem.pddl");
    client.open(&domain);
    client.open(&problem);
    (client, domain, problem)
}

/// The 0-based line and UTF-16 character of the `nth` (from 0) occurrence of `needle` in the
/// file, plus `shift` characters.
fn at(path: &Path, needle: &str, nth: usize, shift: u32) -> Value {
    let text = std::fs::read_to_string(path).expect("the fixture");
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` #{nth} in {}", path.display()))
        .0;
    let line = text[..offset].matches('\n').count();
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let character = text[start..offset].encode_utf16().count() as u32 + shift;
    json!({"line": line, "character": character})
}

fn position(path: &Path, needle: &str, nth: usize) -> Value {
    json!({"textDocument": {"uri": uri(path)}, "position": at(path, needle, nth, 1)})
}

/// (file name, line, character) of each location, sorted.
fn places(locations: &Value) -> Vec<(String, u64, u64)> {
    let mut out: Vec<(String, u64, u64)> = locations
        .as_array()
        .expect("a list of locations")
        .iter()
        .map(|l| {
            let uri = l["uri"].as_str().expect("a URI");
            let name = uri.rsplit('/').next().unwrap_or_default().to_string();
            let start = &l["range"]["start"];
            (
                name,
                start["line"].as_u64().expect("a line"),
                start["character"].as_u64().expect("a character"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn definition_goes_from_a_problem_into_its_domain() {
    let (mut client, domain, problem) = delivery();
    // `parcel-at` in the problem's initial state: declared in the domain's predicates.
    let found = client.request(
        "textDocument/definition",
        position(&problem, "parcel-at", 0),
    );
    assert_eq!(places(&found), [("domain.pddl".into(), 8, 16)]);
    assert_eq!(found[0]["uri"], uri(&domain));
    // The domain's constant `depot`, used in the problem.
    let found = client.request("textDocument/definition", position(&problem, "depot", 0));
    assert_eq!(places(&found), [("domain.pddl".into(), 5, 14)]);
    // An object of the problem.
    let found = client.request("textDocument/definition", position(&problem, "p1", 1));
    assert_eq!(places(&found), [("problem.pddl".into(), 2, 38)]);
    // `?from` in drive's precondition: its parameter, not load's or another action's.
    let found = client.request("textDocument/definition", position(&domain, "?from", 1));
    assert_eq!(places(&found), [("domain.pddl".into(), 11, 29)]);
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn references_span_the_domain_and_its_problems() {
    let (mut client, domain, _problem) = delivery();
    let mut params = position(&domain, "(at ?v", 0);
    params["position"]["character"] = json!(params["position"]["character"].as_u64().unwrap() + 1);
    params["context"] = json!({"includeDeclaration": true});
    let found = client.request("textDocument/references", params.clone());
    assert_eq!(
        places(&found),
        [
            ("domain.pddl".into(), 6, 16),
            ("domain.pddl".into(), 12, 19),
            ("domain.pddl".into(), 13, 23),
            ("domain.pddl".into(), 13, 38),
            ("domain.pddl".into(), 16, 24),
            ("problem.pddl".into(), 3, 10),
        ]
    );
    params["context"] = json!({"includeDeclaration": false});
    let found = client.request("textDocument/references", params);
    assert_eq!(places(&found).len(), 5);
    // Highlights stay in the document.
    let found = client.request(
        "textDocument/documentHighlight",
        position(&domain, "?t ", 1),
    );
    // `?t` of drive: its parameter and its three uses.
    assert_eq!(found.as_array().map(Vec::len), Some(4), "{found}");
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn rename_edits_the_domain_and_the_problem() {
    let (mut client, domain, problem) = delivery();
    // `truck` after ` - ` in the problem's objects.
    let params = position(&problem, "truck", 0);
    let prepared = client.request("textDocument/prepareRename", params.clone());
    assert_eq!(prepared["placeholder"], "truck");
    assert_eq!(
        prepared["range"],
        json!({"start": {"line": 2, "character": 17}, "end": {"line": 2, "character": 22}})
    );
    let mut rename = params.clone();
    rename["newName"] = json!("lorry");
    let edit = client.request("textDocument/rename", rename);
    let changes = &edit["changes"];
    let edits = |path: &Path| {
        let mut out: Vec<(u64, u64, String)> = changes[uri(path)]
            .as_array()
            .unwrap_or_else(|| panic!("edits of {}: {edit}", path.display()))
            .iter()
            .map(|e| {
                let start = &e["range"]["start"];
                (
                    start["line"].as_u64().unwrap(),
                    start["character"].as_u64().unwrap(),
                    e["newText"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        out.sort();
        out
    };
    let lorry = String::from("lorry");
    assert_eq!(
        edits(&domain),
        [
            (3, 10, lorry.clone()),
            (11, 22, lorry.clone()),
            (15, 34, lorry.clone())
        ]
    );
    assert_eq!(edits(&problem), [(2, 17, lorry)]);
    // A requirement flag is not renamed; a bad name is refused.
    let flag = client.request(
        "textDocument/prepareRename",
        position(&domain, ":typing", 0),
    );
    assert_eq!(flag, Value::Null);
    let mut bad = params;
    bad["newName"] = json!("two words");
    let refused = client.request_raw("textDocument/rename", bad);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    // A variable keeps its `?`.
    let mut variable = position(&domain, "?x - parcel ?v", 0);
    variable["newName"] = json!("?item");
    let edit = client.request("textDocument/rename", variable);
    let edits = edit["changes"][uri(&domain)].as_array().expect("edits");
    assert_eq!(edits.len(), 1, "the predicate's own parameter only: {edit}");
    assert_eq!(edits[0]["newText"], "item");
    assert_eq!(client.shutdown(), Some(0));
}

fn hover(client: &mut Client, params: Value) -> String {
    let found = client.request("textDocument/hover", params);
    assert_eq!(found["contents"]["kind"], "markdown", "{found}");
    found["contents"]["value"]
        .as_str()
        .expect("markdown")
        .to_string()
}

#[test]
fn hover_shows_signatures_supertypes_and_actions() {
    let (mut client, domain, problem) = delivery();
    let text = hover(&mut client, position(&problem, "(in p1", 0));
    assert_eq!(
        text,
        "```pddl\n(in ?x - parcel ?v - vehicle)\n```\npredicate, declared in `domain.pddl`, line 8"
    );
    let text = hover(&mut client, position(&problem, "truck", 0));
    assert_eq!(
        text,
        "type `truck`: truck < vehicle < object\n\ndeclared in `domain.pddl`, line 4"
    );
    let text = hover(&mut client, position(&domain, "drive", 0));
    assert_eq!(
        text,
        "```pddl\n(:action drive\n  :parameters (?t - truck ?from ?to - place)\n  \
         :precondition (at ?t ?from)\n  :effect (and (not (at ?t ?from)) (at ?t ?to) \
         (increase (total-cost) 1)))\n```"
    );
    let text = hover(&mut client, position(&domain, "?from", 1));
    assert_eq!(text, "variable `?from` - `place`");
    let text = hover(&mut client, position(&domain, "total-cost", 0));
    assert!(
        text.starts_with("```pddl\n(total-cost) - number\n```\nfunction"),
        "{text}"
    );
    let text = hover(&mut client, position(&domain, ":action-costs", 0));
    assert!(text.starts_with("requirement `:action-costs`"), "{text}");
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn the_outline_lists_types_constants_predicates_functions_and_actions() {
    let (mut client, domain, problem) = delivery();
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&domain)}}),
    );
    assert_eq!(symbols[0]["name"], "delivery");
    let names: Vec<(&str, u64)> = symbols[0]["children"]
        .as_array()
        .expect("children")
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["kind"].as_u64().unwrap()))
        .collect();
    // LSP's kinds: 5 class, 14 constant, 11 interface, 12 function, 6 method.
    assert_eq!(
        names,
        [
            ("truck", 5),
            ("vehicle", 5),
            ("parcel", 5),
            ("place", 5),
            ("depot", 14),
            ("at", 11),
            ("in", 11),
            ("parcel-at", 11),
            ("total-cost", 12),
            ("drive", 6),
            ("load", 6),
        ]
    );
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&problem)}}),
    );
    let objects: Vec<&str> = symbols[0]["children"]
        .as_array()
        .expect("children")
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(objects, ["t1", "market", "p1"]);
    assert_eq!(client.shutdown(), Some(0));
}

/// The quick fixes offered for the diagnostics published for `path`, as (title, edits by
/// file URI).
fn quick_fixes(client: &mut Client, path: &Path) -> Vec<(String, Value)> {
    let diagnostics = client.diagnostics(path);
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(path)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": diagnostics},
        }),
    );
    actions
        .as_array()
        .expect("a list of actions")
        .iter()
        .map(|a| {
            assert_eq!(a["kind"], "quickfix");
            (
                a["title"].as_str().expect("a title").to_string(),
                a["edit"]["changes"].clone(),
            )
        })
        .collect()
}

/// One text edit replacing (line, character) to (line, character) by `text`, as JSON.
fn edit(start: (u32, u32), end: (u32, u32), text: &str) -> Value {
    json!([{"range": {"start": {"line": start.0, "character": start.1},
                      "end": {"line": end.0, "character": end.1}},
            "newText": text}])
}

#[test]
fn code_actions_apply_the_help_did_you_mean_and_missing_requirements() {
    let (mut client, domain, problem) = delivery();
    let text = std::fs::read_to_string(&problem).expect("the fixture");
    client.change(&problem, 2, &text.replace("(in p1 t1)", "(inn p1 t1)"));
    let fixes = quick_fixes(&mut client, &problem);
    assert_eq!(fixes.len(), 2, "{fixes:?}");
    assert_eq!(fixes[0].0, "Change to `in`");
    // Or declared, in the problem's domain, typed by the problem's objects.
    assert_eq!(
        fixes[1].0,
        "Declare `(inn ?parcel - parcel ?truck - truck)`"
    );
    assert_eq!(
        fixes[1].1[uri(&domain)],
        edit(
            (8, 49),
            (8, 49),
            "\n               (inn ?parcel - parcel ?truck - truck)"
        )
    );
    assert_eq!(fixes[0].1[uri(&problem)], edit((4, 10), (4, 13), "in"));
    let text = std::fs::read_to_string(&domain).expect("the fixture");
    client.change(
        &domain,
        2,
        &text.replace(
            "(:requirements :typing :action-costs)",
            "(:requirements :action-costs)",
        ),
    );
    let fixes = quick_fixes(&mut client, &domain);
    // C104 for `:typing`; C122's help (an unused constant) has no edit.
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    assert_eq!(fixes[0].0, "Add `:typing` to the requirements");
    assert_eq!(fixes[0].1[uri(&domain)], edit((2, 30), (2, 30), " :typing"));
    // An undeclared predicate: declared with a parameter per argument, a variable's type
    // from the action's parameters, a constant's from its declaration.
    client.change(
        &domain,
        3,
        &text.replace("(and (in ?x ?t)", "(and (carried ?x ?t depot)"),
    );
    let fixes = quick_fixes(&mut client, &domain);
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    assert_eq!(
        fixes[0].0,
        "Declare `(carried ?x - parcel ?t - truck ?place - place)`"
    );
    assert_eq!(
        fixes[0].1[uri(&domain)],
        edit(
            (8, 49),
            (8, 49),
            "\n               (carried ?x - parcel ?t - truck ?place - place)"
        )
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn quick_fixes_read_the_diagnostic_s_data_not_its_message() {
    let (mut client, path) = broken();
    let mut diagnostics = client.diagnostics(&path);
    assert_eq!(diagnostics[0]["data"], json!({"declare": true}));
    // A client may rewrite the message it shows; the fix does not depend on it.
    diagnostics[0]["message"] = json!("rewritten by the client");
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&path)},
            "range": {"start": {"line": 7, "character": 61}, "end": {"line": 7, "character": 61}},
            "context": {"diagnostics": diagnostics},
        }),
    );
    assert_eq!(actions[0]["title"], "Declare `(cassée ?l)`");
    // On the line of the other predicates, after `(vue𝔞 ?l)`: UTF-16 character 51.
    assert_eq!(
        actions[0]["edit"]["changes"][uri(&path)],
        json!([{"range": {"start": {"line": 3, "character": 51},
                          "end": {"line": 3, "character": 51}}, "newText": " (cassée ?l)"}])
    );
    assert_eq!(client.shutdown(), Some(0));
}

/// The labels (and snippets) offered after `edit` replaces `from` in `path` and the cursor is
/// put right after the first `marker` of the edited text, which the marker then leaves.
fn completions(client: &mut Client, path: &Path, from: &str, edit: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).expect("the fixture");
    let edited = text.replacen(from, edit, 1);
    let offset = edited.find('|').expect("a cursor marker");
    let edited = edited.replacen('|', "", 1);
    let line = edited[..offset].matches('\n').count();
    let line_start = edited[..offset].rfind('\n').map_or(0, |i| i + 1);
    let character = edited[line_start..offset].encode_utf16().count();
    client.change(path, 10, &edited);
    let found = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri(path)},
               "position": {"line": line, "character": character}}),
    );
    found
        .as_array()
        .expect("a list of items")
        .iter()
        .map(|i| {
            (
                i["label"].as_str().expect("a label").to_string(),
                i["insertText"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn labels(items: &[(String, String)]) -> Vec<&str> {
    items.iter().map(|(l, _)| l.as_str()).collect()
}

#[test]
fn completion_offers_what_fits_where_the_cursor_is() {
    let (mut client, domain, problem) = delivery();
    let flags = completions(&mut client, &domain, ":action-costs)", ":action-costs :|)");
    let flags = labels(&flags);
    assert!(
        flags.contains(&":strips") && flags.contains(&":adl"),
        "{flags:?}"
    );
    assert!(!flags.contains(&":parameters"), "{flags:?}");
    let parts = completions(
        &mut client,
        &domain,
        "    :precondition (at ?t ?from)",
        "    :|",
    );
    assert_eq!(labels(&parts), [":parameters", ":precondition", ":effect"]);
    let atoms = completions(
        &mut client,
        &domain,
        "(at ?t ?from)\n",
        "(and (at ?t ?from) (|))\n",
    );
    assert!(
        atoms.contains(&("parcel-at".to_string(), "parcel-at ${1} ${2}".to_string())),
        "{atoms:?}"
    );
    assert!(labels(&atoms).contains(&"total-cost"), "{atoms:?}");
    let variables = completions(&mut client, &domain, "(at ?t ?from)\n", "(at ?t ?|)\n");
    assert_eq!(labels(&variables), ["?t", "?from", "?to"]);
    // A quantifier's variable inside it only, innermost first.
    let quantified = "(and (at ?t ?p) (forall (?q - place) (at ?t ?q)) (parcel-at ?x ?p))";
    let inside = completions(
        &mut client,
        &domain,
        "(and (at ?t ?p) (parcel-at ?x ?p))",
        &quantified.replacen("?t ?q", "?t ?|", 1),
    );
    assert_eq!(labels(&inside), ["?q", "?x", "?t", "?p"]);
    let outside = completions(
        &mut client,
        &domain,
        "(and (at ?t ?p) (parcel-at ?x ?p))",
        &quantified.replacen("?x ?p", "?x ?|", 1),
    );
    assert_eq!(labels(&outside), ["?x", "?t", "?p"]);
    let types = completions(
        &mut client,
        &domain,
        "?from ?to - place",
        "?from ?to - |place",
    );
    assert_eq!(
        labels(&types),
        ["truck", "vehicle", "parcel", "place", "object"]
    );
    // Only what fits the argument's type: `at` takes a vehicle, then a place.
    let objects = completions(&mut client, &problem, "(at t1 depot)", "(at | depot)");
    assert_eq!(labels(&objects), ["t1"]);
    let objects = completions(&mut client, &problem, "(at t1 depot)", "(at t1 |)");
    assert_eq!(labels(&objects), ["market", "depot"]);
    let objects = completions(&mut client, &problem, "(in p1 t1)", "(in p1 t|)");
    assert_eq!(labels(&objects), ["t1"]);
    let sections = completions(&mut client, &problem, "(:goal", "(:|goal");
    assert_eq!(
        labels(&sections),
        [
            ":domain",
            ":requirements",
            ":objects",
            ":init",
            ":goal",
            ":constraints",
            ":metric"
        ]
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn formatting_prints_as_pddlc_fmt_and_refuses_syntax_errors() {
    let (mut client, domain, _problem) = delivery();
    let text = std::fs::read_to_string(&domain).expect("the fixture");
    let messy = text
        .replace("\n    :precondition", " :precondition")
        .replace("(at ?t ?from)", "( at  ?t ?from )");
    client.change(&domain, 2, &messy);
    let params = json!({"textDocument": {"uri": uri(&domain)},
                        "options": {"tabSize": 2, "insertSpaces": true}});
    let edits = client.request("textDocument/formatting", params.clone());
    let edits = edits.as_array().expect("edits");
    assert_eq!(edits.len(), 1, "{edits:?}");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let copy = dir.path().join("domain.pddl");
    std::fs::write(&copy, &messy).expect("write");
    let fmt = std::process::Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .arg("fmt")
        .arg(&copy)
        .output()
        .expect("pddlc fmt runs");
    let expected = String::from_utf8(fmt.stdout).expect("UTF-8");
    assert_eq!(edits[0]["newText"], expected.as_str());
    assert_ne!(expected, messy);
    let lines = messy.lines().count() as u64;
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(
        edits[0]["range"]["end"],
        json!({"line": lines, "character": 0})
    );
    // A document with a syntax error is left alone.
    client.change(
        &domain,
        3,
        &messy.replacen("(:action drive", "(:action drive (", 1),
    );
    assert_eq!(
        client.request("textDocument/formatting", params),
        Value::Null
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn folding_ranges_cover_the_definition_and_its_multi_line_structures() {
    let (mut client, domain, _problem) = delivery();
    let folds = client.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": uri(&domain)}}),
    );
    let lines: Vec<(u64, u64)> = folds
        .as_array()
        .expect("folds")
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    // The definition (lines 2–18, 0-based 1–17), `drive` (10–13) and `load` (14–17); each
    // predicate fits on its line.
    assert_eq!(lines, [(1, 17), (10, 13), (14, 17)]);
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn workspace_symbols_find_declarations_in_files_not_open() {
    // Nothing is opened: the delivery files are read from the workspace folder.
    let mut client = Client::start(&fixture("lsp/delivery"));
    let found = client.request("workspace/symbol", json!({"query": "PARCEL"}));
    let mut names: Vec<(String, String)> = found
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| {
            let file = s["location"]["uri"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap();
            (s["name"].as_str().unwrap().to_string(), file.to_string())
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ("parcel".to_string(), "domain.pddl".to_string()),
            ("parcel-at".to_string(), "domain.pddl".to_string()),
        ]
    );
    assert_eq!(client.shutdown(), Some(0));
}
