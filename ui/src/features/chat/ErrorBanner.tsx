import type { CommandError } from "../../api";
import { useStrings } from "../../i18n";

export function ErrorBanner({
  error,
  onRetry,
  onDismiss,
}: {
  error: CommandError;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  const t = useStrings();
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      <span>
        <strong>{t.errorPrefix}</strong> {error.message}
      </span>
      <span className="actions">
        {error.retryable && (
          <button type="button" data-testid="retry" onClick={onRetry}>
            {t.retry}
          </button>
        )}
        <button type="button" className="ghost" onClick={onDismiss}>
          {t.dismiss}
        </button>
      </span>
    </div>
  );
}
