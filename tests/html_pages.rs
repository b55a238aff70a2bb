//! The HTML pages (docs/reports.md) rendered from shipped fixtures by the binary and opened in
//! headless Chromium (Debian's `chromium`): no console message, no request the page makes, and
//! the structure expected (headings, the timeline table with a row per step, the SVG strip
//! with a box per step, the failing step and its precondition). Under CI a missing Chromium
//! fails the test.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let found = Command::new("sh")
                .args(["-c", &format!("command -v {name}")])
                .output()
                .ok()?;
            let path = String::from_utf8_lossy(&found.stdout).trim().to_string();
            (found.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
        })
}

/// The browser, or `None` after saying it is absent (under CI, a failure).
fn browser() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        common::skip(
            "html_pages",
            "no chromium on PATH (apt-get install chromium)",
        );
    }
    found
}

/// What the browser saw of a page: the DOM after load, its console messages, and the URLs the
/// page itself asked for (the browser's own background requests are not the page's).
struct Opened {
    dom: String,
    console: Vec<String>,
    requests: Vec<String>,
}

fn open(browser: &Path, page: &Path, scratch: &Path) -> Opened {
    let net_log = scratch.join("net.json");
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .arg(format!("--log-net-log={}", net_log.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let console = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&net_log).expect("net log"))
            .expect("net log JSON");
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"].clone();
    let requests = log["events"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["type"] == start_job)
        .filter(|e| {
            e["params"]["network_isolation_key"]
                .as_str()
                .is_some_and(|k| k.starts_with("file://"))
        })
        .filter_map(|e| e["params"]["url"].as_str().map(str::to_string))
        .filter(|url| !url.starts_with("file://"))
        .collect();
    Opened {
        dom: String::from_utf8_lossy(&output.stdout).to_string(),
        console,
        requests,
    }
}

/// `open`, and the page asked for nothing and logged nothing.
fn open_clean(browser: &Path, page: &Path, scratch: &Path) -> Opened {
    let opened = open(browser, page, scratch);
    assert!(opened.console.is_empty(), "console: {:?}", opened.console);
    assert!(
        opened.requests.is_empty(),
        "requests: {:?}",
        opened.requests
    );
    opened
}

#[test]
fn the_validate_page_opens_clean_with_its_timeline() {
    let Some(browser) = browser() else {
        return;
    };
    let scratch = tempfile::tempdir().expect("temporary directory");
    let page = scratch.path().join("validate.html");
    let fixtures = root().join("fixtures/html/validate");
    let blocks = root().join("domains/blocksworld");
    let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .arg("validate")
        .arg(blocks.join("domain.pddl"))
        .arg(blocks.join("problem.pddl"))
        .args(["valid.plan", "invalid.plan", "short.plan"].map(|p| fixtures.join(p)))
        .arg("--html")
        .arg(&page)
        .output()
        .expect("pddlc runs");
    // What validate prints is unchanged: two invalid plans, exit 1.
    assert_eq!(run.status.code(), Some(1));
    let printed = String::from_utf8_lossy(&run.stdout);
    assert!(printed.contains("valid.plan: valid, 6 steps"), "{printed}");
    let opened = open_clean(&browser, &page, scratch.path());
    let dom = &opened.dom;
    let count = |needle: &str| dom.matches(needle).count();
    assert_eq!(count("<h1>"), 1);
    assert_eq!(count("<section"), 3, "a section per plan");
    assert_eq!(count("<table class=\"timeline\">"), 3);
    assert_eq!(count("<caption>"), 3);
    // Rows: the initial state and each step (6 + 4 + 2).
    assert_eq!(
        count("<tr class=\"applied\">")
            + count("<tr class=\"failed\">")
            + count("<tr class=\"skipped\">"),
        12
    );
    assert_eq!(count("<tr class=\"failed\">"), 1);
    assert_eq!(count("<tr class=\"skipped\">"), 1);
    assert_eq!(count("<svg role=\"img\""), 3);
    assert_eq!(count("<rect class=\"step\""), 12);
    assert!(dom.contains("Preconditions that do not hold:"));
    assert!(dom.contains("<li class=\"\">(holding c)</li>"));
    assert!(dom.contains("2 goal atoms do not hold after the last step"));
    assert!(dom.contains("<span class=\"verdict invalid\">invalid</span>"));
}

