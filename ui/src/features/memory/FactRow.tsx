// One fact of the Memory page: its words, when it was learned and confirmed, where,
// and what the user can do with it.
import { useState } from "react";
import { api, toCommandError, type Category, type ListedFact } from "../../api";
import { CategorySelect } from "./CategorySelect";
import { useStrings } from "../../i18n";

/** "2 Jan 2026" in the user's language, from the learnings file's YYYY-MM-DD. */
function day(iso: string, locale: string): string {
  const date = new Date(`${iso}T12:00:00`);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric" }).format(date);
}

/** A fact row: shown, or edited in place (text and category); marked important or
 * not; with the chat it was learned in, when the core knows it. */
export function FactRow({
  fact,
  history = [],
  learnedIn,
  onOpenMessage,
  onChanged,
  onMessage,
}: {
  fact: ListedFact;
  history?: ListedFact[];
  /** The message the fact was learned from. */
  learnedIn?: number;
  onOpenMessage?: (messageId: number) => Promise<unknown>;
  onChanged: () => void;
  onMessage: (m: string) => void;
}) {
  const t = useStrings();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(fact.text);
  const [category, setCategory] = useState<Category>(fact.category);
  const run = (work: Promise<void>) =>
    work
      .then(() => {
        setEditing(false);
        onChanged();
      })
      .catch((e) => onMessage(toCommandError(e).message));
  if (editing) {
    return (
      <li data-testid="fact">
        <form
          className="fact-edit"
          onSubmit={(e) => {
            e.preventDefault();
            run(api.editFact(fact.line, fact.text, text, category));
          }}
        >
          <input value={text} aria-label={t.factLabel} onChange={(e) => setText(e.target.value)} data-testid="fact-edit-text" autoFocus />
          <CategorySelect value={category} onChange={setCategory} testId="fact-edit-category" />
          <button type="submit" className="small" data-testid="fact-save">
            {t.save}
          </button>
          <button type="button" className="ghost small" onClick={() => setEditing(false)}>
            {t.cancel}
          </button>
        </form>
      </li>
    );
  }
  const mark = (important: boolean) =>
    api
      .markFactImportant(fact.line, fact.text, important)
      .then(() => {
        onMessage(important ? t.factMarkedImportant(fact.text) : t.factUnmarked(fact.text));
        onChanged();
      })
      .catch((e) => onMessage(toCommandError(e).message));
  const classes = [fact.superseded ? "superseded" : "", fact.critical ? "important" : ""].filter(Boolean).join(" ");
  return (
    <li data-testid="fact" className={classes || undefined}>
      <span className="fact-body">
        {fact.critical && (
          <span className="badge important" title={t.factImportantNote} data-testid="fact-important">
            {t.factImportant}
          </span>
        )}
        {fact.text}
        {fact.superseded && <span className="muted small"> · {t.memoryNoLongerCurrent(fact.superseded)}</span>}
        {history.length > 0 && (
          <ul className="fact-history" data-testid="fact-history">
            {history.map((h) => (
              <li key={`${h.line}:${h.text}`} className="muted small">
                {t.memoryBefore(h.text, h.superseded ?? "")}
              </li>
            ))}
          </ul>
        )}
      </span>
      <span className="fact-side">
        <span className="muted small" data-testid="fact-when">
          {t.memoryToldTimes(fact.weight)} · {fact.learned === fact.confirmed ? t.memoryOn(day(fact.learned, t.locale)) : t.memoryFirstLast(day(fact.learned, t.locale), day(fact.confirmed, t.locale))}
        </span>
        {learnedIn !== undefined && onOpenMessage && (
          <button
            type="button"
            className="ghost small"
            title={t.factOriginTitle}
            onClick={() => onOpenMessage(learnedIn).catch((e) => onMessage(toCommandError(e).message))}
            data-testid="fact-origin"
          >
            {t.factOrigin}
          </button>
        )}
        {!fact.superseded && (
          <button type="button" className="ghost small" aria-pressed={fact.critical} onClick={() => mark(!fact.critical)} data-testid="fact-mark-important">
            {fact.critical ? t.factUnmarkImportant : t.factMarkImportant}
          </button>
        )}
        <button type="button" className="ghost small" onClick={() => setEditing(true)} data-testid="fact-edit">
          {t.editFact}
        </button>
        <button
          type="button"
          className="ghost small danger"
          onClick={() => run(api.deleteFact(fact.line, fact.text))}
          data-testid="fact-delete"
        >
          {t.deleteFact}
        </button>
      </span>
    </li>
  );
}

