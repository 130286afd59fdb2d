//! Text edits that remember where every byte of the result comes from.
//!
//! A rewrite is a set of replacements at syn's spans. Each replacement is made of chunks that
//! are either copied from the input (an arm body moved into an `if`, a fn moved to another file)
//! or written by the rewrite (a new name, the glue of a new `if`). The result keeps, for each
//! output byte, the input position it stands for: copied bytes map to their own source, written
//! bytes to the place the edit was made. That is how a finding in the rewritten program is
//! compared with a finding in the original: both are put back at input positions.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::tree::Tree;

/// A position in an input file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    pub file: String,
    pub offset: usize,
}

/// A piece of replacement text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// Written by the rewrite; it stands for the place of its edit.
    Text(String),
    /// Copied from an input file; each byte stands for itself.
    Copy { file: String, range: Range<usize> },
    /// Written by the rewrite in front of a copy it belongs to (`pub(super) ` before a moved
    /// `fn`): it stands for that place of the input.
    Placed { text: String, at: Origin },
}

impl Chunk {
    pub fn text(text: impl Into<String>) -> Chunk {
        Chunk::Text(text.into())
    }

    pub fn placed(text: impl Into<String>, file: &str, offset: usize) -> Chunk {
        Chunk::Placed {
            text: text.into(),
            at: origin(file, offset),
        }
    }

    pub fn copy(file: &str, range: Range<usize>) -> Chunk {
        Chunk::Copy {
            file: file.to_string(),
            range,
        }
    }
}

#[derive(Debug)]
struct Edit {
    range: Range<usize>,
    chunks: Vec<Chunk>,
}

/// Collects the edits of one rewrite of a tree.
pub struct Rewriter<'t> {
    tree: &'t Tree,
    edits: BTreeMap<String, Vec<Edit>>,
    new_files: BTreeMap<String, (Origin, Vec<Chunk>)>,
    names: BTreeMap<String, String>,
}

impl<'t> Rewriter<'t> {
    pub fn new(tree: &'t Tree) -> Rewriter<'t> {
        Rewriter {
            tree,
            edits: BTreeMap::new(),
            new_files: BTreeMap::new(),
            names: BTreeMap::new(),
        }
    }

    /// Records that the rewrite calls `old` by `new` (an item renamed): the linter's outputs
    /// that name it (a tool's fn, a result type) are read with the old name.
    pub fn rename(&mut self, old: &str, new: &str) {
        self.names.insert(new.to_string(), old.to_string());
    }

    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    /// Replaces `range` of `file`. Refused (`false`, nothing changes) when it overlaps an
    /// edit already made, or the range is not inside the file: one rewrite per site.
    pub fn replace(&mut self, file: &str, range: Range<usize>, chunks: Vec<Chunk>) -> bool {
        let len = self.tree.files.get(file).map_or(0, String::len);
        if range.start > range.end || range.end > len {
            return false;
        }
        let edits = self.edits.entry(file.to_string()).or_default();
        if edits.iter().any(|e| overlaps(&e.range, &range)) {
            return false;
        }
        edits.push(Edit { range, chunks });
        true
    }

    pub fn replace_text(
        &mut self,
        file: &str,
        range: Range<usize>,
        text: impl Into<String>,
    ) -> bool {
        self.replace(file, range, vec![Chunk::text(text)])
    }

    pub fn insert(&mut self, file: &str, at: usize, chunks: Vec<Chunk>) -> bool {
        self.replace(file, at..at, chunks)
    }

    pub fn insert_text(&mut self, file: &str, at: usize, text: impl Into<String>) -> bool {
        self.insert(file, at, vec![Chunk::text(text)])
    }

    /// Adds a file the input does not have (or replaces one wholesale); its written text stands
    /// for `anchor`. Refused when the path is taken.
    pub fn add_file(&mut self, path: &str, anchor: Origin, chunks: Vec<Chunk>) -> bool {
        if self.tree.files.contains_key(path) || self.new_files.contains_key(path) {
            return false;
        }
        self.new_files.insert(path.to_string(), (anchor, chunks));
        true
    }

    /// Whether any edit was made: a family that finds no site does not apply to the input.
    pub fn is_empty(&self) -> bool {
        self.edits.values().all(Vec::is_empty) && self.new_files.is_empty()
    }

    /// How many edits were made.
    pub fn sites(&self) -> usize {
        self.edits.values().map(Vec::len).sum::<usize>() + self.new_files.len()
    }

    /// Applies the edits.
    pub fn finish(self) -> Rewrite {
        let mut files = BTreeMap::new();
        let mut maps = BTreeMap::new();
        let sites = self.sites();
        for (path, text) in &self.tree.files {
            match self.edits.get(path) {
                Some(edits) if !edits.is_empty() => {
                    let (out, map) = apply(self.tree, path, text, edits);
                    files.insert(path.clone(), out);
                    maps.insert(path.clone(), map);
                }
                _ => {
                    files.insert(path.clone(), text.clone());
                }
            }
        }
        for (path, (anchor, chunks)) in self.new_files {
            let mut out = Output::default();
            for chunk in &chunks {
                out.push(self.tree, chunk, &anchor);
            }
            files.insert(path.clone(), out.text);
            maps.insert(path, out.segments);
        }
        Rewrite {
            tree: Tree { files },
            maps,
            sites,
            names: self.names,
        }
    }
}

/// Two edits conflict when they share a byte, or one inserts strictly inside the other.
pub fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    if a.is_empty() || b.is_empty() {
        let (point, other) = if a.is_empty() {
            (a.start, b)
        } else {
            (b.start, a)
        };
        return other.start < point && point < other.end;
    }
    a.start < b.end && b.start < a.end
}

