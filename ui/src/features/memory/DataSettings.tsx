import { useEffect, useRef, useState } from "react";
import { api, toCommandError } from "../../api";
import { readText } from "../chat/files";
import { useStrings } from "../../i18n";
import { BackupSealSettings } from "./BackupSealSettings";
import { BringMemory } from "./BringMemory";
import { HeldInBackups } from "./HeldInBackups";
import { DatabaseEncryption } from "./DatabaseEncryption";
import { LockSettings } from "../lock/LockSettings";
import { RetentionSettings } from "./RetentionSettings";

type Note = { ok: boolean; text: string; path?: string };

/** A file's size as people read it: "38 kB", "2.4 MB". */
function size(bytes: number): string {
  return bytes < 1e6 ? `${Math.max(1, Math.round(bytes / 1e3))} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Settings → Your data: back up now, the automatic backups, export, and import from
 * ChatGPT or Claude. */
export function DataSettings() {
  const t = useStrings();
  const [backups, setBackups] = useState<[string, string][]>([]);
  const [busy, setBusy] = useState<"backup" | "import" | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  /** The backup whose restore waits for a yes (and its passphrase, when it is sealed). */
  const [confirming, setConfirming] = useState<{ path: string; sealed: boolean } | null>(null);
  const [passphrase, setPassphrase] = useState("");
  const file = useRef<HTMLInputElement>(null);

  const reload = () => api.automaticBackups().then(setBackups).catch(() => undefined);
  useEffect(() => {
    reload();
  }, []);
  const fail = (e: unknown) => setNote({ ok: false, text: toCommandError(e).message });

  const backUp = () => {
    setBusy("backup");
    setNote(null);
    api
      .backUpNow()
      .then((info) => setNote({ ok: true, text: t.backedUp(info.path, size(info.bytes)), path: info.path }))
      .catch(fail)
      .finally(() => setBusy(null));
  };
  const exportAs = (format: "markdown" | "json") =>
    api
      .exportData(format)
      .then((path) => setNote({ ok: true, text: t.exportedTo(path), path }))
      .catch(fail);
  const importFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setBusy("import");
    setNote(null);
    try {
      const report = await api.importChatExport(await readText(chosen));
      const skipped = report.problems.length ? ` ${t.importSkipped(report.problems.length)}` : "";
      const already = report.already ? ` ${t.importAlready(report.already)}` : "";
      setNote({ ok: true, text: t.importedChats(report.from, report.conversations, report.messages) + already + skipped });
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
      if (file.current) file.current.value = "";
    }
  };

  return (
    <section className="data-settings" data-testid="data-settings">
      <h2>{t.dataTitle}</h2>
      <p className="muted">{t.dataIntro}</p>
      <div className="setting-row">
        <button type="button" data-testid="back-up-now" disabled={busy !== null} onClick={backUp}>
          {busy === "backup" ? t.backingUp : t.backUpNow}
        </button>
        <button type="button" className="ghost" data-testid="export-markdown" onClick={() => exportAs("markdown")}>
          {t.exportMarkdown}
        </button>
        <button type="button" className="ghost" data-testid="export-json" onClick={() => exportAs("json")}>
          {t.exportJson}
        </button>
      </div>
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="data-note">
          {note.text}{" "}
          {note.path && (
            <button type="button" className="ghost small" onClick={() => api.revealPath(note.path!).catch(fail)}>
              {t.showFolder}
            </button>
          )}
        </p>
      )}
      <p className="muted small">{t.restoreHint}</p>
      <h3>{t.automaticBackups}</h3>
      {backups.length === 0 ? (
        <p className="empty-inline" data-testid="no-backups">
          {t.noBackups}
        </p>
      ) : (
        <ul className="backup-list" data-testid="backup-list">
          {backups.map(([date, path]) => (
            <li key={path} className="small" data-testid="backup-row">
              {date} <span className="muted">{path}</span>{" "}
              {confirming?.path === path ? (
                <span className="restore-confirm" role="alert" data-testid="restore-confirm">
                  {t.restoreAsk(date)}{" "}
                  {confirming.sealed && (
                    <label>
                      {t.restorePassphrase}{" "}
                      <input type="password" autoComplete="off" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-testid="restore-passphrase" />{" "}
                    </label>
                  )}
                  <button
                    type="button"
                    className="small"
                    data-testid="restore-yes"
                    disabled={confirming.sealed && passphrase === ""}
                    onClick={() => api.restoreAtRestart(path, confirming.sealed ? passphrase : null).catch(fail)}
                  >
                    {t.restoreYes}
                  </button>{" "}
                  <button type="button" className="ghost small" onClick={() => setConfirming(null)}>
                    {t.cancel}
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="ghost small"
                  data-testid="restore-backup"
                  onClick={() => {
                    setPassphrase("");
                    api.backupIsSealed(path).then((sealed) => setConfirming({ path, sealed }), fail);
                  }}
                >
                  {t.restoreBackup}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <HeldInBackups />
      <BackupSealSettings />
      <DatabaseEncryption />
      <LockSettings />
      <RetentionSettings />
      <h3>{t.importTitle}</h3>
      <p className="muted small">{t.importIntro}</p>
      <label className="button-like ghost">
        {busy === "import" ? t.importing : t.importChoose}
        <input ref={file} type="file" accept=".json,application/json" hidden data-testid="import-file" disabled={busy !== null} onChange={(e) => importFile(e.target.files?.[0])} />
      </label>
      <BringMemory />
    </section>
  );
}
