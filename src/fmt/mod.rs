//! AST to canonical PDDL text: `parse(print(ast)) == ast`, spans aside.
//!
//! Printing builds a small layout tree ([`Doc`]) from the AST, puts the source's comments back
//! into it by byte offset (when the caller passes the source), and lays it out: a list that fits
//! in the width stays on one line, otherwise its head stays on the first line and every further
//! item gets a line of its own, indented two spaces deeper than the line the list opened on.
//! Keywords are printed in lower case; names and numbers exactly as written.

use crate::ast::*;

mod bddl;

pub use bddl::bddl;

/// How to print.
#[derive(Clone, Debug)]
pub struct PrintOptions<'s> {
    /// The line width lists are fitted into.
    pub width: usize,
    /// The text the AST was parsed from: its comments are carried over to the output.
    pub comments_from: Option<&'s str>,
}

impl Default for PrintOptions<'_> {
    fn default() -> Self {
        PrintOptions {
            width: 80,
            comments_from: None,
        }
    }
}

/// Canonical text of a domain, without comments.
pub fn domain(domain: &Domain) -> String {
    file_with(&PddlFile::Domain(domain.clone()), &PrintOptions::default())
}

/// Canonical text of a problem, without comments.
pub fn problem(problem: &Problem) -> String {
    file_with(
        &PddlFile::Problem(problem.clone()),
        &PrintOptions::default(),
    )
}

/// Canonical text of a domain or problem, without comments.
pub fn file(file: &PddlFile) -> String {
    file_with(file, &PrintOptions::default())
}

/// Canonical text of a domain or problem with the given options.
pub fn file_with(file: &PddlFile, options: &PrintOptions) -> String {
    crate::parse::with_stack(|| print_file(file, options))
}

fn print_file(file: &PddlFile, options: &PrintOptions) -> String {
    let doc = match file {
        PddlFile::Domain(d) => domain_doc(d),
        PddlFile::Problem(p) => problem_doc(p),
    };
    render(doc, options)
}

/// Lays out a file's document with the source's comments put back.
fn render(mut doc: Doc, options: &PrintOptions) -> String {
    let mut before = Vec::new();
    let mut after = Vec::new();
    if let Some(source) = options.comments_from {
        doc.widen_sections(source);
        let comments = comments(source);
        let span = doc.span().unwrap_or_default();
        for comment in comments {
            if comment.at < span.start {
                before.push(comment);
            } else if comment.at >= span.end {
                after.push(comment);
            } else {
                doc.insert(comment);
            }
        }
    }
    let mut out = Out {
        text: String::new(),
        column: 0,
        width: options.width,
    };
    for comment in &before {
        out.text.push_str(&comment.text);
        out.text.push('\n');
    }
    doc.compute_comments();
    out.render(&doc, 0);
    out.text.push('\n');
    for comment in &after {
        out.text.push_str(&comment.text);
        out.text.push('\n');
    }
    out.text
}

// ---------------------------------------------------------------------------------------------
// Layout tree

#[derive(Debug)]
enum Doc {
    Text {
        text: String,
        at: Option<usize>,
    },
    /// A parenthesised list; `head` items stay on the opening line when it breaks.
    List {
        items: Vec<Doc>,
        head: usize,
        always_break: bool,
        span: Option<Span>,
        has_comment: bool,
    },
    /// Items joined by spaces that never break, such as `:parameters (…)` or `?x ?y - block`.
    Group {
        items: Vec<Doc>,
        span: Option<Span>,
        has_comment: bool,
    },
    Comment(Comment),
    /// An empty line between the items of a broken list.
    Blank,
}

#[derive(Clone, Debug)]
struct Comment {
    at: usize,
    text: String,
    /// Whether code precedes the comment on its line.
    trailing: bool,
}

fn text(text: impl Into<String>) -> Doc {
    Doc::Text {
        text: text.into(),
        at: None,
    }
}

