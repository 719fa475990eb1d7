//! Mail figures (issue 73), against a real Dovecot on loopback. Prints; asserts nothing.
//!
//! - the first sync of an Inbox of 10,000 mails: its time and how much the database grew;
//! - a sync with nothing new (UIDVALIDITY, UIDNEXT and the count say so);
//! - a sync after 10 new mails and 10 deleted;
//! - a search by words over the 10,000.
//!
//! Run: `cargo bench -p sidecar-mail --bench first_sync` (needs Dovecot: `make deps`).

#[path = "../../../tests/it/support/dovecot.rs"]
#[allow(dead_code)]
mod dovecot;

use std::sync::Arc;
use std::time::Instant;

use chrono::{Duration, Utc};
use futures_util::TryStreamExt;
use sidecar_domain::{Clock, Lang, Secrets};
use sidecar_mail::{Connect, MailSecurity, MailServer, MailService};
use sidecar_store::Store;

const MAILS: usize = 10_000;
const CHANGED: usize = 10;

fn size(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum()
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let server = dovecot::Dovecot::start(&dir.path().join("imap")).await;
    let now = Utc::now();
    let people = ["Ana Ruiz <ana@example.org>", "Boletín <news@shop.example>", "Marta <marta@work.example>", "Banco <avisos@banco.example>"];
    server.fill_inbox((0..MAILS).map(|i| {
        let date = (now - Duration::minutes(4 * i as i64)).to_rfc2822();
        let body = format!("Hola, te escribo por el asunto {i}. ¿Puedes revisar el documento antes del jueves? Un saludo.\n").repeat(1 + i % 20);
        dovecot::mail(people[i % people.len()], &format!("Asunto {i}"), &date, &body)
    }));
    let data = dir.path().join("data");
    let store = Store::open(&data).await.unwrap();
    let before = size(&data);
    let service = MailService::new(store, Arc::new(Secrets::new(false)), Clock::fixed(now, chrono_tz::Europe::Madrid));
    let connect = Connect {
        address: dovecot::USER.into(),
        server: MailServer { host: "127.0.0.1".into(), port: server.port, security: MailSecurity::Plain, hint: None },
        username: dovecot::USER.into(),
        password: dovecot::PASSWORD.into(),
        first_days: 3650,
    };
    let started = Instant::now();
    let view = service.connect(connect, Lang::En).await.unwrap();
    let first = started.elapsed();
    let grown = size(&data) - before;
    println!(
        "mail: first sync of {} mails (with Dovecot indexing them) {:.1} s; the database grew {:.1} MB ({:.0} bytes a mail)",
        view.folders[0].mails,
        first.as_secs_f64(),
        grown as f64 / 1e6,
        grown as f64 / MAILS as f64
    );
    let started = Instant::now();
    service.sync_all(Lang::En).await.unwrap();
    println!("mail: a sync with nothing new {:.0} ms", started.elapsed().as_secs_f64() * 1000.0);

    for i in 0..CHANGED {
        server.deliver("INBOX", &dovecot::mail(people[0], &format!("Nuevo {i}"), &now.to_rfc2822(), "¿Quedamos el jueves?")).await;
    }
    let mut w = server.writer().await;
    w.select("INBOX").await.unwrap();
    let _: Vec<_> = w.store(format!("1:{CHANGED}"), "+FLAGS (\\Deleted)").await.unwrap().try_collect().await.unwrap();
    let _: Vec<_> = w.expunge().await.unwrap().try_collect().await.unwrap();
    let _ = w.logout().await;
    let started = Instant::now();
    let synced = service.sync_all(Lang::En).await.unwrap();
    println!(
        "mail: a sync after {CHANGED} new and {CHANGED} deleted {:.0} ms ({} added, {} removed)",
        started.elapsed().as_secs_f64() * 1000.0,
        synced[0].1.added,
        synced[0].1.removed
    );
    let started = Instant::now();
    let found = service.search("documento jueves Ana", 5).await.unwrap();
    println!("mail: a search by words over {MAILS} mails {:.1} ms ({} found)", started.elapsed().as_secs_f64() * 1000.0, found.len());
}
