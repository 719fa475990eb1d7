import type { Sampling, SamplingLimits } from "../../api";
import { useStrings } from "../../i18n";

type Key = keyof Sampling;

/**
 * Number fields for a model's sampling and window. An empty field is unset (the
 * model's default, shown as the placeholder); the core checks the ranges, which are
 * given to the fields only when the core sent them.
 */
export function SamplingFields({
  value,
  onChange,
  context,
  onContext,
  defaults,
  contextDefault,
  limits,
  repeatPenalty = true,
  testIdPrefix,
}: {
  value: Sampling;
  onChange: (next: Sampling) => void;
  context: number | null | undefined;
  onContext: (next: number | null) => void;
  defaults?: Sampling;
  contextDefault?: number;
  limits?: SamplingLimits;
  /** Anthropic's API has no repetition penalty. */
  repeatPenalty?: boolean;
  testIdPrefix: string;
}) {
  const t = useStrings();
  const number = (text: string) => (text.trim() === "" ? null : Number(text));
  const field = (key: Key, label: string, step: string) => (
    <label key={key}>
      {label}
      <input
        type="number"
        inputMode="decimal"
        step={step}
        min={limits?.[key][0]}
        max={limits?.[key][1]}
        value={value[key] ?? ""}
        placeholder={defaults?.[key] != null ? String(defaults[key]) : t.samplingDefault}
        onChange={(e) => onChange({ ...value, [key]: number(e.target.value) })}
        data-testid={`${testIdPrefix}-${key}`}
      />
    </label>
  );
  return (
    <div className="sampling-fields">
      <p className="muted small">{t.samplingIntro}</p>
      {field("temperature", t.temperatureLabel, "0.05")}
      {field("top_p", t.topPLabel, "0.05")}
      {repeatPenalty && field("repeat_penalty", t.repeatPenaltyLabel, "0.05")}
      {field("max_tokens", t.maxReplyLabel, "64")}
      <label>
        {t.contextLabel}
        <input
          type="number"
          step="512"
          value={context ?? ""}
          placeholder={contextDefault != null ? String(contextDefault) : t.samplingDefault}
          onChange={(e) => onContext(number(e.target.value))}
          data-testid={`${testIdPrefix}-context`}
        />
      </label>
    </div>
  );
}
