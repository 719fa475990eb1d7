//! The web app a browser (the phone's) opens on the home core: the window's own files,
//! and a session that the pairing code opens. The session is the device's token in an
//! HttpOnly, Secure, SameSite=Strict cookie (never in a URL, never readable by a
//! script); every page carries a content policy that runs only the core's own scripts
//! and lets no other site frame it.

use std::borrow::Cow;

use bytes::Bytes;
use http::{header, HeaderValue, Request, Response, StatusCode};
use http_body_util::Full;

/// The window's files, as the face that has them gives them (the app's bundle).
pub trait WebFiles: Send + Sync {
    /// The file at `path` ("index.html", "assets/index-3f2a.js"), if there is one.
    fn file(&self, path: &str) -> Option<Cow<'static, [u8]>>;
}

/// The cookie that carries a browser's device token.
pub(crate) const SESSION_COOKIE: &str = "sidecar_session";

/// What a page of the web app may load and reach: the core's own files and link only.
/// Inline styles stay allowed (the UI sets a few by attribute); no inline script runs.
pub(crate) const CONTENT_POLICY: &str = "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data: blob:; \
     style-src 'self' 'unsafe-inline'; media-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; \
     form-action 'self'";

/// How long a browser keeps its session: a year, as a paired computer keeps its token;
/// revoking the device ends it at once.
const SESSION_SECONDS: u64 = 365 * 24 * 3600;

/// The cookie that opens a session for `token`.
pub(crate) fn session_cookie(token: &str) -> String {
    format!("{SESSION_COOKIE}={token}; Path=/; Max-Age={SESSION_SECONDS}; HttpOnly; Secure; SameSite=Strict")
}

/// The cookie that ends it.
pub(crate) fn ended_cookie() -> String {
    format!("{SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict")
}

/// The device token a browser's request carries in its session cookie.
pub(crate) fn session_token<B>(req: &Request<B>) -> Option<String> {
    req.headers().get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|pair| {
        let (name, value) = pair.trim().split_once('=')?;
        (name == SESSION_COOKIE && !value.is_empty()).then(|| value.to_string())
    })
}

/// The file a path asks for: "/" and a path of the app's own (no file extension, as
/// "/reminders") are its page; "..", empty and hidden parts are never served.
pub(crate) fn page(files: &dyn WebFiles, path: &str) -> Response<Full<Bytes>> {
    let path = path.trim_start_matches('/');
    let unsafe_part = path.split('/').any(|part| part == ".." || part.starts_with('.') || part.contains('\\'));
    let last = path.rsplit('/').next().unwrap_or_default();
    let name = if path.is_empty() || (!unsafe_part && !last.contains('.')) { "index.html" } else { path };
    let found = if unsafe_part { None } else { files.file(name) };
    let Some(bytes) = found else {
        return secured(Response::builder().status(StatusCode::NOT_FOUND).header(header::CONTENT_TYPE, "text/plain; charset=utf-8"))
            .body(Full::new(Bytes::from_static(b"Not found")))
            .expect("a response");
    };
    // Bundled assets are named by their content, so they may be kept; the page is not.
    let cache = if name.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "no-cache" };
    secured(Response::builder().status(StatusCode::OK).header(header::CONTENT_TYPE, mime(name)).header(header::CACHE_CONTROL, cache))
        .body(Full::new(Bytes::from(bytes.into_owned())))
        .expect("a response")
}

/// The headers every answer to a browser carries.
pub(crate) fn secured(builder: http::response::Builder) -> http::response::Builder {
    builder
        .header(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_POLICY))
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .header(header::X_FRAME_OPTIONS, "DENY")
        .header(header::REFERRER_POLICY, "no-referrer")
        .header(header::STRICT_TRANSPORT_SECURITY, "max-age=31536000")
}

fn mime(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or_default() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Two;

    impl WebFiles for Two {
        fn file(&self, path: &str) -> Option<Cow<'static, [u8]>> {
            match path {
                "index.html" => Some(Cow::Borrowed(b"<html>")),
                "assets/app.js" => Some(Cow::Borrowed(b"go()")),
                _ => None,
            }
        }
    }

    #[test]
    fn the_app_s_paths_are_its_page_and_nothing_outside_it_is_served() {
        let served = |path: &str| {
            let r = page(&Two, path);
            (r.status().as_u16(), r.headers().get(header::CONTENT_TYPE).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default())
        };
        assert_eq!(served("/"), (200, "text/html; charset=utf-8".into()));
        assert_eq!(served("/reminders"), (200, "text/html; charset=utf-8".into()));
        assert_eq!(served("/assets/app.js"), (200, "text/javascript; charset=utf-8".into()));
        assert_eq!(served("/assets/missing.js").0, 404);
        assert_eq!(served("/../etc/passwd").0, 404);
        assert_eq!(served("/assets/../index.html").0, 404);
        assert_eq!(served("/.env").0, 404);
        let r = page(&Two, "/");
        assert_eq!(r.headers()[header::CONTENT_SECURITY_POLICY], CONTENT_POLICY);
        assert_eq!(r.headers()[header::X_FRAME_OPTIONS], "DENY");
    }

    #[test]
    fn the_session_is_read_from_its_cookie_alone() {
        let req = |cookie: &str| Request::get("/").header(header::COOKIE, cookie).body(()).unwrap();
        assert_eq!(session_token(&req("a=1; sidecar_session=tok; b=2")).as_deref(), Some("tok"));
        assert_eq!(session_token(&req("sidecar_session=")), None);
        assert_eq!(session_token(&req("other_session=tok")), None);
        let cookie = session_cookie("tok");
        for flag in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/"] {
            assert!(cookie.contains(flag), "{cookie}");
        }
    }
}
