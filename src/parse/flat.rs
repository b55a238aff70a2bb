//! The fast path for what makes a file large: a problem's `(:objects …)`, `(:init …)` and goal
//! of literals, and a domain's `(:predicates …)`, actions and derived predicates in the grounded
//! shape.
//!
//! A large problem is almost all objects and initial facts, and pest builds a pair for every
//! token of them (a megabyte of `(on b1 b2)` is a hundred megabytes of pairs). This module reads
//! the common shapes of those two lists directly from the bytes: plain ASCII names and
//! variables, atoms, `(= (f a b) 3)` and `(= f 3)` values, `a b - t` groups, comments. It
//! accepts a strict subset of what the grammar accepts there and builds exactly the AST the
//! lowering of pest's pairs builds, spans included; anything else (a number in an atom, a timed
//! literal, `either`, a non-ASCII name, a syntax error) makes it give the whole section back to
//! pest. The grammar stays the definition: `tests/corpus.rs` checks that both routes give the
//! same tree and diagnostics for every corpus file.
//!
//! The sections it reads are cut out of the text pest parses, each body replaced by one space;
//! [`Cuts`] maps positions in that text back to the source.

use super::FactSink;
use super::scan::Mark;
use crate::ast::*;

/// A problem's lists that the fast path read, and the text pest parses instead of the source.
pub(super) struct Flat {
    /// The source with each read section's body replaced by one space.
    pub text: String,
    pub cuts: Cuts,
    /// The objects of the `(:objects …)` section, when it was read here.
    pub objects: Option<Vec<Typed<Name>>>,
    /// The facts of the `(:init …)` section, when it was read here.
    pub init: Option<Vec<Init>>,
    /// The goal, when it is a literal or a conjunction of literals read here.
    pub goal: Option<Gd>,
    /// A domain's predicates, when its `(:predicates …)` section was read here.
    pub predicates: Option<Vec<AtomicSkeleton>>,
    /// A domain's actions and derived predicates read here (of the shape a grounded domain has:
    /// typed parameters, a conjunction of literals as precondition, body and effect, action
    /// costs), in source order.
    pub structures: Vec<Structure>,
    /// Whether a sink received anything (the objects, and perhaps facts and a goal), so that
    /// it must discard if this reading is dropped.
    pub fed_sink: bool,
    /// Whether the goal went to a sink: pest's placeholder stands in the tree for it.
    pub goal_taken: bool,
}

/// One part of an objects list: a name, or the type of the names since the previous type.
enum ObjectPart {
    Name(Name),
    Type(Type),
}

/// A list was being handed to a sink and turned out not to be flat: the sink holds part of it.
pub(super) struct Interrupted;

/// Where bodies were cut out of the text pest parses: for each cut, the first position in that
/// text after its space, and how far positions from there on move to reach the source.
#[derive(Default)]
pub(super) struct Cuts {
    after: Vec<(usize, usize)>,
}

impl Cuts {
    /// The source position of position `at` in the cut text.
    pub fn source_position(&self, at: usize) -> usize {
        // A domain may have thousands of cuts (one per action): search, do not scan.
        let index = self.after.partition_point(|(from, _)| *from <= at);
        at + index.checked_sub(1).map_or(0, |i| self.after[i].1)
    }
}

/// Reads the objects and initial facts of a problem when their shapes allow it; `None` when
/// neither section was read (a domain, a small problem, or shapes left to pest).
pub(super) fn read(source: &str, marks: &[Mark]) -> Option<Flat> {
    read_into(source, marks, None).ok().flatten()
}

