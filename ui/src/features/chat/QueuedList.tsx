import type { QueuedMessage } from "../../api";
import { useStrings } from "../../i18n";

/** Messages waiting for the reply being written, each with a way to take it back. */
export function QueuedList({ items, onCancel }: { items: QueuedMessage[]; onCancel: (id: number) => void }) {
  const t = useStrings();
  if (items.length === 0) return null;
  return (
    <ul className="queued-list" aria-label={t.queuedTitle} data-testid="queued-list">
      {items.map((item) => (
        <li key={item.id} className="queued-item" data-testid="queued-item">
          <span className="queued-tag">{t.queuedTag}</span>
          <span className="queued-text">{item.text}</span>
          <button className="ghost small" onClick={() => onCancel(item.id)} data-testid="cancel-queued">
            {t.cancel}
          </button>
        </li>
      ))}
    </ul>
  );
}
