//! Settings → About's updates as the core keeps them: which copies may update
//! themselves, which addresses are used, that nothing installs before a look found it,
//! what a refused signature says, and a daily look that stays daily across restarts.
//! The updater behind it is scripted here; the end-to-end test runs Tauri's real one
//! against a loopback server with signed packages.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use futures_util::future::BoxFuture;
use sidecar::events::{CoreEvent, EventBus};
use sidecar_desktop_features::Offer;
use sidecar_desktop_features::PackageFormat;
use sidecar_desktop_features::UpdateFailure;
use sidecar_desktop_features::UpdateSource;
use sidecar_desktop_features::UpdateState;
use sidecar_desktop_features::Updates;
use sidecar_domain::Clock;
use sidecar_domain::Lang;

/// An updater that answers as told and notes what it was asked.
#[derive(Default)]
struct Scripted {
    looks: Mutex<VecDeque<Result<Option<Offer>, UpdateFailure>>>,
    installs: Mutex<VecDeque<Result<(), UpdateFailure>>>,
    asked: Mutex<Vec<(String, Option<String>)>>,
    installed: Mutex<usize>,
}

impl UpdateSource for Scripted {
    fn check<'a>(&'a self, address: &'a str, public_key: Option<&'a str>) -> BoxFuture<'a, Result<Option<Offer>, UpdateFailure>> {
        self.asked.lock().unwrap().push((address.to_string(), public_key.map(str::to_string)));
        let answer = self.looks.lock().unwrap().pop_front().expect("an unexpected look");
        Box::pin(async move { answer })
    }

    fn install<'a>(&'a self, mut progress: Box<dyn FnMut(u64, Option<u64>) + Send + 'a>) -> BoxFuture<'a, Result<(), UpdateFailure>> {
        *self.installed.lock().unwrap() += 1;
        let answer = self.installs.lock().unwrap().pop_front().expect("an unexpected install");
        Box::pin(async move {
            for _ in 0..4 {
                progress(250, Some(1000));
            }
            answer
        })
    }
}

fn offer(version: &str) -> Offer {
    Offer { version: version.into(), published: None, notes: "Reminders ring on time after sleep.".into() }
}

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-27T09:00:00Z").unwrap().to_utc()
}

struct Setup {
    _dir: tempfile::TempDir,
    config: std::path::PathBuf,
    data: std::path::PathBuf,
    events: EventBus,
}

impl Setup {
    fn new(config_text: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("settings.toml");
        std::fs::write(&config, config_text).unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir_all(&data).unwrap();
        Self { _dir: dir, config, data, events: EventBus::default() }
    }

    fn updates(&self, at: DateTime<Utc>, source: Option<(Arc<Scripted>, Option<PackageFormat>)>) -> Arc<Updates> {
        let settings = sidecar_settings::Settings::load(&self.config).unwrap();
        let updates = Arc::new(Updates::new(
            Arc::new(sidecar_settings::SettingsOwner::new(settings, Some(self.config.clone()))),
            &self.data,
            Clock::fixed(at, chrono_tz::UTC),
            self.events.emitter(sidecar::events::CoreEvent::Updates),
            Lang::En,
        ));
        if let Some((source, format)) = source {
            updates.attach(source, format);
        }
        updates
    }
}

#[tokio::test]
async fn a_copy_built_from_source_or_with_no_address_says_why_it_does_not_update_itself() {
    let setup = Setup::new("");
    let cli = setup.updates(now(), None);
    assert!(cli.view().cannot.unwrap().contains("built from source"));
    assert_eq!(cli.look().await.state, UpdateState::Idle, "nothing to look with");

    let source = Arc::new(Scripted::default());
    let from_source = setup.updates(now(), Some((source.clone(), None)));
    assert!(from_source.view().cannot.unwrap().contains("git pull"));
    from_source.look().await;
    let deb = setup.updates(now(), Some((source.clone(), Some(PackageFormat::Deb))));
    if sidecar_desktop_features::BUILT_ADDRESS.is_none() {
        assert!(deb.view().cannot.unwrap().contains("no update address"), "{:?}", deb.view());
    }
    assert!(source.asked.lock().unwrap().is_empty(), "a copy that cannot update never asks");
}

#[tokio::test]
async fn an_address_is_https_or_on_this_computer_and_is_kept_in_the_settings_file() {
    let setup = Setup::new("# mine\n[user]\ntimezone = \"Europe/Madrid\"\n");
    let updates = setup.updates(now(), Some((Arc::new(Scripted::default()), Some(PackageFormat::Deb))));
    let refused = updates.set_address(Some("http://updates.example.org/latest.json")).unwrap_err().to_string();
    assert!(refused.contains("https://"), "{refused}");
    assert!(updates.set_address(Some("latest.json")).is_err());
    let view = updates.set_address(Some(" http://127.0.0.1:8123/latest.json ")).unwrap();
    assert_eq!((view.address.as_deref(), view.own_address, view.cannot), (Some("http://127.0.0.1:8123/latest.json"), true, None));
    updates.set_daily(true).unwrap();
    let text = std::fs::read_to_string(&setup.config).unwrap();
    assert!(
        text.starts_with("# mine\n[user]\ntimezone = \"Europe/Madrid\"")
            && text.contains("[updates]\naddress = \"http://127.0.0.1:8123/latest.json\"\ndaily = true"),
        "{text}"
    );
    // Read back as the next start reads it.
    let again = setup.updates(now(), None);
    assert!(again.view().daily && again.view().own_address);
    let view = updates.set_address(None).unwrap();
    assert!(!view.own_address);
    assert!(!std::fs::read_to_string(&setup.config).unwrap().contains("address"));
}

