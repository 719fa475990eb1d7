// Settings → Your data → App lock: turn it on with a passphrase and idle minutes, change
// them (with the passphrase it has), turn it off, lock now. The core keeps the minutes'
// range and the passphrase's length; this shows them.
import { useEffect, useState } from "react";
import { api, toCommandError, type LockView } from "../../api";
import { useStrings } from "../../i18n";

const changed = () => window.dispatchEvent(new Event("sidecar-lock-changed"));

export function LockSettings() {
  const t = useStrings();
  const [view, setView] = useState<LockView | null>(null);
  const [current, setCurrent] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [minutes, setMinutes] = useState(5);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    api
      .lockView()
      .then((v) => {
        setView(v);
        if (v.on) setMinutes(v.after_minutes);
      })
      .catch((e) => setNote(toCommandError(e).message));
  }, []);
  if (!view) return null;

  const done = (next: LockView, said: string) => {
    setView(next);
    setCurrent("");
    setPassphrase("");
    setNote(said);
    changed();
  };
  const fail = (e: unknown) => setNote(toCommandError(e).message);
  const turnOn = () =>
    api
      .turnOnLock(view.on ? current : null, passphrase, minutes)
      .then((v) => done(v, t.lockSaved))
      .catch(fail);
  const turnOff = () =>
    api
      .turnOffLock(current)
      .then((v) => done(v, t.lockTurnedOff))
      .catch(fail);

  return (
    <div className="lock-settings" data-testid="lock-settings">
      <h3>{t.lockSettingsTitle}</h3>
      <p className="muted small">{t.lockSettingsIntro}</p>
      <p className="small" data-testid="lock-state">
        {view.on ? t.lockOnNote(view.after_minutes) : t.lockOff}
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          turnOn();
        }}
      >
        {view.on && (
          <label>
            {t.lockCurrent}{" "}
            <input type="password" value={current} onChange={(e) => setCurrent(e.target.value)} data-testid="lock-current" />
          </label>
        )}
        <label>
          {t.lockNewPassphrase}{" "}
          <input type="password" value={passphrase} minLength={view.min_chars} onChange={(e) => setPassphrase(e.target.value)} aria-describedby="lock-min" data-testid="lock-new" />
        </label>
        <label>
          {t.lockMinutes}{" "}
          <input type="number" min={view.min_minutes} max={view.max_minutes} value={minutes} onChange={(e) => setMinutes(Number(e.target.value))} data-testid="lock-minutes" />
        </label>
        <button type="submit" disabled={!passphrase} data-testid="lock-turn-on">
          {view.on ? t.lockChange : t.lockTurnOn}
        </button>
        {view.on && (
          <>
            <button type="button" className="ghost" disabled={!current} onClick={turnOff} data-testid="lock-turn-off">
              {t.lockTurnOff}
            </button>
            <button type="button" className="ghost" onClick={() => api.lockApp().then(changed).catch(fail)} data-testid="lock-now">
              {t.lockNow}
            </button>
          </>
        )}
      </form>
      <p id="lock-min" className="muted small">
        {t.lockMinChars(view.min_chars)}
      </p>
      {note && (
        <p className="info" role="status" data-testid="lock-note">
          {note}
        </p>
      )}
    </div>
  );
}
