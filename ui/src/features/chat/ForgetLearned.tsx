import { useState } from "react";
import { api, toCommandError, type ListedFact } from "../../api";
import { useStrings } from "../../i18n";

/** After Delete: what Sidecar had learned from the exchange, to forget too or keep. */
export function ForgetLearned({ facts, onDone }: { facts: ListedFact[]; onDone: () => void }) {
  const t = useStrings();
  const [error, setError] = useState<string | null>(null);
  if (facts.length === 0) return null;
  const forget = async () => {
    try {
      // From the last line up: deleting a line moves the ones below it.
      for (const fact of [...facts].sort((a, b) => b.line - a.line)) await api.deleteFact(fact.line, fact.text);
      onDone();
    } catch (e) {
      setError(toCommandError(e).message);
    }
  };
  return (
    <div className="knowledge-alert forget-learned" role="alert" data-testid="forget-learned">
      <span>{t.forgetLearnedAsk(facts.map((f) => f.text))}</span>
      {error && <span className="small">{error}</span>}
      <button type="button" className="small" onClick={forget} data-testid="forget-learned-yes">
        {t.forgetLearnedYes}
      </button>
      <button type="button" className="ghost small" onClick={onDone} data-testid="forget-learned-keep">
        {t.forgetLearnedKeep}
      </button>
    </div>
  );
}
