//! The page: HTML, CSS and ES modules embedded in the binary, served from a fixed table (no
//! request ever reaches the file system).

use axum::Router;
use axum::http::header::{self, HeaderValue};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// One embedded file: its path on the server, its content type and its bytes.
#[derive(Copy, Clone, Debug)]
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its content type.
    pub content_type: &'static str,
    /// Its text.
    pub text: &'static str,
}

macro_rules! asset {
    ($path:literal, $file:literal, $type:expr) => {
        Asset {
            path: $path,
            content_type: $type,
            text: include_str!(concat!("web/", $file)),
        }
    };
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// Every file of the page.
pub const ASSETS: &[Asset] = &[
    asset!("/", "index.html", HTML),
    asset!("/style.css", "style.css", CSS),
    asset!("/favicon.svg", "favicon.svg", SVG),
    asset!("/js/main.js", "js/main.js", JS),
    asset!("/js/api.js", "js/api.js", JS),
    asset!("/js/board.js", "js/board.js", JS),
    asset!("/js/io.js", "js/io.js", JS),
    asset!("/js/queens.js", "js/queens.js", JS),
    asset!("/js/sultan.js", "js/sultan.js", JS),
    asset!("/js/tour.js", "js/tour.js", JS),
    asset!("/js/showdown.js", "js/showdown.js", JS),
    asset!("/js/showdowntrace.js", "js/showdowntrace.js", JS),
    asset!("/js/nqueens.js", "js/nqueens.js", JS),
    asset!("/js/player.js", "js/player.js", JS),
    asset!("/js/progress.js", "js/progress.js", JS),
    asset!("/js/queenstrace.js", "js/queenstrace.js", JS),
    asset!("/js/share.js", "js/share.js", JS),
    asset!("/js/tryit.js", "js/tryit.js", JS),
    asset!("/js/searchpanel.js", "js/searchpanel.js", JS),
    asset!("/js/tourtry.js", "js/tourtry.js", JS),
    asset!("/js/pieces.js", "js/pieces.js", JS),
];

/// The embedded file served at `path`, if any.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

/// The page's routes: every embedded file at its path (GET and HEAD).
pub fn routes() -> Router {
    let mut router = Router::new();
    for asset in ASSETS {
        router = router.route(asset.path, get(move || async move { serve(asset) }));
    }
    router.fallback(|uri: Uri| async move {
        (
            StatusCode::NOT_FOUND,
            format!("no page at {}\n", uri.path()),
        )
    })
}

fn serve(asset: &'static Asset) -> Response {
    let mut response = asset.text.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    // The files change only with the binary; a reload should still see a new one.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::guard::CONTENT_SECURITY_POLICY;

    /// `web/build.sh` copies the folder whole into the static site: the server must serve
    /// every file of it, so that both show the same page.
    #[test]
    fn every_file_of_the_page_is_served() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/serve/web");
        let mut files = Vec::new();
        let mut folders = vec![root.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else {
                    let name = path.strip_prefix(&root).unwrap().to_str().unwrap();
                    files.push(name.replace('\\', "/"));
                }
            }
        }
        files.sort();
        let mut served: Vec<String> = ASSETS
            .iter()
            .map(|a| match a.path {
                "/" => "index.html".to_string(),
                p => p.trim_start_matches('/').to_string(),
            })
            .collect();
        served.sort();
        assert_eq!(files, served);
    }

    /// The page's own policy (the only one on a static host, which sends none) is the
    /// server's, with WebAssembly allowed for the static site's worker and without what a
    /// `<meta>` cannot carry (`frame-ancestors`).
    #[test]
    fn the_page_s_policy_is_the_server_s_with_webassembly() {
        let page = find("/").unwrap().text;
        let start = page
            .find("<meta http-equiv=\"Content-Security-Policy\" content=\"")
            .expect("a policy in index.html");
        let policy = &page[start..].split('"').nth(3).unwrap();
        let expected = CONTENT_SECURITY_POLICY
            .replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
            .replace("; frame-ancestors 'none'", "");
        assert_eq!(*policy, expected);
        for asset in ASSETS {
            for absolute in ["href=\"/", "src=\"/"] {
                assert!(
                    !asset.text.contains(absolute),
                    "{}: a root-absolute address breaks the site under a sub-path",
                    asset.path
                );
            }
        }
    }
}