#[test]
fn the_page_is_not_written_over_an_input() {
    let fixtures = root().join("fixtures/html/validate");
    let blocks = root().join("domains/blocksworld");
    let plan = fixtures.join("valid.plan");
    let before = std::fs::read(&plan).expect("plan");
    let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .arg("validate")
        .arg(blocks.join("domain.pddl"))
        .arg(blocks.join("problem.pddl"))
        .arg(&plan)
        .arg("--html")
        .arg(&plan)
        .output()
        .expect("pddlc runs");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("is an input of this command"));
    assert_eq!(std::fs::read(&plan).expect("plan"), before);
}

#[test]
fn the_temporal_validate_pages_draw_a_gantt_chart_and_the_happenings() {
    let Some(browser) = browser() else {
        return;
    };
    let scratch = tempfile::tempdir().expect("temporary directory");
    let validate = root().join("fixtures/validate");
    let blocks = root().join("domains/blocksworld/domain.pddl");
    for (name, domain, code, bars, rows, wanted) in [
        (
            "valid_temporal_tils",
            None,
            0,
            3,
            7,
            vec![
                "<line class=\"literal\"",
                "<title>at 20: (raw cake)</title>",
                "The goal holds at the end of the plan.",
            ],
        ),
        (
            "V306_temporal_end_condition",
            None,
            1,
            1,
            3,
            vec![
                "<tr class=\"failed\"><td class=\"num\">5</td><td><code>end of (shine)</code> <strong>fails here</strong> (<code>V306</code>: (power) does not hold)",
                "<line class=\"failure\"",
                "✗ (shine)",
            ],
        ),
        (
            // A classical task with a trajectory constraint: its states as a timeline, the
            // broken constraint among the diagnostics.
            "V314_constraint_violated",
            Some(&blocks),
            1,
            0,
            0,
            vec!["<table class=\"timeline\">", "<code>V314</code>"],
        ),
    ] {
        let dir = validate.join(name);
        let page = scratch.path().join(format!("{name}.html"));
        let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
            .arg("validate")
            .arg(domain.cloned().unwrap_or_else(|| dir.join("domain.pddl")))
            .arg(dir.join("problem.pddl"))
            .arg(dir.join("plan.txt"))
            .arg("--html")
            .arg(&page)
            .output()
            .expect("pddlc runs");
        assert_eq!(
            run.status.code(),
            Some(code),
            "{name}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let opened = open(&browser, &page, scratch.path());
        assert!(opened.console.is_empty(), "{name}: {:?}", opened.console);
        assert!(opened.requests.is_empty(), "{name}: {:?}", opened.requests);
        let dom = &opened.dom;
        assert_eq!(dom.matches("<h1>").count(), 1, "{name}");
        assert_eq!(
            dom.matches("<rect class=\"action\"").count(),
            bars,
            "{name}"
        );
        let table = dom
            .split("<table class=\"happenings\">")
            .nth(1)
            .unwrap_or_default();
        let table = table.split("</table>").next().unwrap_or_default();
        assert_eq!(
            table.matches("<tr").count().saturating_sub(1),
            rows,
            "{name}: happenings"
        );
        if bars > 0 {
            assert_eq!(dom.matches("<svg class=\"gantt\" role=\"img\"").count(), 1);
        }
        for needle in wanted {
            assert!(dom.contains(needle), "{name}: {needle}");
        }
    }
}

#[test]
fn the_solve_pages_open_clean_with_the_plan_or_the_proof() {
    let Some(browser) = browser() else {
        return;
    };
    let scratch = tempfile::tempdir().expect("temporary directory");
    let blocks = root().join("domains/blocksworld");
    let unsolvable = root().join("fixtures/solve/unsolvable_arm_never_empty");
    for (name, problem, code, wanted) in [
        (
            "solved",
            blocks.join("problem.pddl"),
            0,
            vec![
                "<span class=\"verdict valid\">solved</span>",
                "<table class=\"timeline\">",
            ],
        ),
        (
            "unsolvable",
            unsolvable.join("problem.pddl"),
            1,
            vec!["Why no plan exists", "<li class=\"\">(on a b)</li>"],
        ),
    ] {
        let page = scratch.path().join(format!("{name}.html"));
        let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
            .arg("solve")
            .arg(blocks.join("domain.pddl"))
            .arg(&problem)
            .arg("--html")
            .arg(&page)
            .output()
            .expect("pddlc runs");
        assert_eq!(run.status.code(), Some(code), "{name}");
        let opened = open(&browser, &page, scratch.path());
        assert!(opened.console.is_empty(), "{name}: {:?}", opened.console);
        assert!(opened.requests.is_empty(), "{name}: {:?}", opened.requests);
        let dom = &opened.dom;
        assert_eq!(dom.matches("<h1>").count(), 1);
        assert_eq!(
            dom.matches("<th scope=\"row\">").count(),
            9,
            "{name}: the statistics"
        );
        for needle in wanted {
            assert!(dom.contains(needle), "{name}: {needle}");
        }
        if name == "solved" {
            assert_eq!(dom.matches("<rect class=\"step\"").count(), 6);
            assert!(dom.contains("The goal holds after the last step."));
        }
    }
}

#[test]
fn the_kitchen_eval_page_opens_clean_with_its_table_grid_and_forest() {
    let Some(browser) = browser() else {
        return;
    };
    let scratch = tempfile::tempdir().expect("temporary directory");
    let page = scratch.path().join("kitchen.html");
    let run_dir = root().join("domains/kitchen/examples/runs/planner");
    let runs = [
        format!("{}:a", run_dir.display()),
        format!("{}:b", run_dir.display()),
    ];
    let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args([
            "kitchen",
            "eval",
            &runs[0],
            &runs[1],
            "--bootstrap",
            "200",
            "--html",
        ])
        .arg(&page)
        .output()
        .expect("pddlc runs");
    assert!(
        run.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let opened = open_clean(&browser, &page, scratch.path());
    let dom = &opened.dom;
    let tasks = std::fs::read_dir(&run_dir)
        .expect("run folder")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().is_dir()))
        .count();
    assert!(tasks >= 1);
    assert_eq!(dom.matches("<table class=\"methods\">").count(), 1);
    assert_eq!(dom.matches("<table class=\"grid\">").count(), 1);
    // A grid cell per task and run; the same run twice differs by nothing.
    assert_eq!(dom.matches("<td class=\"cell ").count(), 2 * tasks);
    assert_eq!(dom.matches("<circle class=\"difference\"").count(), 4);
    assert!(dom.contains("<svg class=\"forest\" role=\"img\""));
    assert!(dom.contains("a − b: total"));
    // Each cell unfolds into its plans' result files, the text `--results` writes.
    assert_eq!(dom.matches("<pre class=\"result\">").count(), 2 * tasks);
    let results = scratch.path().join("results");
    let written = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(["kitchen", "eval", &runs[0], "--results"])
        .arg(&results)
        .output()
        .expect("pddlc runs");
    assert!(written.status.code().is_some_and(|c| c <= 1));
    let mut compared = 0;
    for task in std::fs::read_dir(&results).expect("results") {
        for file in std::fs::read_dir(task.expect("a task").path()).expect("task results") {
            let text = std::fs::read_to_string(file.expect("a file").path()).expect("result");
            let escaped = text
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            assert!(dom.contains(&escaped), "{text}");
            compared += 1;
        }
    }
    assert_eq!(compared, tasks);
}

