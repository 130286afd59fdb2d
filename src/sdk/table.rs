//! An SDK described by a table: the shape most smaller SDKs share (a tool trait or attribute,
//! one error type with one fate on the wire, a `run_stdio()`-style entry point). Each such SDK
//! has its own module holding its [`Spec`]; this file only reads specs.

use super::has_attr;
use super::{Channel, ErrorCtor, ImplContext, Role, Sdk};
use crate::model::ir::Name;
use crate::model::resolve::{Imports, Ty};
use crate::workspace::Version;

pub struct Spec {
    /// The package name on crates.io.
    pub package: &'static str,
    /// The name code uses for it (`use pmcp::..`).
    pub krate: &'static str,
    /// `(trait, method, role)`: methods of the SDK's traits that handle requests.
    pub trait_methods: &'static [(&'static str, &'static str, Role)],
    /// Attributes that mark a fn as a tool / as another request handler.
    pub tool_attrs: &'static [&'static str],
    pub request_attrs: &'static [&'static str],
    /// What an `Err` returned by a tool becomes.
    pub tool_channel: Channel,
    /// The JSON-RPC code tool errors get, when the SDK fixes it (pmcp: -32603).
    pub tool_error_code: Option<i64>,
    /// Last segments of the SDK's error types.
    pub error_types: &'static [&'static str],
    /// Constructors on those types for invalid arguments.
    pub invalid_params_ctors: &'static [&'static str],
    /// Constructors on those types whose `Err` the SDK sends as an `isError` result.
    pub tool_error_ctors: &'static [&'static str],
    /// `receiver.method()` / `function(..)` / `Type::function(..)` calls that serve MCP over
    /// stdio.
    pub stdio_methods: &'static [&'static str],
    pub stdio_fns: &'static [&'static str],
    /// `(type, method)` constructors of successful / error tool results and of text content.
    pub success_ctors: &'static [(&'static str, &'static str)],
    pub error_result_ctors: &'static [(&'static str, &'static str)],
    pub text_ctors: &'static [(&'static str, &'static str)],
    /// Names of the tool result struct.
    pub result_types: &'static [&'static str],
    /// The error-code tuple struct users may build (`ErrorCode(-32050)`).
    pub error_code_type: Option<&'static str>,
    /// Whether the SDK answers a panicking handler itself (turbomcp catches them).
    pub catches_panics: bool,
    /// The router method whose call turns the SDK's panic guard on (tower-mcp's
    /// `McpRouter::catch_panics`), when the guard is opt-in.
    pub panic_guard_method: Option<&'static str>,
    /// Builder methods whose closure argument is a tool handler.
    pub handler_closure_methods: &'static [&'static str],
    /// The SDK's types whose constructors take a tool handler and make a tool of it (pmcp's
    /// `TypedTool::new("add", add)`): every callable argument of `Type::f(..)` is a handler,
    /// however the tool is registered after.
    pub handler_wrappers: &'static [&'static str],
    /// The SDK's macros that return early with one of its protocol errors, the code as the
    /// first argument (`_` for the SDK's default): mcp-attr's `bail_public!(code, fmt, ..)` is
    /// `return Err(Error::new(code).with_message(..))`.
    pub early_error_macros: &'static [&'static str],
    /// Methods of the SDK's error types that return the same error with more attached
    /// (mcp-attr's `Error::new(code).with_message(..)`): the code stays the one given.
    pub error_builders: &'static [&'static str],
    /// Code that returns `{message}` as a tool error, and code that answers an unknown tool
    /// (`{name}`) the spec's way.
    pub error_result: &'static str,
    pub unknown_tool_error: &'static str,
    pub text_content: &'static str,
    /// Releases before a version that answered differently, oldest boundary last: the first
    /// era whose `below` the crate's version is under decides (the newest release otherwise,
    /// and when the version is unknown).
    pub earlier: &'static [Era],
}

/// What releases of an SDK before `below` did unlike the newer ones.
pub struct Era {
    pub below: Version,
    pub tool_channel: Channel,
    pub catches_panics: bool,
    /// When a tool of that era cannot answer with `isError` at all: what to do instead.
    pub no_error_result: Option<&'static str>,
}

pub struct TableSdk {
    spec: &'static Spec,
    version: Option<Version>,
}

