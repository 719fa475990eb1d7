import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type Level, type ProactiveConfig, type ProactiveStatus, type SinkId, type SinkPreference } from "../../api";
import { hm } from "../../format";
import { useStrings } from "../../i18n";
import { TimeField } from "../settings/TimeField";
import { LearnedSettings } from "./LearnedSettings";

const LEVELS: Level[] = ["low", "medium", "high"];
// Other devices take what notifications take (the core's rule): no row of their own.
const SINKS: Exclude<SinkId, "console" | "devices">[] = ["chat", "notification", "tray", "telegram", "whatsapp"];
const PREFERENCES: SinkPreference[] = ["all", "reminders-only", "none"];


/** Level, quiet hours and where proactive messages go (the time zone is General's). */
export function ProactivitySettings() {
  const t = useStrings();
  const [status, setStatus] = useState<ProactiveStatus | null>(null);
  const [config, setConfig] = useState<ProactiveConfig | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api
      .proactiveStatus()
      .then((s) => {
        setStatus(s);
        setConfig(s.config);
      })
      .catch((e) => setError(toCommandError(e).message));
  }, []);
  useEffect(load, [load]);

  if (!config || !status) return error ? <div className="problems">{error}</div> : null;
  const set = (patch: Partial<ProactiveConfig>) => setConfig({ ...config, ...patch });
  const setSink = (sink: SinkId, pref: SinkPreference) => set({ sinks: { ...config.sinks, [sink]: pref } });
  const quietUntil = status.quiet_until;

  const save = async () => {
    setError(null);
    setMessage(null);
    try {
      await api.saveProactiveConfig(config);
      setMessage(t.proactiveSaved);
      load();
    } catch (e) {
      setError(toCommandError(e).message);
    }
  };
  const quiet = async (minutes: number | null) => {
    try {
      setStatus(await api.setQuiet(minutes));
    } catch (e) {
      setError(toCommandError(e).message);
    }
  };

  return (
    <section className="proactive-settings" data-testid="proactive-settings">
      <h2>{t.proactiveTitle}</h2>
      <p className="muted">{t.proactiveIntro(status.limits.max_per_hour, status.limits.cooldown_minutes)}</p>
      <div className="quiet-line row" data-testid="quiet-line">
        <span>{quietUntil ? t.quietUntil(hm(quietUntil, t.locale)) : t.proactiveToday(status.state.count_today, status.max_today)}</span>
        {quietUntil ? (
          <button className="ghost small" onClick={() => quiet(null)} data-testid="quiet-off">
            {t.quietOff}
          </button>
        ) : (
          <button className="ghost small" onClick={() => quiet(status.limits.quiet_minutes)} data-testid="quiet-hour">
            {t.quietFor(status.limits.quiet_minutes)}
          </button>
        )}
      </div>
      <fieldset className="levels">
        <legend>{t.proactiveLevel}</legend>
        {LEVELS.map((level) => (
          <label key={level} className={`level${config.level === level ? " chosen" : ""}`}>
            <input type="radio" name="level" value={level} checked={config.level === level} onChange={() => set({ level })} data-testid={`level-${level}`} />
            <strong>{t.levelName(level)}</strong>
            <span className="muted small">{t.levelHint(level, status.limits.max_per_day[level])}</span>
          </label>
        ))}
      </fieldset>
      <div className="form-grid">
        <label>
          {t.quietHours}
          <span className="row">
            <TimeField label={t.quietFrom} value={config.quiet_hours.start} onChange={(start) => set({ quiet_hours: { ...config.quiet_hours, start } })} testid="quiet-start" />
            –
            <TimeField label={t.quietTo} value={config.quiet_hours.end} onChange={(end) => set({ quiet_hours: { ...config.quiet_hours, end } })} testid="quiet-end" />
          </span>
          <span className="muted small">{t.quietHoursHint}</span>
        </label>
        <label>
          {t.tickMinutes}
          <input type="number" min={5} max={240} value={config.tick_minutes} onChange={(e) => set({ tick_minutes: Number(e.target.value) })} data-testid="tick-minutes" />
        </label>
      </div>
      <h3>{t.sinksTitle}</h3>
      <table className="sinks">
        <thead>
          <tr>
            <th>{t.sinkColumn}</th>
            <th>{t.sinkReceives}</th>
            <th>{t.sinkPrimary}</th>
          </tr>
        </thead>
        <tbody>
          {SINKS.map((sink) => (
            <tr key={sink}>
              <td>{t.sinkName(sink)}</td>
              <td>
                <select value={config.sinks[sink]} aria-label={`${t.sinkName(sink)}: ${t.sinkReceives}`} onChange={(e) => setSink(sink, e.target.value as SinkPreference)} data-testid={`sink-${sink}`}>
                  {PREFERENCES.map((p) => (
                    <option key={p} value={p}>
                      {t.sinkPreference(p)}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <input type="radio" name="primary" checked={config.sinks.primary === sink} onChange={() => set({ sinks: { ...config.sinks, primary: sink } })} aria-label={`${t.sinkName(sink)}: ${t.sinkPrimary}`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">{t.sinksHint}</p>
      <label className="stacked">
        {t.phoneWhenIdle}
        <input
          type="number"
          min={0}
          max={1440}
          value={config.sinks.phone_when_idle_minutes}
          onChange={(e) => set({ sinks: { ...config.sinks, phone_when_idle_minutes: Number(e.target.value) } })}
          data-testid="phone-when-idle"
        />
        <span className="muted small">{t.phoneWhenIdleHint}</span>
      </label>
      <LearnedSettings
        kinds={status.state.learned?.kinds ?? []}
        onReset={() =>
          api
            .forgetLearned()
            .then(setStatus)
            .catch((e) => setError(toCommandError(e).message))
        }
      />
      <div className="row">
        <button onClick={save} data-testid="save-proactive">
          {t.save}
        </button>
        {message && (
          <span className="ok-text" role="status">
            {message}
          </span>
        )}
        {error && (
          <span className="error-text" role="alert">
            {error}
          </span>
        )}
      </div>
    </section>
  );
}
