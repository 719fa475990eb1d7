import { useEffect, useState } from "react";
import { copyText } from "../../clipboard";
import { useStrings } from "../../i18n";

/** A button that copies `text()` and says so for a moment. */
export function CopyButton({ text, label, testId }: { text: () => string; label: string; testId: string }) {
  const t = useStrings();
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(null), 1500);
    return () => clearTimeout(timer);
  }, [said]);
  return (
    <button
      type="button"
      className="msg-action"
      data-testid={testId}
      aria-label={label}
      onClick={() => copyText(text()).then(() => setSaid(t.copied), () => setSaid(t.copyFailed))}
    >
      {said ?? label}
    </button>
  );
}
