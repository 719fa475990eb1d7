import { useEffect, useState } from "react";
import { api, sentence, toCommandError, type MailSecurity, type MailView, type SenderSuggestion } from "../../api";
import { useStrings } from "../../i18n";
import { ConfirmButton } from "../../components/ConfirmButton";
import { useSending } from "../../components/useSending";
import { localTime } from "../reminders/RemindersView";

type Note = { ok: boolean; text: string } | null;

const PORTS: Record<MailSecurity, number> = { tls: 993, start_tls: 143, plain: 143 };

/** The account form: the address fills in the usual providers' server (the core knows
 * them); the rest can be typed for any IMAP server. */
function ConnectForm({ onConnected }: { onConnected: (view: MailView) => void }) {
  const t = useStrings();
  const [address, setAddress] = useState("");
  const [host, setHost] = useState("");
  const [port, setPort] = useState(993);
  const [security, setSecurity] = useState<MailSecurity>("tls");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [hint, setHint] = useState<string | null>(null);
  const { busy, error, send } = useSending();
  const fill = () =>
    api
      .mailPreset(address.trim())
      .then((server) => {
        if (!username.trim()) setUsername(address.trim());
        if (!server) return;
        setHost(server.host);
        setPort(server.port);
        setSecurity(server.security);
        setHint(server.hint);
      })
      .catch(() => undefined);
  const connect = () =>
    send(
      () =>
        api.connectMail({ address: address.trim(), host: host.trim(), port, security, username: username.trim(), password }).then((view) => {
          setPassword("");
          onConnected(view);
        }),
      // A refused password is typed again from nothing.
      () => setPassword(""),
    );
  return (
    <form
      className="task-form"
      data-testid="mail-form"
      onSubmit={(e) => {
        e.preventDefault();
        connect();
      }}
    >
      <label>
        {t.mailAddress}
        <input type="email" value={address} onChange={(e) => setAddress(e.target.value)} onBlur={fill} autoComplete="email" data-testid="mail-address" />
      </label>
      {hint && (
        <p className="muted small" data-testid="mail-hint">
          {t.mailNeeds(hint)}
        </p>
      )}
      <label>
        {t.mailHost}
        <input value={host} onChange={(e) => setHost(e.target.value)} placeholder="imap.example.org" data-testid="mail-host" />
      </label>
      <div className="row wrap">
        <label>
          {t.mailSecurity}
          <select
            value={security}
            data-testid="mail-security"
            onChange={(e) => {
              const next = e.target.value as MailSecurity;
              setSecurity(next);
              setPort(PORTS[next]);
            }}
          >
            <option value="tls">{t.mailTls}</option>
            <option value="start_tls">{t.mailStartTls}</option>
            <option value="plain">{t.mailPlain}</option>
          </select>
        </label>
        <label>
          {t.mailPort}
          <input type="number" min={1} max={65535} value={port} onChange={(e) => setPort(Number(e.target.value))} data-testid="mail-port" />
        </label>
      </div>
      <label>
        {t.mailUser}
        <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" data-testid="mail-user" />
      </label>
      <label>
        {t.mailPassword}
        <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" data-testid="mail-password" />
      </label>
      <button type="submit" disabled={busy || !address.trim() || !host.trim() || !username.trim()} data-testid="mail-connect">
        {busy ? t.mailConnecting : t.mailConnect}
      </button>
      {error && (
        <p className="error-text small" role="alert" data-testid="mail-error">
          {error}
        </p>
      )}
    </form>
  );
}

/** Who matters: addresses and domains, one per line; the core keeps what is one. */
function WhoMatters({ view, setView, failed }: { view: MailView; setView: (v: MailView) => void; failed: (e: unknown) => void }) {
  const t = useStrings();
  const [text, setText] = useState(view.who_matters.join("\n"));
  const [saved, setSaved] = useState<string | null>(null);
  const [suggested, setSuggested] = useState<SenderSuggestion[]>([]);
  const suggest = () =>
    api
      .mailSuggestions()
      .then((found) => setSuggested(found ?? []))
      .catch(() => setSuggested([]));
  // Asked once here, and again after each save (below).
  useEffect(() => {
    suggest();
  }, []);
  const save = (people: string[]) =>
    api
      .setWhoMatters(people)
      .then((v) => {
        setView(v);
        setText(v.who_matters.join("\n"));
        setSaved(t.mailWhoSaved(v.who_matters.length));
        suggest();
      })
      .catch(failed);
  return (
    <>
      <h3>{t.mailWho}</h3>
      <form
        className="task-form"
        onSubmit={(e) => {
          e.preventDefault();
          save(text.split("\n"));
        }}
      >
        <label>
          {t.mailWhoIntro}
          <textarea rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder={"ana@example.org\nexample.org"} data-testid="mail-who" />
        </label>
        {suggested.length > 0 && (
          <div className="row wrap" data-testid="mail-suggested">
            <span className="muted small">{t.mailSuggested}</span>
            {suggested.map((s) => (
              <button key={s.address} type="button" className="ghost small" title={s.address} onClick={() => save([...view.who_matters, s.address])} data-testid="mail-suggestion">
                {t.mailAdd(s.name)}
              </button>
            ))}
          </div>
        )}
        <div className="row-actions">
          <button type="submit" className="ghost" data-testid="mail-who-save">
            {t.mailWhoSave}
          </button>
          {saved && (
            <span className="muted small" role="status">
              {saved}
            </span>
          )}
        </div>
      </form>
    </>
  );
}

