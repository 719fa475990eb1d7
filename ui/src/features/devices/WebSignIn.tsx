import { useState } from "react";
import { useStrings } from "../../i18n";
import { signIn } from "../../transport";

/** The web app before its session: the pairing code the home computer shows opens it
 * (the core keeps this browser as one of the user's devices, revocable there). */
export function WebSignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const t = useStrings();
  const [code, setCode] = useState("");
  const [name, setName] = useState(t.webDeviceName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = () => {
    setError(null);
    setBusy(true);
    signIn(code, name)
      .then((refused) => (refused ? setError(refused) : onSignedIn()))
      .catch(() => setError(t.webUnreachable))
      .finally(() => setBusy(false));
  };
  return (
    <main className="web-sign-in" data-testid="web-sign-in">
      <h1>Sidecar</h1>
      <p className="muted">{t.webSignInIntro}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label>
          <span className="small">{t.webCode}</span>
          <input
            value={code}
            onChange={(e) => setCode(e.target.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            required
            data-testid="web-code"
          />
        </label>
        <label>
          <span className="small">{t.webName}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} data-testid="web-name" />
        </label>
        {error && (
          <p className="form-error" role="alert" data-testid="web-sign-in-error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || !code.trim()} data-testid="web-sign-in-button">
          {busy ? t.webSigningIn : t.webSignIn}
        </button>
      </form>
    </main>
  );
}

/** In the web app, while the link to the home computer is down: what is typed waits. */
export function WebLinkBanner({ down }: { down: boolean }) {
  const t = useStrings();
  if (!down) return null;
  return (
    <div className="budget-banner" role="status" data-testid="web-link-banner">
      <span>{t.webDown}</span>
    </div>
  );
}
