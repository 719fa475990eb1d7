//! Mail against a real IMAP server: Dovecot (Debian's dovecot-imapd, installed by `make
//! test`), started on loopback by the test, with a second client playing the mail that
//! arrives and the user's other mail app. Folders discovered, the first sync bounded to
//! its days, nothing marked read, a sync with nothing to do, a new mail seen by IDLE
//! within 2 s, a deleted mail gone at the next sync, UIDVALIDITY changing (read again,
//! nothing doubled), a wrong password refused with what to do, and the server down (the
//! last copy kept, and said, in both languages).

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sidecar_domain::{Clock, Lang, Secrets, Worded};
use sidecar_mail::{Connect, Cut, MailError, MailSecurity, MailServer, MailService, Woke, MAX_FETCH_BYTES};
use sidecar_store::Store;

// Shared with tests/it and the bench: not every helper is used here.
#[path = "../../../tests/it/support/dovecot.rs"]
#[allow(dead_code)]
mod dovecot;

use dovecot::{mail, Dovecot, PASSWORD, USER};

fn now() -> DateTime<Utc> {
    Utc::now()
}

fn connect(port: u16, password: &str) -> Connect {
    Connect {
        address: USER.into(),
        server: MailServer { host: "127.0.0.1".into(), port, security: MailSecurity::Plain, hint: None },
        username: USER.into(),
        password: password.into(),
        first_days: 30,
    }
}

fn date(days_ago: i64) -> String {
    (now() - chrono::Duration::days(days_ago)).to_rfc2822()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn folders_first_sync_idle_deletion_uidvalidity_and_the_server_down() {
    // A server that stops answering fails the test, not the whole run.
    tokio::time::timeout(Duration::from_secs(180), sync_as_a_mailbox_changes()).await.expect("the test finished within 3 minutes");
}

async fn sync_as_a_mailbox_changes() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Dovecot::start(&dir.path().join("imap")).await;
    let old = mail("Ana Ruiz <ana@example.org>", "Las fotos de 2025", &date(90), "Te mando las fotos.");
    let flat = mail("Ana Ruiz <ana@example.org>", "El piso", &date(1), "¿Te va bien el jueves a las 6 para ver el piso?");
    let news = mail("Boletín <news@shop.example>", "Ofertas", &date(2), "Compra ya.");
    for m in [&old, &flat, &news] {
        server.deliver("INBOX", m).await;
    }
    server.create("Work").await;
    server.deliver("Work", &mail("boss@work.example", "Informe", &date(3), "El informe, para el lunes.")).await;
    let flags_before = server.flags("INBOX").await;

    let store = Store::open(&dir.path().join("data")).await.unwrap();
    let service = MailService::new(store, Arc::new(Secrets::new(false)), Clock::fixed(now(), chrono_tz::Europe::Madrid));

    // A wrong password is refused before anything is kept, with what to do.
    let refused = service.connect(connect(server.port, "wrong"), Lang::En).await;
    assert!(matches!(refused, Err(MailError::Refused)), "{refused:?}");
    let refused = refused.unwrap_err();
    assert!(refused.to_string().contains("app password") && refused.spanish().contains("contraseña de aplicación"));
    assert_eq!(service.view().await.unwrap().account, None);

    // Discovery and the first sync: the folders listed, the Inbox read, its last 30 days.
    let view = service.connect(connect(server.port, PASSWORD), Lang::En).await.unwrap();
    let names: Vec<(&str, bool, u32)> = view.folders.iter().map(|f| (f.name.as_str(), f.read, f.mails)).collect();
    assert_eq!(names, [("INBOX", true, 2), ("Work", false, 0)], "the Inbox first and read; the 90-day-old mail left out");
    assert_eq!(server.flags("INBOX").await, flags_before, "reading marks nothing (EXAMINE, BODY.PEEK)");
    let found = service.search("piso jueves", 5).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].from_name.as_deref(), found[0].subject.as_str()), (Some("Ana Ruiz"), "El piso"));

    // Nothing new: nothing fetched.
    let again = service.sync_all(Lang::En).await.unwrap();
    assert!(again.iter().all(|(_, r)| r.unchanged && r.added == 0), "{again:?}");

    // A new mail is seen by IDLE within 2 s.
    let service = Arc::new(service);
    let waiting = service.clone();
    let handle = tokio::spawn(async move { waiting.wait_for_mail(Duration::from_secs(30)).await });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sent = std::time::Instant::now();
    server.deliver("INBOX", &mail("ana@example.org", "Cambio de hora", &date(0), "Mejor a las 7.")).await;
    let woke = tokio::time::timeout(Duration::from_secs(2), handle).await.expect("IDLE said it within 2 s").unwrap().unwrap();
    assert_eq!(woke, Woke::Changed);
    println!("IDLE: the new mail was seen {:?} after it was appended", sent.elapsed());
    let synced = service.sync_all(Lang::En).await.unwrap();
    assert_eq!(synced[0].1.added, 1);

    // Deleted in another app: gone at the next sync.
    let offers = {
        let mut w = server.writer().await;
        w.examine("INBOX").await.unwrap();
        let uids = w.uid_search("SUBJECT Ofertas").await.unwrap();
        let _ = w.logout().await;
        uids.into_iter().next().unwrap()
    };
    server.delete("INBOX", offers).await;
    let synced = service.sync_all(Lang::En).await.unwrap();
    assert_eq!((synced[0].1.added, synced[0].1.removed), (0, 1));
    assert!(service.search("Ofertas", 5).await.unwrap().is_empty());

    // UIDVALIDITY changes (the folder made again): read again from nothing, nothing doubled.
    server.recreate("Work", std::slice::from_ref(&flat)).await;
    service.choose_folders(&["INBOX".into(), "Work".into()]).await.unwrap();
    service.sync_all(Lang::En).await.unwrap();
    server.recreate("Work", &[flat.clone(), news.clone()]).await;
    let synced = service.sync_all(Lang::En).await.unwrap();
    let work = synced.iter().find(|(name, _)| name == "Work").unwrap();
    assert!(work.1.read_again && work.1.added == 2, "{work:?}");
    let folders = service.view().await.unwrap().folders;
    assert_eq!(folders.iter().map(|f| f.mails).collect::<Vec<_>>(), [2, 2], "each mail once");

    // The server down: the last copy kept, and why, in the user's language.
    server.stop();
    let down = service.sync_all(Lang::Es).await;
    assert!(matches!(down, Err(MailError::Unreachable(_))), "{down:?}");
    let inbox = &service.view().await.unwrap().folders[0];
    assert_eq!(inbox.mails, 2);
    assert!(inbox.problem.as_deref().is_some_and(|p| p.contains("última copia")), "{:?}", inbox.problem);
    assert_eq!(service.search("piso", 5).await.unwrap().len(), 2, "found while the server is down");

    // Disconnecting deletes every stored mail.
    let view = service.disconnect().await.unwrap();
    assert!(view.account.is_none() && view.folders.is_empty());
    assert!(service.search("piso", 5).await.unwrap().is_empty());
}

