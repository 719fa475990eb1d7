//! `.ics` subscriptions: a calendar published at an address (`webcal://` or `https://`)
//! for calendars without CalDAV (a team's holidays, a league's fixtures). Read only. At
//! each sync it is fetched again with the ETag (or date) last seen, so an unchanged feed costs one
//! `304`; a changed one is split into items by UID, and only the items whose content
//! changed are read and kept again, as a CalDAV calendar's are.

use std::collections::BTreeMap;
use std::time::Duration;

use icalendar::{Calendar, CalendarComponent, Component};
use sha2::{Digest, Sha256};

use crate::dav::RemoteItem;
use crate::error::CalendarError;

/// The largest feed read (a decade of a busy shared calendar is a few megabytes).
pub(crate) const MAX_FEED_BYTES: usize = 20 * 1024 * 1024;
/// The most events a subscribed calendar may have: a holiday or team calendar has a few
/// hundred; 140,000 small events fit in 20 MB and took 778 MB to read and store.
pub const MAX_FEED_EVENTS: usize = 20_000;
/// A feed that has not arrived by then is a server that is down.
const FETCH_LIMIT: Duration = Duration::from_secs(60);

/// What tells a feed's version: its ETag, else its Last-Modified date (kept marked).
const MODIFIED: &str = "modified:";

/// A feed as fetched: its version (to ask "changed?" next time), its name, its items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Feed {
    pub version: Option<String>,
    pub name: Option<String>,
    pub items: Vec<RemoteItem>,
}

/// The address to fetch: `webcal://` is `https://`; only web addresses are taken.
pub(crate) fn address(url: &str) -> Result<reqwest::Url, CalendarError> {
    let url = url.trim();
    let fetched = match url.get(..9) {
        Some(scheme) if scheme.eq_ignore_ascii_case("webcal://") => format!("https://{}", &url[9..]),
        _ => url.to_string(),
    };
    match reqwest::Url::parse(&fetched) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.host().is_some() => Ok(parsed),
        _ => Err(CalendarError::NotAFeed(url.to_string())),
    }
}

/// The feed at `url`; `None` when the server says it has not changed since `version`
/// (asked by ETag, or by date when the server gave no ETag).
pub(crate) async fn fetch(http: &reqwest::Client, url: &str, version: Option<&str>) -> Result<Option<Feed>, CalendarError> {
    let address = address(url)?;
    let mut request = http.get(address).header(reqwest::header::ACCEPT, "text/calendar, */*;q=0.5").timeout(FETCH_LIMIT);
    match version.map(|v| v.strip_prefix(MODIFIED).ok_or(v)) {
        Some(Ok(date)) => request = request.header(reqwest::header::IF_MODIFIED_SINCE, date),
        Some(Err(etag)) => request = request.header(reqwest::header::IF_NONE_MATCH, etag),
        None => {}
    }
    let mut response = request.send().await.map_err(unreachable)?;
    let status = response.status();
    if status == reqwest::StatusCode::NOT_MODIFIED {
        return Ok(None);
    }
    if status == reqwest::StatusCode::UNAUTHORIZED || status == reqwest::StatusCode::FORBIDDEN {
        return Err(CalendarError::FeedRefused(status.as_u16()));
    }
    if !status.is_success() {
        return Err(CalendarError::Server(format!("HTTP {status} for the subscription")));
    }
    let header = |name| response.headers().get(name).and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok()).map(str::to_string);
    let version = header(reqwest::header::ETAG).or_else(|| header(reqwest::header::LAST_MODIFIED).map(|date| format!("{MODIFIED}{date}")));
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(unreachable)? {
        if body.len() + chunk.len() > MAX_FEED_BYTES {
            return Err(CalendarError::FeedTooLarge(MAX_FEED_BYTES / (1024 * 1024)));
        }
        body.extend_from_slice(&chunk);
    }
    let text = String::from_utf8_lossy(&body);
    // What is not a calendar is not quoted: its text would reach Settings and the log.
    if !text.trim_start_matches('\u{feff}').trim_start().get(..15).is_some_and(|start| start.eq_ignore_ascii_case("BEGIN:VCALENDAR")) {
        return Err(CalendarError::Server("the address did not answer with a calendar (.ics)".into()));
    }
    let text = text.into_owned();
    // Splitting 20 MB takes seconds: on the blocking pool, not the app's threads.
    let (name, items) = crate::blocking::off_workers(move || Some(split(&text))).await.unwrap_or_else(|| Err(crate::blocking::closing()))?;
    Ok(Some(Feed { version, name, items }))
}

