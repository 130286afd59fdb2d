//! Which items exist only in test builds: the analysis leaves them out.

use smol_str::ToSmolStr;
use syn::punctuated::Punctuated;

/// Whether the item is test-only: `#[test]`, `#[tokio::test]` (any attribute whose path ends
/// in `test`), or a `cfg` that can hold only when testing (`cfg(test)`,
/// `cfg(all(test, unix))`, `cfg(any(test, feature = "mocks"))`, but not `cfg(not(test))`).
pub fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        let last = attr.path().segments.last().map(|s| s.ident.to_smolstr());
        match last.as_deref() {
            Some("test") => true,
            Some("cfg") => match &attr.meta {
                syn::Meta::List(l) => syn::parse2::<syn::Meta>(l.tokens.clone())
                    .is_ok_and(|predicate| needs_test(&predicate)),
                _ => false,
            },
            _ => false,
        }
    })
}

/// `test` appears in the predicate, and never under a `not(..)`.
fn needs_test(predicate: &syn::Meta) -> bool {
    let (plain, negated) = mentions_of_test(predicate, false);
    plain && !negated
}

/// Whether `test` appears in `meta` outside and inside an odd number of `not(..)`.
fn mentions_of_test(meta: &syn::Meta, negated: bool) -> (bool, bool) {
    match meta {
        syn::Meta::Path(p) if p.is_ident("test") => (!negated, negated),
        syn::Meta::List(list) => {
            let negated = negated ^ list.path.is_ident("not");
            list.parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
                .map_or((false, false), |inner| {
                    inner.iter().fold((false, false), |(p, n), m| {
                        let (mp, mn) = mentions_of_test(m, negated);
                        (p || mp, n || mn)
                    })
                })
        }
        _ => (false, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test_only(attr: &str) -> bool {
        let item: syn::ItemFn = syn::parse_str(&format!("{attr} fn f() {{}}")).expect("parses");
        is_test_only(&item.attrs)
    }

    #[test]
    fn test_builds_only() {
        for attr in [
            "#[test]",
            "#[tokio::test(flavor = \"multi_thread\")]",
            "#[cfg(test)]",
            "#[cfg(all(test, unix))]",
            "#[cfg(any(test, feature = \"mocks\"))]",
            "#[inline] #[cfg(test)]",
        ] {
            assert!(test_only(attr), "{attr}");
        }
        for attr in [
            "#[cfg(not(test))]",
            "#[cfg(all(not(test), feature = \"x\"))]",
            "#[cfg(feature = \"test\")]",
            "#[cfg(unix)]",
            "#[cfg_attr(test, allow(dead_code))]",
            "#[testing]",
        ] {
            assert!(!test_only(attr), "{attr}");
        }
    }
}
