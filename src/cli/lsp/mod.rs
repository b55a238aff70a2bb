//! `pddlc lsp`: a Language Server Protocol server over standard input and output.
//!
//! One thread handles every message in order (lsp-server's reader and writer threads do the
//! I/O) and answers requests at once; a worker thread computes diagnostics (worker.rs). Edits
//! are applied as they arrive, and checks are asked for only once no message is waiting, so a
//! burst of keystrokes costs one check of the final text; a check of a text that has changed
//! since is not published, and one still queued is skipped.

mod actions;
mod completion;
mod diagnostics;
mod features;
mod hover;
mod position;
mod state;
mod symbols;
mod worker;

use super::Outcome;
use crossbeam_channel::Sender;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeConfiguration, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentHighlightRequest, DocumentSymbolRequest,
    FoldingRangeRequest, Formatting, GotoDefinition, HoverRequest, PrepareRenameRequest,
    References, Rename, Request as _, SemanticTokensFullRequest, WorkspaceSymbolRequest,
};
use lsp_types::{
    DocumentSymbolResponse, GotoDefinitionResponse, Hover, HoverContents, HoverProviderCapability,
    InitializeParams, MarkupContent, MarkupKind, OneOf, PrepareRenameResponse,
    PublishDiagnosticsParams, RenameOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde_json::Value;
use state::{Document, Source, State};
use std::collections::{BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// Accepted for clients that pass it: the server always speaks over standard input and
    /// output.
    #[arg(long)]
    stdio: bool,
}

pub fn run(_args: &Args) -> Outcome {
    let (connection, io_threads) = Connection::stdio();
    let outcome = serve(&connection);
    // Dropping the connection closes the writer's channel, so its thread ends.
    drop(connection);
    if io_threads.join().is_err() {
        return Outcome::Failure;
    }
    outcome
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(lsp_types::CompletionOptions {
            trigger_characters: Some(vec!["(".into(), ":".into(), "?".into()]),
            ..lsp_types::CompletionOptions::default()
        }),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(
            lsp_types::SemanticTokensOptions {
                legend: lsp_types::SemanticTokensLegend {
                    token_types: features::TOKEN_TYPES.to_vec(),
                    token_modifiers: features::TOKEN_MODIFIERS.to_vec(),
                },
                full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            }
            .into(),
        ),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        ..ServerCapabilities::default()
    }
}

fn serve(connection: &Connection) -> Outcome {
    let initialize = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "pddlc".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    let started = connection.initialize_start().and_then(|(id, params)| {
        connection
            .initialize_finish(id, initialize)
            .map(|()| params)
    });
    let params = match started {
        Ok(params) => params,
        Err(error) => {
            eprintln!("pddlc lsp: {error}");
            return Outcome::Failure;
        }
    };
    let (jobs, done) = worker::spawn();
    let mut server = Server::new(jobs);
    if let Ok(params) = serde_json::from_value::<InitializeParams>(params) {
        server.state.roots = roots(&params);
        server.state.plan_task = params.initialization_options.as_ref().and_then(plan_task);
    }
    let send = |message: Message| {
        let _ = connection.sender.send(message);
    };
    loop {
        // Checks are asked for once no message is queued: a burst of keystrokes is checked
        // once, on the newest text.
        if !server.stale.is_empty() && connection.receiver.is_empty() {
            server.send_stale();
        }
        if server.is_settled() {
            for id in std::mem::take(&mut server.settled) {
                send(Response::new_ok(id, Value::Null).into());
            }
        }
        crossbeam_channel::select! {
            recv(connection.receiver) -> message => {
                let Ok(message) = message else {
                    break;
                };
                match message {
                    Message::Request(request) if request.method == "shutdown" => {
                        // Answered, then `exit` is awaited; a client that closes the pipe
                        // instead (Neovim quitting) has still shut the server down properly.
                        let _ = connection.handle_shutdown(&request);
                        return Outcome::Clean;
                    }
                    Message::Request(request) if request.method == SETTLED => {
                        server.send_stale();
                        server.settled.push(request.id);
                    }
                    // Answered at once, from the newest parsed text; a check in progress
                    // on the worker does not hold it up.
                    Message::Request(request) => send(server.request(request).into()),
                    // `exit` before `shutdown`: exit code 1, as the protocol asks.
                    Message::Notification(notification) if notification.method == "exit" => {
                        return Outcome::InputErrors;
                    }
                    Message::Notification(notification) => server.notification(notification),
                    Message::Response(_) => {}
                }
            }
            recv(done) -> finished => {
                let Ok(finished) = finished else {
                    // The worker is gone (it cannot end while the server holds its channel).
                    return Outcome::Failure;
                };
                if let Some(notification) = server.finish(finished) {
                    send(notification.into());
                }
            }
        }
    }
    // The client went away without `shutdown` and `exit`.
    Outcome::Failure
}