/// `page` with `script` run at the end of its body, before the DOM is dumped.
fn with_script(page: &Path, script: &str, scratch: &Path, name: &str) -> PathBuf {
    let html = std::fs::read_to_string(page).expect("page");
    let copy = scratch.join(name);
    let script = format!("<script>{script}</script>\n</body>");
    std::fs::write(&copy, html.replacen("</body>", &script, 1)).expect("copy");
    copy
}

/// The pair lines of the score page's tables, in the order the DOM holds them.
fn pair_order(dom: &str) -> Vec<usize> {
    dom.split("<tbody id=\"pair-")
        .skip(1)
        .map(|rest| {
            let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
            number.parse().expect("a pair's line")
        })
        .collect()
}

#[test]
fn the_score_page_opens_clean_with_histograms_behaviour_and_differences() {
    let Some(browser) = browser() else {
        return;
    };
    let scratch = tempfile::tempdir().expect("temporary directory");
    let page = scratch.path().join("score.html");
    let pairs = root().join("fixtures/html/score/pairs.jsonl");
    let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(["score", "--functional", "--pairs"])
        .arg(&pairs)
        .arg("--html")
        .arg(&page)
        .output()
        .expect("pddlc runs");
    // What score prints is unchanged: a row per line and the summary; a line failed, exit 1.
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&run.stdout).lines().count(), 7);
    let opened = open_clean(&browser, &page, scratch.path());
    let dom = &opened.dom;
    let count = |needle: &str| dom.matches(needle).count();
    assert_eq!(count("<h1>"), 1);
    assert!(dom.contains("6 pairs scored in <code>clean</code> mode; 1 line could not be scored"));
    assert_eq!(count("<svg class=\"histogram\" role=\"img\""), 5);
    assert_eq!(count("<svg class=\"exec\" role=\"img\""), 1);
    // The EXEC 0 pair's code, the behaviour's verdicts against the metrics.
    assert!(dom.contains("<th scope=\"row\"><code>P001</code></th>"));
    assert!(dom.contains(
        "<tr><th scope=\"row\">different</th><td class=\"num\">0</td><td class=\"num\">2</td>"
    ));
    // Worst first: the unscored line, then by the mean of the six metrics.
    assert_eq!(pair_order(dom), [6, 4, 3, 2, 5, 1]);
    // Details: the weaker stack's counterexample, the renaming found, the changed words, the
    // lisp-fenced answer's dropped effect; the identical pair has none.
    assert!(dom.contains("Counterexample for <code>stack</code>"));
    assert!(dom.contains("(stack x y)"));
    assert!(dom.contains("<li>predicate <code>arm-empty</code> is <code>hand-free</code></li>"));
    assert!(dom.contains("<mark>(hand-free))</mark>"));
    assert!(
        dom.contains("<span class=\"del\">  22 −       (not (clear ?x))\n"),
        "{dom}"
    );
    assert_eq!(count("<tr class=\"detail\">"), 4);
    // The sort buttons: Line sorts by line, and pressed again the other way.
    for (clicks, order) in [(1, [1, 2, 3, 4, 5, 6]), (2, [6, 5, 4, 3, 2, 1])] {
        let click = "document.querySelector('button[data-key=line]').click();".repeat(clicks);
        let sorted = with_script(
            &page,
            &click,
            scratch.path(),
            &format!("sorted{clicks}.html"),
        );
        let opened = open(&browser, &sorted, scratch.path());
        assert!(opened.console.is_empty(), "console: {:?}", opened.console);
        assert_eq!(pair_order(&opened.dom), order, "{clicks} clicks");
        let direction = if clicks == 1 {
            "ascending"
        } else {
            "descending"
        };
        assert!(opened.dom.contains(&format!(
            "<th scope=\"col\" class=\"num\" aria-sort=\"{direction}\"><button type=\"button\" data-key=\"line\">"
        )));
        assert_eq!(opened.dom.matches("aria-sort=\"").count(), 1);
    }
}

