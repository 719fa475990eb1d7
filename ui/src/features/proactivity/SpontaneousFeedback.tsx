import { useState } from "react";
import { api, toCommandError, type SpontaneousSignal } from "../../api";
import { useStrings } from "../../i18n";
import { ThumbDown, ThumbUp } from "../../components/Icons";

/** Two small buttons under a message Sidecar sent on its own: was it welcome? */
export function SpontaneousFeedback({ messageId }: { messageId: number }) {
  const t = useStrings();
  const [given, setGiven] = useState<SpontaneousSignal | null>(null);
  const [error, setError] = useState<string | null>(null);
  const give = (signal: SpontaneousSignal) =>
    api
      .spontaneousFeedback(messageId, signal)
      .then(() => setGiven(signal))
      .catch((e) => setError(toCommandError(e).message));
  return (
    <div className="spontaneous-feedback" data-testid="spontaneous-feedback">
      {given ? (
        <span className="muted small" role="status">
          {given === "thumbs_up" ? t.feedbackThanksUp : t.feedbackThanksDown}
        </span>
      ) : (
        <>
          <button type="button" className="ghost small" onClick={() => give("thumbs_up")} aria-label={t.feedbackUp} title={t.feedbackUp} data-testid="thumbs-up">
            <ThumbUp />
          </button>
          <button type="button" className="ghost small" onClick={() => give("thumbs_down")} aria-label={t.feedbackDown} title={t.feedbackDown} data-testid="thumbs-down">
            <ThumbDown />
          </button>
        </>
      )}
      {error && <span className="error-text">{error}</span>}
    </div>
  );
}
