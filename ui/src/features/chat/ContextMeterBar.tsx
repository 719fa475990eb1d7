import type { ContextMeter } from "../../api";
import { useStrings } from "../../i18n";

/** How much of the model's context the last prompt used; the whole is the model's
 * (the core counts the tool definitions as used, so it does not change between turns). */
export function ContextMeterBar({ meter }: { meter: ContextMeter | null }) {
  const t = useStrings();
  if (!meter || meter.budget === 0) return null;
  const share = Math.min(1, meter.used / meter.budget);
  const label = t.contextMeter(meter.used, meter.budget);
  return (
    <div
      className={`context-meter ${meter.level}`}
      data-testid="context-meter"
      title={[`${label}.`, meter.tools > 0 ? t.contextTools(meter.tools) : "", meter.summarized_turns ? t.contextSummarized : ""].filter(Boolean).join(" ")}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={meter.budget}
      aria-valuenow={meter.used}
    >
      <div className="context-meter-track">
        <div className="context-meter-fill" style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      <span className="muted small">{label}</span>
    </div>
  );
}