fn apply(tree: &Tree, path: &str, text: &str, edits: &[Edit]) -> (String, Vec<Segment>) {
    let mut order: Vec<&Edit> = edits.iter().collect();
    // At one position, insertions go before a replacement that starts there (in the order
    // they were made: the sort is stable).
    order.sort_by_key(|e| (e.range.start, !e.range.is_empty()));
    let mut out = Output::default();
    let mut at = 0;
    for edit in order {
        out.push(
            tree,
            &Chunk::copy(path, at..edit.range.start),
            &origin(path, at),
        );
        let anchor = origin(path, edit.range.start);
        for chunk in &edit.chunks {
            out.push(tree, chunk, &anchor);
        }
        at = edit.range.end;
    }
    out.push(tree, &Chunk::copy(path, at..text.len()), &origin(path, at));
    (out.text, out.segments)
}

fn origin(file: &str, offset: usize) -> Origin {
    Origin {
        file: file.to_string(),
        offset,
    }
}

/// A run of output bytes with one kind of origin.
#[derive(Clone, Debug)]
struct Segment {
    out_start: usize,
    /// Copied: the input position of the first byte (the rest follow it). Written: the place
    /// every byte stands for.
    origin: Origin,
    copied: bool,
}

#[derive(Default)]
struct Output {
    text: String,
    segments: Vec<Segment>,
}

impl Output {
    fn push_written(&mut self, text: &str, at: &Origin) {
        if text.is_empty() {
            return;
        }
        self.segments.push(Segment {
            out_start: self.text.len(),
            origin: at.clone(),
            copied: false,
        });
        self.text.push_str(text);
    }

    fn push(&mut self, tree: &Tree, chunk: &Chunk, anchor: &Origin) {
        match chunk {
            Chunk::Text(text) => self.push_written(text, anchor),
            Chunk::Placed { text, at } => self.push_written(text, at),
            Chunk::Copy { file, range } => {
                let Some(source) = tree.files.get(file).and_then(|t| t.get(range.clone())) else {
                    return;
                };
                if source.is_empty() {
                    return;
                }
                self.segments.push(Segment {
                    out_start: self.text.len(),
                    origin: origin(file, range.start),
                    copied: true,
                });
                self.text.push_str(source);
            }
        }
    }
}

/// A rewritten tree, and where each byte of it comes from.
pub struct Rewrite {
    pub tree: Tree,
    maps: BTreeMap<String, Vec<Segment>>,
    /// How many edits made it (0: the family found nothing to rewrite).
    pub sites: usize,
    /// New name → old name, for the items the rewrite renamed.
    pub names: BTreeMap<String, String>,
}

impl Rewrite {
    /// The input position that `offset` of the rewritten `file` stands for.
    pub fn origin(&self, file: &str, offset: usize) -> Option<Origin> {
        let Some(segments) = self.maps.get(file) else {
            // An untouched file is its own origin.
            return self
                .tree
                .files
                .contains_key(file)
                .then(|| origin(file, offset));
        };
        let i = segments.partition_point(|s| s.out_start <= offset);
        let segment = segments.get(i.checked_sub(1)?)?;
        Some(if segment.copied {
            origin(
                &segment.origin.file,
                segment.origin.offset + offset - segment.out_start,
            )
        } else {
            segment.origin.clone()
        })
    }

