//! Parsing and lowering, package by package. A package's IR is built when the first analysis
//! that reads it comes up (its own, or that of a member depending on it) and dropped after the
//! last one, so a run holds the IR of one group of linked packages at a time, not the tree's.
//! Packages no analysis reads are not parsed at all: nothing of theirs could be reported.

use std::collections::HashMap;

use rayon::prelude::*;

use super::{Found, Job, Levels};
use crate::diagnostic::{FileId, Finding, Level};
use crate::model::ir::{FileIr, Name};
use crate::per_file::{self, ANALYSIS_INCOMPLETE};
use crate::source::SourceMap;
use crate::workspace::{Package, Workspace};

/// What lowering needs of the run, shared by every package.
pub(super) struct Lowering<'a> {
    pub pool: &'a rayon::ThreadPool,
    pub levels: &'a [Levels],
    pub warnings: Level,
    /// The jobs of each package, in the order its files were read.
    jobs: Vec<Vec<&'a Job>>,
    renames: Vec<HashMap<String, String>>,
}

impl<'a> Lowering<'a> {
    pub fn new(
        workspace: &Workspace,
        pool: &'a rayon::ThreadPool,
        jobs: &'a [Job],
        levels: &'a [Levels],
        warnings: Level,
    ) -> Self {
        let mut by_package = vec![Vec::new(); workspace.packages.len()];
        for job in jobs {
            by_package[job.package].push(job);
        }
        Lowering {
            pool,
            levels,
            warnings,
            jobs: by_package,
            renames: workspace.packages.iter().map(crate_renames).collect(),
        }
    }

    /// The files of package `pi`.
    pub fn files_of(&self, pi: usize) -> impl Iterator<Item = FileId> + '_ {
        self.jobs[pi].iter().map(|job| job.file)
    }

    /// Parses and lowers the files of each of `packages`, with the findings that gave; their
    /// texts are held.
    pub fn packages(
        &self,
        sources: &SourceMap,
        packages: &[usize],
    ) -> (Vec<(usize, Vec<FileIr>)>, Found) {
        let mut findings = Vec::new();
        let lowered = packages
            .iter()
            .map(|&p| (p, self.package(sources, p, &mut findings)))
            .collect();
        (lowered, findings)
    }

    /// Parses and lowers the files of package `pi`, in parallel.
    fn package(&self, sources: &SourceMap, pi: usize, findings: &mut Found) -> Vec<FileIr> {
        let jobs = &self.jobs[pi];
        let lowered = self.run(sources, jobs);
        let test_modules: Vec<Vec<Name>> = jobs
            .iter()
            .zip(&lowered)
            .flat_map(|(job, l)| {
                l.test_modules.iter().map(|m| {
                    let mut path = job.module.clone();
                    path.push(Name::from(m.as_str()));
                    path
                })
            })
            .collect();
        let mut files: Vec<FileIr> = jobs
            .iter()
            .zip(lowered)
            .filter_map(|(job, lowered)| self.absorb(job, lowered, findings))
            .collect();
        // A file of a module declared `#[cfg(test)] mod tests;` is compiled into tests only.
        files.retain(|ir| !test_modules.iter().any(|m| ir.module.starts_with(m)));
        crate::hir_def::resolve_crate_names(&mut files);
        findings.extend(incomplete_findings(
            &files,
            pi,
            incomplete_level(&self.levels[pi], self.warnings),
        ));
        files
    }

    fn run(&self, sources: &SourceMap, jobs: &[&Job]) -> Vec<per_file::Lowered> {
        let one = |job: &&Job| {
            let renames = &self.renames[job.package];
            let lowering = |ast: &syn::File| {
                crate::model::lower::lower_file(job.file, job.module.clone(), ast, renames)
            };
            per_file::lower(sources.get(job.file), job.file, lowering)
        };
        self.pool.install(|| jobs.par_iter().map(one).collect())
    }

    /// Turns what lowering one file gave into its IR and findings.
    fn absorb(
        &self,
        job: &Job,
        lowered: per_file::Lowered,
        findings: &mut Found,
    ) -> Option<FileIr> {
        if let Some(level) = incomplete_level(&self.levels[job.package], self.warnings) {
            findings.extend(lowered.incomplete.into_iter().map(|mut f| {
                f.level = level;
                (f, Some(job.package))
            }));
        }
        match lowered.ir {
            Ok(ir) => Some(ir),
            Err(f) => {
                let mut f = *f;
                f.level = self.warnings.max(Level::Warn);
                findings.push((f, Some(job.package)));
                None
            }
        }
    }
}

/// The IR of the packages that analyses still to come will read.
pub(super) struct IrStore {
    held: Vec<Option<Vec<FileIr>>>,
    /// Analyses still to come that read each package.
    readers: Vec<usize>,
    /// Item ranges of every lowered file, kept for suppression comments after its IR is gone.
    items: HashMap<FileId, Vec<(usize, usize)>>,
}

impl IrStore {
    /// `links[p]`: the packages the analysis of `p` reads (empty when `p` is not analysed).
    pub fn new(links: &[Vec<usize>]) -> Self {
        let mut readers = vec![0; links.len()];
        for &p in links.iter().flatten() {
            readers[p] += 1;
        }
        IrStore {
            held: (0..links.len()).map(|_| None).collect(),
            readers,
            items: HashMap::new(),
        }
    }

