import { useEffect, useState } from "react";
import { api } from "../../api";
import { useStrings } from "../../i18n";

/**
 * This conversation's spoken replies: pressed, every reply here is said aloud; let go,
 * Settings → Voice's rule applies again (by default, replies to what was said aloud).
 */
export function SpeakHere({ refreshKey }: { refreshKey: string }) {
  const t = useStrings();
  const [on, setOn] = useState(false);
  useEffect(() => {
    api.speaksHere().then(setOn).catch(() => undefined);
  }, [refreshKey]);
  const label = on ? t.speakHereOn : t.speakHereOff;
  return (
    <button
      type="button"
      className={on ? "ghost small speak-here on" : "ghost small speak-here"}
      data-testid="speak-here"
      aria-pressed={on}
      aria-label={label}
      title={label}
      onClick={() => {
        api
          .setSpeaksHere(!on)
          .then(setOn)
          .catch(() => undefined);
      }}
    >
      <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d="M11 5 6 9H2v6h4l5 4V5z" />
        {on ? <path d="M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" /> : <path d="m23 9-6 6M17 9l6 6" />}
      </svg>
    </button>
  );
}
