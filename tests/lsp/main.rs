//! `pddlc lsp` end to end: the real binary, spoken to over its standard input and output with
//! JSON-RPC as an editor does, on the fixtures in fixtures/lsp/ and fixtures/check/.

mod client;
#[path = "../common/mod.rs"]
mod common;
mod navigation;
mod neovim;
mod plans;
mod random_edits;

use client::{Client, fixture, uri};
use serde_json::{Value, json};

/// The server with the broken fixture open: one C101 on `cassée`, after non-ASCII text.
fn broken() -> (Client, std::path::PathBuf) {
    let mut client = Client::start(&fixture("lsp"));
    let path = fixture("lsp/broken/domain.pddl");
    client.open(&path);
    (client, path)
}

#[test]
fn a_broken_domain_gets_its_diagnostics_with_utf16_ranges() {
    let (mut client, path) = broken();
    let diagnostics = client.diagnostics(&path);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "C101");
    assert_eq!(d["severity"], 1, "an error");
    assert_eq!(d["source"], "pddlc");
    // Line 8 reads `    :effect (and (vue𝔞 ?l) (allumée ?l) (not (éteinte ?l)) (cassée ?l))))`:
    // `cassée` starts at character 60, UTF-16 unit 61 (`𝔞` is a surrogate pair) and byte 65
    // (`𝔞` is 4 bytes, each `é` 2). Only the UTF-16 count is right; the name is 6 units long.
    assert_eq!(
        d["range"],
        json!({"start": {"line": 7, "character": 61}, "end": {"line": 7, "character": 67}})
    );
    let message = d["message"].as_str().expect("a message");
    assert!(
        message.starts_with("predicate `cassée` is not declared"),
        "{message}"
    );
    assert!(
        message.contains("help: declare it in `(:predicates …)`"),
        "{message}"
    );
    let href = d["codeDescription"]["href"].as_str().expect("a link");
    assert!(
        href.starts_with("file://")
            && href.ends_with("docs/diagnostics.md#c101-undeclared-predicate"),
        "{href}"
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn hover_on_a_diagnostic_shows_its_code_s_documentation() {
    let (mut client, path) = broken();
    assert_eq!(client.diagnostics(&path).len(), 1);
    // Inside `cassée`, the undeclared predicate of the C101 above.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&path)}, "position": {"line": 7, "character": 63}}),
    );
    let value = hover["contents"]["value"].as_str().expect("markdown");
    assert!(
        value.starts_with("**C101** `undeclared-predicate`: "),
        "{value}"
    );
    // docs/diagnostics.md's section, up to the next code's.
    assert!(value.contains("**What it reports.** An atom"), "{value}");
    assert!(!value.contains("C102"), "{value}");
    assert_eq!(hover["range"]["start"], json!({"line": 7, "character": 61}));
    // Away from the diagnostic, the predicate's own hover has no code in it.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&path)}, "position": {"line": 3, "character": 18}}),
    );
    let value = hover["contents"]["value"].as_str().expect("markdown");
    assert!(
        value.contains("(allumée ?l)") && !value.contains("C101"),
        "{value}"
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn semantic_tokens_mark_every_name_by_what_it_names() {
    let (mut client, path) = broken();
    let found = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri(&path)}}),
    );
    let data: Vec<u64> = found["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|v| v.as_u64().expect("a number"))
        .collect();
    // Decoded from the relative encoding: (line, UTF-16 character, length, type, modifiers).
    let text = std::fs::read_to_string(&path).expect("the fixture");
    let lines: Vec<&str> = text.lines().collect();
    let (mut line, mut character) = (0, 0);
    let mut tokens = Vec::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            character = 0;
        }
        line += t[0];
        character += t[1];
        let units: Vec<u16> = lines[line as usize]
            .encode_utf16()
            .skip(character as usize)
            .take(t[2] as usize)
            .collect();
        let written = String::from_utf16(&units).expect("whole characters");
        tokens.push((line, character, written, t[3], t[4]));
    }
    let token = |line, character, written: &str, kind, modifiers| {
        (line, character, written.to_string(), kind, modifiers)
    };
    // Types: 1 predicate, 4 action, 5 variable (with its `?`), 6 requirement; 1 = declared.
    assert_eq!(
        tokens[..6],
        [
            token(2, 17, ":strips", 6, 0),
            token(3, 16, "allumée", 1, 1),
            token(3, 24, "?l", 5, 1),
            token(3, 29, "éteinte", 1, 1),
            token(3, 37, "?l", 5, 1),
            token(3, 42, "vue𝔞", 1, 1),
        ]
    );
    assert_eq!(tokens[7], token(4, 11, "basculer", 4, 1));
    // After `vue𝔞` (a surrogate pair), columns are UTF-16 units; an undeclared predicate is
    // still a predicate.
    assert_eq!(tokens[17], token(7, 61, "cassée", 1, 0));
    assert_eq!(tokens.len(), 19);
    let legend = &client.initialize_result["capabilities"]["semanticTokensProvider"]["legend"];
    assert_eq!(legend["tokenTypes"][4], "method");
    assert_eq!(legend["tokenModifiers"], json!(["declaration"]));
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn edits_replace_the_diagnostics_and_only_the_newest_text_counts() {
    let (mut client, path) = broken();
    let text = std::fs::read_to_string(&path).expect("the fixture");
    // A burst of edits: the last one declares `cassée`, so the domain is clean.
    client.change(&path, 2, "(define (domain");
    client.change(&path, 3, &text.replace("(:action", ")"));
    let fixed = text.replace("(vue𝔞 ?l))", "(vue𝔞 ?l) (cassée ?l))");
    client.change(&path, 4, &fixed);
    let published = client.all_diagnostics(&path);
    let (version, last) = published.last().expect("diagnostics were published");
    assert_eq!(*version, 4);
    assert_eq!(last, &Vec::<Value>::new());
    // A damaged text gets its syntax errors, and the server keeps answering.
    client.change(
        &path,
        5,
        "(define (domain x) (:action a :parameters (?x) :effect (p ?x)",
    );
    let codes: Vec<String> = client
        .wait_diagnostics(&path, 5)
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(codes.contains(&"P001".to_string()), "{codes:?}");
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn a_problem_is_checked_against_the_open_domain_of_its_name() {
    let mut client = Client::start(&fixture("check"));
    let domain = fixture("check/C101_undeclared_in_problem/domain.pddl");
    let problem = fixture("check/C101_undeclared_in_problem/problem.pddl");
    client.open(&domain);
    client.open(&problem);
    let diagnostics = client.diagnostics(&problem);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    // expected.txt: `C101 problem.pddl:4:22`, 1-based.
    assert_eq!(diagnostics[0]["code"], "C101");
    assert_eq!(
        diagnostics[0]["range"]["start"],
        json!({"line": 3, "character": 21})
    );
    assert_eq!(client.diagnostics(&domain), Vec::<Value>::new());
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn a_problem_finds_its_domain_in_the_workspace_and_points_into_it() {
    let mut client = Client::start(&fixture("lsp"));
    let problem = fixture("lsp/delivery/problem.pddl");
    let text = std::fs::read_to_string(&problem).expect("the fixture");
    // The domain is not open: it is found on disk by its name. Only the domain knows that
    // `in` takes two arguments.
    client.open_text(&problem, &text.replace("(in p1 t1)", "(in p1 t1 t1)"));
    let diagnostics = client.diagnostics(&problem);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "C102");
    assert_eq!(
        d["range"],
        json!({"start": {"line": 4, "character": 9}, "end": {"line": 4, "character": 22}})
    );
    let related = d["relatedInformation"]
        .as_array()
        .expect("related information");
    assert_eq!(related.len(), 1);
    assert_eq!(related[0]["message"], "declared here");
    assert_eq!(
        related[0]["location"]["uri"],
        uri(&fixture("lsp/delivery/domain.pddl"))
    );
    assert_eq!(
        related[0]["location"]["range"]["start"],
        json!({"line": 7, "character": 16})
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn an_edit_rechecks_only_the_documents_it_affects() {
    let mut client = Client::start(&fixture("lsp"));
    let broken = fixture("lsp/broken/domain.pddl");
    let domain = fixture("lsp/delivery/domain.pddl");
    let problem = fixture("lsp/delivery/problem.pddl");
    for path in [&broken, &domain, &problem] {
        client.open(path);
    }
    let count = |client: &mut Client, path| client.all_diagnostics(path).len();
    assert_eq!(
        [&broken, &domain, &problem].map(|p| count(&mut client, p)),
        [1, 1, 1]
    );
    // A problem's edit: the problem alone.
    let text = std::fs::read_to_string(&problem).expect("the fixture");
    client.change(&problem, 2, &text.replace("t1", "t1 "));
    assert_eq!(
        [&broken, &domain, &problem].map(|p| count(&mut client, p)),
        [1, 1, 2]
    );
    // A domain's edit: the domain and the problems (which may name it), not another domain.
    let text = std::fs::read_to_string(&domain).expect("the fixture");
    client.change(&domain, 2, &text.replace("(in ?x ?t)", "(inn ?x ?t)"));
    assert_eq!(
        [&broken, &domain, &problem].map(|p| count(&mut client, p)),
        [1, 2, 3]
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn bad_requests_get_errors_and_the_server_goes_on() {
    let mut client = Client::start(&fixture("lsp"));
    let path = fixture("lsp/delivery/domain.pddl");
    let unknown = client.request_raw("textDocument/noSuchThing", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let bad = client.request_raw("textDocument/hover", json!({"textDocument": 3}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let closed = client.request_raw(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&path)}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(closed["error"]["code"], -32602, "{closed}");
    // Positions past the end of a line or of the text are clamped, not a failure.
    client.open(&path);
    let far = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&path)}, "position": {"line": 999, "character": 999}}),
    );
    assert_eq!(far, Value::Null);
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn exit_without_shutdown_ends_the_server_with_code_1() {
    let mut client = Client::start(&fixture("lsp"));
    client.notify("exit", json!(null));
    assert_eq!(client.wait(), Some(1));
}

#[test]
fn a_bddl_file_gets_the_diagnostics_and_formatting_of_pddlc_check_and_fmt() {
    let mut client = Client::start(&fixture("bddl/check"));
    for name in [
        "B709_goal_dropped.bddl",
        "B720_repeated_category.bddl",
        "B715_unbound_category.bddl",
    ] {
        let path = fixture(&format!("bddl/check/{name}"));
        client.open(&path);
        let diagnostics = client.diagnostics(&path);
        let check = std::process::Command::new(env!("CARGO_BIN_EXE_pddlc"))
            .args(["check", "--format", "json"])
            .arg(&path)
            .output()
            .expect("pddlc check runs");
        let json: Value = serde_json::from_slice(&check.stdout).expect("JSON");
        let cli = json["diagnostics"].as_array().expect("diagnostics");
        assert_eq!(diagnostics.len(), cli.len(), "{name}: {diagnostics:#?}");
        for (lsp, cli) in diagnostics.iter().zip(cli) {
            assert_eq!(lsp["code"], cli["code"], "{name}");
            assert_eq!(
                lsp["range"]["start"]["line"].as_u64().map(|l| l + 1),
                cli["line"].as_u64()
            );
        }
        let params = json!({"textDocument": {"uri": uri(&path)},
                            "options": {"tabSize": 2, "insertSpaces": true}});
        let edits = client.request("textDocument/formatting", params);
        let fmt = std::process::Command::new(env!("CARGO_BIN_EXE_pddlc"))
            .arg("fmt")
            .arg(&path)
            .output()
            .expect("pddlc fmt runs");
        let printed = String::from_utf8(fmt.stdout).expect("UTF-8");
        assert_eq!(edits[0]["newText"], printed.as_str(), "{name}");
    }
    assert_eq!(client.shutdown(), Some(0));
}