/// A request of pddlc's own, answered (with `null`) once the diagnostics every earlier
/// message called for are published: for tests and scripts that need to know they have the
/// newest.
const SETTLED: &str = "pddlc/diagnosticsSettled";

/// The workspace folders (or the root) as local paths.
fn roots(params: &InitializeParams) -> Vec<std::path::PathBuf> {
    let mut uris: Vec<&Uri> = params
        .workspace_folders
        .iter()
        .flatten()
        .map(|f| &f.uri)
        .collect();
    #[allow(deprecated)] // Older clients send only `rootUri`.
    if uris.is_empty()
        && let Some(root) = &params.root_uri
    {
        uris.push(root);
    }
    uris.into_iter().filter_map(state::path_of).collect()
}

/// The task plans are validated against, from settings of the shape `{"plan": {"domain": …,
/// "problem": …}}`.
fn plan_task(settings: &Value) -> Option<state::PlanTask> {
    serde_json::from_value(settings.get("plan")?.clone()).ok()
}

struct Server {
    state: State,
    /// Open documents whose diagnostics are out of date and not asked of the worker yet.
    stale: BTreeSet<String>,
    /// Numbers the jobs sent to the worker.
    generation: u64,
    /// The generation of the newest job sent for each document: only its result is published.
    sent: HashMap<String, u64>,
    /// Jobs sent and not yet answered (checked or skipped).
    in_flight: usize,
    jobs: Sender<worker::Job>,
    /// `pddlc/diagnosticsSettled` requests waiting for the checks to be published.
    settled: Vec<RequestId>,
}

impl Server {
    fn new(jobs: Sender<worker::Job>) -> Server {
        Server {
            state: State::default(),
            stale: BTreeSet::new(),
            generation: 0,
            sent: HashMap::new(),
            in_flight: 0,
            jobs,
            settled: Vec::new(),
        }
    }

    fn is_settled(&self) -> bool {
        self.stale.is_empty() && self.in_flight == 0
    }

    /// Asks the worker to check every stale document, against the open documents as they are
    /// now.
    fn send_stale(&mut self) {
        let open: Vec<(Uri, i32, Arc<Source>)> = self
            .state
            .documents
            .iter()
            .map(|(uri, d)| (uri.clone(), d.version, d.source.clone()))
            .collect();
        for key in std::mem::take(&mut self.stale) {
            let Some((uri, version, source)) = open.iter().find(|(uri, ..)| uri.as_str() == key)
            else {
                continue;
            };
            self.generation += 1;
            let job = worker::Job {
                uri: uri.clone(),
                version: *version,
                generation: self.generation,
                source: source.clone(),
                open: open.clone(),
                roots: self.state.roots.clone(),
                plan_task: self.state.plan_task.clone(),
            };
            if self.jobs.send(job).is_ok() {
                self.in_flight += 1;
                self.sent.insert(key, self.generation);
            }
        }
    }

    /// A check's result: its diagnostics to publish, unless the document has changed (or a
    /// later check of it was asked for) since.
    fn finish(&mut self, done: worker::Done) -> Option<Notification> {
        self.in_flight = self.in_flight.saturating_sub(1 + done.skipped);
        let document = self.state.documents.get_mut(&done.uri)?;
        // The worker parsed it: requests may be answered from it.
        document.parsed = Some(done.source);
        let current = document.version == done.version
            && self.sent.get(done.uri.as_str()) == Some(&done.generation);
        if !current {
            return None;
        }
        let diagnostics = done.diagnostics?;
        document.diagnostics = diagnostics.clone();
        let params = PublishDiagnosticsParams {
            uri: done.uri,
            diagnostics,
            version: Some(done.version),
        };
        Some(Notification::new(
            PublishDiagnostics::METHOD.to_string(),
            params,
        ))
    }

