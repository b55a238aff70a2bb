//! An agent's message read as Plancraft's evaluator reads it (semantics §4): each handler in
//! turn looks for its name and a colon anywhere in the text; the first that answers decides.

use super::slot::{slot_index, slot_name};

/// The action handlers, in the paper's default order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handler {
    Move,
    Smelt,
    Think,
    Search,
    Impossible,
}

impl Handler {
    pub const DEFAULT: [Handler; 5] = [
        Handler::Move,
        Handler::Smelt,
        Handler::Think,
        Handler::Search,
        Handler::Impossible,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Handler::Move => "move",
            Handler::Smelt => "smelt",
            Handler::Think => "think",
            Handler::Search => "search",
            Handler::Impossible => "impossible",
        }
    }

    pub fn from_name(name: &str) -> Option<Handler> {
        Handler::DEFAULT.into_iter().find(|h| h.name() == name)
    }

    /// The format the handler's error messages show.
    pub fn format(self) -> &'static str {
        match self {
            Handler::Move => "`move: from [Source] to [Target] with quantity N`",
            Handler::Smelt => "`smelt: from [Source] to [Target] with quantity N`",
            Handler::Think => "`think: <thought message>`",
            Handler::Search => "`search: <recipe name>`",
            Handler::Impossible => "`impossible: <reason>`",
        }
    }
}

/// What a message is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Move {
        from: usize,
        to: usize,
        quantity: u8,
    },
    Smelt {
        from: usize,
        to: usize,
        quantity: u8,
    },
    Impossible {
        reason: String,
    },
    Think,
    Search {
        item: String,
    },
    /// A handler's trigger was found but the rest is malformed; `reason` is the error's text.
    FormatError {
        handler: Handler,
        reason: String,
    },
    /// No handler's trigger is in the text.
    Unknown,
}

/// The reason Python gives when one of the three searches finds nothing.
const NOTHING_FOUND: &str = "'NoneType' object has no attribute 'group'";

impl Message {
    /// The message read with the given handlers, tried in order.
    pub fn parse(text: &str, handlers: &[Handler]) -> Message {
        handlers
            .iter()
            .find(|h| text.contains(&format!("{}:", h.name())))
            .map_or(Message::Unknown, |&handler| read(handler, text))
    }

    /// The action's canonical text (Plancraft's `str(action)`), for moves, smelts and stops.
    pub fn canonical(&self) -> Option<String> {
        match self {
            Message::Move { from, to, quantity } => Some(format!(
                "move: from {} to {} with quantity {quantity}",
                slot_name(*from),
                slot_name(*to)
            )),
            Message::Smelt { from, to, quantity } => Some(format!(
                "smelt: from {} to {} with quantity {quantity}",
                slot_name(*from),
                slot_name(*to)
            )),
            Message::Impossible { reason } => Some(format!("impossible: {reason}")),
            _ => None,
        }
    }
}

/// The text the agent receives for a malformed message.
pub fn format_error(handler: Handler, reason: &str) -> String {
    format!(
        "Format Error: {reason}. Correct format: {}",
        handler.format()
    )
}

/// The text the agent receives when no handler matches.
pub fn only_select(handlers: &[Handler]) -> String {
    let names: Vec<&str> = handlers.iter().map(|h| h.name()).collect();
    format!(
        "Only select actions from the following: {}",
        names.join(", ")
    )
}

fn read(handler: Handler, text: &str) -> Message {
    let error = |reason: &str| Message::FormatError {
        handler,
        reason: reason.to_string(),
    };
    match handler {
        Handler::Think => Message::Think,
        Handler::Search => match search_word(text) {
            Some(item) => Message::Search { item },
            None => error(NOTHING_FOUND),
        },
        Handler::Impossible => match text.find("impossible: ") {
            Some(at) => {
                let rest = &text[at + "impossible: ".len()..];
                let reason = rest.split('\n').next().unwrap_or_default();
                Message::Impossible {
                    reason: reason.to_string(),
                }
            }
            None => error(NOTHING_FOUND),
        },
        Handler::Move | Handler::Smelt => {
            let (Some(from), Some(to), Some(quantity)) = (
                bracket_after(text, " from "),
                bracket_after(text, " to "),
                quantity(text),
            ) else {
                return error(NOTHING_FOUND);
            };
            match slot_action(handler, from, to, quantity) {
                Ok(message) => message,
                Err(reason) => error(reason),
            }
        }
    }
}

/// The validation of `MoveAction` and `SmeltAction`, in pydantic's order.
fn slot_action(
    handler: Handler,
    from: &str,
    to: &str,
    quantity: u64,
) -> Result<Message, &'static str> {
    const UNREADABLE: &str = "[Source] and [Target] must be [0] or [A1] to [C3] or [I1] to [I36]";
    let from = slot_index(from).ok_or(UNREADABLE)?;
    let to = slot_index(to).ok_or(UNREADABLE)?;
    if from == to {
        return Err("[Source] and [Target] must be different");
    }
    if from > 45 {
        return Err("[Source] must be [0] or [A1] to [C3] or [I1] to [I36]");
    }
    if to == 0 {
        return Err(match handler {
            Handler::Smelt => "You cannot smelt items into [0]",
            _ => "You cannot move items into [0]",
        });
    }
    if to > 45 {
        return Err("[Target] must be [A1] to [C3] or [I1] to [I36]");
    }
    let quantity = match u8::try_from(quantity) {
        Ok(q @ 1..=64) => q,
        _ => return Err("quantity must be between 1 and 64"),
    };
    Ok(match handler {
        Handler::Smelt => Message::Smelt { from, to, quantity },
        _ => Message::Move { from, to, quantity },
    })
}

/// The first `<prefix>[X123]` (regex `<prefix>(\[[ABCI]?\d+\])`): the bracketed text.
fn bracket_after<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    text.match_indices(prefix).find_map(|(at, _)| {
        let start = at + prefix.len();
        let rest = text[start..].strip_prefix('[')?;
        let rest = rest.strip_prefix(['A', 'B', 'C', 'I']).unwrap_or(rest);
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || !rest[digits..].starts_with(']') {
            return None;
        }
        let end = text.len() - rest.len() + digits + 1;
        Some(&text[start..end])
    })
}

/// The first `with quantity <digits>`, its value (saturating: anything past 64 is an error
/// anyway).
fn quantity(text: &str) -> Option<u64> {
    text.match_indices("with quantity ")
        .find_map(|(at, prefix)| {
            let rest = &text[at + prefix.len()..];
            let digits: &str = &rest[..rest.bytes().take_while(u8::is_ascii_digit).count()];
            if digits.is_empty() {
                return None;
            }
            Some(digits.bytes().fold(0u64, |n, d| {
                n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
            }))
        })
}

/// The first word after `search:` and any spaces (regex `search: *(\w+)`).
fn search_word(text: &str) -> Option<String> {
    text.match_indices("search:").find_map(|(at, prefix)| {
        let rest = text[at + prefix.len()..].trim_start_matches(' ');
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!word.is_empty()).then_some(word)
    })
}