    /// `text` with every name the rewrite gave put back as it was.
    pub fn old_names(&self, text: &str) -> String {
        if self.names.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut word = String::new();
        for c in text.chars().chain(std::iter::once('\0')) {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            out.push_str(self.names.get(&word).unwrap_or(&word));
            word.clear();
            if c != '\0' {
                out.push(c);
            }
        }
        out
    }

    /// The files whose text the rewrite changed or added.
    pub fn changed_files(&self) -> impl Iterator<Item = &String> {
        self.maps.keys()
    }
}

/// 1-based line of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Tree {
        Tree::new([("a.rs".to_string(), text.to_string())])
    }

    #[test]
    fn copied_bytes_map_to_themselves_and_written_ones_to_their_edit() {
        let t = tree("fn a() {}\nfn b() {}\n");
        let mut r = Rewriter::new(&t);
        assert!(r.replace_text("a.rs", 3..4, "renamed"));
        let out = r.finish();
        assert_eq!(out.tree.files["a.rs"], "fn renamed() {}\nfn b() {}\n");
        let at = |o: usize| out.origin("a.rs", o).map(|o| o.offset);
        assert_eq!(at(0), Some(0));
        assert_eq!(at(5), Some(3), "inside the new name");
        assert_eq!(at(10), Some(4), "the `(` after it");
        assert_eq!(at(16), Some(10), "the second fn");
    }

    #[test]
    fn moved_text_keeps_its_origin() {
        let t = tree("fn a() {}\nfn b() {}\n");
        let mut r = Rewriter::new(&t);
        // Swap the two fns.
        assert!(r.replace(
            "a.rs",
            0..19,
            vec![
                Chunk::copy("a.rs", 10..19),
                Chunk::text("\n"),
                Chunk::copy("a.rs", 0..9)
            ]
        ));
        let out = r.finish();
        assert_eq!(out.tree.files["a.rs"], "fn b() {}\nfn a() {}\n");
        assert_eq!(out.origin("a.rs", 3).map(|o| o.offset), Some(13));
        assert_eq!(out.origin("a.rs", 13).map(|o| o.offset), Some(3));
    }

    #[test]
    fn overlapping_edits_are_refused_and_insertions_at_one_place_keep_their_order() {
        let t = tree("abcdef");
        let mut r = Rewriter::new(&t);
        assert!(r.replace_text("a.rs", 1..3, "X"));
        assert!(!r.replace_text("a.rs", 2..4, "Y"));
        assert!(!r.insert_text("a.rs", 2, "Z"));
        assert!(r.insert_text("a.rs", 3, "1"));
        assert!(r.insert_text("a.rs", 3, "2"));
        assert!(r.insert_text("a.rs", 1, "<"));
        assert!(!r.replace_text("a.rs", 5..9, "past the end"));
        assert_eq!(r.finish().tree.files["a.rs"], "a<X12def");
    }

    #[test]
    fn a_new_file_maps_to_its_copies_and_its_anchor() {
        let t = tree("fn helper() {}\n");
        let mut r = Rewriter::new(&t);
        assert!(r.replace_text("a.rs", 0..14, "mod moved;"));
        let anchor = Origin {
            file: "a.rs".into(),
            offset: 0,
        };
        assert!(r.add_file(
            "moved.rs",
            anchor,
            vec![Chunk::text("pub "), Chunk::copy("a.rs", 0..14)]
        ));
        assert!(!r.add_file("a.rs", Origin::default_for("a.rs"), vec![]));
        let out = r.finish();
        assert_eq!(out.tree.files["moved.rs"], "pub fn helper() {}");
        assert_eq!(out.origin("moved.rs", 1).map(|o| o.offset), Some(0));
        assert_eq!(out.origin("moved.rs", 7).map(|o| o.offset), Some(3));
        assert_eq!(out.sites, 2);
    }

    #[test]
    fn names_the_rewrite_gave_read_back_as_they_were() {
        let t = tree("fn helper() {}\n");
        let mut r = Rewriter::new(&t);
        r.replace_text("a.rs", 3..9, "mm_f0");
        r.rename("helper", "mm_f0");
        let out = r.finish();
        assert_eq!(
            out.old_names("Vec<mm_f0>, mm_f01 mm_f0::x"),
            "Vec<helper>, mm_f01 helper::x"
        );
    }

    #[test]
    fn lines_count_from_one() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 99), 3);
    }

    impl Origin {
        fn default_for(file: &str) -> Origin {
            origin(file, 0)
        }
    }
}