#[tokio::test]
async fn an_update_installs_only_after_a_look_found_it_and_a_refused_signature_installs_nothing() {
    let setup = Setup::new("[updates]\naddress = \"https://example.org/latest.json\"\npublic_key = \"KEY\"\n");
    let source = Arc::new(Scripted::default());
    let updates = setup.updates(now(), Some((source.clone(), Some(PackageFormat::Deb))));
    let mut events = setup.events.subscribe();

    let early = updates.install().await.unwrap_err().to_string();
    assert!(early.contains("look for one first"), "{early}");
    assert_eq!(*source.installed.lock().unwrap(), 0);

    source.looks.lock().unwrap().push_back(Ok(Some(offer("0.2.0"))));
    let view = updates.look().await;
    assert_eq!(view.state, UpdateState::Available { offer: offer("0.2.0") });
    assert_eq!(source.asked.lock().unwrap()[0], ("https://example.org/latest.json".to_string(), Some("KEY".to_string())));
    assert_eq!(view.last_looked, Some(now()));

    source.installs.lock().unwrap().push_back(Err(UpdateFailure::BadSignature("Invalid signature".into())));
    let view = updates.install().await.unwrap();
    let UpdateState::Failed { message, offer: kept } = view.state else { panic!("{view:?}") };
    assert!(message.contains("signature does not match") && message.contains("Nothing was installed"), "{message}");
    assert_eq!(kept, None, "the same package would be refused again");
    assert!(updates.install().await.is_err(), "nothing to install until a look finds one again");

    source.looks.lock().unwrap().push_back(Ok(Some(offer("0.2.0"))));
    updates.look().await;
    source.installs.lock().unwrap().push_back(Err(UpdateFailure::InstallFailed("Authentication failed or was cancelled".into())));
    let UpdateState::Failed { message, offer: kept } = updates.install().await.unwrap().state else { panic!() };
    assert!(message.contains("enter your password when asked"), "{message}");
    assert_eq!(kept, Some(offer("0.2.0")), "a cancelled password prompt may be tried again");

    source.installs.lock().unwrap().push_back(Ok(()));
    let view = updates.install().await.unwrap();
    assert_eq!(view.state, UpdateState::Installed { version: "0.2.0".into() });

    let mut states = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let CoreEvent::Updates(sidecar_desktop_features::UpdateEvent::Update(view)) = event {
            states.push(view.state);
        }
    }
    let progress: Vec<u64> = states
        .iter()
        .filter_map(|s| match s {
            UpdateState::Installing { received, .. } => Some(*received),
            _ => None,
        })
        .collect();
    assert_eq!(progress, [0, 250, 500, 750, 1000].repeat(3), "progress as it arrives, per install");
    assert!(matches!(states[0], UpdateState::Looking));
}

#[tokio::test]
async fn nothing_new_and_an_unreachable_address_are_said_plainly() {
    let setup = Setup::new("[updates]\naddress = \"https://example.org/latest.json\"\n");
    let source = Arc::new(Scripted::default());
    let updates = setup.updates(now(), Some((source.clone(), Some(PackageFormat::Rpm))));
    source.looks.lock().unwrap().push_back(Ok(None));
    assert_eq!(updates.look().await.state, UpdateState::UpToDate);
    source.looks.lock().unwrap().push_back(Err(UpdateFailure::Unreachable("connection refused".into())));
    let UpdateState::Failed { message, offer } = updates.look().await.state else { panic!() };
    assert!(message.contains("Could not reach") && message.contains("connection refused") && offer.is_none(), "{message}");
    assert!(updates.install().await.is_err(), "a failed look offers nothing to install");
}

#[tokio::test]
async fn the_daily_look_runs_once_a_day_when_allowed_and_announces_what_it_found() {
    let setup = Setup::new("[updates]\naddress = \"https://example.org/latest.json\"\n");
    let source = Arc::new(Scripted::default());
    let never = setup.updates(now(), Some((source.clone(), Some(PackageFormat::Deb))));
    let idle = tokio::spawn(never.clone().run_daily());
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    idle.abort();
    assert!(source.asked.lock().unwrap().is_empty(), "not allowed: no look");

    never.set_daily(true).unwrap();
    source.looks.lock().unwrap().push_back(Ok(Some(offer("0.3.0"))));
    let mut events = setup.events.subscribe();
    let daily = tokio::spawn(setup.updates(now(), Some((source.clone(), Some(PackageFormat::Deb)))).run_daily());
    let found = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            if let Ok(CoreEvent::Updates(sidecar_desktop_features::UpdateEvent::UpdateFound { title, body })) = events.recv().await {
                return (title, body);
            }
        }
    })
    .await
    .expect("the daily look announces a newer version");
    daily.abort();
    assert_eq!(found.0, "Sidecar 0.3.0 is available");
    assert!(found.1.contains("Settings → About"));

    // A restart the same day does not look again; the next day it does.
    let restarted = tokio::spawn(setup.updates(now() + Duration::hours(20), Some((source.clone(), Some(PackageFormat::Deb)))).run_daily());
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    restarted.abort();
    assert_eq!(source.asked.lock().unwrap().len(), 1);
    source.looks.lock().unwrap().push_back(Ok(None));
    let next_day = setup.updates(now() + Duration::hours(25), Some((source.clone(), Some(PackageFormat::Deb))));
    let running = tokio::spawn(next_day.clone().run_daily());
    tokio::time::timeout(std::time::Duration::from_secs(10), async {
        while next_day.view().state != UpdateState::UpToDate {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the next day's look");
    running.abort();
    assert_eq!(source.asked.lock().unwrap().len(), 2);
}
