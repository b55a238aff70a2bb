//! Scoring generated domains against gold ones: Text2World's six metrics, reproduced exactly
//! (`text2world`), and a clean AST-based mode that measures what they were meant to (`clean`).
//! docs/scoring.md explains every difference between the two.

pub mod clean;
pub mod sim;
pub mod text2world;
pub mod functional;

use crate::diagnostics::{Code, Diagnostic};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// The six Text2World metrics of one (gold, prediction) pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct Metrics {
    #[serde(rename = "EXEC")]
    pub exec: f64,
    #[serde(rename = "SIM")]
    pub sim: f64,
    #[serde(rename = "F1_PRED")]
    pub f1_pred: f64,
    #[serde(rename = "F1_PARAM")]
    pub f1_param: f64,
    #[serde(rename = "F1_PRECOND")]
    pub f1_precond: f64,
    #[serde(rename = "F1_EFF")]
    pub f1_eff: f64,
}

/// How to score: the default, on every surface (CLI, Python), is [`Mode::Clean`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The official scorer's values, quirks included. Spelled as the CLI's `--mode` value.
    #[serde(rename = "text2world")]
    Text2World,
    /// What the metrics were meant to measure, on the syntax tree.
    #[default]
    Clean,
}

crate::choice::choice!(Mode, "mode", {
    "clean" => Mode::Clean: "what the metrics were meant to measure, computed on the syntax tree",
    "text2world" => Mode::Text2World: "the official Text2World scorer's values, quirks included",
});

/// The text a prediction is scored as: itself, or with `response` the PDDL taken out of an LLM's
/// answer: in `text2world` mode exactly as Text2World takes it (the longest ```` ```pddl ````
/// block, else the longest ```` ``` ```` block, else the whole answer), in `clean` mode as a
/// person reads it (`parse::extract_answer`: any fence and info string, prose and CRLF, every
/// position kept). The diagnostics of a scored prediction point into this text.
pub fn scored_text(pred: &str, mode: Mode, response: bool) -> std::borrow::Cow<'_, str> {
    match (response, mode) {
        (false, _) => std::borrow::Cow::Borrowed(pred),
        (true, Mode::Text2World) => crate::text2world::extract_response(pred).into(),
        (true, Mode::Clean) => crate::parse::extract_answer(pred).into(),
    }
}

/// One of the two domains of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Gold,
    Pred,
}

#[derive(Debug)]
pub enum Detail {
    Text2World(Box<text2world::Text2WorldScore>),
    Clean(clean::CleanScore),
}

/// One pair's scores: the six values (percentages with one decimal, as published) and the
/// mode's detail. It serializes as [`Scored::json`].
#[derive(Debug)]
pub struct Scored {
    pub mode: Mode,
    pub metrics: Metrics,
    pub detail: Detail,
}

impl Serialize for Scored {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        self.serialize_entries(&mut map)?;
        map.end()
    }
}

impl Scored {
    /// Why EXEC is 0: the prediction's errors (clean mode) or tarski's rejection of it
    /// (text2world mode); empty when EXEC is 100.
    pub fn exec_diagnostics(&self) -> &[Diagnostic] {
        match &self.detail {
            Detail::Clean(c) => &c.pred_errors,
            Detail::Text2World(t) => t.exec_rejection.as_slice(),
        }
    }

    /// The codes of [`Scored::exec_diagnostics`], each once, in order of first appearance.
    pub fn exec_codes(&self) -> Vec<Code> {
        let mut codes: Vec<Code> = Vec::new();
        for diagnostic in self.exec_diagnostics() {
            if !codes.contains(&diagnostic.code) {
                codes.push(diagnostic.code);
            }
        }
        codes
    }