fn text_at(text: impl Into<String>, span: Span) -> Doc {
    Doc::Text {
        text: text.into(),
        at: Some(span.start),
    }
}

fn list(items: Vec<Doc>, head: usize, span: Option<Span>) -> Doc {
    Doc::List {
        items,
        head,
        always_break: false,
        span,
        has_comment: false,
    }
}

fn broken(items: Vec<Doc>, head: usize, span: Option<Span>) -> Doc {
    Doc::List {
        items,
        head,
        always_break: true,
        span,
        has_comment: false,
    }
}

/// Marks a list as a section, whose span comes from the source (see [`widen`]).
fn is_section(items: &[Doc]) -> bool {
    matches!(items.first(), Some(Doc::Text { text, at: None }) if text.starts_with(':'))
}

fn group(items: Vec<Doc>) -> Doc {
    let span = items.iter().filter_map(Doc::span).reduce(|a, b| a.to(b));
    Doc::Group {
        items,
        span,
        has_comment: false,
    }
}

impl Doc {
    /// Gives the sections directly inside this list their span in `source`.
    fn widen_sections(&mut self, source: &str) {
        if let Doc::List { items, .. } = self {
            for item in items.iter_mut() {
                if let Doc::List {
                    items: inner,
                    span: Some(span),
                    ..
                } = item
                    && is_section(inner)
                    && let Some(wide) = widen(source, *span)
                {
                    *span = wide;
                }
            }
        }
    }

    fn span(&self) -> Option<Span> {
        match self {
            Doc::Text { at, text } => at.map(|a| Span::new(a, a + text.len())),
            Doc::List { span, .. } | Doc::Group { span, .. } => *span,
            Doc::Comment(c) => Some(Span::new(c.at, c.at + c.text.len())),
            Doc::Blank => None,
        }
    }

    /// Puts a comment into the innermost list or group that contains it, before the first item
    /// that starts after it.
    fn insert(&mut self, comment: Comment) {
        let (Doc::List { items, .. } | Doc::Group { items, .. }) = self else {
            return;
        };
        for item in items.iter_mut() {
            // A form kept verbatim (BDDL's unknown sections) prints its comments itself.
            if let Doc::Text { at: Some(at), text } = item
                && *at < comment.at
                && comment.at < *at + text.len()
            {
                return;
            }
            if let Some(span) = item.span()
                && matches!(item, Doc::List { .. } | Doc::Group { .. })
                && span.start < comment.at
                && comment.at < span.end
            {
                item.insert(comment);
                return;
            }
        }
        let mut position = items
            .iter()
            .position(|item| item.span().is_some_and(|s| s.start > comment.at))
            .unwrap_or(items.len());
        // A comment trailing the previous item stays with it, before any blank line.
        while comment.trailing && position > 0 && matches!(items[position - 1], Doc::Blank) {
            position -= 1;
        }
        items.insert(position, Doc::Comment(comment));
    }

    /// Marks every list and group that holds a comment: those always break.
    fn compute_comments(&mut self) -> bool {
        match self {
            Doc::List {
                items, has_comment, ..
            }
            | Doc::Group {
                items, has_comment, ..
            } => {
                let mut any = false;
                for item in items.iter_mut() {
                    any |= item.compute_comments();
                }
                *has_comment = any;
                any
            }
            Doc::Comment(_) => true,
            Doc::Text { .. } | Doc::Blank => false,
        }
    }

    /// The width of the item on one line, or `None` when over `limit` or unable to be flat.
    fn flat_width(&self, limit: usize) -> Option<usize> {
        let width = match self {
            Doc::Text { text, .. } => text.chars().count(),
            Doc::List {
                items,
                always_break,
                has_comment,
                ..
            } => {
                if *always_break || *has_comment {
                    return None;
                }
                let mut width = 2 + items.len().saturating_sub(1);
                for item in items {
                    width += item.flat_width(limit.checked_sub(width)?)?;
                }
                width
            }
            Doc::Group {
                items, has_comment, ..
            } => {
                if *has_comment {
                    return None;
                }
                let mut width = items.len().saturating_sub(1);
                for item in items {
                    width += item.flat_width(limit.checked_sub(width)?)?;
                }
                width
            }
            Doc::Comment(_) | Doc::Blank => return None,
        };
        (width <= limit).then_some(width)
    }
}

