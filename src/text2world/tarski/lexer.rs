//! The token rules of the lexer generated from tarski's `fstrips.g4` (as shipped in 0.8.2):
//! longest match wins, and between matches of equal length the rule declared first wins.

use crate::ast::Span;
use std::sync::OnceLock;

/// What a token is. Literal tokens of the grammar that a domain never uses are `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    LParen,
    RParen,
    Define,
    Domain,
    Requirements,
    Types,
    Minus,
    Either,
    Functions,
    Constants,
    Predicates,
    Parameters,
    Constraint,
    Event,
    TimeStep,
    Derived,
    Assign,
    /// `*`, `+`, `/`, `^`, `max`, `min`: binary only.
    BinaryFunction,
    /// `sin`, `cos`, `sqrt`, `tan`, `acos`, `asin`, `atan`, `exp`, `abs`: unary only.
    UnaryFunction,
    /// `>`, `<`, `=`, `>=`, `<=`.
    Comparison,
    /// A literal token of the problem or constraint grammar.
    Other,
    RequireKey,
    And,
    Not,
    Or,
    Imply,
    Exists,
    Forall,
    When,
    Action,
    /// `increase`, `decrease` (any case), `scale-up`, `scale-down`.
    AssignOp,
    /// `int`, `float`, `number`: numeric built-in types.
    NumericType,
    ObjectType,
    Name,
    ExtName,
    Variable,
    Number,
    Init,
    Precondition,
    Effect,
    Eof,
    /// No token rule matches here: a token recognition error.
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub span: Span,
}

/// The literal tokens of the grammar in declaration order (which breaks ties between matches of
/// equal length).
const LITERALS: &[(&str, Kind)] = &[
    ("(", Kind::LParen),
    ("define", Kind::Define),
    (")", Kind::RParen),
    ("domain", Kind::Domain),
    (":requirements", Kind::Requirements),
    (":types", Kind::Types),
    ("-", Kind::Minus),
    ("either", Kind::Either),
    (":functions", Kind::Functions),
    (":constants", Kind::Constants),
    (":predicates", Kind::Predicates),
    (":parameters", Kind::Parameters),
    (":constraint", Kind::Constraint),
    (":condition", Kind::Other),
    (":event", Kind::Event),
    ("#t", Kind::TimeStep),
    (":derived", Kind::Derived),
    ("assign", Kind::Assign),
    ("*", Kind::BinaryFunction),
    ("+", Kind::BinaryFunction),
    ("/", Kind::BinaryFunction),
    ("^", Kind::BinaryFunction),
    ("max", Kind::BinaryFunction),
    ("min", Kind::BinaryFunction),
    ("sin", Kind::UnaryFunction),
    ("cos", Kind::UnaryFunction),
    ("sqrt", Kind::UnaryFunction),
    ("tan", Kind::UnaryFunction),
    ("acos", Kind::UnaryFunction),
    ("asin", Kind::UnaryFunction),
    ("atan", Kind::UnaryFunction),
    ("exp", Kind::UnaryFunction),
    ("abs", Kind::UnaryFunction),
    (">", Kind::Comparison),
    ("<", Kind::Comparison),
    ("=", Kind::Comparison),
    (">=", Kind::Comparison),
    ("<=", Kind::Comparison),
    ("problem", Kind::Other),
    (":domain", Kind::Other),
    (":objects", Kind::Other),
    (":bounds", Kind::Other),
    ("[", Kind::Other),
    ("..", Kind::Other),
    ("]", Kind::Other),
    (":goal", Kind::Other),
    (":constraints", Kind::Other),
    ("preference", Kind::Other),
    (":metric", Kind::Other),
    ("minimize", Kind::Other),
    ("maximize", Kind::Other),
    ("(total-time)", Kind::Other),
    ("is-violated", Kind::Other),
    (":terminal", Kind::Other),
    (":stage", Kind::Other),
    ("at-end", Kind::Other),
    ("always", Kind::Other),
    ("sometime", Kind::Other),
    ("within", Kind::Other),
    ("at-most-once", Kind::Other),
    ("sometime-after", Kind::Other),
    ("sometime-before", Kind::Other),
    ("always-within", Kind::Other),
    ("hold-during", Kind::Other),
    ("hold-after", Kind::Other),
];

