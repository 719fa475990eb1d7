import { useState } from "react";
import { api, toCommandError, type BudgetStanding, type BudgetView } from "../../api";
import { formatMoney } from "../../format";
import { useStrings } from "../../i18n";

/** Each budget limit with what was spent and held against it, and the field that
 *  allows more today. */
export function BudgetCard({ budget, onChanged, onSetLimits }: { budget: BudgetView; onChanged: (b: BudgetView) => void; onSetLimits?: () => void }) {
  const t = useStrings();
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | null>(null);
  const money = (usd: number) => formatMoney(usd, budget.currency, budget.usd_rate, t.decimal);
  if (budget.limits.length === 0)
    return (
      <p className="empty-inline" data-testid="budget-none">
        {t.budgetNoLimits}{" "}
        {onSetLimits && (
          <button className="ghost small" onClick={onSetLimits} data-testid="budget-set-limits">
            {t.budgetSetLimits}
          </button>
        )}
      </p>
    );
  const provider = (s: BudgetStanding) => (s.scope === "provider" ? s.provider : undefined);
  const name = (s: BudgetStanding) => t.budgetLimitName(s.scope, s.period, provider(s));
  const allow = (e: React.FormEvent) => {
    e.preventDefault();
    api
      .allowMoreToday(Number(amount.replace(",", ".")))
      .then((b) => {
        onChanged(b);
        setAmount("");
        setError(null);
      })
      .catch((err) => setError(toCommandError(err).message));
  };
  return (
    <div className="budget-card" data-testid="budget-card">
      {budget.limits.map((s) => {
        const used = s.allowed_usd > 0 ? Math.min(1, (s.spent_usd + s.reserved_usd) / s.allowed_usd) : 1;
        return (
          <div key={`${s.scope}-${provider(s) ?? ""}-${s.period}`} className="budget-limit" data-testid="budget-limit">
            <div className="budget-limit-head">
              <span>{name(s)}</span>
              <span className="muted">{t.budgetSpentOf(money(s.spent_usd), money(s.allowed_usd))}</span>
            </div>
            <div className={used >= 1 ? "budget-bar full" : used >= budget.warn_percent / 100 ? "budget-bar high" : "budget-bar"} role="progressbar" aria-valuenow={Math.round(used * 100)} aria-valuemin={0} aria-valuemax={100}>
              <span style={{ width: `${used * 100}%` }} />
            </div>
            {s.reserved_usd > 0 && <span className="muted small">{t.budgetReserved(money(s.reserved_usd))}</span>}
          </div>
        );
      })}
      {budget.allowance_usd > 0 && <p className="muted small">{t.budgetAllowedToday(money(budget.allowance_usd))}</p>}
      <form className="budget-allow" onSubmit={allow}>
        <label>
          {t.budgetAllowLabel(budget.currency)}
          <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="budget-amount" />
        </label>
        <button type="submit" disabled={!amount.trim()}>
          {t.budgetAllowButton}
        </button>
      </form>
      {error && <p className="error-text">{error}</p>}
      {!budget.allow_unpriced && <p className="muted small">{t.budgetUnpricedHeld}</p>}
      {onSetLimits && (
        <button className="ghost small" onClick={onSetLimits} data-testid="budget-set-limits">
          {t.budgetSetLimits}
        </button>
      )}
    </div>
  );
}
