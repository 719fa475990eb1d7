// Settings → Your data → Bring what another assistant knows about you: paste ChatGPT's
// or Claude's memory, review the facts it becomes (untick, change a category), save.
// The core reads the text and says what it knows already; nothing is saved before Save.
import { useState } from "react";
import { api, toCommandError, type BroughtFact, type Category } from "../../api";
import { CategorySelect } from "./CategorySelect";
import { useStrings } from "../../i18n";

export function BringMemory() {
  const t = useStrings();
  const [text, setText] = useState("");
  const [facts, setFacts] = useState<(BroughtFact & { kept: boolean })[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const read = async () => {
    setNote(null);
    try {
      const found = await api.previewBrought(text);
      setFacts(found.map((f) => ({ ...f, kept: !f.already })));
      if (found.length === 0) setNote(t.bringNothing);
    } catch (e) {
      setNote(toCommandError(e).message);
    }
  };

  const save = async () => {
    if (!facts) return;
    setBusy(true);
    try {
      const saved = await api.bringFacts(facts.filter((f) => f.kept).map((f) => ({ text: f.text, category: f.category })));
      setNote(t.bringSaved(saved.new, saved.known, saved.changed));
      setFacts(null);
      setText("");
    } catch (e) {
      setNote(toCommandError(e).message);
    } finally {
      setBusy(false);
    }
  };

  const change = (i: number, part: Partial<{ kept: boolean; category: Category }>) => setFacts((now) => now && now.map((f, j) => (j === i ? { ...f, ...part } : f)));
  const kept = facts?.filter((f) => f.kept).length ?? 0;

  return (
    <div className="bring-memory" data-testid="bring-memory">
      <h3>{t.bringTitle}</h3>
      <p className="muted small">{t.bringIntro}</p>
      {!facts && (
        <>
          <textarea value={text} rows={5} aria-label={t.bringTitle} placeholder={t.bringPlaceholder} onChange={(e) => setText(e.target.value)} data-testid="bring-text" />
          <button type="button" disabled={!text.trim()} onClick={read} data-testid="bring-read">
            {t.bringRead}
          </button>
        </>
      )}
      {facts && facts.length > 0 && (
        <>
          <ul className="forget-list bring-list" data-testid="bring-list">
            {facts.map((f, i) => (
              <li key={`${i}:${f.text}`} data-testid="bring-fact">
                <label className="check">
                  <input type="checkbox" checked={f.kept} onChange={(e) => change(i, { kept: e.target.checked })} data-testid="bring-keep" />
                  <span>
                    {f.text}
                    {f.already && <span className="muted small"> · {t.bringAlready}</span>}
                    {f.replaces && <span className="muted small"> · {t.bringReplaces(f.replaces)}</span>}
                  </span>
                </label>
                <CategorySelect value={f.category} onChange={(category) => change(i, { category })} testId="bring-category" />
              </li>
            ))}
          </ul>
          <button type="button" disabled={busy || kept === 0} onClick={save} data-testid="bring-save">
            {busy ? t.bringSaving : t.bringSave(kept)}
          </button>{" "}
          <button type="button" className="ghost" onClick={() => setFacts(null)}>
            {t.cancel}
          </button>
        </>
      )}
      {note && (
        <p className="info" role="status" data-testid="bring-note">
          {note}
        </p>
      )}
    </div>
  );
}
