import { useEffect, useState } from "react";
import { api, toCommandError } from "../../api";
import { formatMoney } from "../../format";
import { useStrings } from "../../i18n";

type Reached = { said: string; percent: number; more_usd: number; currency: string; usd_rate: number };

/** A budget limit at 80% or 100%, said once in the chat; at 100% one click allows more today. */
export function BudgetBanner() {
  const t = useStrings();
  const [reached, setReached] = useState<Reached | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type !== "budget_reached") return;
      const { said, more_usd, currency, usd_rate } = event;
      setReached({ said, percent: event.reached.percent, more_usd, currency, usd_rate });
      setError(null);
    });
    return () => {
      off.then((f) => f());
    };
  }, []);
  if (!reached) return null;
  const more = formatMoney(reached.more_usd, reached.currency, reached.usd_rate, t.decimal);
  const allow = () =>
    api
      .allowMoreToday(reached.more_usd * reached.usd_rate)
      .then(() => setReached(null))
      .catch((e) => setError(toCommandError(e).message));
  return (
    <div className={reached.percent >= 100 ? "budget-banner spent" : "budget-banner"} role="status" data-testid="budget-banner">
      <span>{reached.said}</span>
      {error && <span className="error-text">{error}</span>}
      {reached.percent >= 100 && (
        <button type="button" className="primary" onClick={allow} data-testid="budget-allow">
          {t.budgetAllowMore(more)}
        </button>
      )}
      <button type="button" onClick={() => setReached(null)} aria-label={t.dismiss}>
        {t.dismiss}
      </button>
    </div>
  );
}
