//! Feeds Sidecar did not write: the calendars of python-icalendar's own test suite
//! (`tests/feeds/`, BSD licence, see its README), made by Google, Thunderbird, Outlook,
//! Etar and by fuzzers, read as a subscribed feed is: split by UID, then each item's
//! events. Nothing may panic or hang; what cannot be read is said; and the events of the
//! calendars that are well formed are read with the right times.

use std::path::Path;

use chrono::{TimeZone, Utc};
use sidecar_calendar::events_of;
use sidecar_calendar::split;

fn feeds() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/feeds");
    let mut found: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "ics"))
        .map(|e| (e.file_name().to_string_lossy().to_string(), String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).to_string()))
        .collect();
    found.sort();
    found
}

#[test]
fn every_feed_of_another_projects_suite_is_read_or_refused_in_words() {
    let (mut files, mut refused, mut items, mut events, mut unreadable) = (0, 0, 0, 0, Vec::new());
    for (name, text) in feeds() {
        files += 1;
        match split(&text) {
            Err(error) => {
                assert!(!error.to_string().trim().is_empty(), "{name}: an error with no words");
                println!("  refused {name}: {error}");
                refused += 1;
            }
            Ok((_, found)) => {
                for item in found {
                    items += 1;
                    match events_of(&item.data, chrono_tz::Europe::Madrid) {
                        Ok(read) => events += read.len(),
                        Err(error) => unreadable.push(format!("{name}: {error}")),
                    }
                }
            }
        }
    }
    println!("{files} feeds: {refused} refused whole, {items} items, {events} events read, {} items unreadable", unreadable.len());
    for line in &unreadable {
        println!("  {line}");
    }
    assert!(files >= 100, "the suite is all there: {files}");
    // Floors measured on this suite (see the README): a change that reads fewer fails.
    assert!(events >= 64, "{events} events read");
    assert!(unreadable.len() <= 20, "{unreadable:#?}");
    assert!(refused <= 18, "{refused} refused");
}

#[test]
fn zones_named_by_other_apps_are_read_at_the_right_instant() {
    let all = feeds();
    let text = |name: &str| all.iter().find(|(n, _)| n == name).unwrap().1.clone();
    // "custom_America/New_York": an app's own name for a zone the database knows.
    let (_, items) = split(&text("america_new_york.ics")).unwrap();
    let read: Vec<_> = items.iter().flat_map(|i| events_of(&i.data, chrono_tz::UTC).unwrap()).collect();
    assert!(!read.is_empty());
    assert!(read.iter().all(|e| e.zone == chrono_tz::America::New_York), "{read:?}");
    // 29 August 2014, 08:00 in New York (summer time, UTC−4).
    assert_eq!(read[0].start, Utc.with_ymd_and_hms(2014, 8, 29, 12, 0, 0).unwrap());
    // Mozilla Lightning's and libical's globally unique names.
    let (_, items) = split(&text("issue_313_globally_unique_tzid.ics")).unwrap();
    let read: Vec<_> = items.iter().flat_map(|i| events_of(&i.data, chrono_tz::UTC).unwrap()).collect();
    assert_eq!(read.len(), 3, "{read:?}");
    // A byte-order mark first is not the calendar's.
    assert!(split(&text("bom_calendar.ics")).is_ok());
    // An Outlook zone name is said, with the event and the name.
    let (_, items) = split(&text("issue_836_do_not_quote_tzid.ics")).unwrap();
    let said = events_of(&items[0].data, chrono_tz::UTC).unwrap_err().to_string();
    assert!(said.contains("Anonymous Test Event for TZID") && said.contains("Eastern Standard Time"), "{said}");
}