/// The client feeds are fetched with: 20 s per request, and redirects followed only
/// where they stay on the kind of network they started on. A public feed that answers
/// with a redirect to this computer, the home network or a link-local address (a cloud's
/// metadata service at 169.254.169.254) is refused: Sidecar would fetch for it what only
/// this computer can reach.
pub fn feed_client() -> reqwest::Client {
    let policy = reqwest::redirect::Policy::custom(|attempt| {
        if attempt.previous().len() >= 5 {
            return attempt.error("more than 5 redirects");
        }
        let started_public = attempt.previous().first().is_some_and(|first| !private(first));
        if started_public && private(attempt.url()) {
            return attempt.error("a public calendar's redirect to a private address");
        }
        attempt.follow()
    });
    reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(20))
        .user_agent("Sidecar/0.1")
        .redirect(policy)
        .build()
        .expect("a TLS backend is compiled in")
}

/// An address on this computer, a private network or a link-local one.
fn private(url: &reqwest::Url) -> bool {
    use std::net::IpAddr;
    let Some(host) = url.host_str() else { return true };
    let Ok(ip) = host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() else {
        return host.eq_ignore_ascii_case("localhost") || host.to_ascii_lowercase().ends_with(".localhost");
    };
    match ip {
        IpAddr::V4(ip) => ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified() || ip.is_broadcast(),
        IpAddr::V6(ip) => {
            let first = ip.segments()[0];
            ip.is_loopback()
                || ip.is_unspecified()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || ip.to_ipv4_mapped().is_some_and(|v4| private(&format!("http://{v4}/").parse().expect("an address")))
        }
    }
}

/// A transport error, said without the address (a private feed's carries its token).
fn unreachable(error: reqwest::Error) -> CalendarError {
    let error = error.without_url();
    tracing::warn!(error = %error, "calendar subscription unreachable");
    CalendarError::Unreachable(error.to_string())
}

