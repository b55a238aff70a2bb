//! The editor formats: GCC's lines with their notes, VAL's lines as the VS Code PDDL extension
//! reads them.

use crate::{code, pddlc, stdout, write};
use serde_json::Value;

/// The VS Code PDDL extension's problem pattern for VAL's parser output,
/// `^(file)\s*:\s*line\s*:\s*(\d*)\s*:\s*(Error|Warning)\s*:\s*(.*)$` with the flags `gmi`
/// (client/src/diagnostics/ValidatorExecutable.ts), written out by hand for one line: the file,
/// the line number, the severity word and the message it would show, or `None` for a line the
/// extension skips.
fn val_pattern(line: &str) -> Option<(&str, usize, &str, &str)> {
    fn keyword<'a>(text: &'a str, word: &str) -> Option<&'a str> {
        let text = text.trim_start();
        let head = text.get(..word.len())?;
        head.eq_ignore_ascii_case(word)
            .then(|| text[word.len()..].trim_start().strip_prefix(':'))
            .flatten()
    }
    let (file, rest) = line.split_once(':')?;
    let rest = keyword(rest, "line")?;
    let (number, rest) = rest.trim_start().split_once(':')?;
    let number = number.trim_end();
    if !number.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (severity, message) = ["Error", "Warning"].iter().find_map(|word| {
        let text = rest.trim_start();
        keyword(text, word).map(|message| (&text[..word.len()], message.trim_start()))
    })?;
    Some((file.trim_end(), number.parse().ok()?, severity, message))
}

#[test]
fn gcc_lines_are_read_by_vims_errorformat() {
    let file = "fixtures/parse/P005_several_errors.pddl";
    let out = pddlc(&["check", "--format", "gcc", file]);
    // Vim's `%f:%l:%c: %trror: %m` reads the first line of each diagnostic; `note:` lines
    // follow with the labels and the help.
    let text = stdout(&out);
    let errors: Vec<&str> = text.lines().filter(|l| !l.contains(": note: ")).collect();
    assert!(
        stdout(&out).contains(&format!(
            "{file}:6:29: error: expected a numeric expression or `total-time`, found `)` [P005]\n"
        )),
        "{}",
        stdout(&out)
    );
    assert_eq!(errors.len(), 4, "{}", stdout(&out));
}

