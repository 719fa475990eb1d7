import type { PlanItem } from "../api";
import { useStrings } from "../i18n";

/** The checklist the model keeps with update_plan for a multi-step request. */
export function PlanPanel({ items }: { items: PlanItem[] }) {
  const t = useStrings();
  if (items.length === 0) return null;
  const done = items.filter((i) => i.status === "done").length;
  return (
    <section className="plan" data-testid="plan" aria-label={t.planTitle}>
      <div className="plan-head">
        <strong>{t.planTitle}</strong>
        <span className="muted small">
          {done}/{items.length}
        </span>
      </div>
      <ol>
        {items.map((item, i) => (
          <li key={i} className={`plan-item ${item.status}`} data-status={item.status}>
            <span aria-hidden="true">{item.status === "done" ? "✓" : item.status === "in_progress" ? "▸" : "○"}</span> {item.text}
          </li>
        ))}
      </ol>
    </section>
  );
}