/// The requirement flags the `REQUIRE_KEY` rule knows, lower case only.
pub const REQUIREMENT_FLAGS: &[&str] = &[
    ":strips",
    ":typing",
    ":negative-preconditions",
    ":disjunctive-preconditions",
    ":equality",
    ":existential-preconditions",
    ":universal-preconditions",
    ":quantified-preconditions",
    ":conditional-effects",
    ":object-fluents",
    ":numeric-fluents",
    ":fluents",
    ":adl",
    ":durative-actions",
    ":derived-predicates",
    ":timed-initial-literals",
    ":preferences",
    ":constraints",
    ":action-costs",
];

/// How a keyword rule after `REQUIRE_KEY` matches its text.
#[derive(Clone, Copy)]
enum Case {
    Insensitive,
    Sensitive,
}

/// The keyword rules after `REQUIRE_KEY`, in declaration order; `NAME` and the rules after it
/// are matched by hand.
const KEYWORDS_BEFORE_NAME: &[(&str, Case, Kind)] = &[
    ("and", Case::Insensitive, Kind::And),
    ("not", Case::Insensitive, Kind::Not),
    ("or", Case::Insensitive, Kind::Or),
    ("imply", Case::Insensitive, Kind::Imply),
    ("exists", Case::Insensitive, Kind::Exists),
    ("forall", Case::Insensitive, Kind::Forall),
    ("when", Case::Insensitive, Kind::When),
    (":action", Case::Insensitive, Kind::Action),
    ("increase", Case::Insensitive, Kind::AssignOp),
    ("decrease", Case::Insensitive, Kind::AssignOp),
    ("scale-up", Case::Sensitive, Kind::AssignOp),
    ("scale-down", Case::Sensitive, Kind::AssignOp),
    ("int", Case::Sensitive, Kind::NumericType),
    ("float", Case::Sensitive, Kind::NumericType),
    ("object", Case::Sensitive, Kind::ObjectType),
    ("number", Case::Sensitive, Kind::NumericType),
];

/// The keyword rules declared after `WHITESPACE`: they lose every tie.
const KEYWORDS_AFTER_WHITESPACE: &[(&str, Kind)] = &[
    (":init", Kind::Init),
    (":precondition", Kind::Precondition),
    (":effect", Kind::Effect),
];

/// A rule that matches a fixed word: a literal, a requirement flag or a keyword before `NAME`.
#[derive(Clone, Copy)]
struct Word {
    text: &'static [u8],
    case: Case,
    kind: Kind,
}

/// The fixed-word rules that can match text starting with `first`, in declaration order (so
/// ties break as they do over all the rules). Built once: the lexer then compares a handful of
/// words at each position instead of every word of the grammar.
fn words_starting_with(first: u8) -> &'static [Word] {
    static TABLE: OnceLock<Vec<Vec<Word>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table: Vec<Vec<Word>> = vec![Vec::new(); 256];
        let literals = LITERALS
            .iter()
            .map(|(text, kind)| (*text, Case::Sensitive, *kind));
        let flags = REQUIREMENT_FLAGS
            .iter()
            .map(|flag| (*flag, Case::Sensitive, Kind::RequireKey));
        let keywords = KEYWORDS_BEFORE_NAME.iter().copied();
        for (text, case, kind) in literals.chain(flags).chain(keywords) {
            let word = Word {
                text: text.as_bytes(),
                case,
                kind,
            };
            let first = word.text[0];
            table[usize::from(first)].push(word);
            if matches!(case, Case::Insensitive) {
                for other in [first.to_ascii_lowercase(), first.to_ascii_uppercase()] {
                    if other != first {
                        table[usize::from(other)].push(word);
                    }
                }
            }
        }
        table
    });
    &table[usize::from(first)]
}