#[test]
fn the_score_page_of_the_1200_dev_pairs_is_under_5_mb_and_opens_clean() {
    let Some(browser) = browser() else {
        return;
    };
    let Some(dir) = common::shared_part("text2world", "html_pages") else {
        return;
    };
    let scratch = tempfile::tempdir().expect("temporary directory");
    // The pairs file the page is made from: each dev pair's gold and prediction.
    let scores = std::fs::read_to_string(dir.join("pairs/dev/scores.jsonl")).expect("scores");
    let lines: Vec<String> = scores
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let path = |key: &str| {
                dir.join(row[key].as_str().expect("a path"))
                    .display()
                    .to_string()
            };
            serde_json::json!({
                "id": row["pair"],
                "gold": path("gold"),
                "pred": path("pred"),
                "response": row["kind"] == "response",
            })
            .to_string()
        })
        .collect();
    assert_eq!(lines.len(), 1200);
    let pairs = scratch.path().join("pairs.jsonl");
    std::fs::write(&pairs, lines.join("\n")).expect("pairs file");
    let page = scratch.path().join("score.html");
    let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(["score", "--pairs"])
        .arg(&pairs)
        .arg("--html")
        .arg(&page)
        .output()
        .expect("pddlc runs");
    assert_eq!(run.status.code(), Some(0));
    let size = std::fs::metadata(&page).expect("page").len();
    assert!(size < 5_000_000, "{size} bytes");
    let opened = open_clean(&browser, &page, scratch.path());
    let order = pair_order(&opened.dom);
    assert_eq!(order.len(), 1200);
    // The first hundred unfolded, the others in the folded table.
    let folded = opened
        .dom
        .split("<details class=\"more\">")
        .nth(1)
        .expect("folded pairs");
    assert_eq!(pair_order(folded).len(), 1100);
}