/// [`read`], handing the initial facts and the goal to `sink` instead of keeping them when the
/// problem's objects come first (or there are none) and were read here.
pub(super) fn read_into(
    source: &str,
    marks: &[Mark],
    mut sink: Option<&mut (dyn FactSink + '_)>,
) -> Result<Option<Flat>, Interrupted> {
    let bytes = source.as_bytes();
    let Some(sections) = sections(bytes, marks) else {
        return Ok(None);
    };
    let has_objects = sections.iter().any(|s| s.kind == SectionKind::Objects);
    let mut fed_sink = false;
    let mut goal_taken = false;
    let mut objects_taken = false;
    let mut objects = None;
    let mut init = None;
    let mut goal = None;
    let mut structures = Vec::new();
    let mut predicates = None;
    // Body ranges cut out of the text pest parses, in source order.
    let mut bodies: Vec<((usize, usize), &str)> = Vec::new();
    for section in sections {
        let mut reader = Reader {
            source,
            bytes,
            at: section.body.0,
            terms: Vec::new(),
        };
        // The sink takes facts and goal once it knows the objects.
        let streaming = match sink.as_deref_mut() {
            Some(sink) if matches!(section.kind, SectionKind::Init | SectionKind::Goal) => {
                if !fed_sink && !has_objects {
                    sink.objects_end();
                    fed_sink = true;
                }
                fed_sink.then_some(sink)
            }
            _ => None,
        };
        let read = match section.kind {
            SectionKind::Objects if objects.is_none() && !objects_taken => {
                match sink.as_deref_mut() {
                    Some(sink) => {
                        fed_sink = true;
                        reader
                            .objects_into(section.body.1, sink)
                            .ok_or(Interrupted)?;
                        objects_taken = true;
                        Some(())
                    }
                    None => reader.objects(section.body.1).map(|list| {
                        objects = Some(list);
                    }),
                }
            }
            SectionKind::Init if init.is_none() => match streaming {
                Some(sink) => {
                    reader.init_into(section.body.1, sink).ok_or(Interrupted)?;
                    Some(())
                }
                None => reader.init(section.body.1).map(|list| {
                    init = Some(list);
                }),
            },
            SectionKind::Goal if goal.is_none() && !goal_taken => match streaming {
                Some(sink) => {
                    reader.goal_into(section.body.1, sink).ok_or(Interrupted)?;
                    goal_taken = true;
                    Some(())
                }
                None => reader.goal(section.body.1).map(|gd| {
                    goal = Some(gd);
                }),
            },
            SectionKind::Action => reader.action(section.body.1).map(|action| {
                structures.push(Structure::Action(action));
            }),
            SectionKind::Derived => reader.derived(section.body.1).map(|derived| {
                structures.push(Structure::Derived(derived));
            }),
            SectionKind::Predicates if predicates.is_none() => {
                reader.predicates(section.body.1).map(|list| {
                    predicates = Some(list);
                })
            }
            // A repeated section is merged with a warning: pest's route reports it.
            _ if fed_sink => return Err(Interrupted),
            _ => return Ok(None),
        };
        if read.is_some() {
            bodies.push((section.body, section.kind.placeholder()));
        }
    }
    if bodies.is_empty() {
        return Ok(None);
    }
    let (text, cuts) = cut_out(source, &bodies);
    Ok(Some(Flat {
        text,
        cuts,
        objects,
        init,
        goal,
        predicates,
        structures,
        fed_sink,
        goal_taken,
    }))
}

/// The text pest reads: `source` with each body (in source order) replaced by its
/// placeholder, and where its positions map back to the source's.
fn cut_out(source: &str, bodies: &[((usize, usize), &str)]) -> (String, Cuts) {
    let removed: usize = bodies.iter().map(|((start, end), _)| end - start).sum();
    let added: usize = bodies
        .iter()
        .map(|(_, placeholder)| placeholder.len())
        .sum();
    let mut text = String::with_capacity(source.len() - removed + added);
    let mut cuts = Cuts::default();
    let mut copied = 0;
    for &((start, end), placeholder) in bodies {
        text.push_str(&source[copied..start]);
        text.push_str(placeholder);
        cuts.after.push((text.len(), end - text.len()));
        copied = end;
    }
    text.push_str(&source[copied..]);
    (text, cuts)
}

#[derive(Clone, Copy, PartialEq)]
enum SectionKind {
    Objects,
    Init,
    Goal,
    /// A whole `(:action …)` section of a domain.
    Action,
    /// A whole `(:derived …)` section of a domain.
    Derived,
    /// The body of a domain's `(:predicates …)` section.
    Predicates,
}

impl SectionKind {
    /// What pest reads in place of the section's body: nothing, or for the goal, which must
    /// hold one goal description, the empty one.
    fn placeholder(self) -> &'static str {
        match self {
            SectionKind::Objects
            | SectionKind::Init
            | SectionKind::Action
            | SectionKind::Derived
            | SectionKind::Predicates => " ",
            SectionKind::Goal => " ()",
        }
    }
}

/// A section of the definition: its kind and its body, from just after the keyword to its `)`
/// (for an action, the whole section, its parentheses included).
struct Section {
    kind: SectionKind,
    body: (usize, usize),
}

