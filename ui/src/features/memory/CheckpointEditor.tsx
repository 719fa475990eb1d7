import { useState, type KeyboardEvent } from "react";
import { api, toCommandError, type Checkpoint } from "../../api";
import { useStrings } from "../../i18n";
import { decisionOf, decisionText, type CheckpointList } from "./checkpoints.strings";

const LISTS: CheckpointList[] = [
  "pending",
  "completed",
  "blockers",
  "decisions",
  "successful_approaches",
  "failed_approaches",
  "user_preferences",
  "critical_info",
];

/** Edits what a checkpoint records: its title, current work and lists, one item per line. */
export function CheckpointEditor({ checkpoint, onDone }: { checkpoint: Checkpoint; onDone: (saved: Checkpoint | null) => void }) {
  const t = useStrings();
  const body = checkpoint.body;
  const [title, setTitle] = useState(body.title);
  const [work, setWork] = useState(body.current_work);
  const [lists, setLists] = useState<Record<CheckpointList, string>>(
    () =>
      Object.fromEntries(LISTS.map((l) => [l, l === "decisions" ? body.decisions.map(decisionText).join("\n") : (body[l] ?? []).join("\n")])) as Record<
        CheckpointList,
        string
      >,
  );
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = () => {
    setSaving(true);
    const lines = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);
    const edited = {
      ...body,
      title: title.trim(),
      current_work: work.trim(),
      ...Object.fromEntries(LISTS.map((l) => [l, lines(lists[l])])),
      decisions: lines(lists.decisions).map((line) => decisionOf(line, body.decisions)),
    };
    api
      .editCheckpoint(checkpoint.id, edited)
      .then(onDone)
      .catch((e) => setError(toCommandError(e).message))
      .finally(() => setSaving(false));
  };
  const keys = (e: KeyboardEvent) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
    } else if (e.key === "Escape") {
      onDone(null);
    }
  };

  return (
    <form className="checkpoint-editor" data-testid="checkpoint-editor" aria-label={t.checkpointEditTitle(checkpoint.id)} onKeyDown={keys} onSubmit={(e) => (e.preventDefault(), save())}>
      {error && <div className="error-banner">{error}</div>}
      <label>
        {t.checkpointFieldTitle}
        <input value={title} onChange={(e) => setTitle(e.target.value)} data-testid="checkpoint-title" autoFocus />
      </label>
      <label>
        {t.checkpointFieldWork}
        <textarea rows={2} value={work} onChange={(e) => setWork(e.target.value)} />
      </label>
      {LISTS.map((list) => (
        <label key={list}>
          {t.checkpointList(list)} <span className="muted small">({list === "decisions" ? t.checkpointDecisionHint : t.checkpointOnePerLine})</span>
          <textarea
            rows={Math.min(6, Math.max(2, lists[list].split("\n").length))}
            value={lists[list]}
            onChange={(e) => setLists({ ...lists, [list]: e.target.value })}
            data-testid={`checkpoint-${list}`}
          />
        </label>
      ))}
      <div className="row">
        <button type="submit" disabled={saving} title={t.checkpointSaveHint} data-testid="checkpoint-save">
          {t.save}
        </button>
        <button type="button" className="ghost" onClick={() => onDone(null)}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}
