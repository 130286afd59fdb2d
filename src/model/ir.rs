//! The per-file IR: what the code says, without syntax and without any meaning attached.
//!
//! Each fn body is an arena of expressions and patterns. Locals are resolved to the binding
//! that defines them; closures stay inline in their fn's arena (they capture its locals) and
//! are numbered so the analysis can treat each as a body of its own; nested fns are fns of
//! their own. Macro arguments are parsed where they are expressions (`format!`, `json!`,
//! `vec!`, `tracing::info!`, unknown macros). Nothing here knows an SDK or a lint.

pub use super::intern::ItemPath;
use super::resolve::{Imports, Ty};
use crate::diagnostic::FileId;

mod items;
pub use items::*;

/// An identifier or path segment: inline up to 23 bytes, so most names take no allocation.
pub type Name = smol_str::SmolStr;

pub type ExprId = u32;
pub type PatId = u32;
pub type LocalId = u32;
pub type ClosureId = u32;

/// A byte range in the file the body belongs to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sp {
    pub start: u32,
    pub end: u32,
}

impl Sp {
    pub fn to(self, other: Sp) -> Sp {
        Sp {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Whether `other` lies within this span.
    pub fn contains(self, other: Sp) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    pub fn span(self, file: FileId) -> crate::diagnostic::Span {
        crate::diagnostic::Span {
            file,
            start: self.start as usize,
            end: self.end as usize,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    Str(Box<str>),
    Char(char),
    Int(i64),
    Bool(bool),
    /// A byte literal (`b'%'`).
    Byte(u8),
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Arith,
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Plain,
    Unsafe,
    Async,
    Const,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Let {
        pat: PatId,
        /// Boxed: most `let`s have no annotation, and a `Ty` would triple every statement.
        ty: Option<Box<Ty>>,
        init: Option<ExprId>,
        /// `let Ok(v) = r else { .. }`: the block that runs when the pattern fails.
        els: Option<ExprId>,
    },
    Expr {
        expr: ExprId,
        semi: bool,
    },
}

#[derive(Clone, Debug)]
pub struct Arm {
    pub pat: PatId,
    pub guard: Option<ExprId>,
    pub body: ExprId,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Lit(Lit),
    Local(LocalId),
    /// A path to an item (fn, const, unit struct, variant), as written.
    Path(ItemPath),
    SelfValue,
    Call {
        func: ExprId,
        args: Box<[ExprId]>,
    },
    MethodCall {
        receiver: ExprId,
        method: Name,
        /// Where the method's name starts; it ends `method.len()` bytes later (a raw
        /// identifier's name keeps its `r#`). See [`ExprKind::method_span`].
        method_at: u32,
        args: Box<[ExprId]>,
    },
    Macro(Box<MacroCall>),
    Field {
        base: ExprId,
        member: Name,
    },
    Index {
        base: ExprId,
        index: ExprId,
        bracket: Sp,
    },
    Try {
        expr: ExprId,
        question: Sp,
    },
    Await(ExprId),
    Ref(ExprId),
    Deref(ExprId),
    Not(ExprId),
    Neg(ExprId),
    Binary {
        op: BinOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    Assign {
        place: ExprId,
        value: ExprId,
        compound: bool,
    },
    Cast {
        expr: ExprId,
        ty: Box<Ty>,
    },
    Block {
        stmts: Vec<Stmt>,
        tail: Option<ExprId>,
        kind: BlockKind,
    },
    If {
        cond: ExprId,
        then: ExprId,
        els: Option<ExprId>,
    },
    /// `let PAT = EXPR` in a condition (`if let`, `while let`, let chains).
    Let {
        pat: PatId,
        expr: ExprId,
    },
    Match {
        scrutinee: ExprId,
        arms: Vec<Arm>,
    },
    Loop {
        body: ExprId,
    },
    While {
        cond: ExprId,
        body: ExprId,
    },
    For {
        pat: PatId,
        iter: ExprId,
        body: ExprId,
    },
    Closure(ClosureId),
    Return(Option<ExprId>),
    Break(Option<ExprId>),
    Continue,
    Struct {
        path: ItemPath,
        fields: Box<[(Name, ExprId)]>,
        rest: Option<ExprId>,
    },
    Tuple(Box<[ExprId]>),
    Array(Box<[ExprId]>),
    /// `[value; len]`: an array of `len` copies.
    Repeat {
        value: ExprId,
        len: ExprId,
    },
    Range {
        start: Option<ExprId>,
        end: Option<ExprId>,
        /// `a..=b`: the end is included.
        inclusive: bool,
    },
    /// Not modelled: a verbatim expression, or a part too deep to follow (reported).
    Opaque,
}

impl ExprKind {
    /// A method call's name, where it is written.
    pub fn method_span(&self) -> Option<Sp> {
        match self {
            ExprKind::MethodCall {
                method, method_at, ..
            } => Some(Sp {
                start: *method_at,
                end: *method_at + method.len() as u32,
            }),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Sp,
}

#[derive(Clone, Debug)]
pub enum PatKind {
    Bind {
        local: LocalId,
        sub: Option<PatId>,
    },
    Wild,
    Rest,
    Lit(Lit),
    Range,
    /// A unit variant, unit struct or constant.
    Path(ItemPath),
    TupleStruct {
        path: ItemPath,
        elems: Vec<PatId>,
    },
    Struct {
        path: ItemPath,
        fields: Vec<(Name, PatId)>,
    },
    Tuple(Vec<PatId>),
    Slice(Vec<PatId>),
    Ref(PatId),
    Or(Vec<PatId>),
    Typed {
        pat: PatId,
        ty: Ty,
    },
    Opaque,
}

#[derive(Clone, Debug)]
pub struct Pat {
    pub kind: PatKind,
    pub span: Sp,
}

#[derive(Clone, Debug)]
pub struct LocalDef {
    pub name: Name,
    pub span: Sp,
    /// The value a plain `let x = value;` binds it to (no pattern, no `else`): a local is
    /// what it was initialised with, whatever it is called.
    pub init: Option<ExprId>,
    /// The value whose `Some(..)` or `Ok(..)` content a `let Some(x) = value else { .. }`, an
    /// `if let`/`while let Some(x) = value` or a `match value { Some(x) => .. }` binds it to.
    pub unwraps: Option<ExprId>,
    /// The value and the position in it, when a tuple pattern binds it to one element
    /// (`match (a, b) { (x, y) => .. }`, `let (x, y) = pair;`).
    pub element_of: Option<(ExprId, u32)>,
}

#[derive(Clone, Debug)]
pub struct ClosureDef {
    pub params: Vec<PatId>,
    /// Declared parameter types (`|x: &str|`), when written.
    pub param_tys: Vec<Option<Ty>>,
    pub body: ExprId,
    pub span: Sp,
    /// The closure this one sits in, if any.
    pub parent: Option<ClosureId>,
    /// An `async { .. }` block rather than a closure.
    pub is_async_block: bool,
}

/// A `{..}` placeholder of a format string.
#[derive(Clone, Debug)]
pub struct Placeholder {
    /// The argument it shows.
    pub arg: Option<ExprId>,
    /// `{x:?}`, `{:#?}`.
    pub debug: bool,
    /// The name written inside the braces, if any (`{e}`, `{e:?}`).
    pub name: Option<Name>,
}

#[derive(Clone, Debug)]
pub struct Format {
    pub template: String,
    pub template_span: Sp,
    /// Every argument expression, positional and named.
    pub args: Vec<ExprId>,
    pub placeholders: Vec<Placeholder>,
}

/// A JSON value as `json!` writes it.
#[derive(Clone, Debug)]
pub enum Json {
    Object(Vec<JsonMember>),
    Array(Vec<Json>),
    Null,
    Lit(Lit, Sp),
    Expr(ExprId),
}

#[derive(Clone, Debug)]
pub struct JsonMember {
    pub key: Name,
    pub key_span: Sp,
    pub value: Json,
    pub value_span: Sp,
}

#[derive(Clone, Debug)]
pub struct MacroCall {
    /// The macro's path as written (`tracing::info`).
    pub path: ItemPath,
    pub name: Name,
    pub name_span: Sp,
    /// Arguments that are expressions and not part of the format: `write!`'s destination,
    /// `assert!`'s condition, `vec!`'s elements, `dbg!`'s value, the arguments of macros we
    /// do not know, `tracing` fields, `select!` futures and arm bodies.
    pub args: Vec<ExprId>,
    /// The format string and its arguments (`format!`, `println!`, `panic!`, `bail!`,
    /// `tracing::info!`, `write!`, ..).
    pub format: Option<Format>,
    /// `json!`'s value.
    pub json: Option<Json>,
    /// `matches!`'s pattern.
    pub pat: Option<PatId>,
    /// `vec![value; len]`: `args` are the value and the length.
    pub repeat: bool,
    /// Names called in arguments that did not parse (`my_macro!(helper(x) => ..)`).
    pub calls: Vec<Name>,
}

/// A fn body: arenas of expressions, patterns, locals and closures.
#[derive(Clone, Debug, Default)]
pub struct Body {
    pub exprs: Vec<Expr>,
    pub pats: Vec<Pat>,
    pub locals: Vec<LocalDef>,
    pub closures: Vec<ClosureDef>,
    pub root: Option<ExprId>,
    /// Each `break` with a value and the loop or labelled block it leaves (whose value it
    /// gives), sorted by the `break`.
    pub break_targets: Vec<(ExprId, ExprId)>,
}

impl Body {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id as usize]
    }

    pub fn pat(&self, id: PatId) -> &Pat {
        &self.pats[id as usize]
    }

    /// The loop or labelled block a `break` with a value leaves.
    pub fn break_target(&self, brk: ExprId) -> Option<ExprId> {
        self.break_targets
            .binary_search_by_key(&brk, |(b, _)| *b)
            .ok()
            .map(|i| self.break_targets[i].1)
    }

    pub fn local(&self, id: LocalId) -> &LocalDef {
        &self.locals[id as usize]
    }

    pub fn closure(&self, id: ClosureId) -> &ClosureDef {
        &self.closures[id as usize]
    }

    /// Locals a pattern binds.
    pub fn bindings(&self, pat: PatId, out: &mut Vec<LocalId>) {
        let mut stack = vec![pat];
        while let Some(p) = stack.pop() {
            match &self.pat(p).kind {
                PatKind::Bind { local, sub } => {
                    out.push(*local);
                    stack.extend(sub.iter().copied());
                }
                PatKind::TupleStruct { elems, .. }
                | PatKind::Tuple(elems)
                | PatKind::Slice(elems)
                | PatKind::Or(elems) => stack.extend(elems.iter().copied()),
                PatKind::Struct { fields, .. } => stack.extend(fields.iter().map(|(_, p)| *p)),
                PatKind::Ref(p) | PatKind::Typed { pat: p, .. } => stack.push(*p),
                _ => {}
            }
        }
    }

    /// A pattern without its type annotation: `x` of `let x: T = ..`.
    pub fn untyped(&self, mut pat: PatId) -> PatId {
        while let PatKind::Typed { pat: p, .. } = &self.pat(pat).kind {
            pat = *p;
        }
        pat
    }

    /// Peels `&`, `*`, parentheses-free wrappers and `.await`.
    pub fn peel(&self, mut id: ExprId) -> ExprId {
        loop {
            match &self.expr(id).kind {
                ExprKind::Ref(e) | ExprKind::Deref(e) | ExprKind::Await(e) => id = *e,
                _ => return id,
            }
        }
    }

    /// The value a block or closure body evaluates to: its tail, through nested blocks; a
    /// tail that only names the local the last statement binds (`{ let r = e; r }`) is `e`.
    pub fn value_of(&self, mut id: ExprId) -> ExprId {
        loop {
            match &self.expr(id).kind {
                ExprKind::Block {
                    stmts,
                    tail: Some(t),
                    kind: BlockKind::Plain | BlockKind::Unsafe,
                    ..
                } => id = self.bound_just_before(stmts.last(), *t).unwrap_or(*t),
                _ => return id,
            }
        }
    }

    /// `e` when `stmt` is `let x = e;` (no `else`) and `tail` is `x`.
    fn bound_just_before(&self, stmt: Option<&Stmt>, tail: ExprId) -> Option<ExprId> {
        let Some(Stmt::Let {
            pat,
            init: Some(init),
            els: None,
            ..
        }) = stmt
        else {
            return None;
        };
        let ExprKind::Local(tail_local) = self.expr(tail).kind else {
            return None;
        };
        match self.pat(self.untyped(*pat)).kind {
            PatKind::Bind { local, sub: None } if local == tail_local => Some(*init),
            _ => None,
        }
    }

    /// The value a closure's or async block's body evaluates to: the tail of its body, also
    /// through the `async` block an async block's body is.
    pub fn closure_value(&self, c: ClosureId) -> ExprId {
        let body = self.value_of(self.closure(c).body);
        match &self.expr(body).kind {
            ExprKind::Block {
                tail: Some(t),
                kind: BlockKind::Async,
                ..
            } => self.value_of(*t),
            _ => body,
        }
    }

    /// The string literal an expression is, if it is one.
    pub fn str_lit(&self, id: ExprId) -> Option<&str> {
        match &self.expr(self.peel(id)).kind {
            ExprKind::Lit(Lit::Str(s)) => Some(s),
            _ => None,
        }
    }
}
