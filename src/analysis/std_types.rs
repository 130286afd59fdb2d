//! What the call resolver knows of std: the methods a crate method of the same name must not
//! be confused with, the wrappers that keep their receiver's type, and the types std
//! constructors and methods return.

use super::types::{TypeTable, element, payload};
use crate::model::ir::Name;
use crate::model::resolve::Ty;

/// Methods of std types that crate methods of the same name must not be confused with when
/// the receiver's type is unknown.
pub(super) const STD_METHODS: &[&str] = &[
    "new",
    "get",
    "get_mut",
    "insert",
    "remove",
    "push",
    "push_str",
    "pop",
    "len",
    "is_empty",
    "iter",
    "iter_mut",
    "into_iter",
    "map",
    "and_then",
    "or_else",
    "unwrap",
    "expect",
    "clone",
    "to_string",
    "to_owned",
    "as_str",
    "as_ref",
    "as_mut",
    "into",
    "from",
    "contains",
    "contains_key",
    "join",
    "split",
    "trim",
    "lines",
    "collect",
    "filter",
    "find",
    "next",
    "lock",
    "flush",
    "extend",
    "clear",
    "keys",
    "values",
    "entry",
    "first",
    "last",
    "take",
    "poll",
    "default",
    "eq",
    "cmp",
    "hash",
    "fmt",
    "drop",
    "deref",
    "borrow",
    "borrow_mut",
    "chars",
    "bytes",
    "ok",
    "err",
    "is_some",
    "is_none",
    "is_ok",
    "is_err",
    "unwrap_or",
    "unwrap_or_default",
    "unwrap_or_else",
    "map_err",
    "ok_or",
    "ok_or_else",
    "to_vec",
    "read",
    "write",
    "write_all",
    "read_to_string",
    "send",
    "recv",
    "spawn",
    "sort",
    "sort_by",
    "retain",
    "starts_with",
    "ends_with",
    "replace",
    "parse",
    "with_capacity",
    "append",
    "truncate",
    "as_bytes",
    "as_slice",
    "to_lowercase",
    "to_uppercase",
    "any",
    "all",
    "count",
    "sum",
    "max",
    "min",
    "rev",
    "skip",
    "zip",
    "enumerate",
    "chain",
    "cloned",
    "copied",
    "flatten",
    "flat_map",
    "filter_map",
    "for_each",
    "fold",
    "position",
    "then",
    "then_some",
    "map_or",
    "map_or_else",
    "as_deref",
    "or_insert",
    "or_insert_with",
    "or_default",
    "and",
    "or",
    "strip_prefix",
    "strip_suffix",
    "trim_start",
    "trim_end",
    "find_map",
    "into_inner",
    "set",
    "swap",
    "elapsed",
    "to_str",
    "to_path_buf",
    "display",
    "exists",
    "is_file",
    "is_dir",
    "file_name",
    "extension",
    "parent",
    "await",
    "build",
    "finish",
    "with",
];

/// std methods of `Option`, `Result` and iterators that take a plain value and a closure
/// (`map_or("none", |t| t.name)`, `fold(String::new(), |acc, x| ..)`): a string and a closure
/// handed to one register nothing.
pub(super) const VALUE_THEN_CLOSURE: &[&str] = &["map_or", "fold", "try_fold"];

/// Wrapper methods whose result is their receiver (for typing).
pub(super) const SAME_TYPE: &[&str] = &[
    "clone",
    "to_owned",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "deref",
    "lock",
    "read",
    "write",
    "as_deref",
    "iter",
    "into_iter",
    "iter_mut",
    "by_ref",
    "get_ref",
    "load",
    "await",
    "lock_owned",
    "read_owned",
    "write_owned",
    // Error adapters keep the success side's type.
    "map_err",
    "context",
    "with_context",
    "wrap_err",
    "inspect_err",
];

pub(super) fn simple(name: &str) -> Ty {
    Ty::Path {
        path: [Name::new(name)].into(),
        args: Vec::new(),
    }
}

/// std and tokio fns that read text, by canonical path: each gives `Result<String>`.
const TEXT_READERS: &[&[&str]] = &[
    &["std", "fs", "read_to_string"],
    &["std", "io", "read_to_string"],
    &["std", "env", "var"],
    &["tokio", "fs", "read_to_string"],
];

/// The type a call of a library fn gives, by its canonical path (after `use` resolution).
pub(super) fn library_fn_type(resolved: &[Name]) -> Option<Ty> {
    TEXT_READERS
        .iter()
        .any(|p| p.len() == resolved.len() && p.iter().zip(resolved).all(|(a, b)| *a == b.as_str()))
        .then(|| wrap("Result", simple("String")))
}