struct Out {
    text: String,
    column: usize,
    width: usize,
}

impl Out {
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.column += s.chars().count();
    }

    fn newline(&mut self, indent: usize) {
        // No trailing whitespace on the line being ended.
        while self.text.ends_with(' ') {
            self.text.pop();
        }
        self.text.push('\n');
        for _ in 0..indent {
            self.text.push(' ');
        }
        self.column = indent;
    }

    /// Renders `doc` at the current column; `indent` is the indentation of the current line.
    fn render(&mut self, doc: &Doc, indent: usize) {
        match doc {
            Doc::Text { text, .. } => self.push(text),
            Doc::Comment(c) => self.push(&c.text),
            Doc::Blank => {}
            Doc::Group { items, .. } => {
                let mut after_comment = false;
                for (i, item) in items.iter().enumerate() {
                    if after_comment {
                        self.newline(indent);
                    } else if i > 0 {
                        self.push(" ");
                    }
                    self.render(item, indent);
                    after_comment = matches!(item, Doc::Comment(_));
                }
                if after_comment {
                    self.newline(indent);
                }
            }
            Doc::List { items, head, .. } => {
                let limit = self.width.saturating_sub(self.column);
                if doc.flat_width(limit).is_some() {
                    self.flat(doc);
                    return;
                }
                self.push("(");
                let inner = indent + 2;
                // Whether the current line already holds something after the `(`.
                let mut line_has_item = false;
                let mut after_comment = false;
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Doc::Comment(c) if c.trailing && !after_comment => {
                            if line_has_item {
                                self.push(" ");
                            }
                            self.push(&c.text);
                            after_comment = true;
                            line_has_item = true;
                            continue;
                        }
                        Doc::Blank => {
                            if i > 0 {
                                self.text.push('\n');
                            }
                            continue;
                        }
                        _ => {}
                    }
                    if after_comment || (i >= *head && (i > 0 || line_has_item)) {
                        self.newline(inner);
                    } else if line_has_item {
                        self.push(" ");
                    }
                    self.render(item, inner);
                    line_has_item = true;
                    after_comment = matches!(item, Doc::Comment(_));
                }
                if after_comment {
                    self.newline(indent);
                }
                self.push(")");
            }
        }
    }

    fn flat(&mut self, doc: &Doc) {
        match doc {
            Doc::Text { text, .. } => self.push(text),
            Doc::List { items, .. } => {
                self.push("(");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.push(" ");
                    }
                    self.flat(item);
                }
                self.push(")");
            }
            Doc::Group { items, .. } => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.push(" ");
                    }
                    self.flat(item);
                }
            }
            Doc::Comment(_) | Doc::Blank => {}
        }
    }
}

/// The `;` comments of a source, with whether code precedes them on their line.
fn comments(source: &str) -> Vec<Comment> {
    let mut out = Vec::new();
    let mut line_has_code = false;
    let mut chars = source.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ';' => {
                let end = source[i..]
                    .find('\n')
                    .map(|n| i + n)
                    .unwrap_or(source.len());
                let text = source[i..end].trim_end().to_string();
                out.push(Comment {
                    at: i,
                    text,
                    trailing: line_has_code,
                });
                while chars.peek().is_some_and(|(j, _)| *j < end) {
                    chars.next();
                }
            }
            '\n' => line_has_code = false,
            c if c.is_whitespace() || c == '\u{FEFF}' => {}
            _ => line_has_code = true,
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// AST to layout

fn name(n: &Name) -> Doc {
    text_at(n.text.clone(), n.span)
}

fn variable(v: &Variable) -> Doc {
    text_at(format!("?{}", v.name.text), v.span())
}

fn term(t: &Term) -> Doc {
    match t {
        Term::Name(n) => name(n),
        Term::Variable(v) => variable(v),
    }
}

fn type_doc(t: &Type) -> Doc {
    match t {
        Type::Name(n) => name(n),
        Type::Either { types, span } => {
            let mut items = vec![text("either")];
            items.extend(types.iter().map(name));
            list(items, 1, Some(*span))
        }
    }
}

fn same_type(a: &Option<Type>, b: &Option<Type>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Type::Name(x)), Some(Type::Name(y))) => x.text == y.text,
        (Some(Type::Either { types: x, .. }), Some(Type::Either { types: y, .. })) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a.text == b.text)
        }
        _ => false,
    }
}

