//! What the server knows: the open documents, the workspace's `.pddl` files read from disk,
//! how a problem finds its domain (the CLI's pairing rule) and a plan its problem and domain.

use super::position::Utf16Index;
use super::symbols::{self, Occurrence};
use lsp_types::Uri;
use pddlc::ast::bddl::BddlFile;
use pddlc::ast::{Domain, PddlFile};
use pddlc::parse::Parsed;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::OnceLock;
use std::time::SystemTime;

/// The most `.pddl` files a workspace folder is searched for domains and problems; a folder
/// with more (a corpus checkout) is searched this far, so a request never walks for long.
const MAX_WORKSPACE_FILES: usize = 2_000;

/// A text and what is derived from it, computed once when first asked for.
pub struct Source {
    pub uri: Uri,
    pub path: Option<PathBuf>,
    pub text: String,
    /// A plan file (`*.plan`, `*.soln`, `sas_plan*`), told by its name: validated, not parsed
    /// as PDDL.
    pub plan: bool,
    /// A BDDL file (`*.bddl`): parsed and checked as BDDL, not as PDDL.
    pub bddl: bool,
    parsed: OnceLock<Parsed<Option<PddlFile>>>,
    bddl_parsed: OnceLock<Parsed<Option<BddlFile>>>,
    occurrences: OnceLock<Vec<Occurrence>>,
}

impl Source {
    pub fn new(uri: Uri, text: String) -> Source {
        let name = uri.as_str().rsplit('/').next().unwrap_or_default();
        let plan = is_plan_name(name);
        let bddl = name.to_ascii_lowercase().ends_with(".bddl");
        Source {
            path: path_of(&uri),
            plan,
            bddl,
            uri,
            text,
            parsed: OnceLock::new(),
            bddl_parsed: OnceLock::new(),
            occurrences: OnceLock::new(),
        }
    }

    /// The parse of the text; a plan has none (no value and no diagnostics).
    pub fn parsed(&self) -> &Parsed<Option<PddlFile>> {
        self.parsed.get_or_init(|| {
            if self.plan || self.bddl {
                Parsed {
                    value: None,
                    diagnostics: Vec::new(),
                }
            } else {
                pddlc::parse::file(&self.text)
            }
        })
    }

    /// The BDDL parse of a `.bddl` file's text.
    pub fn bddl_parsed(&self) -> &Parsed<Option<BddlFile>> {
        self.bddl_parsed
            .get_or_init(|| pddlc::parse::bddl(&self.text))
    }

    /// Whether the text has been parsed already (asking for it then costs nothing).
    pub fn is_parsed(&self) -> bool {
        self.parsed.get().is_some()
    }

    pub fn file(&self) -> Option<&PddlFile> {
        self.parsed().value.as_ref()
    }

    pub fn domain(&self) -> Option<&Domain> {
        match self.file() {
            Some(PddlFile::Domain(domain)) => Some(domain),
            _ => None,
        }
    }

    /// The domain a problem names, read from its text (without parsing it all).
    pub fn problem_domain_name(&self) -> Option<String> {
        if self.plan {
            return None;
        }
        match &self.parsed.get() {
            Some(parsed) => match &parsed.value {
                Some(PddlFile::Problem(problem)) => problem.domain.as_ref().map(|n| n.key()),
                _ => None,
            },
            None => pddlc::parse::problem_domain(&self.text)
                .flatten()
                .map(str::to_lowercase),
        }
    }

    pub fn occurrences(&self) -> &[Occurrence] {
        self.occurrences.get_or_init(|| match self.file() {
            Some(file) => symbols::occurrences(file),
            None => Vec::new(),
        })
    }

    pub fn index(&self) -> Utf16Index<'_> {
        Utf16Index::new(&self.text)
    }
}

/// A text at least this long is not parsed on the thread that answers requests while an
/// older parse of the document can answer instead (a parse of 256 KiB takes a few ms; the
/// corpus's 4 MB domains take a tenth of a second or more).
const LARGE_TEXT: usize = 256 * 1024;

/// An open document: the client's text, which wins over the file on disk.
#[derive(Clone)]
pub struct Document {
    pub version: i32,
    pub source: Arc<Source>,
    /// The newest text of this document known to be parsed, if not `source`: what requests
    /// are answered from while the newest text of a large document is being checked.
    pub parsed: Option<Arc<Source>>,
    /// The diagnostics last published for this text (empty until they are).
    pub diagnostics: Vec<lsp_types::Diagnostic>,
}

