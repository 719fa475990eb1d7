import { useEffect, useState } from "react";
import { api, sentence, toCommandError, type CalendarView, type StoredCalendar } from "../../api";
import { useStrings } from "../../i18n";
import { ConfirmButton } from "../../components/ConfirmButton";
import { useSending } from "../../components/useSending";
import { localTime } from "../reminders/RemindersView";

type Note = { ok: boolean; text: string } | null;

/** The account form: address, user name, password; Connect finds the calendars. */
function ConnectForm({ onConnected }: { onConnected: (view: CalendarView) => void }) {
  const t = useStrings();
  const [url, setUrl] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const { busy, error, send } = useSending();
  const connect = () =>
    send(
      () =>
        api.connectCalendar(url.trim(), username.trim(), password).then((view) => {
          setPassword("");
          onConnected(view);
        }),
      // A refused password is typed again from nothing.
      () => setPassword(""),
    );
  return (
    <form
      className="task-form"
      data-testid="caldav-form"
      onSubmit={(e) => {
        e.preventDefault();
        connect();
      }}
    >
      <label>
        {t.caldavUrl}
        <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder={t.caldavUrlPlaceholder} data-testid="caldav-url" />
      </label>
      <label>
        {t.caldavUser}
        <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" data-testid="caldav-user" />
      </label>
      <label>
        {t.caldavPassword}
        <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" data-testid="caldav-password" />
      </label>
      <button type="submit" disabled={busy || !url.trim() || !username.trim()} data-testid="caldav-connect">
        {busy ? t.caldavConnecting : t.caldavConnect}
      </button>
      {error && (
        <p className="error-text small" role="alert" data-testid="caldav-error">
          {error}
        </p>
      )}
    </form>
  );
}

/** One calendar: its name, whether it is read, its last sync or what went wrong, and
 * what else its kind allows (where Sidecar writes; removing a feed). */
function CalendarRow({
  calendar: c,
  zone,
  said,
  onRead,
  children,
}: {
  calendar: StoredCalendar;
  zone: string;
  /** A problem already said once for the whole account: the row keeps only its last copy's time. */
  said?: string | null;
  onRead: (read: boolean) => void;
  children?: React.ReactNode;
}) {
  const t = useStrings();
  const when = c.synced_at ? localTime(c.synced_at, zone, t.locale) : null;
  const own = c.problem && sentence(c.problem) !== said ? sentence(c.problem) : null;
  // The last good sync stays in sight when a sync fails: how old the copy is matters.
  const status = c.problem ? (when ? t.caldavLastCopy(when) : t.caldavNeverSynced) : when ? t.caldavSynced(when) : t.caldavNeverSynced;
  return (
    <li className="task-row" data-testid={c.source === "ics" ? "caldav-feed" : "caldav-calendar"}>
      <div className="task-head">
        {c.color && <span className="calendar-dot" style={{ background: c.color.slice(0, 7) }} aria-hidden="true" />}
        <strong>{c.name ?? c.href}</strong>
      </div>
      <div className="row-actions">
        <label className="check">
          <input type="checkbox" checked={c.read} data-testid={`caldav-read-${c.id}`} onChange={(e) => onRead(e.target.checked)} />
          {t.caldavRead}
        </label>
        {children}
      </div>
      {own && (
        <div className="bad small" data-testid="caldav-problem">
          {own}
        </div>
      )}
      <div className="muted small" data-testid="caldav-status">
        {status}
      </div>
    </li>
  );
}

/** Calendars subscribed by address (.ics, read only): the list and the form to add one. */
function Subscriptions({ view, setView, onRead, failed }: { view: CalendarView; setView: (v: CalendarView) => void; onRead: (id: number, read: boolean) => void; failed: (e: unknown) => void }) {
  const t = useStrings();
  const [url, setUrl] = useState("");
  const { busy, error, send } = useSending();
  const feeds = view.calendars.filter((c) => c.source === "ics");
  const subscribe = () =>
    send(() =>
      api.subscribeCalendar(url.trim()).then((v) => {
        setUrl("");
        setView(v);
      }),
    );
  const remove = (id: number) => api.unsubscribeCalendar(id).then(setView).catch(failed);
  return (
    <>
      <h3>{t.caldavFeeds}</h3>
      <p className="muted small">{t.caldavFeedsIntro}</p>
      {feeds.length > 0 && (
        <ul className="task-list" data-testid="caldav-feeds">
          {feeds.map((c) => (
            <CalendarRow key={c.id} calendar={c} zone={view.zone} onRead={(read) => onRead(c.id, read)}>
              <ConfirmButton
                className="ghost danger"
                testId={`caldav-unsubscribe-${c.id}`}
                label={t.caldavUnsubscribe}
                question={t.caldavUnsubscribeConfirm}
                yes={t.caldavUnsubscribe}
                onConfirm={() => remove(c.id)}
              />
            </CalendarRow>
          ))}
        </ul>
      )}
      <form
        className="task-form"
        data-testid="caldav-feed-form"
        onSubmit={(e) => {
          e.preventDefault();
          subscribe();
        }}
      >
        <label>
          {t.caldavFeedUrl}
          <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="webcal://example.com/holidays.ics" data-testid="caldav-feed-url" />
        </label>
        <button type="submit" disabled={busy || !url.trim()} data-testid="caldav-subscribe">
          {busy ? t.caldavSubscribing : t.caldavSubscribe}
        </button>
        {error && (
          <p className="error-text small" role="alert" data-testid="caldav-feed-error">
            {error}
          </p>
        )}
      </form>
    </>
  );
}

