import { useEffect, useState } from "react";
import { api, toCommandError } from "../../api";
import { useStrings } from "../../i18n";
import { ZonePicker } from "./ZonePicker";

/** Settings → General: the time zone every time is read and said in (reminders, tasks,
 * the brief, the calendar), saved when the user says so. */
export function ZoneSetting() {
  const t = useStrings();
  const [saved, setSaved] = useState<string | null>(null);
  const [zone, setZone] = useState("");
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    api
      .timeZone()
      .then((z) => {
        setSaved(z);
        setZone(z);
      })
      .catch(() => setSaved(null));
  }, []);
  const save = async () => {
    try {
      const now = await api.setTimezone(zone.trim());
      setSaved(now);
      setZone(now);
      setNote({ ok: true, text: t.timezoneSaved(now) });
    } catch (e) {
      setNote({ ok: false, text: toCommandError(e).message });
    }
  };
  return (
    <div className="setting-row zone-setting">
      <label htmlFor="timezone-field">{t.timezone}</label>
      <ZonePicker id="timezone-field" value={zone} onChange={setZone} />
      <button className="ghost small" disabled={!zone.trim() || zone.trim() === saved} onClick={save} data-testid="save-timezone">
        {t.save}
      </button>
      <span className="muted small zone-hint">{t.timezoneHint}</span>
      {note && (
        <span className={note.ok ? "ok-text small" : "error-text small"} role={note.ok ? "status" : "alert"} data-testid="timezone-note">
          {note.text}
        </span>
      )}
    </div>
  );
}