/// Every diagnostic is one line the extension's pattern matches, whose message carries the help;
/// each secondary label is a `Note:` line at its own place, which the pattern skips.
#[test]
fn val_lines_carry_the_help_and_the_notes_that_vs_code_reads() {
    let files = [
        "fixtures/check/C102_same_wrong_count/domain.pddl",
        "fixtures/parse/P005_several_errors.pddl",
        "fixtures/parse/P015_unknown_part.pddl",
    ];
    let mut args = vec!["check", "--format", "json"];
    args.extend(files);
    let json: Value = serde_json::from_str(&stdout(&pddlc(&args))).expect("valid JSON");
    args[2] = "val";
    let out = pddlc(&args);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    // What the lines must be, from the JSON of the same diagnostics.
    let mut expected = Vec::new();
    for d in json["diagnostics"].as_array().expect("diagnostics") {
        let severity = if d["severity"] == "error" {
            "Error"
        } else {
            "Warning"
        };
        let help = d["help"]
            .as_str()
            .map(|h| format!("; help: {h}"))
            .unwrap_or_default();
        let message = format!(
            "[{}] {}{help}",
            d["code"].as_str().unwrap_or(""),
            d["message"].as_str().unwrap_or("")
        );
        let file = d["file"].as_str().unwrap_or("").to_string();
        let line = d["line"].as_u64().unwrap_or(0) as usize;
        expected.push((file.clone(), line, severity.to_string(), Some(message)));
        for label in d["labels"].as_array().expect("labels").iter().skip(1) {
            if let Some(note) = label["message"].as_str() {
                let file = label["file"].as_str().unwrap_or("").to_string();
                let line = label["line"].as_u64().unwrap_or(0) as usize;
                expected.push((file, line, format!("Note: {note}"), None));
            }
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected.len(), "{text}");
    let mut helps = 0;
    for (line, (file, number, severity, message)) in lines.iter().zip(&expected) {
        match message {
            Some(message) => {
                assert_eq!(
                    val_pattern(line),
                    Some((file.as_str(), *number, severity.as_str(), message.as_str())),
                    "{line}"
                );
                helps += usize::from(message.contains("; help: "));
            }
            None => {
                assert_eq!(
                    val_pattern(line),
                    None,
                    "the extension reads a note: {line}"
                );
                assert_eq!(*line, format!("{file}: line: {number}: {severity}"));
            }
        }
    }
    // The fixtures have help ("did you mean `:precondition`?") and notes ("also used here").
    assert!(helps >= 3, "{text}");
    assert!(text.contains("did you mean `:precondition`?"), "{text}");
    assert!(text.contains(": Note: also used here\n"), "{text}");
}

#[test]
fn the_val_pattern_reads_what_the_extension_reads() {
    assert_eq!(
        val_pattern("d.pddl: line: 6: Error: [P005] expected `)`; help: add it"),
        Some(("d.pddl", 6, "Error", "[P005] expected `)`; help: add it"))
    );
    // The extension's pattern is case-insensitive and allows spaces around the colons.
    assert_eq!(
        val_pattern("d.pddl : LINE:12 : warning :x"),
        Some(("d.pddl", 12, "warning", "x"))
    );
    assert_eq!(val_pattern("d.pddl: line: 4: Note: declared here"), None);
    assert_eq!(val_pattern("d.pddl:4:17: error: x [C102]"), None);
}

#[test]
fn validate_and_kitchen_run_speak_the_editor_formats() {
    let task = [
        "domains/blocksworld/domain.pddl",
        "domains/blocksworld/problem.pddl",
    ];
    let broken = "fixtures/validate/V306_precondition_unsatisfied/plan.txt";
    let out = pddlc(&["validate", "--format", "gcc", task[0], task[1], broken]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(&format!("{broken}:2:1: error: (unstack b c)")),
        "{}",
        stdout(&out)
    );
    let out = pddlc(&["validate", "--format", "val", task[0], task[1], broken]);
    assert_eq!(code(&out), 1);
    let first = stdout(&out).lines().next().unwrap_or_default().to_string();
    assert_eq!(
        val_pattern(&first).map(|(file, line, severity, _)| (file, line, severity)),
        Some((broken, 2, "Error")),
        "{first}"
    );

    // An unmet goal is located on the goal in the problem file.
    let short = "fixtures/validate/V307_goal_unsatisfied/plan.txt";
    let out = pddlc(&["validate", "--format", "gcc", task[0], task[1], short]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(&format!("{}:", task[1])) && stdout(&out).contains("[V307]"),
        "{}",
        stdout(&out)
    );

    let env = "domains/kitchen/examples/salad/env.json";
    let plan = "fixtures/kitchen/K405_fridge_closed.txt";
    let out = pddlc(&["kitchen", "run", "--format", "gcc", "--env", env, plan]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(&format!(
            "{plan}:1:1: error: `[TAKE_OUT] <lettuce> (1) <fridge> (1)` cannot run"
        )),
        "{}",
        stdout(&out)
    );
    let out = pddlc(&["kitchen", "run", "--format", "val", "--env", env, plan]);
    let first = stdout(&out).lines().next().unwrap_or_default().to_string();
    assert_eq!(
        val_pattern(&first).map(|(file, line, severity, _)| (file, line, severity)),
        Some((plan, 1, "Error")),
        "{first}"
    );
    let out = pddlc(&["kitchen", "run", "--format", "json", "--env", env, plan]);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["version"], 1);
    let json = &json["plans"][0];
    assert_eq!(json["failures"][0]["failure_type"], "immediate");
    assert_eq!(json["diagnostics"][0]["code"], "K405");
    assert_eq!(json["diagnostics"][0]["line"], 1);
}

#[test]
fn gcc_counts_display_columns_and_json_counts_characters() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = write(
        dir.path(),
        "tabs.pddl",
        b"(define (domain d)\n\t(:requirements :strips)\n\t(:predicates (p))\n\t(:action a :parameters () :effect (q)))\n",
    );
    let name = file.to_string_lossy().to_string();
    let out = pddlc(&["check", "--format", "gcc", &name]);
    assert_eq!(code(&out), 1);
    // `q` after one tab and 35 characters: display column 8 + 35 + 1, character column 37.
    assert!(
        stdout(&out).contains(&format!("{name}:4:44: error: ")),
        "{}",
        stdout(&out)
    );
    let out = pddlc(&["check", "--format", "json", &name]);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let error = json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "C101")
        .expect("the undeclared predicate")
        .clone();
    assert_eq!(
        (error["line"].clone(), error["column"].clone()),
        (4.into(), 37.into())
    );
}
