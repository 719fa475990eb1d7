import { useEffect, useState } from "react";
import { api, toCommandError, type NotesView } from "../../api";
import { useStrings } from "../../i18n";

/** Settings → Notes: which folder the note tools read and write. */
export function NotesSettings() {
  const t = useStrings();
  const [view, setView] = useState<NotesView | null>(null);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.notesView().then((v) => v && setView(v)).catch((e) => setError(toCommandError(e).message));
  }, []);

  const choose = (folder: string | null) => {
    setError(null);
    api
      .chooseNotesFolder(folder)
      .then((v) => {
        setView(v);
        setTyped("");
      })
      .catch((e) => setError(toCommandError(e).message));
  };
  const browse = () => api.pickFolder().then((folder) => folder && choose(folder)).catch((e) => setError(toCommandError(e).message));

  return (
    <section className="notes-settings">
      <h2>{t.notesTitle}</h2>
      <p className="muted">{t.notesIntro}</p>
      {view?.problem && (
        <div className="form-error" role="alert" data-testid="notes-problem">
          {t.notesProblem(view.problem)}
        </div>
      )}
      {view?.folder ? (
        <p data-testid="notes-folder">
          {t.notesFolder(view.folder)}{" "}
          <button className="ghost small" onClick={() => choose(null)} data-testid="notes-forget">
            {t.notesForget}
          </button>
        </p>
      ) : (
        <p className="empty-inline" data-testid="notes-none">
          {t.notesNone}
        </p>
      )}
      <form
        className="token-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) choose(typed.trim());
        }}
      >
        <button type="button" className="ghost" onClick={browse} data-testid="notes-browse">
          {t.notesChoose}
        </button>
        <label className="grow">
          <span className="small">{t.notesPath}</span>
          <input value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={t.notesPathPlaceholder} data-testid="notes-path" />
        </label>
        <button type="submit" disabled={!typed.trim()} data-testid="notes-use">
          {t.notesUse}
        </button>
      </form>
      {error && (
        <div className="form-error" role="alert" data-testid="notes-error">
          {error}
        </div>
      )}
    </section>
  );
}