/// The `(:objects …)`, `(:init …)` and `(:goal …)` sections directly inside
/// `(define (problem …) …)`, and the `(:action …)` sections of a domain, with bodies worth
/// cutting.
fn sections(bytes: &[u8], marks: &[Mark]) -> Option<Vec<Section>> {
    let mut sections = Vec::new();
    let mut is_problem = false;
    let mut is_domain = false;
    let mut open: Option<(SectionKind, usize)> = None;
    for &mark in marks {
        match mark {
            Mark::Open(at) => {
                let word = word_after(bytes, at + 1);
                let text = &bytes[word.0..word.1];
                if text.eq_ignore_ascii_case(b"problem") {
                    is_problem = true;
                } else if text.eq_ignore_ascii_case(b"domain") {
                    is_domain = true;
                } else if !is_problem {
                    if is_domain && text.eq_ignore_ascii_case(b":action") {
                        open = Some((SectionKind::Action, at));
                    } else if is_domain && text.eq_ignore_ascii_case(b":derived") {
                        open = Some((SectionKind::Derived, at));
                    } else if is_domain && text.eq_ignore_ascii_case(b":predicates") {
                        open = Some((SectionKind::Predicates, word.1));
                    }
                } else if text.eq_ignore_ascii_case(b":objects") {
                    open = Some((SectionKind::Objects, word.1));
                } else if text.eq_ignore_ascii_case(b":init") {
                    open = Some((SectionKind::Init, word.1));
                } else if text.eq_ignore_ascii_case(b":goal") {
                    open = Some((SectionKind::Goal, word.1));
                }
            }
            Mark::Close(at) => {
                if let Some((kind, body_start)) = open.take()
                    && at > body_start + 1
                {
                    let end = if matches!(kind, SectionKind::Action | SectionKind::Derived) {
                        at + 1
                    } else {
                        at
                    };
                    sections.push(Section {
                        kind,
                        body: (body_start, end),
                    });
                }
            }
        }
    }
    ((is_problem || is_domain) && !sections.is_empty()).then_some(sections)
}

/// The domain a problem's text names in `(:domain NAME)`, read lexically: `Some(None)` for a
/// problem that names none, `None` for a text that is not a problem.
pub(super) fn problem_domain(source: &str) -> Option<Option<&str>> {
    let bytes = source.as_bytes();
    let mut is_problem = false;
    for form in Forms::new(bytes) {
        match form {
            Form::Open { word } => {
                let text = &bytes[word.0..word.1];
                if text.eq_ignore_ascii_case(b"problem") {
                    is_problem = true;
                } else if !is_problem {
                    return None;
                } else if text.eq_ignore_ascii_case(b":domain") {
                    let name = word_after(bytes, word.1);
                    return source.get(name.0..name.1).map(Some);
                }
            }
            Form::End if is_problem => break,
            _ => {}
        }
    }
    is_problem.then_some(None)
}

/// What [`Forms`] finds: a form directly inside the outermost one opens (with the word after
/// its `(`) or closes, or the outermost form closes.
enum Form {
    Open { word: (usize, usize) },
    Close,
    End,
}

/// The parentheses of a text, comments skipped, as [`Form`]s at depth two, one at a time: for
/// reading a few words near the start of a text of any shape (the scan's [`Mark`]s are for a
/// balanced text read whole).
struct Forms<'b> {
    bytes: &'b [u8],
    at: usize,
    depth: usize,
}

impl<'b> Forms<'b> {
    fn new(bytes: &'b [u8]) -> Forms<'b> {
        Forms {
            bytes,
            at: 0,
            depth: 0,
        }
    }
}

impl Iterator for Forms<'_> {
    type Item = Form;

    fn next(&mut self) -> Option<Form> {
        let bytes = self.bytes;
        while self.at < bytes.len() {
            let at = self.at;
            match bytes[at] {
                b';' => self.at = line_end(bytes, at),
                b'(' => {
                    self.depth += 1;
                    self.at += 1;
                    if self.depth == 2 {
                        let word = word_after(bytes, at + 1);
                        return Some(Form::Open { word });
                    }
                }
                b')' => {
                    let depth = self.depth;
                    self.depth = depth.saturating_sub(1);
                    self.at += 1;
                    match depth {
                        2 => return Some(Form::Close),
                        1 => return Some(Form::End),
                        _ => {}
                    }
                }
                // To the next parenthesis or comment, several bytes a step.
                _ => {
                    self.at = memchr::memchr3(b'(', b')', b';', &bytes[at..])
                        .map_or(bytes.len(), |n| at + n);
                }
            }
        }
        None
    }
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |n| from + n)
}

