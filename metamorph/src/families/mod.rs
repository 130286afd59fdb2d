//! The rewrite families. Each keeps what the program means and changes how it is spelled;
//! each can run alone, and each has unit tests that run a program before and after it.

use crate::edit::Rewrite;
use crate::tree::Tree;

mod control;
mod dispatch;
mod eta;
mod extract_body;
mod fn_paths;
mod fn_refs;
mod fn_support;
mod fn_to_method;
mod fns;
mod inline_helper;
mod items;
mod move_helpers;
mod noise;
mod reexport;
mod registration;
mod rename_items;
mod rename_locals;
mod reorder;
mod result_alias;
mod scope;

/// One family of meaning-preserving rewrites.
pub trait Family: Sync {
    /// A short name, used in the ratchet file and the table.
    fn name(&self) -> &'static str;
    /// What it does, in one line.
    fn about(&self) -> &'static str;
    /// Rewrites every site of the family in `tree`; `sites == 0` when there was none.
    fn rewrite(&self, tree: &Tree) -> Rewrite;
}

/// Every family, in the order of the table.
pub fn all() -> Vec<&'static dyn Family> {
    vec![
        &rename_items::RenameItems,
        &rename_items::RenameMethodsCommon,
        &rename_locals::RenameLocals,
        &dispatch::DispatchConst,
        &dispatch::DispatchIfChain,
        &dispatch::DispatchEqMethod,
        &dispatch::DispatchEnum,
        &registration::RegistrationFromArray,
        &registration::RegistrationCollect,
        &registration::RegistrationFnCast,
        &registration::RegistrationVec,
        &registration::RegistrationBoxed,
        &eta::EtaExpand,
        &eta::EtaReduce,
        &reexport::Reexport,
        &result_alias::ResultAlias,
        &control::MatchIfLet,
        &control::LetElse,
        &noise::Noise,
        &reorder::ReorderItems,
        &extract_body::ExtractBody,
        &inline_helper::InlineHelper,
        &move_helpers::MoveHelpers,
        &fn_to_method::FnToMethod,
        // (families end)
    ]
}

/// The family called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Family> {
    all().into_iter().find(|f| f.name() == name)
}

#[cfg(test)]
pub(crate) mod testing;
