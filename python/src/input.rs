//! Arguments to text: `str`, `bytes` (decoded as the CLI decodes a file) or a path.

use pddlc::ast::Span;
use pddlc::diagnostics::{Code, Diagnostic, SourceFile};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyTypeError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// One input: its name and text, and the diagnostic that says why the text could not be read
/// as PDDL source (not UTF-8, a NUL byte); the text is then what decodes, for the renderers.
pub struct Source {
    pub file: SourceFile,
    pub undecodable: Option<Diagnostic>,
}

impl Source {
    /// The text, when it could be decoded.
    pub fn text(&self) -> Option<&str> {
        match self.undecodable {
            None => Some(&self.file.text),
            Some(_) => None,
        }
    }
}

/// The text of argument `what`: a `str` or `bytes` is the text itself (named `<what>` in
/// diagnostics); an `os.PathLike` is a file to read (named by its path). Anything else is a
/// `TypeError`; a file that cannot be read is an `OSError`.
pub fn source(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Source> {
    let name = format!("<{what}>");
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(match s.to_cow() {
            Ok(text) if names_a_file(&text) => {
                return Err(PyValueError::new_err(format!(
                    "`{what}` is the str {text:?}, which names a file but is not PDDL text: a str \
                     is read as PDDL; pass pathlib.Path({text:?}) to read the file"
                )));
            }
            Ok(text) => from_text(name, text.into_owned()),
            // A lone surrogate (`"\ud800"`) cannot be UTF-8: report it as undecodable input.
            Err(_) => surrogates(name, s.to_string_lossy().into_owned()),
        });
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(from_bytes(name, b.as_bytes().to_vec()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(from_bytes(name, b.to_vec()));
    }
    if obj.hasattr("__fspath__")? {
        let path = obj.py().import("os")?.getattr("fspath")?.call1((obj,))?;
        let path = path_buf(&path)?;
        let shown = path.display().to_string();
        let bytes = std::fs::read(&path).map_err(|e| io_error(&shown, &e))?;
        return Ok(from_bytes(shown, bytes));
    }
    Err(PyTypeError::new_err(format!(
        "`{what}` must be PDDL text (str or bytes) or a path (os.PathLike), not {}",
        type_name(obj)
    )))
}

/// Whether a `str` given as PDDL text is rather a file's name: it holds no `(` (no PDDL does),
/// is one line, and an existing file has that name.
fn names_a_file(text: &str) -> bool {
    !text.contains('(')
        && !text.contains('\n')
        && !text.trim().is_empty()
        && text.len() < 4096
        && std::path::Path::new(text).is_file()
}

/// The name of an object's type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an unknown type".to_string())
}

/// A path argument that names a place to write (a `str` or an `os.PathLike`), not a text.
pub fn path_argument(obj: &Bound<'_, PyAny>) -> PyResult<std::path::PathBuf> {
    let path = obj.py().import("os")?.getattr("fspath")?.call1((obj,))?;
    path_buf(&path)
}

fn path_buf(path: &Bound<'_, PyAny>) -> PyResult<std::path::PathBuf> {
    if let Ok(s) = path.cast::<PyString>() {
        return Ok(std::path::PathBuf::from(s.to_cow()?.into_owned()));
    }
    #[cfg(unix)]
    if let Ok(b) = path.cast::<PyBytes>() {
        use std::os::unix::ffi::OsStrExt;
        return Ok(std::path::PathBuf::from(std::ffi::OsStr::from_bytes(
            b.as_bytes(),
        )));
    }
    Err(PyTypeError::new_err(format!(
        "os.fspath returned {}, not str",
        type_name(path)
    )))
}

/// An `OSError` of the right subclass (`FileNotFoundError` …) with the errno and the path.
pub fn io_error(path: &str, error: &std::io::Error) -> PyErr {
    let message = error.to_string();
    // Rust appends " (os error N)"; Python's OSError shows the errno itself.
    let message = match message.rfind(" (os error ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    let args = (error.raw_os_error().unwrap_or(0), message, path.to_string());
    match error.kind() {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
        std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
        _ => PyOSError::new_err(args),
    }
}

/// A `str`: valid UTF-8 already, but it may hold a NUL character, which the library's
/// `decode` rejects in files too.
fn from_text(name: String, text: String) -> Source {
    match pddlc::parse::decode(text.as_bytes()) {
        Ok(_) => Source {
            file: SourceFile::new(name, text),
            undecodable: None,
        },
        Err(diagnostic) => Source {
            file: SourceFile::new(name, text.replace('\0', " ")),
            undecodable: Some(diagnostic),
        },
    }
}

/// Bytes, decoded by the library's `decode` (UTF-8, no NUL), as the CLI reads a file.
pub fn from_bytes(name: String, bytes: Vec<u8>) -> Source {
    match pddlc::parse::decode(&bytes) {
        Ok(_) => {
            // `decode` accepted the bytes as UTF-8; `from_utf8` cannot fail on them.
            let text = String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            Source {
                file: SourceFile::new(name, text),
                undecodable: None,
            }
        }
        Err(diagnostic) => Source {
            file: SourceFile::new(name, String::from_utf8_lossy(&bytes).replace('\0', " ")),
            undecodable: Some(diagnostic),
        },
    }
}

/// A `str` holding lone surrogates: reported as invalid UTF-8 at the first one (shown as
/// U+FFFD in the text the renderers get).
fn surrogates(name: String, lossy: String) -> Source {
    let at = lossy.find('\u{fffd}').unwrap_or(0);
    let end = (at + '\u{fffd}'.len_utf8()).min(lossy.len());
    let diagnostic = Diagnostic::new(
        Code::InvalidUtf8,
        "the text holds a lone surrogate code point, which is not valid UTF-8",
        Span::new(at, end),
    )
    .with_help("PDDL text is read as UTF-8; remove the surrogate or decode the input properly");
    Source {
        file: SourceFile::new(name, lossy.replace('\0', " ")),
        undecodable: Some(diagnostic),
    }
}