impl TableSdk {
    pub fn new(spec: &'static Spec, version: Option<Version>) -> Self {
        TableSdk { spec, version }
    }

    fn is_ctor(&self, imports: &Imports, path: &[Name], table: &[(&str, &str)]) -> bool {
        super::assoc(imports, path).is_some_and(|(ty, method)| {
            ty.last()
                .is_some_and(|t| table.iter().any(|(tt, m)| tt == t && *m == method))
        })
    }

    /// The era of the crate's version, when it is an earlier one.
    fn era(&self) -> Option<&'static Era> {
        let v = self.version?;
        self.spec.earlier.iter().find(|e| v < e.below)
    }

    fn tool_channel(&self) -> Channel {
        self.era()
            .map_or(self.spec.tool_channel, |e| e.tool_channel)
    }

    fn is_error_type(&self, ty: &Ty) -> bool {
        ty.last_segment()
            .is_some_and(|s| self.spec.error_types.contains(&s))
    }
}

impl Sdk for TableSdk {
    fn name(&self) -> &str {
        self.spec.package
    }

    fn version(&self) -> Option<Version> {
        self.version
    }

    fn role(
        &self,
        imports: &Imports,
        implementation: Option<&ImplContext>,
        attrs: &[super::Attr],
        name: &str,
        _ret: &Ty,
    ) -> Role {
        if name == "main" || has_attr(attrs, "main") {
            return Role::Startup;
        }
        if let Some(trait_path) = implementation.and_then(|i| i.trait_path.as_ref()) {
            let segments = trait_path.clone();
            let trait_name = segments.last().map(Name::as_str).unwrap_or_default();
            // Same-named traits exist in other crates and in user code: the trait must come
            // from this SDK.
            if imports.may_come_from(&segments, self.spec.krate)
                && let Some((_, _, role)) = self
                    .spec
                    .trait_methods
                    .iter()
                    .find(|(t, m, _)| *t == trait_name && *m == name)
            {
                return *role;
            }
        }
        if self.spec.tool_attrs.iter().any(|a| has_attr(attrs, a)) {
            return Role::Tool;
        }
        if self.spec.request_attrs.iter().any(|a| has_attr(attrs, a)) {
            return Role::Request;
        }
        Role::None
    }

    fn err_channel(&self, role: Role, ret: &Ty) -> Channel {
        match role {
            // `Result<T, E>`, `pmcp::Result<T>`, `McpResult<T>`, `MCPResult<T>`.
            Role::Tool | Role::TraitTool | Role::Dispatcher => match awaited(ret).last_segment() {
                Some(name) if name.ends_with("Result") && name != "CallToolResult" => {
                    self.tool_channel()
                }
                _ => Channel::Infallible,
            },
            _ => Channel::Unknown,
        }
    }

    fn is_protocol_error_type(&self, ty: &Ty) -> bool {
        self.tool_channel() == Channel::Protocol && self.is_error_type(ty)
    }

    fn error_ctor(&self, imports: &Imports, path: &[Name]) -> Option<ErrorCtor> {
        let (ty, method) = super::assoc(imports, path)?;
        let ty_name = ty.last()?;
        if !self.spec.error_types.contains(&ty_name.as_str()) {
            return None;
        }
        Some(if self.spec.tool_error_ctors.contains(&method) {
            ErrorCtor::ToolRejection
        } else if self.spec.invalid_params_ctors.contains(&method) {
            ErrorCtor::InvalidParams
        } else if method.contains("not_found") && method.contains("method") {
            ErrorCtor::MethodNotFound
        } else if method.starts_with("internal") {
            ErrorCtor::InternalError
        } else {
            ErrorCtor::Other
        })
    }

