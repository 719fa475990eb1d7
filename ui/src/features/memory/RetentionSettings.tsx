import { useEffect, useRef, useState } from "react";
import { api, toCommandError } from "../../api";
import { useStrings } from "../../i18n";
import type { RetentionSettings as Retention, RetentionView } from "./retention.strings";

/** One limit: "none" or one of the values the core offers. */
function LimitSelect({
  testId,
  label,
  value,
  offered,
  choice,
  disabled,
  onChoose,
}: {
  testId: string;
  label: string;
  value: number | null;
  offered: number[];
  choice: (value: number | null) => string;
  disabled: boolean;
  onChoose: (value: number | null) => void;
}) {
  return (
    <label>
      {label}{" "}
      <select data-testid={testId} value={value ?? ""} disabled={disabled} onChange={(e) => onChoose(e.target.value === "" ? null : Number(e.target.value))}>
        {[null, ...offered].map((option) => (
          <option key={option ?? "none"} value={option ?? ""}>
            {choice(option)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Settings → Your data → Keeping: how long conversations are kept, the size the database
 * keeps under, idle chats closed, how often the tidy runs, and a tidy now. */
export function RetentionSettings() {
  const t = useStrings();
  const [view, setView] = useState<RetentionView | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [tidying, setTidying] = useState(false);
  /** The settings as last chosen: two choices made before the first is saved both count. */
  const latest = useRef<Retention | null>(null);

  useEffect(() => {
    api
      .retention()
      .then((loaded) => {
        latest.current = loaded.settings;
        setView(loaded);
      })
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }));
  }, []);

  const save = (change: Partial<Retention>, saved: string) => {
    const before = latest.current;
    if (!before) return;
    const settings = { ...before, ...change };
    latest.current = settings;
    setView((shown) => shown && { ...shown, settings });
    api
      .setRetention(settings)
      .then(() => setNote({ ok: true, text: saved }))
      .catch((e) => {
        // Refused: the choice shown goes back to what is saved.
        latest.current = before;
        setView((shown) => shown && { ...shown, settings: before });
        setNote({ ok: false, text: toCommandError(e).message });
      });
  };
  const tidy = () => {
    setTidying(true);
    api
      .tidyNow()
      .then((report) => setNote({ ok: true, text: t.tidied(report) }))
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }))
      .finally(() => setTidying(false));
  };
  const settings = view?.settings;

  return (
    <div data-testid="retention-settings">
      <h3>{t.keepingTitle}</h3>
      <p className="muted small">{t.keepingIntro}</p>
      <div className="setting-row">
        <LimitSelect
          testId="keep-days"
          label={t.keepLabel}
          value={settings?.keep_days ?? null}
          offered={view?.keep_days ?? []}
          choice={t.keepChoice}
          disabled={!view}
          onChoose={(days) => save({ keep_days: days }, t.keepSaved(days))}
        />
      </div>
      <div className="setting-row">
        <LimitSelect
          testId="max-size"
          label={t.sizeLabel}
          value={settings?.max_size_mb ?? null}
          offered={view?.max_size_mb ?? []}
          choice={t.sizeChoice}
          disabled={!view}
          onChoose={(megabytes) => save({ max_size_mb: megabytes }, t.sizeSaved(megabytes))}
        />
      </div>
      <div className="setting-row">
        <LimitSelect
          testId="close-idle"
          label={t.idleLabel}
          value={settings?.close_idle_hours ?? null}
          offered={view?.close_idle_hours ?? []}
          choice={t.idleChoice}
          disabled={!view}
          onChoose={(hours) => save({ close_idle_hours: hours }, t.idleSaved(hours))}
        />
      </div>
      <div className="setting-row">
        <label>
          <input
            type="checkbox"
            data-testid="tidy-often"
            checked={settings?.tidy_often ?? true}
            disabled={!view}
            onChange={(e) => save({ tidy_often: e.target.checked }, t.tidyOftenSaved(e.target.checked))}
          />{" "}
          {t.tidyOften}
        </label>
        <button type="button" className="ghost" data-testid="tidy-now" disabled={tidying} onClick={tidy}>
          {tidying ? t.tidying : t.tidyNow}
        </button>
      </div>
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="retention-note">
          {note.text}
        </p>
      )}
    </div>
  );
}