#[test]
fn the_score_page_is_not_written_over_a_pair_file() {
    let fixtures = root().join("fixtures/html/score");
    for over in ["pairs.jsonl", "weaker.pddl"] {
        let target = fixtures.join(over);
        let before = std::fs::read(&target).expect("input");
        let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
            .args(["score", "--pairs"])
            .arg(fixtures.join("pairs.jsonl"))
            .arg("--html")
            .arg(&target)
            .output()
            .expect("pddlc runs");
        assert_eq!(run.status.code(), Some(2), "{over}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains("is an input of this command"), "{stderr}");
        assert_eq!(std::fs::read(&target).expect("input"), before, "{over}");
        assert!(run.stdout.is_empty(), "nothing scored");
    }
}

#[test]
fn one_scored_pair_has_a_page_too_and_prints_its_table() {
    let scratch = tempfile::tempdir().expect("temporary directory");
    let page = scratch.path().join("one.html");
    let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .arg("score")
        .arg(root().join("domains/blocksworld/domain.pddl"))
        .arg(root().join("fixtures/html/score/weaker.pddl"))
        .arg("--html")
        .arg(&page)
        .output()
        .expect("pddlc runs");
    assert_eq!(run.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&run.stdout).contains("F1_PRECOND    91.7"));
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(html.contains("1 pair scored in <code>clean</code> mode."));
    assert_eq!(pair_order(&html), [1]);
    assert!(
        html.contains("<span class=\"ins\">  36 +     :precondition <mark>(holding ?x)</mark>\n")
    );
}

#[test]
fn every_temporal_reference_plan_gets_a_gantt_page_with_vals_verdict() {
    let Some(shared) = common::shared_with(&["plans-temporal", "corpus"], "html_pages") else {
        return;
    };
    let index = std::fs::read_to_string(shared.join("plans-temporal/index.jsonl")).expect("index");
    let exceptions: std::collections::HashMap<String, String> =
        common::table(&root().join("fixtures/plans/val-temporal-exceptions.txt"))
            .into_iter()
            .map(|(id, ours, _)| (id, ours))
            .collect();
    let scratch = tempfile::tempdir().expect("temporary directory");
    let page = scratch.path().join("temporal.html");
    let mut checked = 0;
    for line in index.lines().filter(|l| !l.trim().is_empty()) {
        let row: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        // At validate's default tolerance, as VAL's `-t 0.01` judged it.
        if row["tolerance"].as_f64() != Some(0.01) || row["val"]["crashed"] == true {
            continue;
        }
        let path = |key: &str| shared.join(row[key].as_str().expect("a path"));
        let _ = std::fs::remove_file(&page);
        let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
            .arg("validate")
            .args([path("domain"), path("problem"), path("plan")])
            .arg("--html")
            .arg(&page)
            .output()
            .expect("pddlc runs");
        let id = row["id"].as_str().unwrap_or_default();
        let html = std::fs::read_to_string(&page)
            .unwrap_or_else(|_| panic!("{id}: no page: {}", String::from_utf8_lossy(&run.stderr)));
        // VAL's verdict, but where tests/validate_temporal.rs lists VAL as wrong.
        let (class, word) = match exceptions.get(id).map(String::as_str) {
            Some("valid") => ("valid", "valid"),
            Some("V310") => ("unknown", "no verdict"),
            Some(_) => ("invalid", "invalid"),
            None if row["val"]["valid"] == true => ("valid", "valid"),
            None => ("invalid", "invalid"),
        };
        assert!(
            html.contains(&format!("<span class=\"verdict {class}\">{word}</span>")),
            "{id}: expected {word}"
        );
        // A bar or a diamond per step of the plan (up to the chart's 400).
        let plan = std::fs::read_to_string(path("plan")).expect("plan");
        let steps = plan
            .lines()
            .filter(|l| {
                l.split(';')
                    .next()
                    .is_some_and(|l| l.contains(':') && l.contains('('))
            })
            .count()
            .min(400);
        let drawn = html.matches("<rect class=\"action\"").count()
            + html.matches("<polygon class=\"instant\"").count();
        assert_eq!(drawn, steps, "{id}: the chart's steps");
        checked += 1;
    }
    assert!(checked >= 200, "only {checked} temporal plans checked");
}

