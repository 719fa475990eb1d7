import { useEffect, useState } from "react";
import { api } from "../../api";
import { useStrings } from "../../i18n";

/** Said once in the chat when Sidecar stops sending a kind of message that went unanswered. */
export function LearnedNote() {
  const t = useStrings();
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type === "proactive_learned") setSaid(event.said);
    });
    return () => {
      off.then((f) => f());
    };
  }, []);
  if (!said) return null;
  return (
    <div className="budget-banner" role="status" data-testid="learned-note">
      <span>{said}</span>
      <button type="button" onClick={() => setSaid(null)}>
        {t.dismiss}
      </button>
    </div>
  );
}
