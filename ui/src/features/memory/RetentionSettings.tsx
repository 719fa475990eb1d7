import { useEffect, useState } from "react";
import { api, toCommandError } from "../../api";
import { useStrings } from "../../i18n";

/** The choices offered; the core refuses anything under a week. `null`: forever. */
const CHOICES: (number | null)[] = [null, 730, 365, 180, 90, 30];

/** Settings → Your data → Keeping: how long conversations are kept, and a tidy now. */
export function RetentionSettings() {
  const t = useStrings();
  const [days, setDays] = useState<number | null | undefined>(undefined);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [tidying, setTidying] = useState(false);

  useEffect(() => {
    api.keepDays().then(setDays).catch((e) => setNote({ ok: false, text: toCommandError(e).message }));
  }, []);

  const choose = (value: string) => {
    const chosen = value === "" ? null : Number(value);
    api
      .setKeepDays(chosen)
      .then(() => {
        setDays(chosen);
        setNote({ ok: true, text: t.keepSaved(chosen) });
      })
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }));
  };
  const tidy = () => {
    setTidying(true);
    api
      .tidyNow()
      .then((report) => setNote({ ok: true, text: t.tidied(report) }))
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }))
      .finally(() => setTidying(false));
  };
  const offered = days == null || CHOICES.includes(days) ? CHOICES : [...CHOICES, days];

  return (
    <div data-testid="retention-settings">
      <h3>{t.keepingTitle}</h3>
      <p className="muted small">{t.keepingIntro}</p>
      <div className="setting-row">
        <label>
          {t.keepLabel}{" "}
          <select data-testid="keep-days" value={days ?? ""} disabled={days === undefined} onChange={(e) => choose(e.target.value)}>
            {offered.map((choice) => (
              <option key={choice ?? "forever"} value={choice ?? ""}>
                {t.keepChoice(choice)}
              </option>
            ))}
          </select>
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