/// A tag of an item's text that changes when the text does (a feed's items and the
/// reminders' to-dos have no server etag to compare).
pub(crate) fn content_tag(data: &str) -> String {
    Sha256::digest(data.as_bytes()).iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// A feed's name (X-WR-CALNAME) and its items: the events of one UID together (a
/// repeating event and the occurrences it moves), each named by its UID and tagged by a
/// hash of its content, so what did not change is not read again.
pub fn split(text: &str) -> Result<(Option<String>, Vec<RemoteItem>), CalendarError> {
    // A byte-order mark some apps write first is not part of the calendar.
    let text = text.trim_start_matches('\u{feff}');
    crate::event::check_structure(text)?;
    // Counted before the parser reads them all.
    let events = text.lines().filter(|line| line.trim_end().eq_ignore_ascii_case("BEGIN:VEVENT")).count();
    if events > MAX_FEED_EVENTS {
        return Err(CalendarError::FeedTooMany(MAX_FEED_EVENTS));
    }
    let calendar: Calendar = text.parse().map_err(|e: String| {
        let at: String = e.lines().next().unwrap_or_default().trim_start_matches("error: 0: ").chars().take(120).collect();
        CalendarError::Unreadable(format!("the calendar reader stopped {at}"))
    })?;
    let mut by_uid: BTreeMap<String, Calendar> = BTreeMap::new();
    for (index, component) in calendar.components.iter().enumerate() {
        let CalendarComponent::Event(event) = component else { continue };
        // An event with no UID is an item of its own, named by its place in the feed.
        let uid = event.get_uid().map(str::to_string).unwrap_or_else(|| format!("no-uid-{index}"));
        by_uid.entry(uid).or_default().push(event.clone());
    }
    let items = by_uid
        .into_iter()
        .map(|(uid, calendar)| {
            let data = calendar.to_string();
            RemoteItem { href: uid, etag: content_tag(&data), data }
        })
        .collect();
    let name = calendar.get_name().map(str::trim).filter(|n| !n.is_empty()).map(str::to_string);
    Ok((name, items))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_private_and_link_local_addresses_are_private() {
        for address in [
            "http://127.0.0.1/",
            "http://169.254.169.254/latest",
            "http://10.0.0.1/",
            "http://192.168.1.2/",
            "http://localhost:8080/",
            "http://[::1]/",
            "http://[fe80::1]/",
        ] {
            assert!(private(&address.parse().unwrap()), "{address}");
        }
        for address in ["https://calendar.google.com/x.ics", "http://93.184.216.34/"] {
            assert!(!private(&address.parse().unwrap()), "{address}");
        }
    }

    #[test]
    fn a_feed_of_more_events_than_a_calendar_has_is_refused_before_it_is_read() {
        let event = "BEGIN:VEVENT\r\nUID:e\r\nDTSTART:20261208T090000Z\r\nSUMMARY:x\r\nEND:VEVENT\r\n";
        let feed = format!("BEGIN:VCALENDAR\r\n{}END:VCALENDAR\r\n", event.repeat(MAX_FEED_EVENTS + 1));
        assert!(matches!(split(&feed), Err(CalendarError::FeedTooMany(MAX_FEED_EVENTS))));
    }

    const FEED: &str = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nX-WR-CALNAME:Festivos\r\n\
BEGIN:VEVENT\r\nUID:a@x\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;VALUE=DATE:20261208\r\nSUMMARY:Inmaculada\r\nEND:VEVENT\r\n\
BEGIN:VEVENT\r\nUID:b@x\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261102T090000Z\r\nRRULE:FREQ=WEEKLY\r\nSUMMARY:Weekly\r\nEND:VEVENT\r\n\
BEGIN:VEVENT\r\nUID:b@x\r\nDTSTAMP:20261101T000000Z\r\nRECURRENCE-ID:20261109T090000Z\r\nDTSTART:20261109T100000Z\r\nSUMMARY:Weekly, moved\r\nEND:VEVENT\r\n\
END:VCALENDAR\r\n";

    #[test]
    fn a_feed_is_split_by_uid_with_its_name_and_a_content_tag_that_moves_only_with_the_content() {
        let (name, items) = split(FEED).unwrap();
        assert_eq!(name.as_deref(), Some("Festivos"));
        assert_eq!(items.iter().map(|i| i.href.as_str()).collect::<Vec<_>>(), ["a@x", "b@x"]);
        assert_eq!(crate::event::events_of(&items[1].data, chrono_tz::UTC).unwrap().len(), 2, "the moved occurrence stays with its series");
        let (_, again) = split(FEED).unwrap();
        assert_eq!(items, again);
        let (_, edited) = split(&FEED.replace("Inmaculada", "Inmaculada Concepción")).unwrap();
        assert_ne!(edited[0].etag, items[0].etag);
        assert_eq!(edited[1].etag, items[1].etag);
    }

    #[test]
    fn addresses_webcal_is_https_and_others_are_refused() {
        assert_eq!(address(" webcal://example.com/h.ics").unwrap().as_str(), "https://example.com/h.ics");
        assert!(matches!(address("ftp://example.com/h.ics"), Err(CalendarError::NotAFeed(_))));
        assert!(matches!(address("holidays"), Err(CalendarError::NotAFeed(_))));
    }

    #[test]
    fn a_broken_or_hostile_feed_is_an_error_that_says_where() {
        let cut = FEED.replace("END:VCALENDAR\r\n", "");
        assert!(split(&cut).unwrap_err().to_string().contains("never ended"));
        let deep = format!("BEGIN:VCALENDAR\r\n{}", "BEGIN:X\r\n".repeat(5000));
        assert!(split(&deep).is_err());
        assert!(split("<html>Not found</html>").is_err());
    }
}