/// A typed list as groups `a b - t`. An untyped item before typed ones (possible only in a
/// constructed AST) is printed as `- object`, which is what PDDL reads it as.
fn typed<T>(items: &[Typed<T>], item: impl Fn(&T) -> Doc) -> Vec<Doc> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let mut j = i + 1;
        while j < items.len() && same_type(&items[i].ty, &items[j].ty) {
            j += 1;
        }
        let mut members: Vec<Doc> = items[i..j].iter().map(|t| item(&t.item)).collect();
        match &items[i].ty {
            Some(ty) => {
                members.push(text("-"));
                members.push(type_doc(ty));
            }
            None if j < items.len() => {
                members.push(text("-"));
                members.push(text("object"));
            }
            None => {}
        }
        groups.push(group(members));
        i = j;
    }
    groups
}

fn typed_variables(items: &[Typed<Variable>], span: Option<Span>) -> Doc {
    list(typed(items, variable), 0, span)
}

fn vars_span(items: &[Typed<Variable>]) -> Option<Span> {
    let first = items.first()?.item.span();
    let last = items.last()?;
    let end = last.ty.as_ref().map(Type::span).unwrap_or(last.item.span());
    Some(first.to(end))
}

fn atom(a: &Atom) -> Doc {
    let mut items = vec![name(&a.predicate)];
    items.extend(a.args.iter().map(term));
    list(items, 1, Some(a.span))
}

fn function_term(f: &FunctionTerm) -> Doc {
    let mut items = vec![name(&f.name)];
    items.extend(f.args.iter().map(term));
    list(items, 1, Some(f.span))
}

fn number(n: &Number) -> Doc {
    text_at(n.text.clone(), n.span)
}

fn expr(e: &Expr) -> Doc {
    let span = Some(e.span);
    match &e.kind {
        ExprKind::Number(n) => number(n),
        ExprKind::Term { term: t } => term(t),
        ExprKind::Function(f) => function_term(f),
        ExprKind::Call { function, args } => {
            let mut items = vec![name(function)];
            items.extend(args.iter().map(expr));
            list(items, 1, span)
        }
        ExprKind::Op { op, args } => {
            let mut items = vec![text(op.symbol())];
            items.extend(args.iter().map(expr));
            list(items, 1, span)
        }
        ExprKind::TotalTime => list(vec![text("total-time")], 1, span),
        ExprKind::IsViolated { preference } => {
            list(vec![text("is-violated"), name(preference)], 2, span)
        }
        ExprKind::Time => text_at("#t", e.span),
    }
}

