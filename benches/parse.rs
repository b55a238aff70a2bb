//! Parse throughput over ../shared/corpus and peak heap memory on its largest file.
//!
//! `cargo bench --bench parse`. A plain harness: it reports MB/s (median of several passes,
//! single thread, then all cores) and the peak heap while parsing the largest corpus file,
//! measured by a counting allocator.

use rayon::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The system allocator, counting live bytes and their high-water mark.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn pddl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            pddl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pddl") {
            out.push(path);
        }
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !corpus.is_dir() {
        println!(
            "skipping the parse benchmark: {} is absent",
            corpus.display()
        );
        return;
    }
    let mut paths = Vec::new();
    pddl_files(&corpus, &mut paths);
    paths.sort();
    let texts: Vec<(PathBuf, String)> = paths
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect();
    let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
    let megabytes = bytes as f64 / 1e6;
    println!("corpus: {} files, {:.1} MB", texts.len(), megabytes);

    let passes = 3;
    let single: Vec<f64> = (0..passes)
        .map(|_| {
            let start = Instant::now();
            for (_, text) in &texts {
                std::hint::black_box(pddlc::parse::file(text));
            }
            megabytes / start.elapsed().as_secs_f64()
        })
        .collect();
    println!(
        "parse, 1 thread:    {:.1} MB/s (median of {passes})",
        median(single)
    );

    let threads = rayon::current_num_threads();
    let parallel: Vec<f64> = (0..passes)
        .map(|_| {
            let start = Instant::now();
            texts.par_iter().for_each(|(_, text)| {
                std::hint::black_box(pddlc::parse::file(text));
            });
            megabytes / start.elapsed().as_secs_f64()
        })
        .collect();
    println!(
        "parse, {threads} threads:   {:.1} MB/s (median of {passes})",
        median(parallel)
    );

    let trees: Vec<_> = texts
        .iter()
        .filter_map(|(_, t)| pddlc::parse::file(t).value)
        .collect();
    let start = Instant::now();
    for tree in &trees {
        std::hint::black_box(pddlc::fmt::file(tree));
    }
    println!(
        "print, 1 thread:    {:.1} MB/s of source",
        megabytes / start.elapsed().as_secs_f64()
    );
    drop(trees);

    let Some((largest, text)) = texts.iter().max_by_key(|(_, t)| t.len()) else {
        return;
    };
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let parsed = pddlc::parse::file(text);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let retained = LIVE.load(Ordering::Relaxed) - before;
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    println!(
        "largest file: {} ({:.1} MiB): peak heap while parsing {:.1} MiB ({:.1}x the file), tree {:.1} MiB",
        largest.strip_prefix(&corpus).unwrap_or(largest).display(),
        mib(text.len()),
        mib(peak),
        peak as f64 / text.len() as f64,
        mib(retained),
    );
    drop(parsed);
}
