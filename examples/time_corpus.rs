fn main() {
    let detail = std::env::args().nth(1).is_some_and(|a| a == "detail");
    pest::set_error_detail(detail);
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from("../shared/corpus")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p)
            } else if p.extension().is_some_and(|e| e == "pddl") {
                files.push(std::fs::read_to_string(&p).unwrap())
            }
        }
    }
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    let t = std::time::Instant::now();
    for f in &files {
        let _ = pddlc::parse::file(f);
    }
    let s = t.elapsed().as_secs_f64();
    println!("detail={detail} {:.1} MB/s", bytes as f64 / 1e6 / s);
}