fn gd(g: &Gd) -> Doc {
    let span = Some(g.span);
    let keyword_list = |keyword: &str, args: &[Gd]| {
        let mut items = vec![text(keyword)];
        items.extend(args.iter().map(gd));
        list(items, 1, span)
    };
    match &g.kind {
        GdKind::Atom(a) => atom(a),
        GdKind::And { args } => keyword_list("and", args),
        GdKind::Or { args } => keyword_list("or", args),
        GdKind::Not { arg } => list(vec![text("not"), gd(arg)], 1, span),
        GdKind::Imply {
            condition,
            consequence,
        } => list(vec![text("imply"), gd(condition), gd(consequence)], 1, span),
        GdKind::Exists { variables, body } => list(
            vec![
                text("exists"),
                typed_variables(variables, vars_span(variables)),
                gd(body),
            ],
            2,
            span,
        ),
        GdKind::Forall { variables, body } => list(
            vec![
                text("forall"),
                typed_variables(variables, vars_span(variables)),
                gd(body),
            ],
            2,
            span,
        ),
        GdKind::Compare { op, lhs, rhs } => {
            list(vec![text(op.symbol()), expr(lhs), expr(rhs)], 1, span)
        }
        GdKind::Preference { name: n, body } => {
            let mut items = vec![text("preference")];
            if let Some(n) = n {
                items.push(name(n));
            }
            let head = items.len();
            items.push(gd(body));
            list(items, head, span)
        }
        GdKind::Timed { time, body } => list(vec![text(time.keyword()), gd(body)], 1, span),
        GdKind::Modal { op, numbers, args } => {
            let mut items = vec![text(op.keyword())];
            items.extend(numbers.iter().map(number));
            let head = items.len();
            items.extend(args.iter().map(gd));
            list(items, head, span)
        }
    }
}

fn effect(e: &Effect) -> Doc {
    let span = Some(e.span);
    match &e.kind {
        EffectKind::And { args } => {
            let mut items = vec![text("and")];
            items.extend(args.iter().map(effect));
            list(items, 1, span)
        }
        EffectKind::Forall { variables, body } => list(
            vec![
                text("forall"),
                typed_variables(variables, vars_span(variables)),
                effect(body),
            ],
            2,
            span,
        ),
        EffectKind::When { condition, body } => {
            list(vec![text("when"), gd(condition), effect(body)], 1, span)
        }
        EffectKind::Add { atom: a } => atom(a),
        EffectKind::Delete { atom: a } => list(vec![text("not"), atom(a)], 1, span),
        EffectKind::Numeric { op, target, value } => {
            list(vec![text(op.keyword()), expr(target), expr(value)], 1, span)
        }
        EffectKind::Timed { time, body } => list(vec![text(time.keyword()), effect(body)], 1, span),
    }
}

/// `:keyword value` kept together on a line.
fn part(keyword: &str, value: Doc) -> Doc {
    group(vec![text(keyword), value])
}

fn parameters(keyword: &str, params: &[Typed<Variable>]) -> Doc {
    part(keyword, typed_variables(params, vars_span(params)))
}

fn skeleton(s: &AtomicSkeleton) -> Doc {
    let mut items = vec![name(&s.name)];
    items.extend(typed(&s.parameters, variable));
    list(items, 1, Some(s.span))
}

fn requirements(reqs: &[Name]) -> Doc {
    let mut items = vec![text(":requirements")];
    items.extend(reqs.iter().map(name));
    list(items, 1, None)
}

fn typed_section(keyword: &str, items: &[Typed<Name>]) -> Doc {
    let mut docs = vec![text(keyword)];
    docs.extend(typed(items, name));
    list(docs, 1, None)
}

fn action_doc(keyword: &str, a: &Action) -> Doc {
    let mut items = vec![
        text(keyword),
        name(&a.name),
        parameters(":parameters", &a.parameters),
    ];
    if !a.vars.is_empty() {
        items.push(parameters(":vars", &a.vars));
    }
    if let Some(p) = &a.precondition {
        items.push(part(":precondition", gd(p)));
    }
    if let Some(e) = &a.effect {
        items.push(part(":effect", effect(e)));
    }
    broken(items, 2, Some(a.span))
}

