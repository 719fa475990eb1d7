import type { ModelStatus } from "../api";
import { useStrings } from "../i18n";

export function ModelBadge({ status }: { status: ModelStatus }) {
  const t = useStrings();
  const [label, title] =
    status.state === "ready"
      ? status.demo
        ? [`${t.modelDemo} · ${status.model}`, t.modelDemoHint]
        : [`${t.modelReady} · ${status.model}`, `${status.provider}: ${status.model}`]
      : status.state === "standing_in"
        ? [t.modelStandingIn(status.down, status.demo ? t.modelDemoShort : status.model), t.modelStandingInHint(status.down, status.reason)]
      : status.state === "starting"
        ? [t.modelStarting, t.modelStarting]
        : status.state === "unavailable"
          ? [t.modelUnavailable, status.message]
          : [t.modelIdle, t.modelIdle];
  return (
    <span className={`model-badge ${status.state}${status.state === "ready" && status.demo ? " demo" : ""}`} title={title} data-testid="model-badge">
      <span className="dot" aria-hidden />
      <span className="label">{label}</span>
    </span>
  );
}
