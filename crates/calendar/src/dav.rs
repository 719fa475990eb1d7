//! The CalDAV conversation, over libdav: find the user's calendars, list what a calendar
//! holds (hrefs and etags), fetch changed items in one multiget, and write with
//! preconditions (create only if absent, change or delete only the version last seen),
//! so a write never overwrites an edit made elsewhere. Every request has a time limit, and
//! every answer a size limit (`capped`).

use std::time::Duration;

use http::Uri;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use libdav::caldav::{CreateCalendar, FindCalendarHomeSet, FindCalendars, GetCalendarResources};
use libdav::dav::{Delete, GetProperty, ListResources, PutResource, WebDavClient, WebDavError};
use libdav::{names, CalDavClient, PropertyName};
use tower_http::auth::AddAuthorization;

use crate::error::CalendarError;

/// One request's longest wait: a server that hangs is a server that is down. Listing a
/// calendar of thousands of events takes a slow server tens of seconds.
const REQUEST_LIMIT: Duration = Duration::from_secs(120);
/// Items fetched per multiget.
const BATCH: usize = 100;
const GETCTAG: PropertyName<'static, 'static> = PropertyName::new(names::CALENDAR_SERVER, "getctag");
const ICS: &str = "text/calendar; charset=utf-8";

type Https = hyper_rustls::HttpsConnector<crate::capped::Connector>;
type Http = AddAuthorization<Client<Https, String>>;
type DavError = WebDavError<hyper_util::client::legacy::Error>;

/// A calendar on the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteCalendar {
    pub href: String,
    pub name: Option<String>,
    pub color: Option<String>,
}

/// An item as the server holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteItem {
    pub href: String,
    pub etag: String,
    pub data: String,
}

/// A connection to one CalDAV account.
pub struct Dav {
    client: CalDavClient<Http>,
}

fn failed(error: DavError) -> CalendarError {
    if crate::capped::too_large(&error) {
        return CalendarError::AnswerTooLarge(crate::capped::MAX_ANSWER_BYTES / 1_000_000);
    }
    match error {
        WebDavError::BadStatusCode(status) if status == http::StatusCode::UNAUTHORIZED || status == http::StatusCode::FORBIDDEN => {
            CalendarError::Refused(status.as_u16())
        }
        WebDavError::BadStatusCode(http::StatusCode::NOT_FOUND) => CalendarError::Gone,
        WebDavError::PreconditionFailed(_) | WebDavError::BadStatusCode(http::StatusCode::PRECONDITION_FAILED) => CalendarError::Changed,
        WebDavError::Request(e) => {
            tracing::warn!(error = %e, "calendar server unreachable");
            CalendarError::Unreachable(e.to_string())
        }
        other => CalendarError::Server(other.to_string()),
    }
}

async fn limited<T>(work: impl std::future::Future<Output = Result<T, DavError>>) -> Result<T, CalendarError> {
    match tokio::time::timeout(REQUEST_LIMIT, work).await {
        Ok(done) => done.map_err(failed),
        Err(_) => Err(CalendarError::Unreachable(format!("no answer within {} s", REQUEST_LIMIT.as_secs()))),
    }
}

impl Dav {
    /// A client for the account at `url` (its address, or any address under it).
    pub fn new(url: &str, username: &str, password: &str) -> Result<Self, CalendarError> {
        let uri: Uri = url.trim().parse().map_err(|_| CalendarError::NotAnAddress(url.to_string()))?;
        if !matches!(uri.scheme_str(), Some("http" | "https")) || uri.host().is_none() {
            return Err(CalendarError::NotAnAddress(url.to_string()));
        }
        let connector =
            hyper_rustls::HttpsConnectorBuilder::new().with_webpki_roots().https_or_http().enable_http1().wrap_connector(crate::capped::Connector::new());
        let http = AddAuthorization::basic(Client::builder(TokioExecutor::new()).build(connector), username, password);
        Ok(Self { client: CalDavClient::new(WebDavClient::new(uri, http)) })
    }