fn structure_doc(s: &Structure) -> Doc {
    match s {
        Structure::Action(a) => action_doc(":action", a),
        Structure::Process(a) => action_doc(":process", a),
        Structure::Event(a) => action_doc(":event", a),
        Structure::DurativeAction(a) => {
            let mut items = vec![
                text(":durative-action"),
                name(&a.name),
                parameters(":parameters", &a.parameters),
            ];
            if let Some(d) = &a.duration {
                items.push(part(":duration", gd(d)));
            }
            if let Some(c) = &a.condition {
                items.push(part(":condition", gd(c)));
            }
            if let Some(e) = &a.effect {
                items.push(part(":effect", effect(e)));
            }
            broken(items, 2, Some(a.span))
        }
        Structure::Derived(d) => list(
            vec![text(":derived"), skeleton(&d.predicate), gd(&d.body)],
            2,
            Some(d.span),
        ),
        Structure::Constraint(c) => {
            let mut items = vec![
                text(":constraint"),
                name(&c.name),
                parameters(":parameters", &c.parameters),
            ];
            if let Some(g) = &c.condition {
                items.push(part(":condition", gd(g)));
            }
            broken(items, 2, Some(c.span))
        }
    }
}

/// A section list. Sections have no span in the AST; the span of their items stands in for it
/// until [`Doc::widen_sections`] widens it to the parentheses around them in the source.
fn section(mut doc: Doc) -> Doc {
    if let Doc::List { items, span, .. } = &mut doc {
        *span = items.iter().filter_map(Doc::span).reduce(|a, b| a.to(b));
    }
    doc
}

/// The offset of the last byte before `at` that is neither whitespace nor in a comment.
fn previous_code(source: &str, mut at: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    while at > 0 {
        at -= 1;
        if bytes[at].is_ascii_whitespace() {
            continue;
        }
        let line_start = source[..at].rfind('\n').map_or(0, |n| n + 1);
        // PDDL has no strings: a `;` on the line always starts a comment.
        if let Some(semicolon) = source[line_start..=at].find(';') {
            at = line_start + semicolon;
            continue;
        }
        return Some(at);
    }
    None
}

/// The offset of the first byte at or after `at` that is neither whitespace nor in a comment.
fn next_code(source: &str, mut at: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    while at < bytes.len() {
        match bytes[at] {
            b';' => at = source[at..].find('\n').map_or(bytes.len(), |n| at + n),
            b if b.is_ascii_whitespace() => at += 1,
            _ => return Some(at),
        }
    }
    None
}

/// Widens the span of a section from its items to `(` and `)` in the source.
fn widen(source: &str, items: Span) -> Option<Span> {
    let bytes = source.as_bytes();
    let keyword_end = previous_code(source, items.start)?;
    let keyword_start = source[..=keyword_end]
        .rfind(|c: char| c.is_whitespace() || c == '(')
        .map_or(0, |n| n + 1);
    let open = previous_code(source, keyword_start)?;
    let close = next_code(source, items.end)?;
    (bytes[open] == b'(' && bytes[close] == b')').then(|| Span::new(open, close + 1))
}

fn domain_doc(d: &Domain) -> Doc {
    let mut items = vec![
        text("define"),
        list(vec![text("domain"), name(&d.name)], 1, None),
    ];
    if !d.requirements.is_empty() {
        items.push(section(requirements(&d.requirements)));
    }
    if !d.types.is_empty() {
        items.push(section(typed_section(":types", &d.types)));
    }
    if !d.constants.is_empty() {
        items.push(section(typed_section(":constants", &d.constants)));
    }
    if !d.predicates.is_empty() {
        let mut preds = vec![text(":predicates")];
        preds.extend(d.predicates.iter().map(skeleton));
        items.push(section(broken(preds, 1, None)));
    }
    if !d.functions.is_empty() {
        let mut funcs = vec![text(":functions")];
        for (i, f) in d.functions.iter().enumerate() {
            let mut parts = vec![name(&f.name)];
            parts.extend(typed(&f.parameters, variable));
            let decl = list(parts, 1, Some(f.span));
            // The type follows the last declaration of a run of declarations sharing it.
            let last_of_run = d
                .functions
                .get(i + 1)
                .is_none_or(|next| !same_type(&f.ty, &next.ty));
            match (&f.ty, last_of_run) {
                (Some(ty), true) => funcs.push(group(vec![decl, text("-"), type_doc(ty)])),
                _ => funcs.push(decl),
            }
        }
        items.push(section(broken(funcs, 1, None)));
    }
    if let Some(c) = &d.constraints {
        items.push(section(list(vec![text(":constraints"), gd(c)], 1, None)));
    }
    for s in &d.structures {
        items.push(Doc::Blank);
        items.push(structure_doc(s));
    }
    broken(items, 2, Some(d.span))
}