/// The result of one step of the lexer.
enum Step {
    Token(Kind, usize),
    Hidden(usize),
    /// No rule matches; the number of bytes the lexer read, including the character it failed
    /// on, as ANTLR reports them.
    Error(usize),
}

/// tarski's lexer over `text`, one token at a time as the parser asks for them (ANTLR's token
/// stream reads ahead only as far as the parser looks), so that a hostile text is lexed only as
/// far as tarski would read it. Comments and whitespace are dropped. The stream ends with an
/// `Eof` token, or with an `Error` token where a token recognition error occurs, and then
/// repeats that token.
pub struct Lexer<'a> {
    text: &'a str,
    at: usize,
    last: Option<Token>,
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            at: 0,
            last: None,
        }
    }

    /// The next token; after the last one (`Eof` or `Error`), that token again.
    #[cfg(test)]
    pub fn next_token(&mut self) -> Token {
        let mut one = Vec::with_capacity(1);
        self.lex_into(&mut one, 1);
        one[0]
    }

    /// Lexes `count` more tokens onto `out`, or fewer when the stream ends: its last token
    /// (`Eof` or `Error`) is then the last pushed. One call lexes many tokens, so that the
    /// lexer's state stays in registers between them.
    pub fn lex_into(&mut self, out: &mut Vec<Token>, count: usize) {
        if let Some(last) = self.last {
            out.push(last);
            return;
        }
        out.reserve(count);
        let text = self.text;
        // The position is kept in a local, not in `self`, while the tokens are lexed.
        let mut at = self.at;
        let mut remaining = count;
        while remaining > 0 {
            if at >= text.len() {
                let token = Token {
                    kind: Kind::Eof,
                    span: Span::new(text.len(), text.len()),
                };
                self.last = Some(token);
                out.push(token);
                break;
            }
            match step(text, at) {
                Step::Token(kind, len) => {
                    out.push(Token {
                        kind,
                        span: Span::new(at, at + len),
                    });
                    at += len;
                    remaining -= 1;
                }
                Step::Hidden(len) => at += len,
                Step::Error(len) => {
                    let end = clamp_to_char_boundary(text, at + len.max(1));
                    let token = Token {
                        kind: Kind::Error,
                        span: Span::new(at, end),
                    };
                    self.last = Some(token);
                    out.push(token);
                    break;
                }
            }
        }
        self.at = at;
    }
}

/// Every token of `text`, up to and including the `Eof` or `Error` token.
#[cfg(test)]
pub fn tokens(text: &str) -> Vec<Token> {
    let mut lexer = Lexer::new(text);
    let mut out = Vec::new();
    loop {
        let token = lexer.next_token();
        out.push(token);
        if matches!(token.kind, Kind::Eof | Kind::Error) {
            return out;
        }
    }
}

