//! The crate as the analysis sees it: the IR of its files (its own first, then those of the
//! workspace members it depends on), with crate-wide ids for fns and for the bodies that
//! can run on their own (fns and the closures and async blocks in them).

use crate::diagnostic::{FileId, Span};
use crate::model::ir::{Body, ClosureId, ExprId, ExprKind, FileIr, FnDef, Sp};

pub type FnId = u32;
pub type NodeId = u32;

/// A body that runs on its own: a fn, or a closure or async block inside one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub func: FnId,
    pub closure: Option<ClosureId>,
}

/// An expression of some fn, crate-wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Site {
    pub func: FnId,
    pub expr: ExprId,
}

pub struct Program<'a> {
    pub files: Vec<&'a FileIr>,
    /// How many of `files` (from the front) belong to the package itself.
    pub own_files: usize,
    /// Per fn: (file index, fn index in that file).
    fns: Vec<(u32, u32)>,
    pub nodes: Vec<Node>,
    /// Per fn: the node of the fn itself; its closures follow it.
    fn_node: Vec<NodeId>,
}

impl<'a> Program<'a> {
    pub fn new(files: Vec<&'a FileIr>, own_files: usize) -> Self {
        let mut fns = Vec::new();
        let mut nodes = Vec::new();
        let mut fn_node = Vec::new();
        for (fi, file) in files.iter().enumerate() {
            for (idx, def) in file.fns.iter().enumerate() {
                let id = fns.len() as FnId;
                fns.push((fi as u32, idx as u32));
                fn_node.push(nodes.len() as NodeId);
                nodes.push(Node {
                    func: id,
                    closure: None,
                });
                for c in 0..def.body.closures.len() {
                    nodes.push(Node {
                        func: id,
                        closure: Some(c as ClosureId),
                    });
                }
            }
        }
        Program {
            files,
            own_files,
            fns,
            nodes,
            fn_node,
        }
    }

    pub fn fn_count(&self) -> usize {
        self.fns.len()
    }

    pub fn fn_ids(&self) -> impl Iterator<Item = FnId> + use<> {
        0..self.fns.len() as FnId
    }

    pub fn def(&self, id: FnId) -> &'a FnDef {
        let (file, idx) = self.fns[id as usize];
        &self.files[file as usize].fns[idx as usize]
    }

    pub fn file_ir(&self, id: FnId) -> &'a FileIr {
        self.files[self.fns[id as usize].0 as usize]
    }

    /// Whether the fn belongs to the package (not to a linked workspace member).
    pub fn is_own(&self, id: FnId) -> bool {
        (self.fns[id as usize].0 as usize) < self.own_files
    }

    pub fn file_id(&self, id: FnId) -> FileId {
        self.file_ir(id).file
    }

    pub fn fn_node(&self, id: FnId) -> NodeId {
        self.fn_node[id as usize]
    }

    pub fn closure_node(&self, id: FnId, closure: ClosureId) -> NodeId {
        self.fn_node[id as usize] + 1 + closure
    }

    pub fn node(&self, id: NodeId) -> Node {
        self.nodes[id as usize]
    }

    pub fn span(&self, id: FnId, sp: Sp) -> Span {
        sp.span(self.file_id(id))
    }

    pub fn site_span(&self, site: Site) -> Span {
        let def = self.def(site.func);
        self.span(site.func, def.body.expr(site.expr).span)
    }

    /// The fn `id`'s name for messages: `name`, or `Type::name` for methods.
    pub fn name(&self, id: FnId) -> &'a str {
        &self.def(id).name
    }
}

/// The closure an argument evaluates to: written in place, as the tail of a block that
/// clones what it captures first (`{ let db = db.clone(); move |args| .. }`), or boxed.
pub fn closure_value(body: &Body, e: ExprId) -> Option<ClosureId> {
    match &body.expr(registered_value(body, e)).kind {
        ExprKind::Closure(c) => Some(*c),
        _ => None,
    }
}

/// The expression a handler argument stands for: itself, the tail of a block it is written
/// in, or what `Box::new`/`Arc::new`/`Rc::new` wraps (a closure, a fn item or a path).
pub fn registered_value(body: &Body, mut e: ExprId) -> ExprId {
    // Each step goes into a strictly smaller expression; the bound is for hostile nesting.
    for _ in 0..16 {
        match &body.expr(e).kind {
            ExprKind::Block { tail: Some(t), .. } => e = *t,
            ExprKind::Call { func, args } if args.len() == 1 && is_wrapper_new(body, *func) => {
                e = args[0]
            }
            _ => return e,
        }
    }
    e
}

/// `Box::new`, `Arc::new`, `Rc::new`: a handler stored behind a pointer.
fn is_wrapper_new(body: &Body, func: ExprId) -> bool {
    let ExprKind::Path(path) = &body.expr(func).kind else {
        return false;
    };
    let n = path.len();
    n >= 2 && path[n - 1] == "new" && matches!(path[n - 2].as_str(), "Box" | "Arc" | "Rc")
}