    /// Lowers every package of `linked` not held yet.
    pub fn ensure(
        &mut self,
        linked: &[usize],
        lowering: &Lowering<'_>,
        sources: &SourceMap,
        findings: &mut Found,
    ) {
        for &p in linked {
            if self.held[p].is_none() {
                self.held[p] = Some(lowering.package(sources, p, findings));
            }
        }
    }

    /// Whether package `p`'s IR is held.
    pub fn holds(&self, p: usize) -> bool {
        self.held[p].is_some()
    }

    /// Holds IR lowered ahead of the analysis that reads it.
    pub fn insert(&mut self, lowered: Vec<(usize, Vec<FileIr>)>) {
        for (p, files) in lowered {
            self.held[p] = Some(files);
        }
    }

    /// The files of `linked`, in that order of packages.
    pub fn files(&self, linked: &[usize]) -> Vec<&FileIr> {
        linked
            .iter()
            .filter_map(|&p| self.held[p].as_ref())
            .flatten()
            .collect()
    }

    /// The files of package `p` (empty when it is not held).
    pub fn own(&self, p: usize) -> &[FileIr] {
        self.held[p].as_deref().unwrap_or(&[])
    }

    /// One analysis reading `linked` is done: drops the IR no later analysis reads, and
    /// returns the packages it was dropped for.
    pub fn done(&mut self, linked: &[usize]) -> Vec<usize> {
        let mut dropped = Vec::new();
        for &p in linked {
            self.readers[p] = self.readers[p].saturating_sub(1);
            if self.readers[p] == 0
                && let Some(files) = self.held[p].take()
            {
                for ir in files {
                    self.items.insert(ir.file, ir.items);
                }
                dropped.push(p);
            }
        }
        dropped
    }

    /// Item ranges per lowered file, once every analysis is done.
    pub fn into_items(mut self) -> HashMap<FileId, Vec<(usize, usize)>> {
        for files in self.held.iter_mut().filter_map(Option::take) {
            for ir in files {
                self.items.insert(ir.file, ir.items);
            }
        }
        self.items
    }
}

/// Extern names that refer to a renamed dependency (`mcp = { package = "rmcp" }`).
fn crate_renames(package: &Package) -> HashMap<String, String> {
    package
        .dependencies
        .iter()
        .filter(|d| d.extern_name != d.package.replace('-', "_"))
        .map(|d| (d.extern_name.clone(), d.package.replace('-', "_")))
        .collect()
}

/// The level of `analysis_incomplete` in a package, `None` when it is allowed.
pub(super) fn incomplete_level(levels: &Levels, warnings: Level) -> Option<Level> {
    match levels
        .get(ANALYSIS_INCOMPLETE)
        .copied()
        .unwrap_or(Level::Warn)
    {
        Level::Allow => None,
        Level::Warn => Some(warnings.max(Level::Warn)),
        level => Some(level),
    }
}

/// Parts of files the lowering did not follow: one finding per file, the first part, with
/// how many there are.
fn incomplete_findings(files: &[FileIr], pi: usize, level: Option<Level>) -> Found {
    let Some(level) = level else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ir in files {
        if let Some(first) = ir.incomplete.first() {
            let more = ir.incomplete.len() - 1;
            let mut message = format!("this part of the file was not analysed: {}", first.reason);
            if more > 0 {
                message.push_str(&format!(" (and {more} more parts of this file)"));
            }
            let mut f = Finding::new(ANALYSIS_INCOMPLETE, first.span.span(ir.file), message);
            f.level = level;
            out.push((f, Some(pi)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_is_held_until_its_last_reader_is_done() {
        // Package 0 and 2 are analysed; both read package 1; package 3 is read by none.
        let links = vec![vec![0, 1], vec![], vec![2, 1], vec![]];
        let mut store = IrStore::new(&links);
        assert!(!store.holds(3));
        store.insert(vec![
            (0, Vec::new()),
            (1, vec![file_with_items(7, vec![(1, 5)])]),
        ]);
        store.done(&links[0]);
        assert!(!store.holds(0), "no later analysis reads package 0");
        assert!(
            store.holds(1),
            "the analysis of package 2 still reads package 1"
        );
        store.insert(vec![(2, Vec::new())]);
        store.done(&links[2]);
        assert!(!store.holds(1) && !store.holds(2));
        // The IR is gone; the item ranges suppression comments need are not.
        assert_eq!(store.into_items().get(&7), Some(&vec![(1, 5)]));
    }

    fn file_with_items(file: FileId, items: Vec<(usize, usize)>) -> FileIr {
        FileIr {
            file,
            module: Vec::new(),
            imports: crate::model::resolve::Imports::new(HashMap::new()),
            fns: Vec::new(),
            impls: Vec::new(),
            traits: Vec::new(),
            structs: Vec::new(),
            enums: Vec::new(),
            aliases: Vec::new(),
            consts: Vec::new(),
            macros: Vec::new(),
            decls: Vec::new(),
            items,
            incomplete: Vec::new(),
        }
    }
}
