// The memory's tidy, as it asks: facts that look like one, lines out of the format, a
// newer fact that replaced an older one. Each with its two answers; the core applies
// them and remembers a "keep". A switch lets the tidy do the safe kinds alone.
import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type Proposal, type Review } from "../../api";
import { useStrings } from "../../i18n";

function day(iso: string | undefined, locale: string): string {
  const date = new Date(`${iso}T12:00:00`);
  return Number.isNaN(date.getTime()) ? (iso ?? "") : new Intl.DateTimeFormat(locale, { day: "numeric", month: "short" }).format(date);
}

/** `version` changes when the facts changed, so the proposals are looked at again. */
export function TidyReview({ version, onChanged, onMessage }: { version: number; onChanged: () => void; onMessage: (m: string) => void }) {
  const t = useStrings();
  const [review, setReview] = useState<Review | null>(null);
  const load = useCallback(() => {
    api
      .memoryReview()
      .then((r) => {
        setReview(r);
        if (r.repaired.length > 0) {
          onMessage(t.tidyRepairedAlone(r.repaired.length));
          onChanged();
        }
      })
      .catch((e) => onMessage(toCommandError(e).message));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refetched when the facts change
  }, [version]);
  useEffect(load, [load]);

  const answer = (p: Proposal, apply: boolean) =>
    api
      .answerTidy(p.key, apply)
      .then(() => {
        onMessage(apply ? t.tidyApplied[p.kind] : t.tidyKept);
        onChanged();
      })
      .catch((e) => onMessage(toCommandError(e).message));

  const alone = (on: boolean) =>
    api
      .setTidyAlone(on)
      .then(load)
      .catch((e) => onMessage(toCommandError(e).message));

  if (!review) return null;
  return (
    <section className="tidy-review" aria-label={t.tidyTitle} data-testid="tidy-review">
      {review.proposals.length > 0 && (
        <>
          <h3>{t.tidyTitle}</h3>
          <ul>
            {review.proposals.map((p) => (
              <li key={p.key} className="info" data-testid="tidy-proposal" data-kind={p.kind}>
                {p.kind === "merge" && <p>{t.tidyMerge(p.a.text, p.b.text)}</p>}
                {p.kind === "repair" && (
                  <p>
                    {t.tidyRepair(p.line)} <code>{p.raw}</code> → <code>{p.fixed}</code>
                  </p>
                )}
                {p.kind === "replaced" && <p>{t.tidyReplaced(p.new.text, p.old.text, day(p.old.superseded, t.locale))}</p>}
                <button type="button" className="small" onClick={() => answer(p, p.kind !== "replaced")} data-testid="tidy-first">
                  {t.tidyFirst[p.kind]}
                </button>{" "}
                <button type="button" className="ghost small" onClick={() => answer(p, p.kind === "replaced")} data-testid="tidy-second">
                  {t.tidySecond[p.kind]}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <label className="check small">
        <input type="checkbox" checked={review.alone} onChange={(e) => alone(e.target.checked)} data-testid="tidy-alone" />
        <span>{t.tidyAlone}</span>
      </label>
    </section>
  );
}
