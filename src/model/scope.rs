//! The locals in scope while a body is lowered: a stack of bindings with scope marks, and an
//! index by name, so that a name is found in constant time however many bindings a body has
//! (a linear search made a fn of n `let`s cost n² comparisons).

use foldhash::HashMap;

use super::ir::{LocalId, Name};

#[derive(Default)]
pub struct Scope {
    /// Bindings, innermost last.
    bindings: Vec<(Name, LocalId)>,
    /// Where each open scope starts in `bindings`.
    marks: Vec<usize>,
    /// For each name, the bindings of it that are visible, innermost last.
    visible: HashMap<Name, Vec<LocalId>>,
}

impl Scope {
    pub fn open(&mut self) {
        self.marks.push(self.bindings.len());
    }

    /// Closes the innermost scope: its bindings are no longer visible.
    pub fn close(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        self.truncate(mark);
    }

    pub fn bind(&mut self, name: Name, id: LocalId) {
        self.visible.entry(name.clone()).or_default().push(id);
        self.bindings.push((name, id));
    }

    /// The binding `name` refers to here.
    pub fn lookup(&self, name: &str) -> Option<LocalId> {
        self.visible.get(name).and_then(|ids| ids.last().copied())
    }

    /// How many bindings are in scope: a position for [`Scope::since`].
    pub fn len(&self) -> usize {
        self.bindings.len()
    }

    /// The bindings made since position `start`, by name.
    pub fn since(&self, start: usize) -> HashMap<Name, LocalId> {
        self.bindings
            .get(start..)
            .unwrap_or_default()
            .iter()
            .cloned()
            .collect()
    }

    fn truncate(&mut self, len: usize) {
        while self.bindings.len() > len {
            let Some((name, _)) = self.bindings.pop() else {
                break;
            };
            if let Some(ids) = self.visible.get_mut(&name) {
                ids.pop();
                if ids.is_empty() {
                    self.visible.remove(&name);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_bindings_shadow_and_end_with_their_scope() {
        let mut scope = Scope::default();
        scope.bind("x".into(), 0);
        scope.open();
        scope.bind("x".into(), 1);
        scope.bind("y".into(), 2);
        assert_eq!(scope.lookup("x"), Some(1));
        assert_eq!(scope.since(1).get("y"), Some(&2));
        scope.close();
        assert_eq!(scope.lookup("x"), Some(0));
        assert_eq!(scope.lookup("y"), None);
        // A shadowing `let` in the same scope hides the first until the scope ends.
        scope.bind("x".into(), 3);
        assert_eq!(scope.lookup("x"), Some(3));
        assert_eq!(scope.len(), 2);
    }
}
