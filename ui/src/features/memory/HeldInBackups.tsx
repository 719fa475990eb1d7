// Settings → Your data: the backups made before something was last deleted for good,
// which may still hold it, and "remove it from the backups too" (a fresh backup first).
import { useEffect, useState } from "react";
import { api, toCommandError, type HeldInBackups as Held } from "../../api";
import { shortDay } from "../../format";
import { useStrings } from "../../i18n";

export function HeldInBackups() {
  const t = useStrings();
  const [held, setHeld] = useState<Held | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    api
      .heldInBackups()
      .then(setHeld)
      .catch((e) => setNote(toCommandError(e).message));
  }, []);

  const remove = async () => {
    setBusy(true);
    try {
      const removed = await api.forgetInBackups();
      setNote(t.heldRemoved(removed));
      setHeld(await api.heldInBackups());
      setAsking(false);
    } catch (e) {
      setNote(toCommandError(e).message);
    } finally {
      setBusy(false);
    }
  };

  const count = held?.backups.length ?? 0;
  return (
    <div data-testid="held-in-backups">
      {count > 0 && held?.since && (
        <div className="info" role="status">
          <p>{t.heldSome(count, shortDay(held.since, t.locale))}</p>
          {!asking ? (
            <button type="button" className="small" onClick={() => setAsking(true)} data-testid="held-remove">
              {t.heldRemove}
            </button>
          ) : (
            <p>
              {t.heldConfirm(count)}{" "}
              <button type="button" className="small destroy" disabled={busy} onClick={remove} data-testid="held-yes">
                {busy ? t.heldRemoving : t.heldYes(count)}
              </button>{" "}
              <button type="button" className="ghost small" onClick={() => setAsking(false)}>
                {t.cancel}
              </button>
            </p>
          )}
        </div>
      )}
      {note && (
        <p className="muted small" role="status" data-testid="held-note">
          {note}
        </p>
      )}
    </div>
  );
}
