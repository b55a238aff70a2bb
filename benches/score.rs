//! Scoring speed over the Text2World dev pairs in ../shared/text2world, and hostile inputs.
//!
//! `cargo bench --bench score`. Figures are pairs per second of CPU (user + system time of the
//! process, as ../shared/perf/perf.py counts a `pddlc-batch` run), on one thread, texts read
//! beforehand:
//!
//! - `compare`: `score::compare` per pair, the gold read again for every pair (what the official
//!   scorer's `Evaluator.eval` does);
//! - `gold once`: each distinct gold read once (`score::Gold`), then every pair scored against
//!   it, as `pddlc score --pairs` does;
//! - then both again on all cores (rayon), in pairs per second of wall time.
//!
//! `functional`: `score::functional::compare_texts` per pair (the prediction taken out of a
//! response as clean mode reads it), on one thread, with the count of each domain verdict.
//!
//! Hostile inputs: 5 MB of `(`, of `)` and one 5 MB name, as the prediction and as the gold
//! against the largest dev gold, in both modes, in seconds of CPU (the target is under 0.2 s).

use pddlc::score::{Gold, Mode, compare};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// The process's user + system CPU time so far.
fn cpu_time() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `rusage` into the pointer it is given, which is valid and
    // large enough; the zeroed value is read only when the call succeeds.
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) != 0 {
            return Duration::ZERO;
        }
        usage.assume_init()
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// Seconds of CPU that `work` takes, run where the scoring stages have the deep stack they
/// ask for (`parse::with_stack`), as on `pddlc score --pairs`' threads; a thread with a short
/// stack would map a new one for each pair, which is not what is measured here.
fn cpu_seconds(work: impl FnOnce()) -> f64 {
    pddlc::parse::with_stack(|| {
        let start = cpu_time();
        work();
        (cpu_time() - start).as_secs_f64()
    })
}

struct Pair {
    gold: String,
    pred: String,
    response: bool,
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/text2world");
    let Ok(index) = std::fs::read_to_string(root.join("pairs/dev/scores.jsonl")) else {
        println!("skipping the score benchmark: ../shared/text2world is absent");
        return;
    };
    let read = |path: &str| {
        std::fs::read(root.join(path))
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    let pairs: Vec<Pair> = index
        .lines()
        .filter_map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).ok()?;
            Some(Pair {
                gold: read(row["gold"].as_str()?)?,
                pred: read(row["pred"].as_str()?)?,
                response: row["kind"] == "response",
            })
        })
        .collect();
    println!(
        "{} dev pairs, {} golds; pairs/s of CPU on one thread (of wall on {} threads)",
        pairs.len(),
        pairs
            .iter()
            .map(|p| p.gold.as_str())
            .collect::<std::collections::HashSet<_>>()
            .len(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    // Threads with the stack the stages ask for, as `pddlc score --pairs` builds them.
    let Ok(pool) = rayon::ThreadPoolBuilder::new()
        .stack_size(pddlc::parse::STACK_SIZE)
        .build()
    else {
        println!("cannot start a thread pool");
        return;
    };
    for mode in [Mode::Text2World, Mode::Clean] {
        let per_pair = cpu_seconds(|| {
            for pair in &pairs {
                std::hint::black_box(compare(&pair.gold, &pair.pred, mode, pair.response));
            }
        });
        let gold_once = cpu_seconds(|| {
            let mut golds: HashMap<&str, Gold> = HashMap::new();
            for pair in &pairs {
                let gold = golds
                    .entry(&pair.gold)
                    .or_insert_with(|| Gold::new(&pair.gold, mode));
                std::hint::black_box(gold.compare(&pair.pred, pair.response));
            }
        });
        let start = Instant::now();
        pool.install(|| {
            pairs.par_iter().for_each(|pair| {
                std::hint::black_box(compare(&pair.gold, &pair.pred, mode, pair.response));
            })
        });
        let parallel = pairs.len() as f64 / start.elapsed().as_secs_f64();
        let rate = |seconds: f64| pairs.len() as f64 / seconds.max(1e-9);
        println!(
            "{mode:?}: compare {:.0} pairs/s, gold once {:.0} pairs/s (compare on all threads \
             {parallel:.0} pairs/s of wall)",
            rate(per_pair),
            rate(gold_once)
        );
    }
    functional(&pairs);
    hostile(&root);
}

/// `score --functional` alone over the dev pairs, on one thread, and its verdicts: the decision
/// (`--no-sample`), then the decision and the sampled applicability.
fn functional(pairs: &[Pair]) {
    for (what, no_sample) in [("decision", true), ("decision and sample", false)] {
        let options = pddlc::score::functional::Options {
            no_sample,
            ..Default::default()
        };
        let mut verdicts: std::collections::BTreeMap<String, usize> = Default::default();
        let seconds = cpu_seconds(|| {
            for pair in pairs {
                let pred = pddlc::score::scored_text(&pair.pred, Mode::Clean, pair.response);
                let functional =
                    pddlc::score::functional::compare_texts_with(&pair.gold, &pred, &options);
                *verdicts
                    .entry(format!("{:?}", functional.verdict))
                    .or_default() += 1;
            }
        });
        println!(
            "functional ({what}): {} pairs in {seconds:.2} s of CPU ({:.0} pairs/s); verdicts {verdicts:?}",
            pairs.len(),
            pairs.len() as f64 / seconds.max(1e-9)
        );
    }
}

/// 5 MB of `(`, of `)` and one 5 MB name against the largest dev gold, each way, both modes.
fn hostile(root: &Path) {
    let Ok(gold) =
        std::fs::read_to_string(root.join("domains/091_spider/gt_domain_without_comment.pddl"))
    else {
        return;
    };
    const SIZE: usize = 5 * 1024 * 1024;
    let inputs = [
        ("5 MB of `(`", "(".repeat(SIZE)),
        ("5 MB of `)`", ")".repeat(SIZE)),
        ("one 5 MB name", "a".repeat(SIZE)),
    ];
    println!("hostile inputs against the largest gold (12 KB), seconds of CPU (target < 0.2):");
    for mode in [Mode::Text2World, Mode::Clean] {
        for (name, text) in &inputs {
            let as_pred = cpu_seconds(|| {
                std::hint::black_box(compare(&gold, text, mode, false));
            });
            let as_gold = cpu_seconds(|| {
                std::hint::black_box(compare(text, &gold, mode, false));
            });
            println!(
                "  {mode:?}, {name}: as the prediction {as_pred:.3} s, as the gold {as_gold:.3} s"
            );
        }
    }
}