impl Document {
    /// The text requests are answered from: the newest, unless it is large, not parsed yet,
    /// and an older parsed text exists (whose positions may then lag a few edits behind).
    pub fn ready(&self) -> Arc<Source> {
        match &self.parsed {
            Some(older) if self.source.text.len() >= LARGE_TEXT && !self.source.is_parsed() => {
                older.clone()
            }
            _ => self.source.clone(),
        }
    }
}

/// Whether a file of this name is a plan: `*.plan`, `*.soln` (IPC's planners' outputs) or
/// `sas_plan*` (Fast Downward's `sas_plan`, `sas_plan.1` …).
pub fn is_plan_name(name: &str) -> bool {
    let lower = name.to_lowercase();
    lower.ends_with(".plan") || lower.ends_with(".soln") || lower.starts_with("sas_plan")
}

/// The task plans are validated against when the settings name it (`initializationOptions`
/// or `workspace/didChangeConfiguration`'s `pddlc` section: `{"plan": {"domain": …,
/// "problem": …}}`); relative paths are read from the first workspace folder.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct PlanTask {
    pub domain: PathBuf,
    pub problem: PathBuf,
}

#[derive(Default)]
pub struct State {
    pub documents: HashMap<Uri, Document>,
    /// The workspace folders, searched for domains and problems that are not open.
    pub roots: Vec<PathBuf>,
    /// The domain and problem every plan is validated against, when the settings name them;
    /// otherwise a plan's are found beside it.
    pub plan_task: Option<PlanTask>,
    /// Files read from disk, kept while their modification time stays the same.
    disk: HashMap<PathBuf, (Option<SystemTime>, Arc<Source>)>,
}

impl State {
    pub fn source(&self, uri: &Uri) -> Option<Arc<Source>> {
        self.documents.get(uri).map(Document::ready)
    }

    /// Every `.pddl` file that may hold a domain or problem of `near`'s: the open documents,
    /// then the files of `near`'s folder and of the workspace folders that are not open.
    pub fn candidates(&mut self, near: Option<&Path>) -> Vec<Arc<Source>> {
        let mut out: Vec<Arc<Source>> = self.documents.values().map(Document::ready).collect();
        let mut paths = Vec::new();
        if let Some(folder) = near.and_then(Path::parent) {
            list_pddl(folder, false, &mut paths);
        }
        for root in &self.roots {
            list_pddl(root, true, &mut paths);
        }
        paths.sort();
        paths.dedup();
        let open: Vec<PathBuf> = out.iter().filter_map(|s| s.path.clone()).collect();
        for path in paths {
            if open.contains(&path) {
                continue;
            }
            if let Some(source) = self.read_disk(&path) {
                out.push(source);
            }
        }
        out
    }

    /// The text of `path`: its open document, else the file on disk.
    fn at_path(&mut self, path: &Path) -> Option<Arc<Source>> {
        let open = self
            .documents
            .values()
            .find(|d| d.source.path.as_deref() == Some(path));
        match open {
            Some(document) => Some(document.ready()),
            None => self.read_disk(path),
        }
    }

    /// The domain and problem a plan is validated against: those the settings name, else the
    /// problem in the plan's folder whose file name fits the plan's best (the CLI's affinity:
    /// same trailing number, longest common prefix) and that problem's domain.
    pub fn task_of(&mut self, plan: &Source) -> Option<(Arc<Source>, Arc<Source>)> {
        if let Some(task) = self.plan_task.clone() {
            let root = self.roots.first().cloned().unwrap_or_default();
            let domain = self.at_path(&root.join(&task.domain))?;
            let problem = self.at_path(&root.join(&task.problem))?;
            return Some((domain, problem));
        }
        let path = plan.path.as_deref()?;
        let folder = path.parent()?;
        let problem = self
            .candidates(Some(path))
            .into_iter()
            .filter(|s| s.path.as_deref().and_then(Path::parent) == Some(folder))
            .filter(|s| s.problem_domain_name().is_some())
            .max_by_key(|s| {
                let affinity = s
                    .path
                    .as_deref()
                    .map(|p| crate::cli::check::affinity(p, path));
                (affinity, std::cmp::Reverse(s.path.clone()))
            })?;
        let domain = self.domain_of(&problem)?;
        Some((domain, problem))
    }

    fn read_disk(&mut self, path: &Path) -> Option<Arc<Source>> {
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        if let Some((when, source)) = self.disk.get(path)
            && *when == modified
            && modified.is_some()
        {
            return Some(source.clone());
        }
        let bytes = std::fs::read(path).ok()?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let source = Arc::new(Source::new(uri_of(path)?, text));
        self.disk
            .insert(path.to_path_buf(), (modified, source.clone()));
        Some(source)
    }

