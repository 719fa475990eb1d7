import { useState } from "react";
import { toCommandError } from "../api";

/** A form sent to the core: busy while it runs, and what went wrong in the core's words. */
export function useSending() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = (work: () => Promise<void>, onFailed?: () => void) => {
    setBusy(true);
    setError(null);
    work()
      .catch((e) => {
        onFailed?.();
        setError(toCommandError(e).message);
      })
      .finally(() => setBusy(false));
  };
  return { busy, error, send };
}
