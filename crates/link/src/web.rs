//! The web app a browser (the phone's) opens on the home core: the window's own files,
//! and a session that the pairing code opens. The session is the device's token in an
//! HttpOnly, Secure, SameSite=Strict cookie (never in a URL, never readable by a
//! script); every page carries a content policy that runs only the core's own scripts
//! and lets no other site frame it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

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

/// The web app as served: the face's files, and the text ones gzipped once each (a
/// phone on Wi-Fi fetches a third of the bytes).
pub(crate) struct WebApp {
    files: Arc<dyn WebFiles>,
    packed: Mutex<HashMap<String, Bytes>>,
}

impl WebApp {
    pub(crate) fn new(files: Arc<dyn WebFiles>) -> Self {
        Self { files, packed: Mutex::default() }
    }

    /// The file a path asks for: "/" and a path of the app's own (no file extension, as
    /// "/reminders") are its page; "..", empty and hidden parts are never served.
    /// `gzip`: the browser takes it so.
    pub(crate) fn page(&self, path: &str, gzip: bool) -> Response<Full<Bytes>> {
        let path = path.trim_start_matches('/');
        let unsafe_part = path.split('/').any(|part| part == ".." || part.starts_with('.') || part.contains('\\'));
        let last = path.rsplit('/').next().unwrap_or_default();
        let name = if path.is_empty() || (!unsafe_part && !last.contains('.')) { "index.html" } else { path };
        let found = if unsafe_part { None } else { self.files.file(name) };
        let Some(bytes) = found else {
            return secured(Response::builder().status(StatusCode::NOT_FOUND).header(header::CONTENT_TYPE, "text/plain; charset=utf-8"))
                .body(Full::new(Bytes::from_static(b"Not found")))
                .expect("a response");
        };
        // Bundled assets are named by their content, so they may be kept; the page is not.
        let cache = if name.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "no-cache" };
        let answer = secured(Response::builder().status(StatusCode::OK).header(header::CONTENT_TYPE, mime(name)).header(header::CACHE_CONTROL, cache))
            .header(header::VARY, "Accept-Encoding");
        let packed = (gzip && is_text(name)).then(|| self.packed(name, &bytes)).flatten();
        match packed {
            Some(packed) => answer.header(header::CONTENT_ENCODING, "gzip").body(Full::new(packed)),
            None => answer.body(Full::new(Bytes::from(bytes.into_owned()))),
        }
        .expect("a response")
    }

    /// `bytes` of `name` gzipped, made once.
    fn packed(&self, name: &str, bytes: &[u8]) -> Option<Bytes> {
        if let Some(packed) = self.packed.lock().expect("web").get(name) {
            return Some(packed.clone());
        }
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).ok()?;
        let packed = Bytes::from(encoder.finish().ok()?);
        self.packed.lock().expect("web").insert(name.to_string(), packed.clone());
        Some(packed)
    }
}

/// Whether a request's browser takes gzip.
pub(crate) fn takes_gzip<B>(req: &Request<B>) -> bool {
    req.headers().get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|coding| {
        let mut parts = coding.trim().split(';');
        parts.next().is_some_and(|name| name.trim().eq_ignore_ascii_case("gzip")) && !parts.any(|q| q.trim().replace(' ', "") == "q=0")
    })
}

/// Whether a file is text, which gzip shrinks (images and fonts are packed already).
fn is_text(name: &str) -> bool {
    let mime = mime(name);
    mime.starts_with("text/") || mime.contains("json") || mime.contains("svg")
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
        let app = WebApp::new(Arc::new(Two));
        let served = |path: &str| {
            let r = app.page(path, false);
            (r.status().as_u16(), r.headers().get(header::CONTENT_TYPE).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default())
        };
        assert_eq!(served("/"), (200, "text/html; charset=utf-8".into()));
        assert_eq!(served("/reminders"), (200, "text/html; charset=utf-8".into()));
        assert_eq!(served("/assets/app.js"), (200, "text/javascript; charset=utf-8".into()));
        assert_eq!(served("/assets/missing.js").0, 404);
        assert_eq!(served("/../etc/passwd").0, 404);
        assert_eq!(served("/assets/../index.html").0, 404);
        assert_eq!(served("/.env").0, 404);
        let r = app.page("/", false);
        assert_eq!(r.headers()[header::CONTENT_SECURITY_POLICY], CONTENT_POLICY);
        assert_eq!(r.headers()[header::X_FRAME_OPTIONS], "DENY");
    }

    #[tokio::test]
    async fn text_goes_gzipped_to_a_browser_that_takes_it_and_as_it_is_to_one_that_does_not() {
        use http_body_util::BodyExt;
        let app = WebApp::new(Arc::new(Two));
        let body = |r: Response<Full<Bytes>>| async move { r.into_body().collect().await.unwrap().to_bytes() };
        let packed = app.page("/assets/app.js", true);
        assert_eq!(packed.headers()[header::CONTENT_ENCODING], "gzip");
        let mut unpacked = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&body(packed).await[..]), &mut unpacked).unwrap();
        assert_eq!(unpacked, "go()");
        let plain = app.page("/assets/app.js", false);
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(&body(plain).await[..], b"go()");
        let asked = |value: &str| takes_gzip(&Request::get("/").header(header::ACCEPT_ENCODING, value).body(()).unwrap());
        assert!(asked("gzip, deflate, br") && asked("br;q=1.0, GZIP;q=0.5"));
        assert!(!asked("br") && !asked("gzip;q=0") && !asked("identity"));
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
