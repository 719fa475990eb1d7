import { useState } from "react";
import type { UsageHistory } from "../../api";
import { formatMoney, shortDay } from "../../format";
import { useStrings } from "../../i18n";

const COLOURS = 6;

/** Spending a day at a time over the last 7 or 30 days, stacked by model or by purpose,
 *  with the month so far and its projection. */
export function UsageChart({ history }: { history: UsageHistory }) {
  const t = useStrings();
  const [span, setSpan] = useState<7 | 30>(7);
  const [by, setBy] = useState<"model" | "purpose">("model");
  const money = (usd: number) => formatMoney(usd, history.currency, history.usd_rate, t.decimal);
  const days = history.days.slice(-span);
  const groupsOf = (day: (typeof days)[number]) => (by === "model" ? day.by_model : day.by_purpose);
  const totals = new Map<string, number>();
  for (const day of days) for (const [name, spend] of Object.entries(groupsOf(day))) totals.set(name, (totals.get(name) ?? 0) + spend.cost_usd);
  const names = [...totals.keys()].sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0));
  const top = Math.max(...days.map((d) => d.total.cost_usd), 0);
  const label = (name: string) => (by === "purpose" ? t.purposeName(name) : name);
  const width = 100 / days.length;
  return (
    <div className="usage-chart-card">
      <div className="usage-chart-controls" role="group">
        {([7, 30] as const).map((n) => (
          <button key={n} type="button" aria-pressed={span === n} onClick={() => setSpan(n)} data-testid={`usage-span-${n}`}>
            {t.usageLastDays(n)}
          </button>
        ))}
        <span className="spacer" />
        {(["model", "purpose"] as const).map((g) => (
          <button key={g} type="button" aria-pressed={by === g} onClick={() => setBy(g)}>
            {g === "model" ? t.usageByModel : t.usageByPurpose}
          </button>
        ))}
      </div>
      {top === 0 ? (
        <p className="empty-inline">{t.usageChartEmpty(span)}</p>
      ) : (
        <svg className="usage-chart" viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label={t.usageChartLabel(span)} data-testid="usage-chart">
          {days.map((day, i) => {
            let y = 40;
            return names.map((name, k) => {
              const cost = groupsOf(day)[name]?.cost_usd ?? 0;
              if (cost === 0) return null;
              const h = (cost / top) * 38;
              y -= h;
              return (
                <rect key={`${day.day}-${name}`} x={i * width + width * 0.15} y={y} width={width * 0.7} height={h} className={`chart-${k % COLOURS}`}>
                  <title>{`${shortDay(day.day, t.locale)} · ${label(name)}: ${money(cost)}`}</title>
                </rect>
              );
            });
          })}
        </svg>
      )}
      <div className="usage-chart-axis muted small">
        <span>{days[0] && shortDay(days[0].day, t.locale)}</span>
        <span>{t.usageChartTop(money(top))}</span>
        <span>{days.length > 0 && shortDay(days[days.length - 1].day, t.locale)}</span>
      </div>
      <ul className="usage-legend">
        {names.map((name, k) => (
          <li key={name}>
            <span className={`swatch chart-${k % COLOURS}`} /> {label(name)} <span className="muted">{money(totals.get(name) ?? 0)}</span>
          </li>
        ))}
      </ul>
      <p data-testid="usage-projection">{t.usageProjection(money(history.month_to_date_usd), money(history.month_projection_usd))}</p>
    </div>
  );
}