    /// The pair as one JSON object: the mode, the six values, then the mode's detail, and
    /// `codes`, the diagnostic codes that made EXEC 0 (what `Scored` serializes to).
    pub fn json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The entries of [`Scored::json`], written into a map being serialized, so that a caller
    /// can put entries of its own around them without building a `Value`.
    pub fn serialize_entries<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("mode", &self.mode)?;
        let m = &self.metrics;
        for (key, value) in [
            ("EXEC", m.exec),
            ("SIM", m.sim),
            ("F1_PRED", m.f1_pred),
            ("F1_PARAM", m.f1_param),
            ("F1_PRECOND", m.f1_precond),
            ("F1_EFF", m.f1_eff),
        ] {
            map.serialize_entry(key, &value)?;
        }
        match &self.detail {
            Detail::Clean(c) => {
                map.serialize_entry("missing_actions", &c.missing_actions)?;
                map.serialize_entry("extra_actions", &c.extra_actions)?;
                map.serialize_entry("renamed", &c.renamed)?;
                if let Some(note) = c.note() {
                    map.serialize_entry("note", &note)?;
                }
            }
            Detail::Text2World(t) => map.serialize_entry("raw", &t.raw)?,
        }
        map.serialize_entry("codes", &self.exec_codes())
    }

    /// Human-readable remarks for the table format.
    pub fn notes(&self) -> Vec<String> {
        let line = |d: &Diagnostic| format!("{}: {}", d.code, d.message);
        let mut notes = Vec::new();
        match &self.detail {
            Detail::Clean(c) => {
                if let Some(note) = c.note() {
                    notes.push(note);
                } else if !c.pred_errors.is_empty() {
                    let codes: Vec<String> =
                        self.exec_codes().iter().map(|c| c.to_string()).collect();
                    notes.push(format!(
                        "the predicted domain has errors (EXEC 0): {}",
                        codes.join(", ")
                    ));
                }
                if !c.missing_actions.is_empty() {
                    notes.push(format!(
                        "gold actions missing from the prediction: {}",
                        c.missing_actions.join(", ")
                    ));
                }
                for r in &c.renamed {
                    notes.push(format!(
                        "`{}` looks renamed to `{}` (params {}, precond {}, eff {} if matched)",
                        r.gold, r.pred, r.f1_param, r.f1_precond, r.f1_eff
                    ));
                }
            }
            Detail::Text2World(t) => {
                if let Some(d) = &t.exec_rejection {
                    notes.push(format!("tarski rejects the prediction: {}", line(d)));
                } else if let Some(d) = &t.pred_rejection {
                    notes.push(format!(
                        "tarski rejects the stripped prediction: {}",
                        line(d)
                    ));
                }
                if let Some(d) = &t.gold_rejection {
                    notes.push(format!("tarski rejects the gold: {}", line(d)));
                }
                if let Some(e) = &t.eval_error {
                    notes.push(format!("the official scorer raises: {e}"));
                }
                if !t.missing_gold_actions.is_empty() {
                    notes.push(format!(
                        "gold actions missing from the prediction (action metrics 0): {}",
                        t.missing_gold_actions.join(", ")
                    ));
                }
                if let Some(e) = &t.preprocess_error {
                    notes.push(format!("_preprocess raises (action metrics 0): {e}"));
                }
            }
        }
        notes
    }
}

/// Scores `pred` against `gold` (domain texts). With `response`, `pred` is a raw LLM answer and
/// the domain is extracted from it as Text2World does.
pub fn compare(gold: &str, pred: &str, mode: Mode, response: bool) -> Scored {
    Gold::new(gold, mode).compare(pred, response)
}

/// A gold domain read once, to score many predictions against it: [`compare`] without
/// reading the gold again for each prediction. The scores are the same.
#[derive(Debug)]
pub struct Gold {
    mode: Mode,
    prepared: PreparedGold,
}

#[derive(Debug)]
enum PreparedGold {
    Text2World(Box<text2world::Prepared>),
    Clean(Box<clean::Gold>),
}

impl Gold {
    pub fn new(text: &str, mode: Mode) -> Gold {
        // The stages below each need a deep stack; asking once here lets them share one.
        crate::parse::with_stack(|| Gold::prepare(text, mode))
    }

    fn prepare(text: &str, mode: Mode) -> Gold {
        let prepared = match mode {
            Mode::Text2World => PreparedGold::Text2World(Box::new(text2world::Prepared::new(text))),
            Mode::Clean => PreparedGold::Clean(Box::new(clean::Gold::new(text))),
        };
        Gold { mode, prepared }
    }

    /// Scores `pred` against this gold; with `response`, `pred` is a raw LLM answer.
    pub fn compare(&self, pred: &str, response: bool) -> Scored {
        // One stack of the depth the stages need, shared by all of them (a thread with a short
        // stack would otherwise map a new one for each stage).
        crate::parse::with_stack(|| self.compare_here(pred, response))
    }

    fn compare_here(&self, pred: &str, response: bool) -> Scored {
        let pred = scored_text(pred, self.mode, response);
        let pred = pred.as_ref();
        match &self.prepared {
            PreparedGold::Text2World(gold) => {
                let t = text2world::score_prepared(gold, pred);
                Scored {
                    mode: self.mode,
                    metrics: t.official,
                    detail: Detail::Text2World(Box::new(t)),
                }
            }
            PreparedGold::Clean(gold) => {
                let c = clean::score_prepared(gold, pred);
                Scored {
                    mode: self.mode,
                    metrics: c.metrics,
                    detail: Detail::Clean(c),
                }
            }
        }
    }
}

/// The dataset score: per metric, the per-domain values summed, divided by the number of
/// domains (pairs that failed count as 0), rounded to one decimal, as Text2World's
/// `summerize_result.py` does.
pub fn summary(per_domain: &[Metrics]) -> Metrics {
    text2world::summary(per_domain)
}