/// The type a path call builds when it is not a crate fn: `Type::new(..)`, `Some(x)`,
/// `Arc::new(x)`, a tuple struct.
pub(super) fn constructed_type(
    path: &[Name],
    arg_tys: &[Option<Ty>],
    types: &TypeTable<'_>,
    owner: Option<&str>,
) -> Option<Ty> {
    let last = path.last()?.as_str();
    let first_arg = || arg_tys.first().cloned().flatten();
    match last {
        "Some" => return first_arg().map(|t| wrap("Option", t)),
        "Ok" => return first_arg().map(|t| wrap("Result", t)),
        _ => {}
    }
    if path.len() >= 2 {
        let ty = path[path.len() - 2].as_str();
        let ty = if ty == "Self" { owner? } else { ty };
        // `Command::Serve(args)`: a variant of one of the crate's enums makes that enum.
        if types.variant_fields(ty, last).is_some() {
            return Some(Ty::Path {
                path: vec![Name::from(ty)].into(),
                args: Vec::new(),
            });
        }
        if matches!(
            ty,
            "Arc" | "Rc" | "Box" | "Mutex" | "RwLock" | "RefCell" | "Cell"
        ) && matches!(last, "new" | "from" | "pin")
        {
            return first_arg();
        }
        let builds = [
            "new", "default", "builder", "open", "connect", "create", "init", "load",
        ]
        .contains(&last)
            || ["from", "with_", "new_", "try_from", "try_new", "parse"]
                .iter()
                .any(|p| last.starts_with(p));
        if builds && ty.chars().next().is_some_and(char::is_uppercase) {
            return Some(simple(ty));
        }
    }
    (path.len() == 1 && types.is_struct(last)).then(|| simple(last))
}

pub(super) fn wrap(name: &str, inner: Ty) -> Ty {
    Ty::Path {
        path: [Name::new(name)].into(),
        args: vec![inner],
    }
}

/// Whether `ty` is text: `str`, `String`, `Cow<str>`, behind any references.
pub(super) fn is_text(ty: &Ty) -> bool {
    match super::types::peel(ty) {
        Ty::Path { path, args } => match path.last().map(Name::as_str) {
            Some("str" | "String") => true,
            Some("Cow") => args.first().is_some_and(is_text),
            _ => false,
        },
        _ => false,
    }
}

/// The result type of a method on a receiver of unknown type, where the method's name tells
/// it whatever the receiver: only `as_str`, `as_array` and `as_object`, whose receivers
/// without a known type are mostly JSON values (`args["path"].as_str()`).
pub(super) fn unknown_receiver_method_type(method: &str) -> Option<Ty> {
    match method {
        "as_str" => Some(wrap("Option", simple("str"))),
        "as_array" => Some(json_array()),
        "as_object" | "as_object_mut" => Some(json_object()),
        _ => None,
    }
}

/// What `Value::as_object` gives: the object's members, when the value is one.
fn json_object() -> Ty {
    wrap(
        "Option",
        Ty::Path {
            path: [Name::new("Map")].into(),
            args: vec![simple("String"), simple("Value")],
        },
    )
}

/// What `Value::as_array` gives (serde_json's, and the `toml`/`serde_yaml` values alike): the
/// list, when the value is one.
fn json_array() -> Ty {
    wrap("Option", wrap("Vec", simple("Value")))
}

/// The result type of a std method on `recv` (only the ones that matter for chains).
pub(super) fn std_method_type(recv: &Ty, method: &str) -> Option<Ty> {
    if SAME_TYPE.contains(&method) {
        return Some(recv.clone());
    }
    match method {
        "unwrap" | "expect" | "unwrap_or" | "unwrap_or_default" | "unwrap_or_else"
        | "unwrap_unchecked" => Some(payload(recv).cloned().unwrap_or_else(|| recv.clone())),
        "get" | "get_mut" if super::types::once_cell_value(recv).is_some() => {
            super::types::once_cell_value(recv)
                .cloned()
                .map(|t| wrap("Option", t))
        }
        // `Iterator::find` and `nth` give an element of what is iterated, as `get` does.
        "get" | "get_mut" | "first" | "last" | "pop" | "remove" | "next" | "find" | "nth" => {
            element(recv).cloned().map(|t| wrap("Option", t))
        }
        "to_string" | "to_owned_string" | "to_lowercase" | "to_uppercase" => Some(simple("String")),
        // `String::as_str` is the text; `serde_json::Value::as_str` the text if it is one.
        "as_str" if is_text(recv) => Some(simple("str")),
        "as_str" => Some(wrap("Option", simple("str"))),
        "as_array" => Some(json_array()),
        "as_object" | "as_object_mut" => Some(json_object()),
        "trim" | "trim_start" | "trim_end" if is_text(recv) => Some(simple("str")),
        // Iterators are typed as the collection they walk (`iter` keeps its receiver's type):
        // an adapter that keeps the items keeps it; `enumerate` pairs each item with its
        // index; a map's `keys`/`values` walk one side of its entries.
        "rev" | "skip" | "take" | "filter" | "skip_while" | "take_while" | "step_by"
        | "peekable" | "cloned" | "copied" | "inspect" | "fuse"
            if element(recv).is_some() =>
        {
            Some(recv.clone())
        }
        "enumerate" => element(recv)
            .cloned()
            .map(|t| wrap("Vec", Ty::Tuple(vec![simple("usize"), t]))),
        "values" | "values_mut" if super::types::is_map(recv) => {
            element(recv).cloned().map(|t| wrap("Vec", t))
        }
        "keys" | "into_keys" => super::types::map_key(recv).map(|t| wrap("Vec", t)),
        "ok" => payload(recv).cloned().map(|t| wrap("Option", t)),
        "ok_or" | "ok_or_else" => payload(recv).cloned().map(|t| wrap("Result", t)),
        _ => None,
    }
}

