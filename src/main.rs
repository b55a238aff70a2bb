use pddlc::diagnostics::{render, SourceFile};
fn main() {
    let mut bad = 0; let mut n = 0;
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap();
        let text = match pddlc::parse::decode(&bytes) { Ok(t) => t.to_string(), Err(d) => { println!("{path}: {}", d.message); continue } };
        let parsed = pddlc::parse::file(&text);
        n += 1;
        if !parsed.diagnostics.is_empty() {
            bad += 1;
            let files = [SourceFile::new(path.clone(), text.clone())];
            print!("{}", render::gcc(&parsed.diagnostics, &render::Sources::new(&files)));
        }
    }
    eprintln!("{n} files, {bad} with diagnostics");
}