/// The token after `from` (past whitespace and comments), as a byte range.
fn word_after(bytes: &[u8], from: usize) -> (usize, usize) {
    let start = skip_from(bytes, from);
    let mut end = start;
    while end < bytes.len() && !is_delimiter(bytes[end]) {
        end += 1;
    }
    (start, end)
}

/// What each byte can be to the fast path, looked up once per byte instead of compared with
/// each candidate: reading names is most of the fast path's work.
const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
const NAME_START: u8 = 4;
const NAME_CHAR: u8 = 8;

const CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        let mut class = 0;
        // The grammar's `WHITESPACE`, as far as ASCII goes (no-break spaces and byte-order
        // marks are left to pest).
        if matches!(b, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r') {
            class |= SPACE | DELIMITER;
        }
        // What ends a token in the grammar, as far as ASCII goes. A token followed by anything
        // else (a non-ASCII letter, `?`, `.`) is left to pest.
        if matches!(b, b'(' | b')' | b';') {
            class |= DELIMITER;
        }
        if b.is_ascii_alphabetic() || b == b'_' {
            class |= NAME_START;
        }
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            class |= NAME_CHAR;
        }
        table[byte] = class;
        byte += 1;
    }
    table
};

fn is_space(byte: u8) -> bool {
    CLASSES[usize::from(byte)] & SPACE != 0
}

fn is_delimiter(byte: u8) -> bool {
    CLASSES[usize::from(byte)] & DELIMITER != 0
}

fn is_name_start(byte: u8) -> bool {
    CLASSES[usize::from(byte)] & NAME_START != 0
}

fn is_name_char(byte: u8) -> bool {
    CLASSES[usize::from(byte)] & NAME_CHAR != 0
}

/// Words that open a logical form: the grammar's `reserved`, never a predicate.
const RESERVED: &[&[u8]] = &[
    b"and",
    b"or",
    b"not",
    b"imply",
    b"exists",
    b"forall",
    b"when",
    b"preference",
];

/// The first position from `at` on past whitespace and comments.
fn skip_from(bytes: &[u8], mut at: usize) -> usize {
    while let Some(&byte) = bytes.get(at) {
        if is_space(byte) {
            at += 1;
        } else if byte == b';' {
            at = line_end(bytes, at);
        } else {
            break;
        }
    }
    at
}

/// A cursor over the source. Every method returns `None` for a shape it leaves to pest.
struct Reader<'s> {
    source: &'s str,
    bytes: &'s [u8],
    at: usize,
    /// Terms being read, so that each atom's list is allocated once at its exact length (a
    /// vector grown by pushing starts at four terms).
    terms: Vec<Term>,
}

mod action;

impl<'s> Reader<'s> {
    fn text(&self, start: usize, end: usize) -> &'s str {
        // Only ASCII ranges are ever sliced, so the bounds are character boundaries (and the
        // slice needs no UTF-8 validation, only that check).
        self.source.get(start..end).unwrap_or_default()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Skips whitespace and comments.
    fn skip(&mut self) {
        self.at = skip_from(self.bytes, self.at);
    }