    fn is_success_result_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        self.is_ctor(imports, path, self.spec.success_ctors)
    }

    fn is_error_result_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        self.is_ctor(imports, path, self.spec.error_result_ctors)
    }

    fn is_text_content_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        self.is_ctor(imports, path, self.spec.text_ctors)
    }

    fn result_type_names(&self) -> &'static [&'static str] {
        self.spec.result_types
    }

    fn is_error_code_ctor(&self, imports: &Imports, path: &[Name]) -> bool {
        let Some(ty) = self.spec.error_code_type else {
            return false;
        };
        let resolved = imports.resolve_segments(path);
        resolved.last().is_some_and(|l| l == ty) && imports.may_come_from(path, self.spec.krate)
    }

    fn is_stdio_transport(&self, imports: &Imports, path: &[Name]) -> bool {
        let resolved = imports.resolve_segments(path);
        let n = resolved.len();
        self.spec
            .stdio_fns
            .iter()
            .any(|f| match f.split_once("::") {
                // `Type::method` matches the last two segments.
                Some((ty, method)) => n >= 2 && resolved[n - 2] == ty && resolved[n - 1] == method,
                None => resolved.last().is_some_and(|l| l == f),
            })
    }

    fn is_stdio_method(&self, method: &str) -> bool {
        self.spec.stdio_methods.contains(&method)
    }

    fn is_stdio_pair(&self, _imports: &Imports, _a: &[Name], _b: &[Name]) -> bool {
        false
    }

    fn converts_argument_errors(&self, _role: Role) -> bool {
        false
    }

    fn catches_panics(&self) -> bool {
        self.era()
            .map_or(self.spec.catches_panics, |e| e.catches_panics)
    }

    fn panic_guard_method(&self) -> Option<&'static str> {
        self.spec.panic_guard_method
    }

    fn handler_closure_methods(&self) -> &'static [&'static str] {
        self.spec.handler_closure_methods
    }

    fn is_early_error_macro(&self, imports: &Imports, path: &[Name]) -> bool {
        path.last()
            .is_some_and(|l| self.spec.early_error_macros.contains(&l.as_str()))
            && imports.may_come_from(path, self.spec.krate)
    }

    fn is_error_builder(&self, method: &str) -> bool {
        self.spec.error_builders.contains(&method)
    }

    fn is_handler_wrapper(&self, imports: &Imports, path: &[Name]) -> bool {
        let [ty_path @ .., _ctor] = path else {
            return false;
        };
        let resolved = imports.resolve_segments(ty_path);
        resolved
            .last()
            .is_some_and(|l| self.spec.handler_wrappers.contains(&l.as_str()))
            && imports.may_come_from(ty_path, self.spec.krate)
    }

    /// A registered closure is a tool: its `Err` goes where a tool's goes.
    fn closure_channel(&self) -> Channel {
        self.tool_channel()
    }

    fn protocol_error_code(&self, ctor: Option<ErrorCtor>) -> Option<i64> {
        self.spec.tool_error_code.or(match ctor {
            Some(ErrorCtor::InvalidParams) => Some(-32602),
            Some(ErrorCtor::InternalError) => Some(-32603),
            _ => None,
        })
    }

    fn unknown_tool_error(&self, name: &str) -> String {
        self.spec
            .unknown_tool_error
            .replace("{name}", &format!("{{{name}}}"))
    }

    fn text_content(&self) -> &'static str {
        self.spec.text_content
    }

    fn can_return_error_result(&self, role: Role, ret: &Ty) -> bool {
        // The success type of `Result<T, E>` or of an SDK alias `Result<T>`.
        let ok = match awaited(ret) {
            Ty::Path { path, args } if path.last().is_some_and(|s| s == "Result") => args.first(),
            other => Some(other),
        };
        matches!(role, Role::Tool | Role::TraitTool)
            && ok
                .and_then(Ty::last_segment)
                .is_some_and(|t| self.spec.result_types.contains(&t))
    }

    fn error_result(&self, _role: Role, message: &str) -> String {
        self.spec.error_result.replace("{message}", message)
    }

    fn no_error_result(&self) -> Option<&'static str> {
        self.era().and_then(|e| e.no_error_result)
    }
}

/// What a handler answers with: a boxed future (`Pin<Box<dyn Future<Output = R>>>`, whose
/// trait object reads as its output, `Pin<Box<R>>`) answers with its output `R`.
fn awaited(ret: &Ty) -> &Ty {
    let mut cur = ret;
    // Each step goes one type argument deeper; the bound is for hostile nesting.
    for _ in 0..8 {
        match cur {
            Ty::Path { path, args }
                if args.len() == 1 && path.last().is_some_and(|l| l == "Pin" || l == "Box") =>
            {
                cur = &args[0];
            }
            _ => break,
        }
    }
    cur
}
