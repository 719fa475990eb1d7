import type { ModelStatus } from "../../api";
import { useStrings } from "../../i18n";

export function ModelBadge({ status }: { status: ModelStatus }) {
  const t = useStrings();
  const [label, title, detail]: [string, string, string?] =
    status.state === "ready"
      ? status.demo
        ? [`${t.modelDemo} · ${status.model}`, t.modelDemoHint]
        : [`${t.modelReady} · ${status.model}`, `${status.provider}: ${status.model}`]
      : status.state === "standing_in"
        ? // Two short lines, so the header keeps one row at the default size (first hour m15).
          [t.modelNotAnswering(status.down), t.modelStandingInHint(status.down, status.reason), t.modelAnswersMeanwhile(status.demo ? t.modelDemoShort : status.model)]
      : status.state === "starting"
        ? [t.modelStarting, t.modelStarting]
        : status.state === "unavailable"
          ? [t.modelUnavailable, status.message]
          : [t.modelIdle, t.modelIdle];
  return (
    <span className={`model-badge ${status.state}${status.state === "ready" && status.demo ? " demo" : ""}`} title={title} data-testid="model-badge">
      <span className="dot" aria-hidden />
      <span className={detail ? "label two-lines" : "label"}>
        {label}
        {detail && (
          <>
            <span className="visually-hidden"> · </span>
            <span className="detail">{detail}</span>
          </>
        )}
      </span>
    </span>
  );
}
