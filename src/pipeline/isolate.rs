//! A panic while analysing one file becomes that file's `internal_error` diagnostic, and
//! the run goes on.

use super::empty_span;
use crate::INTERNAL_ERROR;
use crate::diagnostic::{FileId, Finding};

thread_local! {
    /// The message of the last panic caught by [`isolate`] on this thread.
    static PANIC_MESSAGE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    static ISOLATING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic into `Err(message)`. The panic hook stays quiet for these (the
/// message goes into an `internal_error` diagnostic instead) and speaks for any other panic.
pub fn isolate<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if ISOLATING.with(|i| i.get()) {
                let location = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let payload = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(format!("{payload}{location}")));
            } else {
                previous(info);
            }
        }));
    });
    let was = ISOLATING.with(|i| i.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    ISOLATING.with(|i| i.set(was));
    result.map_err(|_| {
        PANIC_MESSAGE
            .with(|m| m.borrow_mut().take())
            .unwrap_or_else(|| "a panic".into())
    })
}

pub(crate) fn internal_error(file: FileId, panic: &str) -> Finding {
    Finding::new(
        INTERNAL_ERROR,
        empty_span(file),
        format!(
            "mcp-lint failed while analysing this file ({panic}); the rest of the run went on. Please report it"
        ),
    )
}

/// Debug builds only: `MCP_LINT_INJECT_PANIC=name` panics while analysing files whose path
/// contains `name`, so tests can prove the isolation.
pub(crate) fn inject_panic_for_tests(display: &str) {
    #[cfg(debug_assertions)]
    if let Some(name) = std::env::var_os("MCP_LINT_INJECT_PANIC")
        && display.contains(name.to_string_lossy().as_ref())
    {
        panic!("injected for tests");
    }
    let _ = display;
}