fn init(i: &Init) -> Doc {
    let span = Some(i.span);
    match &i.kind {
        InitKind::Atom(a) => atom(a),
        InitKind::Not { atom: a } => list(vec![text("not"), atom(a)], 1, span),
        InitKind::Assign { target, value } => {
            list(vec![text("="), expr(target), expr(value)], 1, span)
        }
        InitKind::At { time, fact } => list(vec![text("at"), number(time), init(fact)], 2, span),
    }
}

fn problem_doc(p: &Problem) -> Doc {
    let mut items = vec![
        text("define"),
        list(vec![text("problem"), name(&p.name)], 1, None),
    ];
    if let Some(d) = &p.domain {
        items.push(list(vec![text(":domain"), name(d)], 1, None));
    }
    if !p.requirements.is_empty() {
        items.push(section(requirements(&p.requirements)));
    }
    if !p.objects.is_empty() {
        items.push(section(typed_section(":objects", &p.objects)));
    }
    let mut facts = vec![text(":init")];
    facts.extend(p.init.iter().map(init));
    items.push(section(broken(facts, 1, None)));
    if let Some(g) = &p.goal {
        items.push(section(list(vec![text(":goal"), gd(g)], 1, None)));
    }
    if let Some(c) = &p.constraints {
        items.push(section(list(vec![text(":constraints"), gd(c)], 1, None)));
    }
    if let Some(m) = &p.metric {
        let direction = match m.optimization {
            Optimization::Minimize => "minimize",
            Optimization::Maximize => "maximize",
        };
        items.push(list(
            vec![text(":metric"), text(direction), expr(&m.expr)],
            2,
            Some(m.span),
        ));
    }
    if let Some(l) = &p.length {
        let mut parts = vec![text(":length")];
        if let Some(n) = &l.serial {
            parts.push(list(vec![text(":serial"), number(n)], 1, None));
        }
        if let Some(n) = &l.parallel {
            parts.push(list(vec![text(":parallel"), number(n)], 1, None));
        }
        items.push(list(parts, 1, Some(l.span)));
    }
    broken(items, 2, Some(p.span))
}

/// Canonical text of one action, durative action, process, event, derived predicate or
/// constraint, laid out at width 80 as in a domain (for an editor's hover).
pub fn structure(s: &Structure) -> String {
    crate::parse::with_stack(|| {
        let mut doc = structure_doc(s);
        doc.compute_comments();
        let mut out = Out {
            text: String::new(),
            column: 0,
            width: 80,
        };
        out.render(&doc, 0);
        out.text
    })
}

/// `doc` laid out on one line.
fn one_line(doc: &Doc) -> String {
    let mut out = Out {
        text: String::new(),
        column: 0,
        width: usize::MAX,
    };
    out.flat(doc);
    out.text
}

/// A goal description on one line, as written (for messages).
pub fn gd_text(g: &Gd) -> String {
    one_line(&gd(g))
}

/// A type on one line: `block` or `(either a b)`.
pub fn type_text(t: &Type) -> String {
    one_line(&type_doc(t))
}

/// An element of a problem's `:init` on one line: `(on a b)`, `(at 10 (not (p)))`.
pub fn init_text(i: &Init) -> String {
    one_line(&init(i))
}

/// An effect on one line, as written (for messages and scoring).
pub fn effect_text(e: &Effect) -> String {
    one_line(&effect(e))
}
