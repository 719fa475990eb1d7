import { useCallback, useEffect, useState } from "react";
import {
  api,
  CATEGORIES,
  toCommandError,
  type Category,
  type ListedFact,
  type MemoryReport,
  type MemoryPage,
  type SaveOutcome,
} from "../../api";
import { shortDay } from "../../format";
import { CategorySelect } from "./CategorySelect";
import { useStrings, type Strings } from "../../i18n";
import { CheckpointList } from "./CheckpointList";
import { FactRow } from "./FactRow";
import { ForgetAbout } from "./ForgetAbout";
import { TidyReview } from "./TidyReview";
import { SuspectLines } from "./SuspectLines";
import { ProfileEditors } from "./ProfileEditors";
import { Snippet } from "../chat/Snippet";

function outcomeText(t: Strings, outcome: SaveOutcome): string {
  switch (outcome.action) {
    case "new":
      return t.outcomeNew;
    case "reinforced":
      return t.outcomeReinforced;
    case "moved":
      return t.outcomeMoved;
    case "kept_in_health":
      return t.outcomeKeptInHealth;
    case "kept_important":
      return t.outcomeKeptImportant(t.category(outcome.kept));
    case "superseded":
      return t.outcomeSuperseded(outcome.old);
    case "needs_confirmation":
      return t.outcomeNeedsConfirmation(outcome.old);
    case "rate_limited":
    case "said_this_turn":
      return "";
    case "rejected":
      return outcome.reason;
  }
}

/** The superseded facts about the same thing as the current `fact`, newest first. */
function historyOf(facts: ListedFact[], fact: ListedFact): ListedFact[] {
  if (!fact.slot) return [];
  return facts.filter((f) => f.superseded && f.slot === fact.slot).sort((a, b) => (b.superseded ?? "").localeCompare(a.superseded ?? ""));
}

/** The current fact a superseded one is history of, if it is still there. */
function currentOf(facts: ListedFact[], old: ListedFact): ListedFact | undefined {
  return old.slot ? facts.find((f) => !f.superseded && f.slot === old.slot) : undefined;
}

type MemoryTab = "facts" | "profile" | "checkpoints";

/** Memory: facts, the profile files, and checkpoints, one tab each. */
export function MemoryView({ onOpenMessage, initialQuery = "" }: { onOpenMessage?: (messageId: number) => Promise<unknown>; initialQuery?: string } = {}) {
  const t = useStrings();
  const [tab, setTab] = useState<MemoryTab>("facts");
  return (
    <section className="page" data-testid="memory-view">
      <div className="subtabs" role="tablist">
        {(["facts", "profile", "checkpoints"] as const).map((name) => (
          <button
            key={name}
            role="tab"
            aria-selected={tab === name}
            className={`tab${tab === name ? " active" : ""}`}
            onClick={() => setTab(name)}
            data-testid={`memory-tab-${name}`}
          >
            {{ facts: t.memoryTabFacts, profile: t.memoryTabProfile, checkpoints: t.memoryTabCheckpoints }[name]}
          </button>
        ))}
      </div>
      {tab === "facts" && <FactsPanel onOpenMessage={onOpenMessage} initialQuery={initialQuery} />}
      {tab === "profile" && <ProfileEditors />}
      {tab === "checkpoints" && <CheckpointList />}
    </section>
  );
}

