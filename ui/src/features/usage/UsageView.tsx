import { useEffect, useState, type ReactNode } from "react";
import { api, toCommandError, type BudgetView, type TurnMeasures, type UsageHistory, type UsageReport, type UsageTotals } from "../../api";
import { BudgetCard } from "./BudgetCard";
import { UsageChart } from "./UsageChart";
import { formatCost } from "../../format";
import { useStrings } from "../../i18n";

function Totals({ title, totals }: { title: string; totals: UsageTotals }) {
  const t = useStrings();
  return (
    <div className="usage-card" data-testid="usage-card">
      <h3>{title}</h3>
      <dl>
        <dt>{t.usageCalls}</dt>
        <dd>{totals.calls.toLocaleString(t.locale)}</dd>
        <dt>{t.usageTokensIn}</dt>
        <dd>{totals.input_tokens.toLocaleString(t.locale)}</dd>
        <dt>{t.usageCached}</dt>
        <dd data-testid="usage-cached">{totals.cached_tokens.toLocaleString(t.locale)}</dd>
        <dt>{t.usageTokensOut}</dt>
        <dd>{totals.output_tokens.toLocaleString(t.locale)}</dd>
        <dt>{t.usageCost}</dt>
        <dd data-testid="usage-cost">{formatCost(totals.cost_usd, t.decimal)}</dd>
      </dl>
      {totals.unpriced_calls > 0 && <p className="muted small">{t.usageUnpriced(totals.unpriced_calls)}</p>}
    </div>
  );
}

/** The measures of how the model's replies went: cuts, caught claims, repeated rules, plans. */
function TurnsCard({ turns }: { turns?: TurnMeasures }) {
  const t = useStrings();
  if (!turns || turns.turns === 0) return <p className="empty-inline">{t.usageTurnsNone}</p>;
  const share = (n: number) => t.usageShare(n, turns.turns);
  return (
    <dl className="usage-turns" data-testid="usage-turns">
      <dt>{t.usageTurnsHead}</dt>
      <dd>{turns.turns.toLocaleString(t.locale)}</dd>
      <dt>{t.usageTurnsTruncated}</dt>
      <dd data-testid="usage-truncated">{share(turns.truncated)}</dd>
      <dt>{t.usageTurnsClaimed}</dt>
      <dd data-testid="usage-claimed">{share(turns.claimed_without_acting)}</dd>
      <dt>{t.usageTurnsReinforced}</dt>
      <dd>{share(turns.reinforced)}</dd>
      <dt>{t.usageTurnsPlans}</dt>
      <dd data-testid="usage-plans">
        {turns.plans_finished} / {turns.plans_abandoned}
      </dd>
    </dl>
  );
}

type Row = { key: string; label: ReactNode; totals: { calls: number; input_tokens: number; output_tokens: number; cost_usd: number } };

/** Calls, tokens and cost, a row per model or per purpose. */
function TotalsTable({ heading, testId, rows }: { heading: string; testId: string; rows: Row[] }) {
  const t = useStrings();
  return (
    <table className="usage-table">
      <thead>
        <tr>
          <th>{heading}</th>
          <th>{t.usageCalls}</th>
          <th>{t.usageTokensIn}</th>
          <th>{t.usageTokensOut}</th>
          <th>{t.usageCost}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, label, totals }) => (
          <tr key={key} data-testid={testId}>
            <td>{label}</td>
            <td>{totals.calls.toLocaleString(t.locale)}</td>
            <td>{totals.input_tokens.toLocaleString(t.locale)}</td>
            <td>{totals.output_tokens.toLocaleString(t.locale)}</td>
            <td>{formatCost(totals.cost_usd, t.decimal)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `onSetLimits` opens Settings → Budget. */
export function UsageView({ onSetLimits }: { onSetLimits?: () => void }) {
  const t = useStrings();
  const [report, setReport] = useState<UsageReport | null>(null);
  const [history, setHistory] = useState<UsageHistory | null>(null);
  const [budget, setBudget] = useState<BudgetView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const failed = (e: unknown) => setError(toCommandError(e).message);
    api.usageReport().then(setReport).catch(failed);
    api.usageHistory().then(setHistory).catch(failed);
    api.budget().then(setBudget).catch(failed);
  }, []);
  if (error) return <div className="error-banner">{error}</div>;
  if (!report) return null;
  return (
    <section className="page" data-testid="usage-view">
      <h2>{t.usageTitle}</h2>
      {budget && (
        <>
          <h3>{t.budgetTitle}</h3>
          <BudgetCard budget={budget} onChanged={setBudget} onSetLimits={onSetLimits} />
        </>
      )}
      {history && report.all_time.calls > 0 && (
        <>
          <h3>{t.usageSpending}</h3>
          <UsageChart history={history} />
        </>
      )}
      {report.all_time.calls === 0 ? (
        <p className="empty-inline">{t.usageEmpty}</p>
      ) : (
        <>
          <div className="usage-cards">
            <Totals title={t.usageToday} totals={report.today} />
            <Totals title={t.usageAllTime} totals={report.all_time} />
          </div>
          <h3>{t.usageByModel}</h3>
          <TotalsTable
            heading={t.fieldModel}
            testId="usage-row"
            rows={report.all_time.by_model.map((m) => ({
              key: `${m.provider}/${m.model}`,
              label: (
                <>
                  {m.model} <span className="muted small">({m.provider})</span>
                </>
              ),
              totals: m,
            }))}
          />
          <h3>{t.usageTurnsTitle}</h3>
          <TurnsCard turns={report.all_time.turns} />
          <h3>{t.usageByPurpose}</h3>
          <TotalsTable
            heading={t.usagePurpose}
            testId="usage-purpose-row"
            rows={(report.all_time.by_purpose ?? []).map((p) => ({ key: p.purpose, label: t.purposeName(p.purpose), totals: p }))}
          />
        </>
      )}
    </section>
  );
}
