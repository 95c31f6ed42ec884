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
    /// The hashed names (`sou.<hash>.js`, `.wasm`, `.css`): never change, cached for good.
    pub hashed: Vec<String>,
}

impl SiteFiles {
    fn plain(options: &LeptosOptions) -> SiteFiles {
        SiteFiles {
            css: format!("/{}/{}.css", options.site_pkg_dir, options.output_name),
            hashed: Vec::new(),
        }
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
            Some((css, hashed)) if hashed.iter().all(|name| pkg.join(name).is_file()) => {
                SiteFiles { css: format!("/{}/{css}", options.site_pkg_dir), hashed }
            }
            _ => {
                tracing::warn!(dir = %pkg.display(), "hash.txt names files that are not there: names not hashed");
                SiteFiles::plain(options)
            }
        }
    })
}

/// The files of this process (after [`init`]; Sou's plain names before).
pub fn files() -> SiteFiles {
    FILES.get().cloned().unwrap_or_else(|| SiteFiles { css: "/pkg/sou.css".into(), hashed: Vec::new() })
}

/// `hash.txt`'s lines (`js: <hash>`, `wasm: …`, `css: …`): the CSS file's name and the
/// three hashed names, or `None` if one is missing.
fn read_hashes(text: &str, output: &str) -> Option<(String, Vec<String>)> {
    let hash = |ext: &str| {
        text.lines().find_map(|line| {
            let (file, hash) = line.split_once(':')?;
            (file.trim() == ext && !hash.trim().is_empty()).then(|| format!("{output}.{}.{ext}", hash.trim()))
        })
    };
    let (js, wasm, css) = (hash("js")?, hash("wasm")?, hash("css")?);
    Some((css.clone(), vec![js, wasm, css]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_txt_names_the_three_files() {
        let text = "js: AbC\nwasm: dEf\ncss: Ghi-_\n";
        assert_eq!(
            read_hashes(text, "sou"),
            Some((
                "sou.Ghi-_.css".into(),
                vec!["sou.AbC.js".into(), "sou.dEf.wasm".into(), "sou.Ghi-_.css".into()]
            ))
        );
        assert_eq!(read_hashes("js: a\ncss: b\n", "sou"), None, "no wasm line");
        assert_eq!(read_hashes("js: a\nwasm:\ncss: b\n", "sou"), None, "an empty hash");
    }
}
