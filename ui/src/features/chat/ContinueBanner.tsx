import type { Checkpoint } from "../../api";
import { useStrings } from "../../i18n";

/** In a new conversation: offers to continue the latest open checkpoint. */
export function ContinueBanner({
  offer,
  onContinue,
  onDismiss,
}: {
  offer: Checkpoint;
  onContinue: () => void;
  onDismiss: () => void;
}) {
  const t = useStrings();
  const pending = offer.body.pending.slice(0, 3);
  return (
    <div className="continue-banner" role="region" data-testid="continue-offer">
      <div>
        <strong>{t.offerTitle(offer.body.title || `#${offer.id}`)}</strong>
        <p className="muted small">{t.offerBody}</p>
        {pending.length > 0 && (
          <p className="small">
            {t.checkpointPending}: {pending.join(" · ")}
          </p>
        )}
      </div>
      <div className="banner-actions">
        <button onClick={onContinue} data-testid="offer-continue">
          {t.offerContinue}
        </button>
        <button className="ghost" onClick={onDismiss} data-testid="offer-dismiss">
          {t.dismiss}
        </button>
      </div>
    </div>
  );
}