/// `text` as the DOM Chromium dumps holds it: `&`, `<` and `>` escaped.
fn as_dom_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The assistant messages of an episode record: Plancraft's dialogue, or a run row's steps.
fn assistant_messages(record: &serde_json::Value) -> Vec<String> {
    let text = |content: &serde_json::Value| match content {
        serde_json::Value::Array(parts) => parts
            .iter()
            .find(|p| p["type"] == "text")
            .and_then(|p| p["text"].as_str())
            .map(str::to_string),
        other => other.as_str().map(str::to_string),
    };
    match record["model_trace"]["dialogue_history"].as_array() {
        Some(dialogue) => dialogue
            .iter()
            .filter(|m| m["role"] == "assistant")
            .filter_map(|m| text(&m["content"]))
            .collect(),
        None => record["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s["text"].as_str().map(str::to_string))
            .collect(),
    }
}

/// `pddlc plancraft eval --html PAGE` on `methods` against `oracle`: what it prints; it exits 0.
fn plancraft_eval_html(examples: &Path, oracle: &Path, methods: &[&Path], page: &Path) -> String {
    let run = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(["plancraft", "eval", "--bootstrap", "200", "--examples"])
        .arg(examples)
        .arg("--oracle")
        .arg(oracle)
        .args(methods)
        .arg("--html")
        .arg(page)
        .output()
        .expect("pddlc runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    String::from_utf8_lossy(&run.stdout).to_string()
}

#[test]
fn the_plancraft_eval_page_opens_clean_with_its_tables_grid_and_replays() {
    let Some(browser) = browser() else {
        return;
    };
    let scratch = tempfile::tempdir().expect("temporary directory");
    let page = scratch.path().join("plancraft.html");
    let fixtures = root().join("fixtures/plancraft/eval");
    let examples = fixtures.join("examples.json");
    let (alpha, beta) = (
        fixtures.join("runs/alpha"),
        fixtures.join("runs/beta.jsonl"),
    );
    let oracle = fixtures.join("runs/oracle");
    let printed = plancraft_eval_html(&examples, &oracle, &[&alpha, &beta], &page);
    // What is printed is what is printed without --html.
    assert!(printed.starts_with("Plancraft results on 4 examples"));
    let opened = open_clean(&browser, &page, scratch.path());
    let dom = &opened.dom;
    assert_eq!(dom.matches("<table class=\"methods compact\">").count(), 2);
    assert_eq!(
        dom.matches("<table class=\"methods compact intervals\">")
            .count(),
        1
    );
    // One comparison: overall in one plot, plan length and steps over the oracle in the other.
    assert_eq!(dom.matches("<svg class=\"forest\" role=\"img\"").count(), 2);
    assert_eq!(dom.matches("<circle class=\"difference\"").count(), 3);
    assert!(dom.contains("alpha − beta: steps_diff"));
    // The episodes: alpha's result files (two seeds) and beta's lines.
    let mut episodes: Vec<(String, Vec<String>, bool)> = Vec::new();
    let mut files = common::files_with_extension(&alpha, "json");
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("result file");
        let record: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let id = record["example_id"].as_str().expect("id").to_string();
        episodes.push((id, assistant_messages(&record), record["success"] == true));
    }
    for record in common::plancraft_runs::read_jsonl(&beta) {
        let id = record["example"].as_str().expect("id").to_string();
        episodes.push((id, assistant_messages(&record), record["success"] == true));
    }
    assert_eq!(episodes.len(), 8);
    // Grid cells per (example, method); groups easy, medium, hard, other among the examples.
    let mut cells: Vec<(String, bool)> = episodes
        .iter()
        .enumerate()
        .map(|(i, (id, ..))| (id.clone(), i < 5))
        .collect();
    cells.sort();
    cells.dedup();
    assert_eq!(dom.matches("<td class=\"cell ").count(), cells.len());
    assert_eq!(dom.matches("<table class=\"grid examples\">").count(), 4);
    // Each episode's replay is the text `plancraft run` prints for its messages, and a note
    // when the run's record says otherwise.
    assert_eq!(
        dom.matches("<pre class=\"result\">").count(),
        episodes.len()
    );
    let mut notes = 0;
    for (i, (id, messages, recorded)) in episodes.iter().enumerate() {
        assert!(messages.iter().all(|m| !m.contains('\n')), "{messages:?}");
        let actions = scratch.path().join(format!("actions-{i}.txt"));
        std::fs::write(&actions, messages.join("\n")).expect("actions");
        let replay = Command::new(env!("CARGO_BIN_EXE_pddlc"))
            .args(["plancraft", "run", "--example"])
            .arg(&examples)
            .args(["--id", id])
            .arg(&actions)
            .output()
            .expect("pddlc runs");
        let text = String::from_utf8_lossy(&replay.stdout).to_string();
        let mut shown = format!("<pre class=\"result\">{}", as_dom_text(&text));
        if replay.status.success() != *recorded {
            shown.push_str("note: the run's record says");
            notes += 1;
        } else {
            shown.push_str("</pre>");
        }
        assert!(dom.contains(&shown), "{id}: {text}");
    }
    assert_eq!(dom.matches("note: the run's record says").count(), notes);
}

/// A replay as the test compares it: the example, each step's kind and whether it changed
/// the slots, and whether the episode succeeded.
type Replay = (String, Vec<(String, bool)>, bool);

#[test]
fn the_plancraft_page_of_the_reference_runs_replays_every_sequence_as_plancraft_did() {
    let Some(browser) = browser() else {
        return;
    };
    let Some(root) = common::shared_part("plancraft", "html_pages") else {
        return;
    };
    let scratch = tempfile::tempdir().expect("temporary directory");
    let runs = common::plancraft_runs::reference_runs(&root.join("reference"), scratch.path());
    let page = scratch.path().join("plancraft.html");
    // The oracle's run is a method too: its replays are checked with the others.
    let mut methods: Vec<&Path> = runs.runs.iter().map(PathBuf::as_path).collect();
    methods.push(&runs.oracle);
    plancraft_eval_html(&root.join("data/val.json"), &runs.oracle, &methods, &page);
    let size = std::fs::metadata(&page).expect("page").len();
    assert!(size < 5_000_000, "{size} bytes");
    let opened = open_clean(&browser, &page, scratch.path());
    // Every replay as (example, each step's kind and whether a move or smelt changed the
    // slots, success): the page's, read from its text, against the reference environment's.
    let mut shown: Vec<Replay> = opened
        .dom
        .split("<pre class=\"result\">")
        .skip(1)
        .map(|rest| {
            let text = rest.split("</pre>").next().unwrap_or_default();
            let mut lines = text.lines();
            let id = lines
                .next()
                .and_then(|l| l.split(':').next())
                .unwrap_or_default();
            let mut steps = Vec::new();
            let mut success = None;
            for line in lines {
                if let Some(verdict) = line.split(':').next().filter(|v| !v.starts_with(' ')) {
                    success = success.or(Some(verdict == "success"));
                    continue;
                }
                let mut words = line.split_whitespace();
                let (_, kind) = (words.next(), words.next().unwrap_or_default());
                let effect: Vec<&str> = words.collect();
                let changed =
                    matches!(kind, "move" | "smelt") && effect.first() != Some(&"refused:");
                steps.push((kind.to_string(), changed));
            }
            (id.to_string(), steps, success.expect("a verdict"))
        })
        .collect();
    let reference_steps = |steps: &serde_json::Value| -> Vec<(String, bool)> {
        steps
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| {
                let kind = s["kind"].as_str().unwrap_or_default().to_string();
                (kind, s["changed"] == true)
            })
            .collect()
    };
    let mut expected: Vec<Replay> = runs
        .noisy
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap_or_default().to_string(),
                reference_steps(&s["steps"]),
                s["success"] == true,
            )
        })
        .chain(runs.oracle_lines.iter().map(|o| {
            let replay = &o["replay"];
            (
                o["id"].as_str().unwrap_or_default().to_string(),
                reference_steps(&replay["steps"]),
                replay["success"] == true,
            )
        }))
        .collect();
    assert!(
        expected.len() >= 1_570,
        "{} reference sequences",
        expected.len()
    );
    shown.sort();
    expected.sort();
    assert_eq!(shown.len(), expected.len());
    for (page, reference) in shown.iter().zip(&expected) {
        assert_eq!(page, reference);
    }
    assert!(!opened.dom.contains("note: the run's record says"));
}