/** Settings → Calendar: connect a CalDAV account, choose which calendars are read and
 * which one Sidecar may write, sync now, disconnect. */
export function CalendarSettings() {
  const t = useStrings();
  const [view, setView] = useState<CalendarView | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [syncing, setSyncing] = useState(false);
  useEffect(() => {
    api
      .calendarView()
      .then(setView)
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }));
  }, []);
  const failed = (e: unknown) => setNote({ ok: false, text: toCommandError(e).message });
  const choose = (read: number[], writable: number | null) => api.chooseCalendars(read, writable).then(setView).catch(failed);
  const sync = () => {
    setSyncing(true);
    api
      .syncCalendars()
      .then((reports) => {
        const sum = (k: "added" | "changed" | "removed") => reports.reduce((n, r) => n + r[k], 0);
        setNote({ ok: true, text: t.caldavSyncDone(sum("added"), sum("changed"), sum("removed")) });
      })
      .catch(failed)
      .finally(() => {
        setSyncing(false);
        api.calendarView().then(setView).catch(failed);
      });
  };
  const disconnect = () => api.disconnectCalendar().then(setView).catch(failed);
  const read = view?.calendars.filter((c) => c.read).map((c) => c.id) ?? [];
  const writable = view?.calendars.find((c) => c.writable)?.id ?? null;
  const setRead = (id: number, on: boolean) => choose(on ? [...read, id] : read.filter((r) => r !== id), writable);
  // A server that is down fails every calendar of the account alike: said once, above them.
  const accounts = view?.calendars.filter((c) => c.source === "caldav") ?? [];
  const shared = accounts.length > 0 && accounts.every((c) => c.problem && c.problem === accounts[0].problem) ? sentence(accounts[0].problem ?? "") : null;
  return (
    <section data-testid="caldav-settings">
      <h2>{t.caldavTitle}</h2>
      <p className="muted">{t.caldavIntro}</p>
      {view && !view.account && (
        <>
          <p className="empty-inline" data-testid="caldav-none">
            {t.caldavNone}
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
          <p data-testid="caldav-account">{t.caldavConnected(view.account[0], view.account[1])}</p>
          {shared && (
            <p className="bad small" role="alert" data-testid="caldav-account-problem">
              {shared}
            </p>
          )}
          <h3>{t.caldavCalendars}</h3>
          <ul className="task-list" data-testid="caldav-calendars">
            {view.calendars
              .filter((c) => c.source === "caldav")
              .map((c) => (
                <CalendarRow key={c.id} calendar={c} zone={view.zone} said={shared} onRead={(on) => setRead(c.id, on)}>
                  <label className="check">
                    <input type="radio" name="caldav-write" checked={c.writable} data-testid={`caldav-write-${c.id}`} onChange={() => choose(read, c.id)} />
                    {t.caldavWrite}
                  </label>
                </CalendarRow>
              ))}
          </ul>
          <label className="check">
            <input type="radio" name="caldav-write" checked={writable == null} data-testid="caldav-write-none" onChange={() => choose(read, null)} />
            {t.caldavNoWrite}
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={view.mirror_reminders}
              disabled={writable == null && !view.mirror_reminders}
              data-testid="caldav-mirror"
              onChange={(e) =>
                api
                  .mirrorReminders(e.target.checked)
                  .then(([v, report]) => {
                    setView(v);
                    setNote({ ok: true, text: t.caldavMirrored(report.created + report.updated, report.removed, report.kept_theirs.length) });
                  })
                  .catch(failed)
              }
            />
            {t.caldavMirror}
          </label>
          <div className="row-actions">
            <button type="button" className="ghost" disabled={syncing} data-testid="caldav-sync" onClick={sync}>
              {syncing ? t.caldavSyncing : t.caldavSyncNow}
            </button>
            <ConfirmButton
              className="ghost danger"
              testId="caldav-disconnect"
              label={t.caldavDisconnect}
              question={t.caldavDisconnectConfirm}
              yes={t.caldavDisconnect}
              onConfirm={disconnect}
            />
          </div>
        </>
      )}
      {view && <Subscriptions view={view} setView={setView} onRead={setRead} failed={failed} />}
      {note && !(note.ok === false && note.text === shared) && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="caldav-note">
          {note.text}
        </p>
      )}
    </section>
  );
}
