//! Reading the files of a tree that may be hostile: never through a symbolic link, only
//! regular files (not a FIFO that would block, nor a device that never ends), and only up to
//! a size limit, checked on the open file itself so that the entry cannot be swapped between
//! the check and the read.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The largest source file, manifest or lock file that is read.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Why a file was not read. The messages never quote the file's content.
#[derive(Debug)]
pub enum ReadError {
    /// The path is a symbolic link (not followed).
    Link,
    /// A directory, FIFO, socket or device.
    NotRegular(&'static str),
    TooLarge(u64),
    NotUtf8(usize),
    Io(std::io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Link => f.write_str(
                "skipped: a symbolic link: not followed (it may leave the package or loop)",
            ),
            ReadError::NotRegular(kind) => write!(f, "skipped: not a regular file but {kind}"),
            ReadError::TooLarge(len) => write!(
                f,
                "skipped: this file is {len} bytes, over the {MAX_FILE_BYTES}-byte limit"
            ),
            ReadError::NotUtf8(at) => {
                write!(f, "skipped: this file is not valid UTF-8 (byte {at})")
            }
            ReadError::Io(e) => write!(f, "cannot read this file: {e}"),
        }
    }
}

/// The text of the regular file at `path`, opened without following a final symbolic link.
pub fn regular_file(path: &Path) -> Result<String, ReadError> {
    let file = open_no_follow(path)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grows while it is read still stops at the limit.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8(e.utf8_error().valid_up_to()))
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> Result<std::fs::File, ReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => ReadError::Link,
            _ => ReadError::Io(e),
        })
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> Result<std::fs::File, ReadError> {
    let meta = std::fs::symlink_metadata(path).map_err(ReadError::Io)?;
    if meta.file_type().is_symlink() {
        return Err(ReadError::Link);
    }
    std::fs::File::open(path).map_err(ReadError::Io)
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Whether `path` itself (not what a link points to) is a regular file.
pub fn is_regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn links_fifos_and_devices_are_not_read() {
        let dir = std::env::temp_dir().join(format!("mcp-lint-read-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let secret = dir.join("secret");
        std::fs::write(&secret, "TOKEN").expect("write");
        let link = dir.join("link.rs");
        std::os::unix::fs::symlink(&secret, &link).expect("link");
        assert!(matches!(regular_file(&link), Err(ReadError::Link)));
        assert!(
            !regular_file(&link)
                .expect_err("refused")
                .to_string()
                .contains("TOKEN")
        );
        let fifo = dir.join("fifo.rs");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            regular_file(&fifo),
            Err(ReadError::NotRegular("a FIFO"))
        ));
        assert!(matches!(
            regular_file(Path::new("/dev/zero")),
            Err(ReadError::NotRegular("a device"))
        ));
        assert_eq!(regular_file(&secret).expect("read"), "TOKEN");
        assert!(is_regular(&secret) && !is_regular(&link));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
