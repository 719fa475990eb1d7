import type { ToolChip } from "./chatState";
import { useStrings } from "../../i18n";

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Compact chips for the tools a reply used; click one to see arguments and result. */
export function ToolChips({ tools }: { tools: ToolChip[] }) {
  const t = useStrings();
  if (tools.length === 0) return null;
  return (
    <div className="tool-chips" data-testid="tool-chips">
      {tools.map((tool) => {
        const state = tool.result === null ? "running" : tool.denied ? "denied" : tool.isError ? "error" : "done";
        return (
          <details key={tool.id} className={`tool-chip ${state}`} data-testid="tool-chip" data-state={state}>
            <summary>
              <span className="tool-icon" aria-hidden>
                {{ running: "⋯", error: "!", denied: "⊘", done: "✓" }[state]}
              </span>
              <code>{tool.name}</code>
              {state === "running" && <span className="tool-state">{t.toolRunning}</span>}
              {state === "error" && <span className="tool-state">{t.toolFailed}</span>}
              {state === "denied" && <span className="tool-state">{t.toolDenied}</span>}
            </summary>
            <div className="tool-detail">
              <div className="label">{t.toolArguments}</div>
              <pre>{pretty(tool.arguments || "{}")}</pre>
              {tool.result !== null && (
                <>
                  <div className="label">{t.toolResult}</div>
                  <pre>{pretty(tool.result)}</pre>
                </>
              )}
            </div>
          </details>
        );
      })}
    </div>
  );
}
