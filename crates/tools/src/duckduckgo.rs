//! DuckDuckGo's HTML results page, the search that needs no key and no setup: the
//! results read out of the page (title, the target behind DuckDuckGo's redirect,
//! snippet), ads left out.

use scraper::{ElementRef, Html, Selector};

use super::search_result::SearchResult;

/// Where the keyless results page is.
pub(crate) const DUCKDUCKGO_URL: &str = "https://html.duckduckgo.com/html/";

/// What the page turned out to be.
#[derive(Debug, PartialEq)]
pub(crate) enum Page {
    Results(Vec<SearchResult>),
    /// DuckDuckGo took the request for a robot and asks for a challenge instead.
    Refused,
}

pub(crate) fn read(html: &str) -> Page {
    let page = Html::parse_document(html);
    let select = |css: &str| Selector::parse(css).expect("a valid selector");
    if page.select(&select(".anomaly-modal__modal, #challenge-form")).next().is_some() {
        return Page::Refused;
    }
    let (title, snippet) = (select("a.result__a"), select(".result__snippet"));
    let results = page
        .select(&select("div.result"))
        .filter(|r| !r.value().classes().any(|c| c == "result--ad"))
        .filter_map(|result| {
            let link = result.select(&title).next()?;
            let url = target(link.value().attr("href")?)?;
            Some(SearchResult { title: words(link), url, snippet: result.select(&snippet).next().map(words).unwrap_or_default() })
        })
        .collect();
    Page::Results(results)
}

/// The page a result leads to: DuckDuckGo links through `/l/?uddg=TARGET`; its ads
/// through `/y.js`, which are not results.
fn target(href: &str) -> Option<String> {
    let absolute = if href.starts_with("//") { format!("https:{href}") } else { href.to_string() };
    let url = url::Url::parse(&absolute).ok()?;
    let on_duckduckgo = url.host_str().is_some_and(|h| h == "duckduckgo.com" || h.ends_with(".duckduckgo.com"));
    if !on_duckduckgo {
        return matches!(url.scheme(), "http" | "https").then(|| url.to_string());
    }
    if url.path() != "/l/" {
        return None;
    }
    let (_, target) = url.query_pairs().find(|(k, _)| k == "uddg")?;
    url::Url::parse(&target).ok().filter(|t| matches!(t.scheme(), "http" | "https")).map(|t| t.to_string())
}

/// An element's text with its whitespace folded.
fn words(element: ElementRef<'_>) -> String {
    element.text().flat_map(str::split_whitespace).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_are_followed_to_their_target_and_ads_dropped() {
        assert_eq!(target("//duckduckgo.com/l/?uddg=https%3A%2F%2Fv2.tauri.app%2Fstart%2F&rut=ab").as_deref(), Some("https://v2.tauri.app/start/"));
        assert_eq!(target("https://www.rust-lang.org/").as_deref(), Some("https://www.rust-lang.org/"));
        assert_eq!(target("//duckduckgo.com/y.js?ad_domain=example.com&ad_provider=bing"), None);
        assert_eq!(target("javascript:alert(1)"), None);
        assert_eq!(target("//duckduckgo.com/l/?uddg=javascript%3Aalert(1)"), None);
    }
}
