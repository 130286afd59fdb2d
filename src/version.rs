//! Semantic versions as the lints need them: of an SDK a package depends on, or locked.

use std::fmt;

/// A semantic version, as far as the lints need one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u64, pub u64, pub u64);

impl Version {
    /// Parses `1.2.3`, `1.2`, `1`, ignoring pre-release and build suffixes.
    pub fn parse(text: &str) -> Option<Version> {
        let core = text.trim().split(['-', '+']).next()?;
        let mut parts = core.split('.').map(|p| p.trim().parse::<u64>());
        let major = parts.next()?.ok()?;
        let minor = parts.next().unwrap_or(Ok(0)).ok()?;
        let patch = parts.next().unwrap_or(Ok(0)).ok()?;
        Some(Version(major, minor, patch))
    }

    /// The lowest version a Cargo requirement such as `^0.8`, `~1.4.2`, `>=1, <3` or `=3.1.3`
    /// accepts.
    pub fn from_requirement(req: &str) -> Option<Version> {
        let first = req.split(',').next()?.trim();
        let digits = first.trim_start_matches(|c: char| !c.is_ascii_digit());
        let end = digits
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(digits.len());
        Version::parse(digits[..end].trim_end_matches('.'))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}
