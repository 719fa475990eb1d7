// The app lock in the window: the lock screen while the core says it is locked, and,
// while the lock is on, a watch on the user's input that locks after the idle minutes
// the core keeps (and at Ctrl+L). The core refuses the window's commands while locked;
// opening reloads the window, so everything shown is read again.
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { api, toCommandError, type LockView } from "../../api";
import { useStrings } from "../../i18n";

/** How often the idle watch looks. */
const LOOK_MS = 10_000;

export function LockGate({ children }: { children: ReactNode }) {
  // `undefined` until the core answers: nothing is shown before it says whether locked.
  const [view, setView] = useState<LockView | null | undefined>(undefined);
  const last = useRef(Date.now());
  const refresh = useCallback(() => {
    api
      .lockView()
      .then((v) => setView(v ?? null))
      .catch(() => setView(null));
  }, []);
  useEffect(refresh, [refresh]);
  // Settings turns it on or off: it says so with an event the window sends itself.
  useEffect(() => {
    window.addEventListener("sidecar-lock-changed", refresh);
    return () => window.removeEventListener("sidecar-lock-changed", refresh);
  }, [refresh]);

  const on = view?.on === true;
  const minutes = view?.after_minutes ?? 0;
  useEffect(() => {
    if (!on) return;
    const active = () => {
      last.current = Date.now();
    };
    const lockNow = () => api.lockApp().then(setView).catch(() => undefined);
    const keys = (e: KeyboardEvent) => {
      if (e.ctrlKey && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "l") {
        e.preventDefault();
        lockNow();
      }
    };
    const events = ["pointerdown", "pointermove", "keydown", "wheel"] as const;
    events.forEach((name) => window.addEventListener(name, active, { passive: true }));
    window.addEventListener("keydown", keys);
    const timer = window.setInterval(() => {
      if (Date.now() - last.current >= minutes * 60_000) lockNow();
    }, LOOK_MS);
    return () => {
      events.forEach((name) => window.removeEventListener(name, active));
      window.removeEventListener("keydown", keys);
      window.clearInterval(timer);
    };
  }, [on, minutes]);

  if (view === undefined) return null;
  if (view?.locked) return <LockScreen />;
  return <>{children}</>;
}

function LockScreen() {
  const t = useStrings();
  const [passphrase, setPassphrase] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.unlockApp(passphrase);
      window.location.reload();
    } catch (e) {
      setError(toCommandError(e).message);
      setPassphrase("");
      setBusy(false);
    }
  };
  return (
    <main className="lock-screen" data-testid="lock-screen">
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          open();
        }}
      >
        <h1>{t.lockTitle}</h1>
        <p className="muted">{t.lockPrompt}</p>
        <input type="password" value={passphrase} aria-label={t.lockPassphrase} autoFocus onChange={(e) => setPassphrase(e.target.value)} data-testid="lock-passphrase" />
        <button type="submit" disabled={busy || !passphrase} data-testid="lock-open">
          {busy ? t.lockOpening : t.lockOpen}
        </button>
        {error && (
          <p className="error" role="alert" data-testid="lock-error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
