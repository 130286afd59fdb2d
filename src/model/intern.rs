//! Paths shared within a file: a path written many times (`Ok`, `String::from`, a type in
//! every signature) is stored once. The table lives while one file is lowered; a path made
//! elsewhere (the analysis building a type) is simply allocated.

use std::cell::RefCell;
use std::sync::Arc;

use foldhash::HashSet;

use super::ir::Name;

/// A path's segments, as written or resolved (`["rmcp", "model", "ErrorData"]`).
pub type ItemPath = Arc<[Name]>;

thread_local! {
    static TABLE: RefCell<Option<HashSet<ItemPath>>> = const { RefCell::new(None) };
}

/// Runs `f` with a table of its own: the paths `f` makes share storage.
pub(super) fn scope<T>(f: impl FnOnce() -> T) -> T {
    let previous = TABLE.with(|t| t.borrow_mut().replace(HashSet::default()));
    let out = f();
    TABLE.with(|t| *t.borrow_mut() = previous);
    out
}

/// The shared copy of `segments`.
pub fn path(segments: Vec<Name>) -> ItemPath {
    TABLE.with(|t| {
        let mut table = t.borrow_mut();
        let Some(table) = table.as_mut() else {
            return ItemPath::from(segments);
        };
        if let Some(p) = table.get(segments.as_slice()) {
            return p.clone();
        }
        let p = ItemPath::from(segments);
        table.insert(p.clone());
        p
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_made_twice_in_one_file_is_stored_once() {
        let (a, b) = scope(|| (path(vec!["Ok".into()]), path(vec!["Ok".into()])));
        assert!(Arc::ptr_eq(&a, &b));
        // Outside a file's scope, nothing is kept.
        let (c, d) = (path(vec!["Ok".into()]), path(vec!["Ok".into()]));
        assert!(!Arc::ptr_eq(&c, &d));
        assert_eq!(a, c);
    }
}
