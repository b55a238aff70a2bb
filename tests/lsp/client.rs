//! A minimal LSP client: frames JSON-RPC messages over the server's standard input and output.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub fn fixture(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(relative)
}

/// Every `.pddl` file under `dir`, in no particular order.
pub fn pddl_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pddl") {
                out.push(path);
            }
        }
    }
    out
}

/// The `file:` URI of an absolute path, as the server writes it.
pub fn uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for byte in path.to_str().expect("a UTF-8 path").bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The server binary: the one cargo built with this program, unless `PDDLC_LSP_SERVER` names
/// another (benches/lsp.rs: `cargo bench` builds with the bench profile, at `opt-level = 1`).
pub fn server() -> PathBuf {
    match std::env::var_os("PDDLC_LSP_SERVER") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_pddlc")),
    }
}

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
    /// Notifications received and not yet looked at, oldest first.
    pub notifications: Vec<Value>,
    /// The server's answer to `initialize`.
    pub initialize_result: Value,
}

impl Client {
    /// Starts `pddlc lsp` and initialises it with `root` as the workspace folder.
    pub fn start(root: &Path) -> Client {
        Client::start_with(root, Value::Null)
    }

    /// [`Client::start`] with `initializationOptions`.
    pub fn start_with(root: &Path, options: Value) -> Client {
        let mut child = Command::new(server())
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("pddlc lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut client = Client {
            child,
            stdin,
            stdout,
            next_id: 0,
            notifications: Vec::new(),
            initialize_result: Value::Null,
        };
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "workspaceFolders": [{"uri": uri(root), "name": "fixtures"}],
                "capabilities": {},
                "initializationOptions": options,
            }),
        );
        assert_eq!(result["serverInfo"]["name"], "pddlc");
        client.initialize_result = result;
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn receive(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).expect("read a header");
            assert!(read > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = Some(value.parse::<usize>().expect("a length"));
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        self.stdout.read_exact(&mut body).expect("read a body");
        serde_json::from_slice(&body).expect("JSON")
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The whole response to a request; notifications that arrive first are kept.
    pub fn request_raw(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
            assert!(message.get("id").is_none(), "unexpected {message}");
            self.notifications.push(message);
        }
    }

    /// The result of a request, which must succeed.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    pub fn open(&mut self, path: &Path) {
        let text = std::fs::read_to_string(path).expect("the fixture");
        self.open_text(path, &text);
    }

    pub fn open_text(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": uri(path), "languageId": "pddl", "version": 1, "text": text,
            }}),
        );
    }

    pub fn change(&mut self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri(path), "version": version},
                "contentChanges": [{"text": text}],
            }),
        );
    }

    /// Every `publishDiagnostics` for `path` so far, as (version, diagnostics). The server
    /// answers `pddlc/diagnosticsSettled` once it has published what every earlier message
    /// called for.
    pub fn all_diagnostics(&mut self, path: &Path) -> Vec<(i64, Vec<Value>)> {
        let settled = self.request_raw("pddlc/diagnosticsSettled", json!(null));
        assert_eq!(settled["result"], Value::Null, "{settled}");
        let wanted = uri(path);
        self.notifications
            .iter()
            .filter(|n| {
                n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == wanted
            })
            .map(|n| {
                let version = n["params"]["version"].as_i64().unwrap_or(-1);
                let list = n["params"]["diagnostics"].as_array().cloned();
                (version, list.unwrap_or_default())
            })
            .collect()
    }

    /// Waits for the diagnostics of `version` of `path`, as an editor does, and returns them
    /// (notifications read meanwhile are kept).
    pub fn wait_diagnostics(&mut self, path: &Path, version: i64) -> Vec<Value> {
        let wanted = uri(path);
        let matches = |message: &Value| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == wanted
                && message["params"]["version"] == version
        };
        // They may have arrived while a request waited for its answer.
        let mut seen = self
            .notifications
            .iter()
            .rev()
            .find(|m| matches(m))
            .cloned();
        while seen.is_none() {
            let message = self.receive();
            if matches(&message) {
                seen = Some(message.clone());
            }
            self.notifications.push(message);
        }
        let list = seen.and_then(|m| m["params"]["diagnostics"].as_array().cloned());
        list.unwrap_or_default()
    }

    /// The latest diagnostics published for `path`.
    pub fn diagnostics(&mut self, path: &Path) -> Vec<Value> {
        let all = self.all_diagnostics(path);
        all.last().expect("diagnostics were published").1.clone()
    }

    /// `shutdown` then `exit`; the server's exit code.
    pub fn shutdown(mut self) -> Option<i32> {
        let response = self.request_raw("shutdown", json!(null));
        assert!(response.get("error").is_none(), "{response}");
        self.notify("exit", json!(null));
        drop(self.stdin);
        self.child.wait().expect("the server exits").code()
    }

    /// The server's exit code, once it ends by itself.
    pub fn wait(mut self) -> Option<i32> {
        drop(self.stdin);
        self.child.wait().expect("the server exits").code()
    }
}
