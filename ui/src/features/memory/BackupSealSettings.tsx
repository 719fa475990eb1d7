import { useEffect, useState } from "react";
import { api, toCommandError, type BackupSeal } from "../../api";
import { useStrings } from "../../i18n";

/** Settings → Your data → Encrypted backups: the passphrase every backup is sealed with.
 * The core checks its length and keeps it in the keychain; this only asks and says. */
export function BackupSealSettings() {
  const t = useStrings();
  const [seal, setSeal] = useState<BackupSeal | null>(null);
  const [passphrase, setPassphrase] = useState("");
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    api.backupSeal().then(setSeal).catch((e) => setNote({ ok: false, text: toCommandError(e).message }));
  }, []);

  const save = (text: string) =>
    api
      .sealBackups(text)
      .then((view) => {
        setSeal(view);
        setPassphrase("");
        setNote({ ok: true, text: view.sealed ? t.sealSaved : t.sealRemoved });
      })
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }));

  const session = seal?.storage?.kind === "session";
  return (
    <div data-testid="backup-seal">
      <h3>{t.sealTitle}</h3>
      {seal && <p className="muted small">{t.sealIntro(seal.min_chars)}</p>}
      <p className={session ? "warn-text small" : "small"} data-testid="seal-state">
        {seal?.sealed ? (session ? t.sealOnSession : t.sealOn) : t.sealOff}
      </p>
      <form
        className="setting-row"
        onSubmit={(e) => {
          e.preventDefault();
          save(passphrase);
        }}
      >
        <label>
          {t.sealPassphrase}{" "}
          <input type="password" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-testid="seal-passphrase" />
        </label>
        <button type="submit" disabled={passphrase === ""} data-testid="seal-save">
          {seal?.sealed ? t.sealChange : t.sealSave}
        </button>
        {seal?.sealed && (
          <button type="button" className="ghost" onClick={() => save("")} data-testid="seal-remove">
            {t.sealRemove}
          </button>
        )}
      </form>
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="seal-note">
          {note.text}
        </p>
      )}
      <p className="muted small">{t.sealPlainFiles}</p>
    </div>
  );
}