/// Argument-less methods whose result is their receiver's value seen another way (`clone`,
/// `as_str`, `as_ref`, `as_deref`, `borrow`): a getter that ends in one, or a `match` on
/// one, is about the receiver itself.
pub(crate) fn keeps_its_value(method: &str) -> bool {
    matches!(
        method,
        "clone" | "as_str" | "as_ref" | "as_deref" | "borrow"
    )
}

/// Whether the library fn at this canonical path runs what it is given as a task of its own
/// (`tokio::spawn`, `std::thread::spawn`, `spawn_blocking`): a panic there ends that task,
/// and comes back to the caller only as the `Err` of its join handle.
pub(crate) fn runs_as_task(resolved: &[Name]) -> bool {
    let first = resolved.first().map(Name::as_str);
    let last = resolved.last().map(Name::as_str);
    matches!(first, Some("tokio" | "std" | "async_std" | "smol"))
        && matches!(last, Some("spawn" | "spawn_blocking" | "spawn_local"))
}

/// The calls in `body` whose task's result is joined and unwrapped on the spot
/// (`spawn(..).await.unwrap()`, `thread::spawn(..).join().expect(..)`): a panic in the task
/// resumes in the caller there.
pub(crate) fn tasks_unwrapped(body: &crate::model::ir::Body) -> Vec<crate::model::ir::ExprId> {
    use crate::model::ir::ExprKind;
    let mut out = Vec::new();
    for e in &body.exprs {
        let ExprKind::MethodCall {
            receiver, method, ..
        } = &e.kind
        else {
            continue;
        };
        if !matches!(method.as_str(), "unwrap" | "expect") {
            continue;
        }
        let mut inner = body.peel(*receiver);
        loop {
            match &body.expr(inner).kind {
                ExprKind::Await(i) => inner = body.peel(*i),
                ExprKind::MethodCall {
                    receiver, method, ..
                } if method == "join" => inner = body.peel(*receiver),
                _ => break,
            }
        }
        if matches!(body.expr(inner).kind, ExprKind::Call { .. }) {
            out.push(inner);
        }
    }
    out
}

/// `Vec` (and `VecDeque`) methods that can leave it shorter than it was made: a buffer made
/// with a fixed length keeps it only if none of these is called on it.
pub(crate) const SHORTENING_METHODS: &[&str] = &[
    "truncate",
    "clear",
    "pop",
    "pop_back",
    "pop_front",
    "drain",
    "resize",
    "resize_with",
    "split_off",
    "retain",
    "retain_mut",
    "dedup",
    "dedup_by",
    "dedup_by_key",
    "remove",
    "swap_remove",
    "set_len",
];

/// Maps whose `get(k)` finds the entry `insert(k, v)`, `entry(k)` made or `contains_key(k)`
/// tested.
pub(crate) const MAP_TYPES: &[&str] = &["HashMap", "BTreeMap", "IndexMap", "DashMap"];

/// The type of the value a closure given to `recv.method(..)` receives, for std's `Result`
/// and `Option` adapters: the error (`map_err`, `unwrap_or_else`, `or_else`, `inspect_err`
/// on a `Result`) or the payload (`map`, `and_then`, `inspect`, `is_some_and`, `is_ok_and`).
pub(crate) fn closure_param_type(recv: &Ty, method: &str) -> Option<Ty> {
    match method {
        "map_err" | "unwrap_or_else" | "or_else" | "inspect_err" | "is_err_and" => {
            super::types::peel(recv).as_result().map(|(_, e)| e.clone())
        }
        "map" | "and_then" | "inspect" | "is_some_and" | "is_ok_and" => {
            super::types::payload(recv).cloned()
        }
        _ => None,
    }
}
