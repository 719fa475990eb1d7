import { useEffect, useState } from "react";
import { api, toCommandError, type Category } from "../../api";
import { useStrings } from "../../i18n";

interface Offer {
  key: string;
  text: string;
  category: Category;
  /** Saved already (the user chose to save noticed facts without asking). */
  saved: boolean;
  /** The user's message it was said in: kept, the fact is learned from it. */
  from: number;
}

/** "Remember this?": facts the user just said that no saved fact covers, offered as
 * chips to keep or dismiss (or shown as saved, when saving without asking is on). */
export function FactSuggestions() {
  const t = useStrings();
  const [offers, setOffers] = useState<Offer[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type !== "facts_noticed") return;
      setOffers((current) => [
        ...current.filter((o) => !o.saved),
        ...event.suggestions
          .filter((s) => !current.some((o) => o.text === s.text))
          .map((s) => ({ key: `${event.message_id}:${s.text}`, text: s.text, category: s.category, saved: event.saved, from: event.said_id })),
      ]);
    });
    return () => {
      off.then((f) => f());
    };
  }, []);

  if (offers.length === 0) return null;
  const drop = (key: string) => setOffers((current) => current.filter((o) => o.key !== key));
  const keep = (offer: Offer) =>
    api
      .rememberFact(offer.text, offer.category, offer.from)
      .then(() => drop(offer.key))
      .catch((e) => setError(toCommandError(e).message));

  return (
    <div className="fact-suggestions" data-testid="fact-suggestions">
      {offers.map((offer) => (
        <div key={offer.key} className="fact-chip" data-testid="fact-chip">
          <span className="small">
            {offer.saved ? t.rememberedNote : t.rememberThis} <q>{offer.text}</q> <span className="muted">· {t.category(offer.category)}</span>
          </span>
          {!offer.saved && (
            <button type="button" className="small" data-testid="fact-chip-keep" onClick={() => keep(offer)}>
              {t.rememberKeep}
            </button>
          )}
          <button type="button" className="ghost small" aria-label={t.rememberDismiss} data-testid="fact-chip-dismiss" onClick={() => drop(offer.key)}>
            ✕
          </button>
        </div>
      ))}
      {error && (
        <p className="bad small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
