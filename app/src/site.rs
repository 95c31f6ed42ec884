//! The browser's files as this build named them. A release build hashes their names
//! (`sou.<hash>.css`, cargo-leptos' `hash-files`) and writes the hashes to `hash.txt`
//! beside the server's binary; the server reads it once, so that every page, Leptos'
//! or not, links the files of this build, which browsers may then keep for good.

use std::path::Path;
use std::sync::OnceLock;

use leptos::prelude::LeptosOptions;

/// The site's own files under `/pkg/`, by the names pages link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteFiles {
    /// `/pkg/sou.<hash>.css`, or `/pkg/sou.css` when the build did not hash names.
    pub css: String,
    /// The browser bundle: its JS module and its WASM, named alike.
    pub js: String,
    pub wasm: String,
    /// The hashed names (`sou.<hash>.js`, `.wasm`, `.css`): never change, cached for good.
    pub hashed: Vec<String>,
}

impl SiteFiles {
    fn plain(options: &LeptosOptions) -> SiteFiles {
        let name = |ext: &str| format!("/{}/{}.{ext}", options.site_pkg_dir, options.output_name);
        SiteFiles { css: name("css"), js: name("js"), wasm: name("wasm"), hashed: Vec::new() }
    }

    /// Whether `name` (a file name under `/pkg/`) is one of this build's hashed files.
    pub fn is_hashed(&self, name: &str) -> bool {
        self.hashed.iter().any(|h| h == name)
    }
}

static FILES: OnceLock<SiteFiles> = OnceLock::new();

/// Reads the build's `hash.txt` (once per process) and says whether names are hashed.
/// Names count as hashed only when the hashed files are there: a stale `hash.txt`
/// beside a binary built otherwise is ignored, with a warning.
pub fn init(options: &LeptosOptions) -> &'static SiteFiles {
    FILES.get_or_init(|| {
        let beside = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf));
        let Some(text) = beside.and_then(|dir| std::fs::read_to_string(dir.join(&*options.hash_file)).ok())
        else {
            return SiteFiles::plain(options);
        };
        let pkg = Path::new(&*options.site_root).join(&*options.site_pkg_dir);
        match read_hashes(&text, &options.output_name) {
            Some(hashed) if hashed.iter().all(|name| pkg.join(name).is_file()) => {
                let path = |i: usize| format!("/{}/{}", options.site_pkg_dir, hashed[i]);
                SiteFiles { js: path(0), wasm: path(1), css: path(2), hashed }
            }
            _ => {
                tracing::warn!(dir = %pkg.display(), "hash.txt names files that are not there: names not hashed");
                SiteFiles::plain(options)
            }
        }
    })
}

/// The files of this process (after [`init`]; Sou's plain names before).
pub fn files() -> &'static SiteFiles {
    static PLAIN: std::sync::LazyLock<SiteFiles> = std::sync::LazyLock::new(|| SiteFiles {
        css: "/pkg/sou.css".into(),
        js: "/pkg/sou.js".into(),
        wasm: "/pkg/sou.wasm".into(),
        hashed: Vec::new(),
    });
    FILES.get().unwrap_or(&PLAIN)
}

/// `hash.txt`'s lines (`js: <hash>`, `wasm: …`, `css: …`): the three hashed names, in
/// that order, or `None` if one is missing or is not a hash (letters, digits, `-`, `_`).
fn read_hashes(text: &str, output: &str) -> Option<Vec<String>> {
    let hash = |ext: &str| {
        text.lines().find_map(|line| {
            let (file, hash) = line.split_once(':')?;
            let hash = hash.trim();
            let plain =
                !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            (file.trim() == ext && plain).then(|| format!("{output}.{hash}.{ext}"))
        })
    };
    Some(vec![hash("js")?, hash("wasm")?, hash("css")?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_txt_names_the_three_files() {
        let text = "js: AbC\nwasm: dEf\ncss: Ghi-_\n";
        assert_eq!(
            read_hashes(text, "sou"),
            Some(vec!["sou.AbC.js".into(), "sou.dEf.wasm".into(), "sou.Ghi-_.css".into()])
        );
        assert_eq!(read_hashes("js: a\nwasm: b\ncss: c\"x\n", "sou"), None, "not a hash");
        assert_eq!(read_hashes("js: a\ncss: b\n", "sou"), None, "no wasm line");
        assert_eq!(read_hashes("js: a\nwasm:\ncss: b\n", "sou"), None, "an empty hash");
    }
}