    fn consume(&mut self, byte: u8) -> Option<()> {
        self.skip();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// A plain ASCII name that ends at a delimiter.
    fn name(&mut self) -> Option<Name> {
        self.skip();
        let start = self.at;
        if !is_name_start(self.peek()?) {
            return None;
        }
        self.at += 1;
        while self.peek().is_some_and(is_name_char) {
            self.at += 1;
        }
        if self.peek().is_some_and(|b| !is_delimiter(b)) {
            return None;
        }
        Some(Name::new(
            self.text(start, self.at),
            Span::new(start, self.at),
        ))
    }

    /// A name or a `?variable`.
    fn term(&mut self) -> Option<Term> {
        self.skip();
        if self.peek()? != b'?' {
            return self.name().map(Term::Name);
        }
        let start = self.at;
        self.at += 1;
        while self.peek().is_some_and(is_name_char) {
            self.at += 1;
        }
        if self.at == start + 1 || self.peek().is_some_and(|b| !is_delimiter(b)) {
            return None;
        }
        Some(Term::Variable(Variable {
            name: Name::new(self.text(start + 1, self.at), Span::new(start, self.at)),
        }))
    }

    /// A numeric literal as the grammar's `number` reads it, ending at a delimiter.
    fn number(&mut self) -> Option<Number> {
        self.skip();
        let start = self.at;
        let digits = |reader: &mut Self| {
            let from = reader.at;
            while reader.peek().is_some_and(|b| b.is_ascii_digit()) {
                reader.at += 1;
            }
            reader.at - from
        };
        if matches!(self.peek()?, b'-' | b'+') {
            self.at += 1;
        }
        if digits(self) > 0 {
            if self.peek() == Some(b'.') {
                self.at += 1;
                digits(self);
            }
        } else if self.peek() == Some(b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return None;
            }
        } else {
            return None;
        }
        if self.peek().is_some_and(|b| b.eq_ignore_ascii_case(&b'e')) {
            let mark = self.at;
            self.at += 1;
            if matches!(self.peek(), Some(b'-' | b'+')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                self.at = mark;
            }
        }
        if self.peek().is_some_and(|b| !is_delimiter(b)) {
            return None;
        }
        let text = self.text(start, self.at);
        Some(Number {
            text: text.to_string(),
            value: text.parse().unwrap_or(f64::NAN),
            span: Span::new(start, self.at),
        })
    }

    /// Terms up to a `)`, which is left to read.
    fn terms_to_close(&mut self) -> Option<Vec<Term>> {
        self.terms.clear();
        loop {
            self.skip();
            if self.peek()? == b')' {
                break;
            }
            let term = self.term()?;
            self.terms.push(term);
        }
        Some(self.terms.drain(..).collect())
    }

    /// Whether only whitespace and comments stand before `end`.
    fn at_end(&mut self, end: usize) -> bool {
        self.skip();
        self.at >= end
    }

    /// `a b - t c d - u e`: groups typed by a plain name, then untyped names.
    fn objects(&mut self, end: usize) -> Option<Vec<Typed<Name>>> {
        let mut list: Vec<Typed<Name>> = Vec::new();
        let mut pending = 0;
        self.object_list(end, |part| match part {
            ObjectPart::Name(item) => {
                list.push(Typed { item, ty: None });
                pending += 1;
            }
            ObjectPart::Type(ty) => {
                let from = list.len() - pending;
                for typed in &mut list[from..] {
                    typed.ty = Some(ty.clone());
                }
                pending = 0;
            }
        })?;
        list.shrink_to_fit();
        Some(list)
    }

    /// [`Self::objects`], each name and each type handed to `sink` as it is read.
    fn objects_into(&mut self, end: usize, sink: &mut dyn FactSink) -> Option<()> {
        self.object_list(end, |part| match part {
            ObjectPart::Name(name) => sink.object(name),
            ObjectPart::Type(ty) => sink.object_type(ty),
        })?;
        sink.objects_end();
        Some(())
    }

    /// The names and types of `(:objects …)` in order, each to `each`; `None` when the list
    /// is not of that shape (a type with no name before it, `either`).
    fn object_list(&mut self, end: usize, mut each: impl FnMut(ObjectPart)) -> Option<()> {
        let mut pending = 0;
        while !self.at_end(end) {
            if self.peek()? == b'-' {
                self.at += 1;
                if pending == 0 || !self.peek().is_some_and(is_space) {
                    return None;
                }
                each(ObjectPart::Type(Type::Name(self.name()?)));
                pending = 0;
            } else {
                each(ObjectPart::Name(self.name()?));
                pending += 1;
            }
        }
        (self.at == end).then_some(())
    }

    /// Atoms and numeric values, one after another.
    fn init(&mut self, end: usize) -> Option<Vec<Init>> {
        let mut facts = Vec::new();
        while !self.at_end(end) {
            facts.push(self.fact()?);
        }
        facts.shrink_to_fit();
        (self.at == end).then_some(facts)
    }

    /// [`Self::init`], each fact handed to `sink` as it is read.
    fn init_into(&mut self, end: usize, sink: &mut dyn FactSink) -> Option<()> {
        while !self.at_end(end) {
            sink.fact(self.fact()?);
        }
        (self.at == end).then_some(())
    }

