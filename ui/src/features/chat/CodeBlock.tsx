import { useRef, type ReactNode } from "react";
import { useStrings } from "../../i18n";
import { CopyButton } from "./CopyButton";

/** A fenced code block in a reply: its language, a Copy button, the highlighted code. */
export function CodeBlock({ children }: { children?: ReactNode }) {
  const t = useStrings();
  const pre = useRef<HTMLPreElement>(null);
  const code = (children as { props?: { className?: string } } | undefined)?.props?.className ?? "";
  const language = /language-([\w+#-]+)/.exec(code)?.[1];
  return (
    <div className="code-block" data-testid="code-block">
      <div className="code-bar">
        <span className="muted small">{language ?? ""}</span>
        <CopyButton text={() => pre.current?.textContent ?? ""} label={t.copyCode} testId="copy-code" />
      </div>
      <pre ref={pre}>{children}</pre>
    </div>
  );
}
