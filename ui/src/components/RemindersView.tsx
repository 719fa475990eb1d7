import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type Reminder, type RemindersOverview, type WhenPreview } from "../api";
import { useStrings, type Strings } from "../i18n";

/** "Sun 22 Nov, 09:00" in the reminder's own zone. */
export function localTime(iso: string, zone: string, lang: string): string {
  try {
    return new Intl.DateTimeFormat(lang, {
      timeZone: zone,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hour12: false,
    }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** FREQ=WEEKLY;BYDAY=MO;BYHOUR=9 → "every Monday at 09:00". */
export function describeRule(t: Strings, rrule: string): string {
  const parts = Object.fromEntries(rrule.split(";").map((p) => p.split("=") as [string, string]));
  const at = parts.BYHOUR !== undefined ? ` ${t.atTime(`${parts.BYHOUR.padStart(2, "0")}:${(parts.BYMINUTE ?? "0").padStart(2, "0")}`)}` : "";
  const interval = Number(parts.INTERVAL ?? "1");
  switch (parts.FREQ) {
    case "HOURLY":
      return t.everyHours(interval);
    case "DAILY":
      return t.everyDay + at;
    case "WEEKLY":
      return (parts.BYDAY ? t.everyWeekday(parts.BYDAY.split(",").map((d: string) => t.weekday(d)).join(", ")) : t.everyWeek) + at;
    default:
      return rrule;
  }
}

function Row({
  reminder,
  kind,
  snoozes,
  onChange,
}: {
  reminder: Reminder;
  kind: "upcoming" | "recurring" | "delivered" | "late";
  snoozes: number[];
  onChange: (message: string | null) => void;
}) {
  const t = useStrings();
  const act = (work: Promise<unknown>, done: string) =>
    work.then(() => onChange(done)).catch((e) => onChange(toCommandError(e).message));
  const pending = kind === "upcoming" || kind === "recurring";
  return (
    <li className={`reminder ${kind}`} data-testid={`reminder-${kind}`} data-id={reminder.id}>
      <div className="reminder-main">
        <strong>{reminder.message}</strong>
        <div className="muted small">
          {localTime(reminder.due_at, reminder.zone, t.locale)}
          {reminder.rrule && ` · ${describeRule(t, reminder.rrule)}`}
          {kind === "late" && ` · ${t.reminderLateNote}`}
          {reminder.state === "attempting" && ` · ${t.reminderDelivering}`}
        </div>
      </div>
      <div className="reminder-actions">
        <span className="muted small">{pending ? t.snooze : t.remindAgain}</span>
        {snoozes.map((m) => (
          <button
            key={m}
            className="ghost small"
            data-testid={`snooze-${m}`}
            onClick={() => act(api.snoozeReminder(reminder.id, m), t.snoozed(reminder.message, m))}
          >
            {m % 60 === 0 ? t.hours(m / 60) : `${m} min`}
          </button>
        ))}
        {pending && (
          <button className="ghost small danger" data-testid="cancel-reminder" onClick={() => act(api.cancelReminder(reminder.id), t.reminderCancelled(reminder.message))}>
            {t.cancel}
          </button>
        )}
      </div>
    </li>
  );
}

function NewReminder({ onAdded }: { onAdded: (message: string) => void }) {
  const t = useStrings();
  const [what, setWhat] = useState("");
  const [when, setWhen] = useState("");
  // The parsed time follows the typing; a reading is shown only for the text it read.
  const [reading, setReading] = useState<{ text: string; preview: WhenPreview } | null>(null);
  const preview = reading && reading.text === when && when.trim() !== "" ? reading.preview : null;
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!when.trim()) return;
    let current = true;
    const timer = setTimeout(() => {
      api.previewWhen(when).then((p) => current && setReading({ text: when, preview: p })).catch(() => undefined);
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [when]);

  const ready = what.trim() !== "" && preview?.status === "ok";
  const add = async () => {
    if (!ready) return;
    setError(null);
    try {
      const reminder = await api.addReminder(what.trim(), when);
      setWhat("");
      setWhen("");
      onAdded(t.reminderAdded(reminder.message, localTime(reminder.due_at, reminder.zone, t.locale)));
    } catch (e) {
      setError(toCommandError(e).message);
    }
  };
  return (
    <form
      className="reminder-form"
      onSubmit={(e) => {
        e.preventDefault();
        add();
      }}
    >
      <input value={what} onChange={(e) => setWhat(e.target.value)} placeholder={t.reminderWhatPlaceholder} aria-label={t.reminderWhat} data-testid="reminder-what" />
      <input value={when} onChange={(e) => setWhen(e.target.value)} placeholder={t.reminderWhenPlaceholder} aria-label={t.reminderWhen} data-testid="reminder-when" />
      <button type="submit" disabled={!ready} data-testid="add-reminder">
        {t.addReminder}
      </button>
      <div className="when-preview small" data-testid="when-preview" aria-live="polite">
        {preview?.status === "ok" && (
          <span className="ok-text">
            {preview.local}
            {preview.rrule && ` · ${describeRule(t, preview.rrule)}`}
            {preview.note && ` · ${preview.note}`}
          </span>
        )}
        {preview?.status === "error" && (
          <span className="error-text">
            {preview.error} {preview.suggestion}
          </span>
        )}
        {error && <span className="error-text">{error}</span>}
      </div>
    </form>
  );
}

export function RemindersView() {
  const t = useStrings();
  const [overview, setOverview] = useState<RemindersOverview | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const reload = useCallback(() => {
    api
      .remindersOverview()
      .then((o) => {
        setOverview(o);
        setFailure(null);
      })
      .catch((e) => setFailure(toCommandError(e).message));
  }, []);
  useEffect(reload, [reload]);
  // Deliveries (and snoozes from a notification) change the lists.
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type === "reminder_delivered" || event.type === "reminders_changed") reload();
    });
    const timer = setInterval(reload, 30_000);
    return () => {
      clearInterval(timer);
      off.then((f) => f());
    };
  }, [reload]);

  const changed = (m: string | null) => {
    setMessage(m);
    reload();
  };
  const groups = overview
    ? ([
        ["upcoming", t.remindersUpcoming, overview.upcoming],
        ["recurring", t.remindersRecurring, overview.recurring],
        ["late", t.remindersLate, overview.late],
        ["delivered", t.remindersDelivered, overview.delivered.slice(0, 20)],
      ] as const)
    : [];
  const empty = overview !== null && groups.every(([, , list]) => list.length === 0);
  return (
    <section className="page" data-testid="reminders-view">
      <h2>{t.navReminders}</h2>
      <p className="muted">{t.remindersIntro(overview?.zone ?? "")}</p>
      <NewReminder onAdded={changed} />
      {message && (
        <div className="info" role="status" data-testid="reminders-message">
          {message}
        </div>
      )}
      {failure && (
        <div className="problems" role="alert">
          {t.remindersLoadError(failure)}
        </div>
      )}
      {empty && (
        <p className="empty-inline" data-testid="reminders-empty">
          {t.remindersEmpty}
        </p>
      )}
      {groups
        .filter(([, , list]) => list.length > 0)
        .map(([kind, title, list]) => (
          <div key={kind} className="reminder-group" data-testid={`group-${kind}`}>
            <h3>
              {title} <span className="muted small">{list.length}</span>
            </h3>
            <ul>
              {list.map((r) => (
                <Row key={`${kind}-${r.id}-${r.due_at}`} reminder={r} kind={kind} snoozes={overview?.snooze_choices ?? []} onChange={changed} />
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}
