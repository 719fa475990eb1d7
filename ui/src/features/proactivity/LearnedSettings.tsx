import type { Channel, LearnedKind } from "../../api";
import { hm } from "../../format";
import { useStrings } from "../../i18n";

/** What Sidecar learned of how welcome each kind of its messages is, per channel, with Reset. */
export function LearnedSettings({ kinds, onReset }: { kinds: LearnedKind[]; onReset: () => void }) {
  const t = useStrings();
  const now = Date.now();
  return (
    <div className="learned" data-testid="learned">
      <h3>{t.learnedTitle}</h3>
      {kinds.length === 0 ? (
        <p className="empty-inline">{t.learnedNone}</p>
      ) : (
        <table className="sinks">
          <thead>
            <tr>
              <th>{t.learnedKind}</th>
              <th>{t.learnedChannel}</th>
              <th>{t.learnedWelcome}</th>
              <th>{t.learnedNow}</th>
            </tr>
          </thead>
          <tbody>
            {kinds.map((k) => {
              const paused = k.paused_until && Date.parse(k.paused_until) > now ? k.paused_until : null;
              return (
                <tr key={`${k.kind}-${k.channel}`} data-testid="learned-row">
                  <td>{t.kindName(k.kind)}</td>
                  <td>{t.channelName(k.channel as Channel)}</td>
                  <td>{t.learnedCounts(k.welcome, k.unwelcome)}</td>
                  <td>{paused ? t.learnedPaused(new Date(paused).toLocaleDateString(t.locale), hm(paused, t.locale)) : t.learnedPace(k.allowance)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p className="muted small">{t.learnedHint}</p>
      <button type="button" className="ghost small" onClick={onReset} disabled={kinds.length === 0} data-testid="learned-reset">
        {t.learnedReset}
      </button>
    </div>
  );
}