    /// The domain `problem` is checked against: among the open documents and the workspace's
    /// files, a domain of the name its `(:domain …)` gives, open documents first, then by the
    /// CLI's affinity (same trailing number, longest common file-name prefix, same folder).
    pub fn domain_of(&mut self, problem: &Source) -> Option<Arc<Source>> {
        let name = problem.problem_domain_name()?;
        let candidates = self.candidates(problem.path.as_deref());
        let open = |s: &Source| self.documents.contains_key(&s.uri);
        candidates
            .iter()
            .filter(|s| s.uri != problem.uri && pddlc::parse::problem_domain(&s.text).is_none())
            .filter(|s| s.domain().is_some_and(|d| d.name.is(&name)))
            .max_by_key(|s| {
                let affinity = match (&s.path, &problem.path) {
                    (Some(d), Some(p)) => crate::cli::check::affinity(d, p),
                    _ => (false, 0, false),
                };
                (open(s), affinity)
            })
            .cloned()
    }

    /// The problems that name the domain `domain` (open documents and workspace files).
    pub fn problems_of(&mut self, domain: &Source) -> Vec<Arc<Source>> {
        let Some(name) = domain.domain().map(|d| d.name.key()) else {
            return Vec::new();
        };
        self.candidates(domain.path.as_deref())
            .into_iter()
            .filter(|s| s.uri != domain.uri && s.problem_domain_name().as_deref() == Some(&name))
            .collect()
    }

    /// The files a name in `source` may be declared or used in: the domain and its problems.
    /// The first is `source` itself.
    pub fn family(&mut self, source: &Arc<Source>) -> Vec<Arc<Source>> {
        let domain = if source.domain().is_some() {
            Some(source.clone())
        } else {
            self.domain_of(source)
        };
        let mut out = vec![source.clone()];
        if let Some(domain) = domain {
            if domain.uri != source.uri {
                out.push(domain.clone());
            }
            for problem in self.problems_of(&domain) {
                if !out.iter().any(|s| s.uri == problem.uri) {
                    out.push(problem);
                }
            }
        }
        out
    }
}

fn list_pddl(folder: &Path, recurse: bool, out: &mut Vec<PathBuf>) {
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if out.len() >= MAX_WORKSPACE_FILES {
                return;
            }
            let path = entry.path();
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if path.is_dir() {
                if recurse && !hidden && entry.file_name() != "target" {
                    stack.push(path);
                }
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pddl"))
            {
                out.push(path);
            }
        }
    }
}

/// The path of a `file:` URI, percent-decoded.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///path` or `file://localhost/path`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            decoded.push((high * 16 + low) as u8);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    Some(PathBuf::from(
        String::from_utf8_lossy(&decoded).into_owned(),
    ))
}

/// The `file:` URI of an absolute path, percent-encoding what a URI path cannot hold.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let path = path.to_str()?;
    let mut uri = String::from("file://");
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    Uri::from_str(&uri).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_use_the_last_parsed_text_of_a_large_document_until_its_newest_is_parsed() {
        let uri = Uri::from_str("file:///d.pddl").expect("a URI");
        let small = Arc::new(Source::new(uri.clone(), "(define (domain a))".into()));
        let older = Arc::new(Source::new(uri.clone(), "(define (domain b))".into()));
        older.parsed();
        let document = |source: &Arc<Source>| Document {
            version: 2,
            source: source.clone(),
            parsed: Some(older.clone()),
            diagnostics: Vec::new(),
        };
        // A small text is parsed when asked for.
        assert!(Arc::ptr_eq(&document(&small).ready(), &small));
        let padding = " ".repeat(LARGE_TEXT);
        let large = Arc::new(Source::new(uri, format!("(define (domain c)){padding}")));
        assert!(Arc::ptr_eq(&document(&large).ready(), &older));
        large.parsed();
        assert!(Arc::ptr_eq(&document(&large).ready(), &large));
    }

    #[test]
    fn file_uris_and_paths_round_trip_with_percent_encoding() {
        let path = Path::new("/tmp/a b/dömain#1.pddl");
        let uri = uri_of(path).expect("a URI");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/d%C3%B6main%231.pddl");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
        let localhost = Uri::from_str("file://localhost/x/y.pddl").expect("a URI");
        assert_eq!(path_of(&localhost), Some(PathBuf::from("/x/y.pddl")));
        let untitled = Uri::from_str("untitled:Untitled-1").expect("a URI");
        assert_eq!(path_of(&untitled), None);
    }
}
