//! Crate-wide names, after every file of a crate is lowered: the crate's module tree with its
//! `use` and `pub use` items, and each file's paths rewritten through it, so that a type, fn
//! or SDK item means the same whichever module, re-export or glob the code reaches it by
//! (`use crate::errors::McpError` names `rmcp::ErrorData` when `errors` re-exports it).
//! Later stages read resolved paths and never see how an item was imported.

mod def_map;
mod rewrite;

pub use def_map::{Canon, DefMap};

use crate::model::ir::FileIr;

/// Resolves the paths of one crate's files (those of one package) through the crate's modules.
pub fn resolve_crate_names(files: &mut [FileIr]) {
    let map = DefMap::build(files.iter().flat_map(|f| &f.decls));
    for file in files.iter_mut() {
        rewrite::file(file, &map);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::Name;
    use crate::model::resolve::Ty;

    fn lowered(files: &[(&[&str], &str)]) -> Vec<FileIr> {
        let mut out: Vec<FileIr> = files
            .iter()
            .enumerate()
            .map(|(id, (module, src))| {
                let ast = syn::parse_file(src).expect("test source parses");
                let module = module.iter().map(Name::new).collect();
                crate::model::lower::lower_file(id, module, &ast, &Default::default())
            })
            .collect();
        resolve_crate_names(&mut out);
        out
    }

    fn resolved(ir: &FileIr, path: &str) -> Vec<String> {
        let segments: Vec<Name> = path.split("::").map(Name::new).collect();
        let r = ir.imports.resolve_segments(&segments);
        r.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn imports_types_and_paths_name_what_the_re_exports_name() {
        let files = lowered(&[
            (&["app"], "mod errors; mod prelude;"),
            (&["app", "errors"], "pub use rmcp::ErrorData as McpError;"),
            (
                &["app", "prelude"],
                "pub use crate::errors::McpError; pub use rmcp::model::*;",
            ),
            (
                &["app", "tools"],
                "use crate::prelude::*;\n\
                 use super::errors::McpError as E;\n\
                 fn run() -> Result<(), McpError> { Err(crate::errors::McpError::internal_error(\"x\", None)) }",
            ),
        ]);
        let tools = &files[3];
        assert_eq!(resolved(tools, "E"), ["rmcp", "ErrorData"]);
        // A name a glob of the crate's prelude brings in, and the extern glob behind it.
        assert_eq!(resolved(tools, "McpError"), ["rmcp", "ErrorData"]);
        assert!(
            tools
                .imports
                .globs()
                .contains(&vec!["rmcp".into(), "model".into()])
        );
        let run = &tools.fns[0];
        let Ty::Path { args, .. } = &run.ret else {
            panic!("a path type: {:?}", run.ret)
        };
        assert_eq!(args[1].last_segment(), Some("ErrorData"));
        let written: Vec<String> = run
            .body
            .exprs
            .iter()
            .filter_map(|e| match &e.kind {
                crate::model::ir::ExprKind::Path(p) if p.len() > 1 => {
                    Some(p.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("::"))
                }
                _ => None,
            })
            .collect();
        assert_eq!(written, ["rmcp::ErrorData::internal_error"]);
    }
}