    /// `(p a b)`, `(= (f a) 3)`, `(= (f a) b)` or `(= f 3)`.
    fn fact(&mut self) -> Option<Init> {
        let start = self.at;
        self.consume(b'(')?;
        self.skip();
        let kind = if self.peek()? == b'=' {
            self.at += 1;
            if !self.peek().is_some_and(is_delimiter) {
                return None;
            }
            self.assignment()?
        } else {
            InitKind::Atom(self.atom_after_open(start)?)
        };
        self.consume(b')')?;
        Some(Init {
            kind,
            span: Span::new(start, self.at),
        })
    }

    /// An atom whose `(` at `start` was read: its predicate (neither `=` nor a reserved word)
    /// and terms, up to its `)`, which is left to read.
    fn atom_after_open(&mut self, start: usize) -> Option<Atom> {
        let predicate = self.name()?;
        if RESERVED
            .iter()
            .any(|word| predicate.as_str().as_bytes().eq_ignore_ascii_case(word))
        {
            return None;
        }
        let args = self.terms_to_close()?;
        Some(Atom {
            predicate,
            args,
            span: Span::new(start, self.at + 1),
        })
    }

    /// A goal atom `(p a b)`.
    fn goal_atom(&mut self) -> Option<Gd> {
        self.skip();
        let start = self.at;
        self.consume(b'(')?;
        let atom = self.atom_after_open(start)?;
        self.consume(b')')?;
        Some(Gd {
            kind: GdKind::Atom(atom),
            span: Span::new(start, self.at),
        })
    }

    /// `(and literal…)` or one literal (an atom or `(not atom)`), ending the section.
    fn goal(&mut self, end: usize) -> Option<Gd> {
        self.skip();
        let start = self.at;
        let word = word_after(self.bytes, start + 1);
        let gd = if self.peek()? == b'(' && self.bytes[word.0..word.1].eq_ignore_ascii_case(b"and")
        {
            self.at = word.1;
            let mut args = Vec::new();
            loop {
                self.skip();
                if self.peek()? == b')' {
                    break;
                }
                args.push(self.literal()?);
            }
            args.shrink_to_fit();
            self.at += 1;
            Gd {
                kind: GdKind::And { args },
                span: Span::new(start, self.at),
            }
        } else {
            self.literal()?
        };
        (self.at_end(end) && self.at == end).then_some(gd)
    }

    /// [`Self::goal`], each conjunct (or the one atom) handed to `sink` as it is read.
    fn goal_into(&mut self, end: usize, sink: &mut dyn FactSink) -> Option<()> {
        self.skip();
        let start = self.at;
        let word = word_after(self.bytes, start + 1);
        if self.peek()? == b'(' && self.bytes[word.0..word.1].eq_ignore_ascii_case(b"and") {
            self.at = word.1;
            loop {
                self.skip();
                if self.peek()? == b')' {
                    break;
                }
                sink.goal(self.literal()?);
            }
            self.at += 1;
        } else {
            sink.goal(self.literal()?);
        }
        (self.at_end(end) && self.at == end).then_some(())
    }

    /// After `(=`: the function term and its value, up to the closing `)`.
    fn assignment(&mut self) -> Option<InitKind> {
        let target = self.function_head()?;
        self.skip();
        let first = self.peek()?;
        let value = if first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.') {
            self.number_expr()?
        } else {
            name_expr(self.name()?)
        };
        Some(InitKind::Assign {
            target: Box::new(target),
            value: Box::new(value),
        })
    }
}

impl Reader<'_> {
    /// The grammar's `f_head`: a function term `(f a ?x)` or a bare 0-ary function name.
    fn function_head(&mut self) -> Option<Expr> {
        self.skip();
        if self.peek()? != b'(' {
            return Some(name_expr(self.name()?));
        }
        let start = self.at;
        self.at += 1;
        let name = self.name()?;
        let args = self.terms_to_close()?;
        self.at += 1;
        let span = Span::new(start, self.at);
        Some(Expr {
            kind: ExprKind::Function(FunctionTerm { name, args, span }),
            span,
        })
    }

    /// A number where an expression stands.
    fn number_expr(&mut self) -> Option<Expr> {
        let number = self.number()?;
        let span = number.span;
        Some(Expr {
            kind: ExprKind::Number(number),
            span,
        })
    }
}

/// A bare name where an expression stands: a 0-ary function or an object.
fn name_expr(name: Name) -> Expr {
    let span = name.span;
    Expr {
        kind: ExprKind::Term {
            term: Term::Name(name),
        },
        span,
    }
}
