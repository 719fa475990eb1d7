import type { PlanItem } from "../../api";
import { useStrings } from "../../i18n";

const MARKS: Record<PlanItem["status"], string> = { done: "✓", failed: "✗", in_progress: "▸", pending: "○" };

/** The checklist the model keeps with update_plan for a multi-step request: shown while
 * steps are open or a reply is being written, with "2 of 5" and each step's result; and
 * the notes it keeps for the request (write_scratchpad), which go with the plan. */
export function PlanPanel({ items, notes = "", busy }: { items: PlanItem[]; notes?: string; busy: boolean }) {
  const t = useStrings();
  const closed = items.filter((i) => i.status === "done" || i.status === "failed").length;
  const planShown = items.length > 0 && (closed < items.length || busy);
  const notesShown = notes.trim().length > 0;
  if (!planShown && !notesShown) return null;
  return (
    <section className="plan" data-testid="plan" aria-label={t.planTitle}>
      {planShown && (
        <div className="plan-head">
          <strong>{t.planTitle}</strong>
          <span className="muted small" data-testid="plan-progress">
            {t.planProgress(closed, items.length)}
          </span>
        </div>
      )}
      {planShown && (
      <ol>
        {items.map((item, i) => (
          <li key={i} className={`plan-item ${item.status}`} data-status={item.status} title={t.planStatus(item.status)}>
            <span aria-hidden="true">{MARKS[item.status]}</span> {item.text}
            {item.after && item.after.length > 0 && item.status === "pending" && (
              <span className="muted small plan-after"> ({t.planAfter(item.after)})</span>
            )}
            {item.result && <span className="muted small plan-result"> — {item.result}</span>}
          </li>
        ))}
      </ol>
      )}
      {notesShown && (
        <details className="plan-notes" open data-testid="plan-notes">
          <summary className="muted small">{t.planNotes}</summary>
          <p className="small">{notes}</p>
        </details>
      )}
    </section>
  );
}
