//! `pddlc lsp`: a Language Server Protocol server over standard input and output.
//!
//! One thread handles every message in order (lsp-server's reader and writer threads do the
//! I/O). Edits are applied as they arrive, and diagnostics are computed only once no message is
//! waiting, so a burst of keystrokes costs one check of the final text, not one per keystroke.

mod actions;
mod completion;
mod diagnostics;
mod features;
mod hover;
mod position;
mod state;
mod symbols;

use super::Outcome;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
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
use std::collections::BTreeSet;
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
    let mut server = Server::default();
    if let Ok(params) = serde_json::from_value::<InitializeParams>(params) {
        server.state.roots = roots(&params);
        server.state.plan_task = params.initialization_options.as_ref().and_then(plan_task);
    }
    loop {
        // Diagnostics wait until no message is queued: the newest text is the one checked.
        let message = if server.stale.is_empty() {
            match connection.receiver.recv() {
                Ok(message) => message,
                Err(_) => break,
            }
        } else {
            match connection.receiver.try_recv() {
                Ok(message) => message,
                Err(crossbeam_channel::TryRecvError::Empty) => {
                    for notification in server.publish_stale() {
                        let _ = connection.sender.send(notification.into());
                    }
                    continue;
                }
                Err(crossbeam_channel::TryRecvError::Disconnected) => break,
            }
        };
        match message {
            Message::Request(request) => {
                if request.method == "shutdown" {
                    // Answered, then `exit` is awaited; a client that closes the pipe instead
                    // (Neovim quitting) has still shut the server down properly.
                    let _ = connection.handle_shutdown(&request);
                    return Outcome::Clean;
                }
                // Diagnostics of earlier edits go out before the answer, so that a client sees
                // them in the order of what it sent.
                for notification in server.publish_stale() {
                    let _ = connection.sender.send(notification.into());
                }
                let response = server.request(request);
                let _ = connection.sender.send(response.into());
            }
            // `exit` before `shutdown`: exit code 1, as the protocol asks.
            Message::Notification(notification) if notification.method == "exit" => {
                return Outcome::InputErrors;
            }
            Message::Notification(notification) => server.notification(notification),
            Message::Response(_) => {}
        }
    }
    // The client went away without `shutdown` and `exit`.
    Outcome::Failure
}

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

#[derive(Default)]
struct Server {
    state: State,
    /// Open documents whose diagnostics are out of date.
    stale: BTreeSet<String>,
}

impl Server {
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
                    actions::quick_fixes(&source, &p.context.diagnostics)
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
                self.state.documents.remove(&uri);
                self.stale.remove(uri.as_str());
                // The problems that were checked against it are checked again without it.
                self.all_stale();
            }
            DidSaveTextDocument::METHOD => self.all_stale(),
            DidChangeConfiguration::METHOD => {
                let Ok(p) = from::<lsp_types::DidChangeConfigurationParams>(params) else {
                    return;
                };
                // The `pddlc` section, or the settings themselves when a client sends only ours.
                let settings = p.settings.get("pddlc").unwrap_or(&p.settings);
                self.state.plan_task = plan_task(settings);
                self.all_stale();
            }
            _ => {}
        }
    }

    fn set(&mut self, uri: Uri, version: i32, text: String) {
        let source = Arc::new(Source::new(uri.clone(), text));
        self.state.documents.insert(
            uri,
            Document {
                version,
                source,
                diagnostics: Vec::new(),
            },
        );
        // A domain's edit changes its problems' diagnostics: check every open document again
        // (each parse is cached until its own text changes).
        self.all_stale();
    }

    fn all_stale(&mut self) {
        for uri in self.state.documents.keys() {
            self.stale.insert(uri.as_str().to_string());
        }
    }

    /// Diagnostics for every stale open document; a document whose check panics (a bug) gets
    /// none rather than ending the server.
    fn publish_stale(&mut self) -> Vec<Notification> {
        let stale = std::mem::take(&mut self.stale);
        let mut out = Vec::new();
        for key in stale {
            let Some((uri, version, source)) = self
                .state
                .documents
                .iter()
                .find(|(uri, _)| uri.as_str() == key)
                .map(|(uri, d)| (uri.clone(), d.version, d.source.clone()))
            else {
                continue;
            };
            let state = &mut self.state;
            let found = catch_unwind(AssertUnwindSafe(|| diagnostics::of(state, &source)))
                .unwrap_or_default();
            if let Some(document) = self.state.documents.get_mut(&uri) {
                document.diagnostics = found.clone();
            }
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics: found,
                version: Some(version),
            };
            out.push(Notification::new(
                PublishDiagnostics::METHOD.to_string(),
                params,
            ));
        }
        out
    }
}

fn from<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(params)
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn to<T: serde::Serialize>(value: T) -> Result<Value, (ErrorCode, String)> {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}