function FactsPanel({ onOpenMessage, initialQuery }: { onOpenMessage?: (messageId: number) => Promise<unknown>; initialQuery: string }) {
  const t = useStrings();
  const [report, setReport] = useState<MemoryReport | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [category, setCategory] = useState<Category>("Preferences");
  const [query, setQuery] = useState(initialQuery);
  const [forgetting, setForgetting] = useState(false);
  // Bumped on each reload, so the tidy looks at the facts again.
  const [version, setVersion] = useState(0);
  const [results, setResults] = useState<MemoryPage | null>(null);
  // How far the reader asked to see: pages of the best matches, then the weaker ones.
  const [depth, setDepth] = useState({ pages: 1, weaker: false });

  const reload = useCallback(() => {
    api.memoryReport().then(setReport).catch((e) => setMessage(toCommandError(e).message));
    setVersion((v) => v + 1);
  }, []);
  useEffect(reload, [reload]);

  // An edit in another editor: show the new state and say what happened.
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type !== "knowledge_changed") return;
      reload();
      setMessage(event.error ? t.knowledgeError(event.error) : t.knowledgeReloaded);
    });
    return () => {
      off.then((f) => f());
    };
  }, [reload, t]);

  // Search as the user types, a moment after they pause; a new query starts at the top.
  useEffect(() => setDepth({ pages: 1, weaker: false }), [query]);
  useEffect(() => {
    if (query.trim().length < 2) {
      setResults(null);
      return;
    }
    const timer = setTimeout(() => {
      api
        .searchMemory(query, depth.pages, depth.weaker)
        .then(setResults)
        .catch((e) => setMessage(toCommandError(e).message));
    }, 250);
    return () => clearTimeout(timer);
  }, [query, depth]);

  const add = async () => {
    if (!text.trim()) return;
    try {
      setMessage(outcomeText(t, await api.rememberFact(text, category)));
      setText("");
      reload();
    } catch (e) {
      setMessage(toCommandError(e).message);
    }
  };

  return (
    <div data-testid="facts-panel">
      <h2>{t.memoryTitle}</h2>
      <p className="muted">{t.memoryIntro}</p>
      {forgetting ? (
        <ForgetAbout onForgotten={reload} onClose={() => setForgetting(false)} />
      ) : (
        <button type="button" className="ghost small danger" onClick={() => setForgetting(true)} data-testid="forget-about-open">
          {t.forgetAboutOpen}
        </button>
      )}
      <input
        className="search"
        type="search"
        placeholder={t.memorySearch}
        aria-label={t.memorySearch}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        data-testid="memory-search"
      />
      {results?.words_only && (
        <p className="muted small" role="status" data-testid="memory-words-only">
          {t.memoryWordsOnly(results.words_only)}
        </p>
      )}
      {results && (
        <ul className="recall-hits" data-testid="recall-hits">
          {results.hits.length === 0 && <li className="muted">{t.memoryNoHits}</li>}
          {results.hits.map((hit) => (
            <li key={`${hit.source}${hit.id}`} data-testid="recall-hit" className={hit.beside ? "beside" : undefined}>
              <span className="muted small">
                {hit.source === "fact"
                  ? t.category(hit.label)
                  : hit.source === "message"
                    ? hit.label === "user"
                      ? t.you
                      : t.sidecar
                    : hit.source === "mail"
                      ? t.memoryMailFrom(hit.label)
                      : hit.label}{" "}
                ·{" "}
                {shortDay(hit.timestamp, t.locale)}
                {hit.external_id ? ` · ${hit.external_id}` : ""}
                {hit.beside ? ` · ${t.memoryBeside}` : ""}
                {hit.superseded ? ` · ${t.memoryNoLongerCurrent(hit.superseded)}` : ""}
              </span>
              <div>
                <Snippet text={hit.snippet} />
              </div>
              {hit.source === "message" && !hit.external_id && onOpenMessage && (
                <button
                  className="ghost small"
                  data-testid="open-hit"
                  onClick={() => onOpenMessage(hit.id).catch((e) => setMessage(toCommandError(e).message))}
                >
                  {t.chatOpenAt}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {results && (results.more > 0 || results.weaker > 0) && (
        <div className="recall-more">
          {results.more > 0 ? (
            <button type="button" className="ghost small" data-testid="memory-more" onClick={() => setDepth((d) => ({ ...d, pages: d.pages + 1 }))}>
              {t.memoryMore(results.more)}
            </button>
          ) : (
            <button type="button" className="ghost small" data-testid="memory-weaker" onClick={() => setDepth((d) => ({ ...d, weaker: true }))}>
              {t.memoryWeaker(results.weaker)}
            </button>
          )}
        </div>
      )}
      {message && (
        <div className="info" role="status" data-testid="memory-message">
          {message}
        </div>
      )}
      <form
        className="fact-form"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <CategorySelect value={category} onChange={setCategory} testId="fact-category" />
        <input value={text} aria-label={t.newFactLabel} placeholder={t.memoryFactPlaceholder} onChange={(e) => setText(e.target.value)} data-testid="fact-text" />
        <button type="submit" disabled={!text.trim()} data-testid="add-fact">
          {t.memoryAdd}
        </button>
      </form>
      {report && report.facts.length === 0 && <p className="empty-inline">{t.memoryEmpty}</p>}
      <SuspectLines lines={report?.suspects ?? []} onChanged={reload} onMessage={setMessage} />
      <TidyReview version={version} onChanged={reload} onMessage={setMessage} />
      {(report?.conflicts ?? []).map(({ older, newer }) => (
        <div key={`${older.line}:${newer.line}`} className="info conflict" role="alert" data-testid="fact-conflict">
          <p>{t.conflictTitle}</p>
          <ul>
            <li>{older.text}</li>
            <li>
              <strong>{newer.text}</strong>
            </li>
          </ul>
          <button
            type="button"
            className="small"
            data-testid="conflict-replace"
            onClick={() => api.supersedeFact(older.line, older.text).then(reload).catch((e) => setMessage(toCommandError(e).message))}
          >
            {t.conflictReplace}
          </button>{" "}
          <button
            type="button"
            className="ghost small"
            data-testid="conflict-keep-old"
            onClick={() => api.deleteFact(newer.line, newer.text).then(reload).catch((e) => setMessage(toCommandError(e).message))}
          >
            {t.conflictKeepOld}
          </button>
        </div>
      ))}
      {report &&
        CATEGORIES.filter((c) => report.facts.some((f) => f.category === c)).map((c) => (
          <div key={c} className={`fact-group${c === "Health" ? " health" : ""}`} data-testid="fact-group">
            <h3>
              {t.category(c)}
              {c === "Health" && <span className="muted small"> · {t.memoryHealthNote}</span>}
            </h3>
            <ul>
              {report.facts
                .filter((f) => f.category === c && (!f.superseded || !currentOf(report.facts, f)))
                .map((f) => (
                  <FactRow
                    key={`${f.line}:${f.text}`}
                    fact={f}
                    history={f.superseded ? [] : historyOf(report.facts, f)}
                    learnedIn={report.origins.find((o) => o.line === f.line)?.message_id}
                    onOpenMessage={onOpenMessage}
                    onChanged={reload}
                    onMessage={setMessage}
                  />
                ))}
            </ul>
          </div>
        ))}
      {report && report.problems.length > 0 && (
        <div className="problems" data-testid="memory-problems">
          <p>{t.memoryProblems}</p>
          <ul>
            {report.problems.map((p) => (
              <li key={p.line}>
                <strong>{t.memoryLine(p.line)}</strong> <code>{p.text}</code> <span className="muted small">({p.reason})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