    /// The account's calendars: from its principal's home sets, else under the address.
    pub async fn calendars(&self) -> Result<Vec<RemoteCalendar>, CalendarError> {
        let principal = match tokio::time::timeout(REQUEST_LIMIT, self.client.find_current_user_principal()).await {
            Ok(Ok(found)) => found,
            Ok(Err(libdav::dav::FindCurrentUserPrincipalError::RequestError(error))) => return Err(failed(error)),
            Ok(Err(error)) => return Err(CalendarError::Server(error.to_string())),
            Err(_) => return Err(CalendarError::Unreachable(format!("no answer within {} s", REQUEST_LIMIT.as_secs()))),
        };
        let mut homes = match principal {
            Some(principal) => limited(self.client.request(FindCalendarHomeSet::new(principal.path()))).await?.home_sets,
            None => Vec::new(),
        };
        if homes.is_empty() {
            homes.push(self.client.base_url().clone());
        }
        let mut found = Vec::new();
        for home in homes {
            for calendar in limited(self.client.request(FindCalendars::new(home.path()))).await?.calendars {
                // A property the calendar does not have is answered 404: it has none.
                let name = limited(self.client.request(GetProperty::new(&calendar.href, &names::DISPLAY_NAME))).await.ok().and_then(|p| p.value);
                let color = limited(self.client.request(GetProperty::new(&calendar.href, &names::CALENDAR_COLOUR))).await.ok().and_then(|p| p.value);
                found.push(RemoteCalendar { href: calendar.href, name, color });
            }
        }
        Ok(found)
    }

    /// Makes a calendar at `href` named `name` (a calendar of Sidecar's own).
    pub async fn make_calendar(&self, href: &str, name: &str) -> Result<(), CalendarError> {
        limited(self.client.request(CreateCalendar::new(href).with_display_name(name))).await.map(drop)
    }

    /// The calendar's change tag: when it is the one last seen, nothing changed.
    pub async fn ctag(&self, calendar: &str) -> Result<Option<String>, CalendarError> {
        match limited(self.client.request(GetProperty::new(calendar, &GETCTAG))).await {
            Ok(found) => Ok(found.value),
            // A server with no ctag: every sync lists the etags.
            Err(CalendarError::Server(_)) => Ok(None),
            Err(other) => Err(other),
        }
    }

    /// What the calendar holds: each item's href and etag.
    pub async fn list(&self, calendar: &str) -> Result<Vec<(String, String)>, CalendarError> {
        let listed = limited(self.client.request(ListResources::new(calendar))).await?.resources;
        Ok(listed.into_iter().filter(|r| !r.resource_type.is_collection).filter_map(|r| Some((r.href, r.etag?))).collect())
    }

    /// The items at `hrefs`, fetched a hundred at a time; one the server no longer has
    /// is left out.
    pub async fn fetch(&self, calendar: &str, hrefs: &[String]) -> Result<Vec<RemoteItem>, CalendarError> {
        let mut items = Vec::with_capacity(hrefs.len());
        for batch in hrefs.chunks(BATCH) {
            let fetched = limited(self.client.request(GetCalendarResources::new(calendar).with_hrefs(batch))).await?.resources;
            items.extend(fetched.into_iter().filter_map(|r| r.content.ok().map(|c| RemoteItem { href: r.href, etag: c.etag, data: c.data })));
        }
        Ok(items)
    }

    /// Creates an item at `href`, only if nothing is there; its etag when the server says.
    pub async fn create(&self, href: &str, data: &str) -> Result<Option<String>, CalendarError> {
        Ok(limited(self.client.request(PutResource::new(href).create(data, ICS))).await?.etag)
    }

    /// Replaces the item at `href`, only if it is still the version `etag`:
    /// [`CalendarError::Changed`] when someone changed it since.
    pub async fn update(&self, href: &str, data: &str, etag: &str) -> Result<Option<String>, CalendarError> {
        Ok(limited(self.client.request(PutResource::new(href).update(data, ICS, etag))).await?.etag)
    }

    /// Deletes the item at `href`, only if it is still the version `etag`.
    pub async fn delete(&self, href: &str, etag: &str) -> Result<(), CalendarError> {
        limited(self.client.request(Delete::new(href).with_etag(etag))).await.map(drop)
    }
}