/// A 200 MB base64 attachment costs [`sidecar_mail::MAX_FETCH_BYTES`]: only the mail's
/// first megabyte is fetched, and what was not is said.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_200_mb_mail_is_fetched_only_in_part() {
    tokio::time::timeout(Duration::from_secs(300), async {
        let dir = tempfile::tempdir().unwrap();
        let server = Dovecot::start(&dir.path().join("imap")).await;
        let mut big = mail("ana@example.org", "Las fotos", &date(0), "Aquí van las fotos del piso.");
        big = big.replace(
            "Content-Type: text/plain; charset=utf-8\n\nAquí",
            "Content-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: text/plain; charset=utf-8\n\nAquí",
        );
        big.push_str("--B\nContent-Type: image/jpeg\nContent-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=fotos.jpg\n\n");
        let line = format!("{}\n", "QUJD".repeat(19));
        big.push_str(&line.repeat(200 * 1024 * 1024 / line.len()));
        big.push_str("--B--\n");
        server.deliver("INBOX", &big).await;
        drop(big);

        let store = Store::open(&dir.path().join("data")).await.unwrap();
        let service = MailService::new(store, Arc::new(Secrets::new(false)), Clock::fixed(now(), chrono_tz::Europe::Madrid));
        let started = std::time::Instant::now();
        service.connect(connect(server.port, PASSWORD), Lang::En).await.unwrap();
        println!("a 200 MB mail synced in {:?}", started.elapsed());
        let found = service.search("fotos piso", 5).await.unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].text, "Aquí van las fotos del piso.");
        assert_eq!(found[0].attachments, ["fotos.jpg"]);
        assert!(matches!(found[0].cut, Some(Cut::Fetched { kept, of }) if kept == MAX_FETCH_BYTES && of > 200_000_000), "{:?}", found[0].cut);
    })
    .await
    .expect("the test finished within 5 minutes");
}
