import { useCallback, useEffect, useRef, useState } from "react";
import { api, toCommandError, type Reminder, type ReminderSetting, type RemindersOverview, type ReminderView, type WhenPreview } from "../../api";
import { useStrings } from "../../i18n";
import { CalendarFiles } from "./CalendarFiles";

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

/** About three lines of a long title on the page (the whole one is its tooltip, the
 * rest of an imported one its notes). */
const SHOWN_TITLE_CHARS = 200;
function shortTitle(title: string): string {
  return title.length > SHOWN_TITLE_CHARS ? `${title.slice(0, SHOWN_TITLE_CHARS).trimEnd()}…` : title;
}

/** A reminder's time in the user's zone; when it was set in another zone (whose wall
 * clock it keeps), that zone's time too, named. */
function whenShown(reminder: ReminderView, userZone: string, t: ReturnType<typeof useStrings>): string {
  const here = localTime(reminder.due_at, userZone || reminder.zone, t.locale);
  if (!userZone || reminder.zone === userZone) return here;
  const there = new Intl.DateTimeFormat(t.locale, { timeZone: reminder.zone, hour: "2-digit", minute: "2-digit", hour12: false }).format(new Date(reminder.due_at));
  return `${here} · ${t.reminderOtherZone(there, reminder.zone_words)}`;
}

function Row({
  reminder,
  userZone,
  kind,
  snoozes,
  onChange,
}: {
  reminder: ReminderView;
  userZone: string;
  kind: "upcoming" | "recurring" | "delivered" | "late" | "failed";
  snoozes: number[];
  onChange: (message: string | null, undo?: () => void, failed?: boolean) => void;
}) {
  const t = useStrings();
  const act = <T,>(work: Promise<T>, done: (result: T) => string, undo?: () => void) =>
    work.then((result) => onChange(done(result), undo)).catch((e) => onChange(toCommandError(e).message, undefined, true));
  const undoCancel = () =>
    api
      .restoreReminder(reminder.id)
      .then(() => onChange(t.reminderRestored(reminder.message)))
      .catch((e) => onChange(toCommandError(e).message, undefined, true));
  const pending = kind === "upcoming" || kind === "recurring";
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <li className={`reminder ${kind}`} data-testid={`reminder-${kind}`} data-id={reminder.id}>
        <EditReminder
          reminder={reminder}
          onDone={(said) => {
            setEditing(false);
            if (said !== null) onChange(said);
          }}
        />
      </li>
    );
  }
  return (
    <li className={`reminder ${kind}`} data-testid={`reminder-${kind}`} data-id={reminder.id}>
      <div className="reminder-main">
        <strong title={reminder.message}>{shortTitle(reminder.message)}</strong>
        <div className="muted small">
          <span data-testid="reminder-when">{whenShown(reminder, userZone, t)}</span>
          {reminder.rule_words && ` · ${reminder.rule_words}`}
          {kind === "late" && ` · ${t.reminderLateNote}`}
          {kind === "failed" && ` · ${t.reminderFailedNote}`}
          {reminder.state === "attempting" && ` · ${t.reminderDelivering}`}
          {reminder.from_incognito && <span data-testid="reminder-from-incognito">{` · ${t.reminderFromIncognito}`}</span>}
        </div>
        {reminder.description && (
          <details className="reminder-notes small" data-testid="reminder-notes">
            <summary>{t.reminderNotes}</summary>
            <p>{reminder.description}</p>
          </details>
        )}
        {kind === "recurring" && reminder.next && reminder.next.length > 1 && (
          <div className="muted small" data-testid="next-dates">
            {t.nextDates(reminder.next.map((d) => localTime(d, userZone || reminder.zone, t.locale)).join(" · "))}
          </div>
        )}
      </div>
      <div className="reminder-actions">
        <span className="muted small">{pending ? t.snooze : t.remindAgain}</span>
        {snoozes.map((m) => (
          <button
            key={m}
            className="ghost small"
            data-testid={`snooze-${m}`}
            onClick={() =>
              act(api.snoozeReminder(reminder.id, m), (s) => (s.original_kept ? t.snoozedKept : t.snoozed)(reminder.message, m))
            }
          >
            {m % 60 === 0 ? t.hours(m / 60) : `${m} min`}
          </button>
        ))}
        {pending && (
          <button className="ghost small" data-testid="edit-reminder" onClick={() => setEditing(true)}>
            {t.editReminder}
          </button>
        )}
        {pending && (
          <button
            className="ghost small danger"
            data-testid="cancel-reminder"
            onClick={() => act(api.cancelReminder(reminder.id), () => t.reminderCancelled(reminder.message), undoCancel)}
          >
            {t.cancelReminder}
          </button>
        )}
      </div>
    </li>
  );
}