    /// Answers one request. A handler that panics (a bug) answers with an internal error
    /// instead of ending the server; bad parameters get `InvalidParams`.
    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(request))) {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("pddlc lsp: internal error while answering `{method}`"),
            ),
        }
    }

    fn dispatch(&mut self, request: Request) -> Result<Value, (ErrorCode, String)> {
        let Request { method, params, .. } = request;
        match method.as_str() {
            GotoDefinition::METHOD => {
                let p: lsp_types::GotoDefinitionParams = from(params)?;
                let at = p.text_document_position_params;
                let source = self.open(&at.text_document.uri)?;
                let found = features::definition(&mut self.state, &source, at.position);
                to(GotoDefinitionResponse::Array(found))
            }
            References::METHOD => {
                let p: lsp_types::ReferenceParams = from(params)?;
                let at = p.text_document_position;
                let source = self.open(&at.text_document.uri)?;
                let include = p.context.include_declaration;
                to(features::references(
                    &mut self.state,
                    &source,
                    at.position,
                    include,
                ))
            }
            DocumentHighlightRequest::METHOD => {
                let p: lsp_types::DocumentHighlightParams = from(params)?;
                let at = p.text_document_position_params;
                let source = self.open(&at.text_document.uri)?;
                to(features::highlights(&source, at.position))
            }
            DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = from(params)?;
                let source = self.open(&p.text_document.uri)?;
                to(DocumentSymbolResponse::Nested(features::document_symbols(
                    &source,
                )))
            }
            HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = from(params)?;
                let at = p.text_document_position_params;
                let source = self.open(&at.text_document.uri)?;
                let hover =
                    hover::hover(&mut self.state, &source, at.position).map(|(value, range)| {
                        Hover {
                            contents: HoverContents::Markup(MarkupContent {
                                kind: MarkupKind::Markdown,
                                value,
                            }),
                            range: Some(range),
                        }
                    });
                to(hover)
            }
            PrepareRenameRequest::METHOD => {
                let p: lsp_types::TextDocumentPositionParams = from(params)?;
                let source = self.open(&p.text_document.uri)?;
                let found =
                    features::prepare_rename(&source, p.position).map(|(range, placeholder)| {
                        PrepareRenameResponse::RangeWithPlaceholder { range, placeholder }
                    });
                to(found)
            }
            Rename::METHOD => {
                let p: lsp_types::RenameParams = from(params)?;
                let at = p.text_document_position;
                let source = self.open(&at.text_document.uri)?;
                let edit = features::rename(&mut self.state, &source, at.position, &p.new_name)
                    .map_err(|message| (ErrorCode::InvalidParams, message))?;
                to(edit)
            }
            Completion::METHOD => {
                let p: lsp_types::CompletionParams = from(params)?;
                let at = p.text_document_position;
                let source = self.open(&at.text_document.uri)?;
                let items = completion::complete(&mut self.state, &source, at.position);
                to(lsp_types::CompletionResponse::Array(items))
            }
            WorkspaceSymbolRequest::METHOD => {
                let p: lsp_types::WorkspaceSymbolParams = from(params)?;
                let found = features::workspace_symbols(&mut self.state, &p.query);
                to(lsp_types::WorkspaceSymbolResponse::Flat(found))
            }
            FoldingRangeRequest::METHOD => {
                let p: lsp_types::FoldingRangeParams = from(params)?;
                let source = self.open(&p.text_document.uri)?;
                to(features::folding_ranges(&source))
            }
            SemanticTokensFullRequest::METHOD => {
                let p: lsp_types::SemanticTokensParams = from(params)?;
                let source = self.open(&p.text_document.uri)?;
                to(lsp_types::SemanticTokensResult::Tokens(
                    features::semantic_tokens(&source),
                ))
            }
            Formatting::METHOD => {
                let p: lsp_types::DocumentFormattingParams = from(params)?;
                let source = self.open(&p.text_document.uri)?;
                to(features::format(&source))
            }
            CodeActionRequest::METHOD => {
                let p: lsp_types::CodeActionParams = from(params)?;
                let source = self.open(&p.text_document.uri)?;
                let actions: Vec<lsp_types::CodeActionOrCommand> =
                    actions::quick_fixes(&mut self.state, &source, &p.context.diagnostics)
                        .into_iter()
                        .map(lsp_types::CodeActionOrCommand::CodeAction)
                        .collect();
                to(actions)
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("pddlc lsp does not answer `{method}`"),
            )),
        }
    }

    fn open(&self, uri: &Uri) -> Result<Arc<Source>, (ErrorCode, String)> {
        self.state.source(uri).ok_or_else(|| {
            (
                ErrorCode::InvalidParams,
                format!("`{}` is not an open document", uri.as_str()),
            )
        })
    }

    /// Applies a notification. Malformed ones are dropped: a notification has no answer to
    /// carry an error.
    fn notification(&mut self, notification: Notification) {
        let _ = catch_unwind(AssertUnwindSafe(|| self.apply(notification)));
    }

    fn apply(&mut self, notification: Notification) {
        let Notification { method, params } = notification;
        match method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = from::<lsp_types::DidOpenTextDocumentParams>(params) else {
                    return;
                };
                let document = p.text_document;
                self.set(document.uri, document.version, document.text);
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = from::<lsp_types::DidChangeTextDocumentParams>(params) else {
                    return;
                };
                let uri = p.text_document.uri;
                let Some(current) = self.state.documents.get(&uri) else {
                    return;
                };
                // Full sync: the last change holds the whole text. A change with a range (a
                // client that ignores the capability) is applied to the text it edits.
                let mut text = current.source.text.clone();
                for change in p.content_changes {
                    match change.range {
                        None => text = change.text,
                        Some(range) => {
                            let span = position::Utf16Index::new(&text).span(range);
                            text.replace_range(span.start..span.end, &change.text);
                        }
                    }
                }
                self.set(uri, p.text_document.version, text);
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = from::<lsp_types::DidCloseTextDocumentParams>(params) else {
                    return;
                };
                let uri = p.text_document.uri;
                self.stale.remove(uri.as_str());
                self.sent.remove(uri.as_str());
                if let Some(closed) = self.state.documents.remove(&uri) {
                    // What was checked against it is checked again without it.
                    self.dependents_stale(&closed.source);
                }
            }
            DidSaveTextDocument::METHOD => {
                // The open text is what was checked; files not open that depend on the saved
                // one (a plan's problem read from disk) may read it now.
                let Ok(p) = from::<lsp_types::DidSaveTextDocumentParams>(params) else {
                    return;
                };
                if let Some(source) = self.state.source(&p.text_document.uri) {
                    self.dependents_stale(&source);
                }
            }
            DidChangeConfiguration::METHOD => {
                let Ok(p) = from::<lsp_types::DidChangeConfigurationParams>(params) else {
                    return;
                };
                // The `pddlc` section, or the settings themselves when a client sends only ours.
                let settings = p.settings.get("pddlc").unwrap_or(&p.settings);
                self.state.plan_task = plan_task(settings);
                // The settings name the task of plans only.
                for (uri, document) in &self.state.documents {
                    if document.source.plan {
                        self.stale.insert(uri.as_str().to_string());
                    }
                }
            }
            _ => {}
        }
    }

    fn set(&mut self, uri: Uri, version: i32, text: String) {
        let source = Arc::new(Source::new(uri.clone(), text));
        // An edit affects the document and what is checked against it (its old and its new
        // text's), not every open document.
        let old = self.state.documents.get(&uri).map(|d| d.source.clone());
        if let Some(old) = &old {
            self.dependents_stale(old);
        }
        self.dependents_stale(&source);
        self.stale.insert(uri.as_str().to_string());
        let parsed = old
            .and_then(|old| {
                self.state
                    .documents
                    .get(&uri)
                    .map(|d| (old, d.parsed.clone()))
            })
            .and_then(|(old, parsed)| if old.is_parsed() { Some(old) } else { parsed });
        self.state.documents.insert(
            uri,
            Document {
                version,
                source,
                parsed,
                diagnostics: Vec::new(),
            },
        );
    }

    /// Marks stale the open documents checked against `changed`: for a domain, the problems
    /// (which may name it) and plans; for a problem, the plans. A problem is told by its text
    /// (`(problem …)`), a plan by its file name.
    fn dependents_stale(&mut self, changed: &Source) {
        if changed.plan {
            return;
        }
        let is_problem = |s: &Source| pddlc::parse::problem_domain(&s.text).is_some();
        let domain = !is_problem(changed);
        for (uri, document) in &self.state.documents {
            let other = &document.source;
            if other.uri != changed.uri && (other.plan || (domain && is_problem(other))) {
                self.stale.insert(uri.as_str().to_string());
            }
        }
    }
}

fn from<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(params)
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn to<T: serde::Serialize>(value: T) -> Result<Value, (ErrorCode, String)> {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}
