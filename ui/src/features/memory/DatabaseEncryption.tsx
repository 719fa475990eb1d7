// Settings → Your data → Encrypted database: whether it is, and turning it on or off
// (the core keeps the key and converts at the next start; this says and asks).
import { useEffect, useState } from "react";
import { api, toCommandError, type DatabaseEncryption as State } from "../../api";
import { useStrings } from "../../i18n";

export function DatabaseEncryption() {
  const t = useStrings();
  const [state, setState] = useState<State | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    api
      .databaseEncryption()
      .then(setState)
      .catch((e) => setNote(toCommandError(e).message));
  }, []);
  if (!state) return note ? <p className="error small">{note}</p> : null;

  const set = (on: boolean) => {
    setNote(null);
    api
      .setDatabaseEncryption(on)
      .then(setState)
      .catch((e) => setNote(toCommandError(e).message));
  };
  // What the database will be once the next start has done what is pending.
  const willBe = state.pending === "encrypt" || (state.encrypted && state.pending !== "decrypt");
  const now = state.encrypted ? t.encryptionOn : t.encryptionOff;
  const next = state.pending === "encrypt" ? t.encryptionWillEncrypt : state.pending === "decrypt" ? t.encryptionWillDecrypt : null;
  return (
    <div data-testid="database-encryption">
      <h3>{t.encryptionTitle}</h3>
      <p className="muted small">{t.encryptionIntro}</p>
      <p className="small" data-testid="encryption-state">
        {now} {next}
      </p>
      {state.failed && (
        <p className="error small" role="alert" data-testid="encryption-failed">
          {t.encryptionFailed(state.failed)}
        </p>
      )}
      <div className="row">
        {state.pending ? (
          <>
            <button type="button" onClick={() => api.restartApp()} data-testid="encryption-restart">
              {t.encryptionRestart}
            </button>
            <button type="button" className="ghost" onClick={() => set(!willBe)} data-testid="encryption-cancel">
              {t.encryptionCancel}
            </button>
          </>
        ) : (
          <button type="button" className={willBe ? "ghost" : undefined} onClick={() => set(!willBe)} data-testid="encryption-toggle">
            {willBe ? t.encryptionTurnOff : t.encryptionTurnOn}
          </button>
        )}
      </div>
      {willBe && <p className="muted small">{t.encryptionKeyWarning}</p>}
      {note && (
        <p className="error small" role="alert" data-testid="encryption-note">
          {note}
        </p>
      )}
    </div>
  );
}