fn clamp_to_char_boundary(text: &str, mut at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    while at < text.len() && !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// One token at `at`: the longest match of any rule, the earliest rule on ties.
fn step(text: &str, at: usize) -> Step {
    let rest = &text.as_bytes()[at..];
    let Some(&first) = rest.first() else {
        return Step::Error(0);
    };
    // The common cases, decided by the first byte; [`step_by_rules`] has the rest.
    match first {
        // No other rule matches at whitespace, and no rule starts with it but `WHITESPACE`.
        b' ' | b'\t' | b'\r' | b'\n' => {
            let whitespace = rest
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                .count();
            Step::Hidden(whitespace)
        }
        b')' => Step::Token(Kind::RParen, 1),
        b'(' if rest.get(1) != Some(&b't') || !rest.starts_with(b"(total-time)") => {
            Step::Token(Kind::LParen, 1)
        }
        // A fixed word that starts with a letter is made of name characters, so it matches
        // only as long as the name does, and then wins the tie (it is declared before `NAME`).
        // Nothing else starts with a letter.
        _ if first.is_ascii_alphabetic() => {
            let len = name_len(rest);
            // Most names are no fixed word: those whose first letter and length no fixed
            // word has are not compared with any.
            let lengths = WORD_LENGTHS[usize::from((first | 0x20).wrapping_sub(b'a') % 26)];
            let kind = if len < 32 && lengths & (1 << len) != 0 {
                letter_word(rest, len).unwrap_or(Kind::Name)
            } else {
                Kind::Name
            };
            Step::Token(kind, len)
        }
        b'?' => match name_len(&rest[1..]) {
            0 => step_by_rules(rest),
            len => Step::Token(Kind::Variable, 1 + len),
        },
        // A fixed word that starts with `:` is `:` and name characters, so the longest that
        // matches is the whole run when one is; else every rule is tried.
        b':' => {
            let len = 1 + name_len(&rest[1..]);
            match colon_word(&rest[..len]) {
                Some(kind) => Step::Token(kind, len),
                None => step_by_rules(rest),
            }
        }
        b';' if comment_len(rest) > 0 => Step::Hidden(comment_len(rest)),
        // `-` is a number's sign only before a digit; nothing else starts with it.
        b'-' if !rest.get(1).is_some_and(u8::is_ascii_digit) => Step::Token(Kind::Minus, 1),
        _ => step_by_rules(rest),
    }
}

/// For each letter (`a` to `z`, either case), a bit for each length below 32 of the fixed
/// words (the literals and the keywords before `NAME`) that start with it in either case: a
/// name of another first letter or length is no fixed word.
const WORD_LENGTHS: [u32; 26] = {
    let mut table = [0u32; 26];
    let mut i = 0;
    while i < LITERALS.len() + KEYWORDS_BEFORE_NAME.len() {
        let word = if i < LITERALS.len() {
            LITERALS[i].0.as_bytes()
        } else {
            KEYWORDS_BEFORE_NAME[i - LITERALS.len()].0.as_bytes()
        };
        if word[0].is_ascii_alphabetic() && word.len() < 32 {
            table[((word[0] | 0x20) - b'a') as usize] |= 1 << word.len();
        }
        i += 1;
    }
    table
};

/// `word` (at most 16 bytes) as one number, its first byte lowest, so that fixed words compare
/// as numbers.
const fn pack(word: &[u8]) -> u128 {
    let mut packed = 0u128;
    let mut i = 0;
    while i < word.len() && i < 16 {
        packed |= (word[i] as u128) << (8 * i);
        i += 1;
    }
    packed
}

/// The fixed words that start with a letter, as [`pack`]ed numbers: a `match` over them is a
/// few comparisons of numbers, not one string comparison per word.
macro_rules! letter_words {
    ($(#[$doc:meta])* fn $function:ident; $($constant:ident = $text:literal => $kind:expr,)*) => {
        $(const $constant: u128 = pack($text);)*
        $(#[$doc])*
        fn $function(packed: u128) -> Option<Kind> {
            match packed {
                $($constant => Some($kind),)*
                _ => None,
            }
        }
    };
}

letter_words! {
    /// The literals of [`LITERALS`] and the keywords of [`KEYWORDS_BEFORE_NAME`] that start with
    /// a letter and match in lower case only.
    fn lower_case_word;
    DEFINE = b"define" => Kind::Define,
    DOMAIN = b"domain" => Kind::Domain,
    EITHER = b"either" => Kind::Either,
    ASSIGN = b"assign" => Kind::Assign,
    MAX = b"max" => Kind::BinaryFunction,
    MIN = b"min" => Kind::BinaryFunction,
    SIN = b"sin" => Kind::UnaryFunction,
    COS = b"cos" => Kind::UnaryFunction,
    SQRT = b"sqrt" => Kind::UnaryFunction,
    TAN = b"tan" => Kind::UnaryFunction,
    ACOS = b"acos" => Kind::UnaryFunction,
    ASIN = b"asin" => Kind::UnaryFunction,
    ATAN = b"atan" => Kind::UnaryFunction,
    EXP = b"exp" => Kind::UnaryFunction,
    ABS = b"abs" => Kind::UnaryFunction,
    PROBLEM = b"problem" => Kind::Other,
    PREFERENCE = b"preference" => Kind::Other,
    MINIMIZE = b"minimize" => Kind::Other,
    MAXIMIZE = b"maximize" => Kind::Other,
    IS_VIOLATED = b"is-violated" => Kind::Other,
    AT_END = b"at-end" => Kind::Other,
    ALWAYS = b"always" => Kind::Other,
    SOMETIME = b"sometime" => Kind::Other,
    WITHIN = b"within" => Kind::Other,
    AT_MOST_ONCE = b"at-most-once" => Kind::Other,
    SOMETIME_AFTER = b"sometime-after" => Kind::Other,
    SOMETIME_BEFORE = b"sometime-before" => Kind::Other,
    ALWAYS_WITHIN = b"always-within" => Kind::Other,
    HOLD_DURING = b"hold-during" => Kind::Other,
    HOLD_AFTER = b"hold-after" => Kind::Other,
    SCALE_UP = b"scale-up" => Kind::AssignOp,
    SCALE_DOWN = b"scale-down" => Kind::AssignOp,
    INT = b"int" => Kind::NumericType,
    FLOAT = b"float" => Kind::NumericType,
    NUMBER = b"number" => Kind::NumericType,
    OBJECT = b"object" => Kind::ObjectType,
}

letter_words! {
    /// The keywords of [`KEYWORDS_BEFORE_NAME`] that match in any case, in lower case.
    fn any_case_word;
    AND = b"and" => Kind::And,
    NOT = b"not" => Kind::Not,
    OR = b"or" => Kind::Or,
    IMPLY = b"imply" => Kind::Imply,
    EXISTS = b"exists" => Kind::Exists,
    FORALL = b"forall" => Kind::Forall,
    WHEN = b"when" => Kind::When,
    INCREASE = b"increase" => Kind::AssignOp,
    DECREASE = b"decrease" => Kind::AssignOp,
}

/// The fixed word `word` (which starts with a letter) is, if any, matched as the lexer's rules
/// match it (a test checks that both agree).
fn letter_word(rest: &[u8], len: usize) -> Option<Kind> {
    if len > 16 {
        return None;
    }
    // The word's bytes as a number; sixteen at once where the text has them.
    let packed = match rest.first_chunk::<16>() {
        Some(chunk) if len < 16 => u128::from_le_bytes(*chunk) & ((1u128 << (8 * len)) - 1),
        _ => pack(&rest[..len]),
    };
    if let Some(kind) = lower_case_word(packed) {
        return Some(kind);
    }
    // The any-case keywords have at most eight letters. Bit 5 set makes a letter lower case
    // and keeps digits and `-` as they are (a `_`, which no keyword holds, changes).
    if len > 8 {
        return None;
    }
    any_case_word(packed | (pack(&[0x20; 8]) & ((1u128 << (8 * len)) - 1)))
}

/// The fixed word that `word`, `:` and name characters, is, if any, matched as the lexer's
/// rules match it (a test checks that both agree).
fn colon_word(word: &[u8]) -> Option<Kind> {
    let kind = match word {
        b":requirements" => Kind::Requirements,
        b":types" => Kind::Types,
        b":functions" => Kind::Functions,
        b":constants" => Kind::Constants,
        b":predicates" => Kind::Predicates,
        b":parameters" => Kind::Parameters,
        b":constraint" => Kind::Constraint,
        b":event" => Kind::Event,
        b":derived" => Kind::Derived,
        // `:constraints` is also a requirement flag, but the literal is declared first.
        b":condition" | b":domain" | b":objects" | b":bounds" | b":goal" | b":constraints"
        | b":metric" | b":terminal" | b":stage" => Kind::Other,
        _ if REQUIREMENT_FLAGS.iter().any(|flag| flag.as_bytes() == word) => Kind::RequireKey,
        _ if word.eq_ignore_ascii_case(b":action") => Kind::Action,
        _ if word.eq_ignore_ascii_case(b":precondition") => Kind::Precondition,
        _ if word.eq_ignore_ascii_case(b":effect") => Kind::Effect,
        _ if word.eq_ignore_ascii_case(b":init") => Kind::Init,
        _ => return None,
    };
    Some(kind)
}

/// [`step`] by trying every rule that can match at `rest`.
fn step_by_rules(rest: &[u8]) -> Step {
    let Some(&first) = rest.first() else {
        return Step::Error(0);
    };
    if matches!(first, b' ' | b'\t' | b'\r' | b'\n') {
        let whitespace = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            .count();
        return Step::Hidden(whitespace);
    }
    // (length, kind); a candidate replaces the best only when strictly longer, so the rules are
    // tried in declaration order.
    let mut best: Option<(usize, Kind)> = None;
    let mut offer = |len: usize, kind: Kind| {
        if len > 0 && best.is_none_or(|(l, _)| len > l) {
            best = Some((len, kind));
        }
    };
    for word in words_starting_with(first) {
        if matches_keyword(rest, word.text, word.case) {
            offer(word.text.len(), word.kind);
        }
    }
    offer(name_len(rest), Kind::Name);
    if rest.first() == Some(&b'@') {
        let len = name_len(&rest[1..]);
        if len > 0 {
            offer(len + 1, Kind::ExtName);
        }
    }
    if rest.first() == Some(&b'?') {
        let len = name_len(&rest[1..]);
        if len > 0 {
            offer(len + 1, Kind::Variable);
        }
    }
    offer(number_len(rest), Kind::Number);
    // `LINE_COMMENT` starts with `;`, which no visible rule does.
    let hidden = comment_len(rest);
    let longest_visible = best.map_or(0, |(l, _)| l);
    let mut later: Option<(usize, Kind)> = None;
    for (word, kind) in KEYWORDS_AFTER_WHITESPACE {
        if first == b':'
            && matches_keyword(rest, word.as_bytes(), Case::Insensitive)
            && word.len() > longest_visible.max(hidden)
            && later.is_none_or(|(l, _)| word.len() > l)
        {
            later = Some((word.len(), *kind));
        }
    }
    if let Some((len, kind)) = later {
        return Step::Token(kind, len);
    }
    if hidden > 0 {
        return Step::Hidden(hidden);
    }
    match best {
        Some((len, kind)) => Step::Token(kind, len),
        None => Step::Error(failure_len(rest)),
    }
}

fn matches_keyword(rest: &[u8], word: &[u8], case: Case) -> bool {
    let Some(head) = rest.get(..word.len()) else {
        return false;
    };
    match case {
        Case::Sensitive => head == word,
        Case::Insensitive => head.eq_ignore_ascii_case(word),
    }
}

/// `NAME: LETTER ANY_CHAR*` with ASCII letters, digits, `_` and `-`.
fn name_len(rest: &[u8]) -> usize {
    /// `ANY_CHAR`: ASCII letters, digits, `_` and `-`.
    const NAME_BYTES: [bool; 256] = {
        let mut table = [false; 256];
        let mut b = 0;
        while b < 256 {
            table[b] =
                (b as u8).is_ascii_alphanumeric() || b == b'_' as usize || b == b'-' as usize;
            b += 1;
        }
        table
    };
    match rest.first() {
        Some(b) if b.is_ascii_alphabetic() => {
            1 + rest[1..]
                .iter()
                .take_while(|&&b| NAME_BYTES[usize::from(b)])
                .count()
        }
        _ => 0,
    }
}

/// `NUMBER: '-'? DIGIT+ ('.' DIGIT+)?`, falling back to the integer part when a `.` is not
/// followed by a digit.
fn number_len(rest: &[u8]) -> usize {
    let sign = usize::from(rest.first() == Some(&b'-'));
    let digits = rest[sign..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return 0;
    }
    let mut len = sign + digits;
    if rest.get(len) == Some(&b'.') {
        let fraction = rest[len + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if fraction > 0 {
            len += 1 + fraction;
        }
    }
    len
}

/// `LINE_COMMENT: ';' ~('\n'|'\r')* '\r'? '\n'`: a comment must end with a line feed.
fn comment_len(rest: &[u8]) -> usize {
    if rest.first() != Some(&b';') {
        return 0;
    }
    let body = 1 + rest[1..]
        .iter()
        .take_while(|b| !matches!(b, b'\n' | b'\r'))
        .count();
    let mut len = body;
    if rest.get(len) == Some(&b'\r') {
        len += 1;
    }
    if rest.get(len) == Some(&b'\n') {
        len + 1
    } else {
        0
    }
}

/// How far the lexer reads before it gives up where no rule matches: the longest prefix any
/// rule could still extend, plus the character it fails on (what ANTLR quotes in its message).
fn failure_len(rest: &[u8]) -> usize {
    let mut viable = 0;
    let mut consider = |word: &[u8], insensitive: bool| {
        let common = word
            .iter()
            .zip(rest)
            .take_while(|(w, r)| {
                if insensitive {
                    w.eq_ignore_ascii_case(r)
                } else {
                    w == r
                }
            })
            .count();
        viable = viable.max(common);
    };
    for (literal, _) in LITERALS {
        consider(literal.as_bytes(), false);
    }
    for flag in REQUIREMENT_FLAGS {
        consider(flag.as_bytes(), false);
    }
    for (word, case, _) in KEYWORDS_BEFORE_NAME {
        consider(word.as_bytes(), matches!(case, Case::Insensitive));
    }
    for (word, _) in KEYWORDS_AFTER_WHITESPACE {
        consider(word.as_bytes(), true);
    }
    if matches!(rest.first(), Some(b'?' | b'@' | b'-')) {
        viable = viable.max(1);
    }
    if rest.first() == Some(&b';') {
        let body = 1 + rest[1..]
            .iter()
            .take_while(|b| !matches!(b, b'\n' | b'\r'))
            .count();
        viable = viable.max(body + usize::from(rest.get(body) == Some(&b'\r')));
    }
    // The character the lexer fails on is part of the quoted text, unless the input ended.
    let failing = rest.get(viable).map_or(0, |b| utf8_len(*b));
    (viable + failing).min(rest.len())
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Kind> {
        tokens(text).iter().map(|t| t.kind).collect()
    }

    #[test]
    fn keywords_and_names() {
        assert_eq!(
            kinds("(define (domain d))"),
            vec![
                Kind::LParen,
                Kind::Define,
                Kind::LParen,
                Kind::Domain,
                Kind::Name,
                Kind::RParen,
                Kind::RParen,
                Kind::Eof
            ]
        );
        assert_eq!(kinds("Define"), vec![Kind::Name, Kind::Eof]);
        assert_eq!(kinds("AND defined"), vec![Kind::And, Kind::Name, Kind::Eof]);
        assert_eq!(kinds(":PRECONDITION"), vec![Kind::Precondition, Kind::Eof]);
        assert_eq!(kinds(":actions"), vec![Kind::Action, Kind::Name, Kind::Eof]);
        assert_eq!(kinds(":constraints"), vec![Kind::Other, Kind::Eof]);
    }

    #[test]
    fn keywords_in_any_case_start_with_either_case_of_their_first_letter() {
        assert_eq!(
            kinds("Forall FORALL forallx :Action When Increase Int int ( (total-time)"),
            vec![
                Kind::Forall,
                Kind::Forall,
                Kind::Name,
                Kind::Action,
                Kind::When,
                Kind::AssignOp,
                Kind::Name,
                Kind::NumericType,
                Kind::LParen,
                Kind::Other,
                Kind::Eof
            ]
        );
        assert_eq!(
            kinds(":Effect\t:EFFECTS"),
            vec![Kind::Effect, Kind::Effect, Kind::Name, Kind::Eof]
        );
    }

    #[test]
    fn errors() {
        assert_eq!(kinds(":PARAMETERS"), vec![Kind::Error]);
        assert_eq!(kinds("; no newline"), vec![Kind::Error]);
        assert_eq!(kinds("; ok\n x"), vec![Kind::Name, Kind::Eof]);
        assert_eq!(kinds("x\u{a0}"), vec![Kind::Name, Kind::Error]);
        let t = tokens("(:requirements :fo)");
        let last = t.last().map(|t| t.span);
        assert_eq!(last, Some(Span::new(15, 18)));
    }

    #[test]
    fn the_lexer_reads_only_as_far_as_asked_and_then_repeats_its_last_token() {
        // Nothing after the second token is read: the unreadable `#` stays unseen.
        let text = format!("(define {}#", "(".repeat(1000));
        let mut lexer = Lexer::new(&text);
        assert_eq!(lexer.next_token().kind, Kind::LParen);
        assert_eq!(lexer.next_token().kind, Kind::Define);
        assert_eq!(lexer.at, "(define".len());
        let mut lexer = Lexer::new("x #");
        assert_eq!(lexer.next_token().kind, Kind::Name);
        let error = lexer.next_token();
        assert_eq!(error.kind, Kind::Error);
        assert_eq!(lexer.next_token(), error);
        let mut lexer = Lexer::new("");
        assert_eq!(lexer.next_token().kind, Kind::Eof);
        assert_eq!(lexer.next_token().kind, Kind::Eof);
    }

    /// Every token kind and length the first-byte shortcuts of `step` give is what trying every
    /// rule gives.
    #[test]
    fn shortcuts_agree_with_the_rules() {
        let mut words: Vec<String> = Vec::new();
        let fixed = LITERALS
            .iter()
            .map(|(w, _)| *w)
            .chain(REQUIREMENT_FLAGS.iter().copied())
            .chain(KEYWORDS_BEFORE_NAME.iter().map(|(w, _, _)| *w))
            .chain(KEYWORDS_AFTER_WHITESPACE.iter().map(|(w, _)| *w));
        for word in fixed {
            let mut capital = word.to_string();
            if let Some(first) = capital.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            for variant in [word.to_string(), word.to_ascii_uppercase(), capital] {
                for tail in ["", "x", "-", "_1", " ", ")", "(", "?"] {
                    words.push(format!("{variant}{tail}"));
                }
            }
        }
        for other in [
            "x",
            "?x",
            "?",
            "?-",
            "(",
            "(total-time)",
            "(total",
            ")",
            "a-b_c9 ",
            ":",
            ":-",
            ":x",
            ":9",
            "; c\n",
            "; c",
            ";\r\n",
            "abcdefghijklmnopq",
            "scale-up-and-more-than-16",
        ] {
            words.push(other.to_string());
        }
        for word in &words {
            let (fast, slow) = (step(word, 0), step_by_rules(word.as_bytes()));
            let same = match (fast, slow) {
                (Step::Token(k1, l1), Step::Token(k2, l2)) => k1 == k2 && l1 == l2,
                (Step::Hidden(l1), Step::Hidden(l2)) | (Step::Error(l1), Step::Error(l2)) => {
                    l1 == l2
                }
                _ => false,
            };
            assert!(same, "{word:?}");
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(
            kinds("-1.5 1. 2"),
            vec![Kind::Number, Kind::Number, Kind::Error]
        );
        assert_eq!(kinds("- 1"), vec![Kind::Minus, Kind::Number, Kind::Eof]);
    }
}