/** What the core reads in `text`, following the typing (debounced); shown only for
 * the text it read. */
export function useReading<T>(text: string, read: (text: string) => Promise<T>): T | null {
  const [reading, setReading] = useState<{ text: string; value: T } | null>(null);
  useEffect(() => {
    if (!text.trim()) return;
    let current = true;
    const timer = setTimeout(() => {
      read(text)
        .then((value) => current && setReading({ text, value }))
        .catch(() => undefined);
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, read]);
  return reading && reading.text === text && text.trim() !== "" ? reading.value : null;
}

/** Adds a reminder: on success the form is reset and the page says what was set; on
 * failure the core's error is shown under the form. One request at a time: a double
 * click sends one (the core keeps every reminder it is asked for). */
function useAdding(onAdded: (message: string) => void) {
  const t = useStrings();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A second click can land before React re-renders the disabled button.
  const inFlight = useRef(false);
  const adding = (start: () => Promise<ReminderSetting>, reset: () => void) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    start()
      .then(({ reminder, twin }) => {
        reset();
        const added = t.reminderAdded(reminder.message, localTime(reminder.due_at, reminder.zone, t.locale));
        onAdded(twin ? `${added} ${t.reminderTwinKept}` : added);
      })
      .catch((e) => setError(toCommandError(e).message))
      .finally(() => {
        inFlight.current = false;
        setBusy(false);
      });
  };
  return { error, adding, busy };
}

/** A pending reminder's words and time changed in place: the time is kept unless a new
 * one is said, read as it is typed. `onDone` gets what to say, or null when cancelled. */
function EditReminder({ reminder, onDone }: { reminder: Reminder; onDone: (said: string | null) => void }) {
  const t = useStrings();
  const [what, setWhat] = useState(reminder.message);
  const [when, setWhen] = useState("");
  const [error, setError] = useState<string | null>(null);
  const preview = useReading(when, api.previewReminderWhen);
  const ready = what.trim() !== "" && (when.trim() === "" || preview?.status === "ok");
  const save = () =>
    ready &&
    api
      .editReminder(reminder.id, what.trim(), when.trim() || null)
      .then((edited) => onDone(t.reminderEdited(edited.message)))
      .catch((e) => setError(toCommandError(e).message));
  return (
    <form
      className="reminder-form reminder-edit"
      data-testid="reminder-edit"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={(e) => e.key === "Escape" && onDone(null)}
    >
      <input value={what} onChange={(e) => setWhat(e.target.value)} aria-label={t.reminderWhat} data-testid="edit-what" autoFocus />
      <input value={when} onChange={(e) => setWhen(e.target.value)} placeholder={t.reminderEditWhenPlaceholder} aria-label={t.reminderWhen} data-testid="edit-when" />
      <span className="edit-actions">
        <button type="submit" disabled={!ready} data-testid="save-reminder">
          {t.save}
        </button>
        <button type="button" className="ghost" onClick={() => onDone(null)}>
          {t.cancel}
        </button>
      </span>
      <div className="when-preview small" aria-live="polite">
        {when.trim() !== "" && preview && <Reading preview={preview} zone={reminder.zone} />}
        {error && <span className="error-text">{error}</span>}
      </div>
    </form>
  );
}

function NewReminder({ onAdded }: { onAdded: (message: string) => void }) {
  const t = useStrings();
  const [what, setWhat] = useState("");
  const [when, setWhen] = useState("");
  const preview = useReading(when, api.previewReminderWhen);
  const { error, adding, busy } = useAdding(onAdded);

  const ready = what.trim() !== "" && preview?.status === "ok";
  const add = () =>
    ready &&
    adding(() => api.addReminder(what.trim(), when), () => {
      setWhat("");
      setWhen("");
    });
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
      <button type="submit" disabled={!ready || busy} data-testid="add-reminder">
        {t.addReminder}
      </button>
      <div className="when-preview small" data-testid="when-preview" aria-live="polite">
        {preview?.status === "ok" && (
          <span className="ok-text">
            {preview.local}
            {preview.rule_words && ` · ${preview.rule_words}`}
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

/** How a reading of "when" shows: the local time, the rule in words, the next dates. */
function Reading({ preview, zone }: { preview: WhenPreview; zone: string }) {
  const t = useStrings();
  if (preview.status === "error") {
    return (
      <span className="error-text">
        {preview.error} {preview.suggestion}
      </span>
    );
  }
  return (
    <span className="ok-text">
      {preview.local}
      {preview.rule_words && ` · ${preview.rule_words}`}
      {preview.rrule && preview.next && preview.next.length > 1 && ` · ${t.nextDates(preview.next.map((d) => localTime(d, zone, t.locale)).join(" · "))}`}
      {preview.note && ` · ${preview.note}`}
    </span>
  );
}

/** One field: "Call mum tomorrow at 9", split live into what and when by the core. */
function QuickAdd({ onAdded, zone }: { onAdded: (message: string) => void; zone: string }) {
  const t = useStrings();
  const [sentence, setSentence] = useState("");
  const preview = useReading(sentence, api.previewSentence);
  const { error, adding, busy } = useAdding(onAdded);

  const ready = preview !== null && preview.what !== "" && preview.when.status === "ok";
  const add = () => ready && adding(() => api.addReminderSentence(sentence), () => setSentence(""));
  return (
    <form
      className="quick-add"
      onSubmit={(e) => {
        e.preventDefault();
        add();
      }}
    >
      <input
        value={sentence}
        onChange={(e) => setSentence(e.target.value)}
        placeholder={t.quickAddPlaceholder}
        aria-label={t.quickAdd}
        data-testid="quick-add"
      />
      <button type="submit" disabled={!ready || busy} data-testid="quick-add-button">
        {t.addReminder}
      </button>
      <div className="quick-preview small" data-testid="quick-preview" aria-live="polite">
        {preview && preview.when.status === "ok" && (
          <>
            <span className="split-what" data-testid="split-what">
              <span className="muted">{t.quickWhat}:</span> {preview.what || "—"}
            </span>
            <span className="split-when" data-testid="split-when">
              <span className="muted">{t.quickWhen}:</span> <Reading preview={preview.when} zone={zone} />
            </span>
          </>
        )}
        {preview && preview.when.status === "error" && <Reading preview={preview.when} zone={zone} />}
        {error && <span className="error-text">{error}</span>}
      </div>
    </form>
  );
}

export function RemindersView() {
  const t = useStrings();
  const [overview, setOverview] = useState<RemindersOverview | null>(null);
  const [message, setMessage] = useState<{ text: string; undo?: () => void; failed?: boolean } | null>(null);
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

  const changed = (m: string | null, undo?: () => void, failed?: boolean) => {
    setMessage(m === null ? null : { text: m, undo, failed });
    reload();
  };
  const groups = overview
    ? ([
        ["upcoming", t.remindersUpcoming, overview.upcoming],
        ["recurring", t.remindersRecurring, overview.recurring],
        ["late", t.remindersLate, overview.late],
        ["delivered", t.remindersDelivered, overview.delivered.slice(0, 20)],
        ["failed", t.remindersFailed, overview.failed ?? []],
      ] as const)
    : [];
  const empty = overview !== null && groups.every(([, , list]) => list.length === 0);
  const [separate, setSeparate] = useState(false);
  return (
    <section className="page" data-testid="reminders-view">
      <h2>{t.navReminders}</h2>
      <p className="muted">{t.remindersIntro(overview?.zone_words ?? "")}</p>
      {separate ? <NewReminder onAdded={changed} /> : <QuickAdd onAdded={changed} zone={overview?.zone ?? ""} />}
      <div className="reminder-tools">
        <button type="button" className="link small" data-testid="toggle-form" onClick={() => setSeparate(!separate)}>
          {separate ? t.oneSentence : t.separateFields}
        </button>
        <CalendarFiles onDone={(m, failed) => changed(m, undefined, failed)} />
      </div>
      {message && (
        // A failure looks like one (the first hour's m9), not like the success box.
        <div className={message.failed ? "problems" : "info"} role={message.failed ? "alert" : "status"} data-testid="reminders-message">
          {message.text}
          {message.undo && (
            <>
              {" "}
              <button type="button" className="link small" data-testid="undo-cancel" onClick={message.undo}>
                {t.undo}
              </button>
            </>
          )}
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
                <Row key={`${kind}-${r.id}-${r.due_at}`} reminder={r} userZone={overview?.zone ?? ""} kind={kind} snoozes={overview?.snooze_choices ?? []} onChange={changed} />
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}