/** Settings → Mail: connect an IMAP account read only, choose folders, say who matters,
 * sync now, disconnect (which deletes every stored mail). */
export function MailSettings() {
  const t = useStrings();
  const [view, setView] = useState<MailView | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [syncing, setSyncing] = useState(false);
  const [zone, setZone] = useState("UTC");
  useEffect(() => {
    api
      .mailView()
      .then(setView)
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }));
    api
      .timeZone()
      .then(setZone)
      .catch(() => undefined);
  }, []);
  const failed = (e: unknown) => setNote({ ok: false, text: toCommandError(e).message });
  const read = view?.folders.filter((f) => f.read).map((f) => f.name) ?? [];
  const setRead = (name: string, on: boolean) =>
    api
      .chooseMailFolders(on ? [...read, name] : read.filter((r) => r !== name))
      .then(setView)
      .catch(failed);
  const sync = () => {
    setSyncing(true);
    api
      .syncMail()
      .then((reports) => setNote({ ok: true, text: t.mailSyncDone(reports.reduce((n, [, r]) => n + r.added, 0), reports.reduce((n, [, r]) => n + r.removed, 0)) }))
      .catch(failed)
      .finally(() => {
        setSyncing(false);
        api.mailView().then(setView).catch(failed);
      });
  };
  return (
    <section data-testid="mail-settings">
      <h2>{t.mailTitle}</h2>
      <p className="muted">{t.mailIntro}</p>
      <p className="muted small">{t.mailOauth}</p>
      {view && !view.account && (
        <>
          <p className="empty-inline" data-testid="mail-none">
            {t.mailNone}
          </p>
          <ConnectForm
            onConnected={(connected) => {
              setView(connected);
              setNote(null);
            }}
          />
        </>
      )}
      {view?.account && (
        <>
          <p data-testid="mail-account">{t.mailConnected(view.account.address, view.account.server.host)}</p>
          <h3>{t.mailFolders}</h3>
          <ul className="task-list" data-testid="mail-folders">
            {view.folders.map((f) => {
              const when = f.synced_at ? localTime(f.synced_at, zone, t.locale) : null;
              const status = f.problem ? (when ? t.mailLastCopy(when) : t.mailNeverSynced) : when ? t.mailSynced(when) : t.mailNeverSynced;
              return (
                <li key={f.id} className="task-row" data-testid="mail-folder">
                  <div className="task-head">
                    <label className="check">
                      <input type="checkbox" checked={f.read} onChange={(e) => setRead(f.name, e.target.checked)} data-testid={`mail-read-${f.name}`} />
                      <strong>{f.name}</strong>
                    </label>
                    {f.read && <span className="muted small"> · {t.mailCount(f.mails)}</span>}
                  </div>
                  {f.problem && (
                    <div className="bad small" role="alert" data-testid="mail-problem">
                      {sentence(f.problem)}
                    </div>
                  )}
                  {f.read && (
                    <div className="muted small" data-testid="mail-status">
                      {status}
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
          <WhoMatters view={view} setView={setView} failed={failed} />
          <div className="row-actions">
            <button type="button" className="ghost" disabled={syncing} data-testid="mail-sync" onClick={sync}>
              {syncing ? t.mailSyncing : t.mailSyncNow}
            </button>
            <ConfirmButton
              className="ghost danger"
              testId="mail-disconnect"
              label={t.mailDisconnect}
              question={t.mailDisconnectConfirm}
              yes={t.mailDisconnect}
              onConfirm={() => api.disconnectMail().then(setView).catch(failed)}
            />
          </div>
        </>
      )}
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="mail-note">
          {note.text}
        </p>
      )}
    </section>
  );
}
