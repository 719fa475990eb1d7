import { useEffect, useState } from "react";
import { api, toCommandError, type HomeView } from "../../api";
import { useStrings } from "../../i18n";
import { ConfirmButton } from "../../components/ConfirmButton";

/** Settings → Devices on a second computer: using the Sidecar of another (the home
 * core) from this window, with a pairing code shown there; once attached, which home,
 * its certificate and how the link is, and a way back. The core pairs, keeps the token
 * and routes the window's commands; after attaching or leaving the window reloads so
 * every view shows the Sidecar it now talks to. */
export function HomeSettings({ home, onChange }: { home: HomeView | null; onChange: (home: HomeView | null) => void }) {
  const t = useStrings();
  const [address, setAddress] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The link's changes arrive as events: down, back, refused.
  useEffect(() => {
    if (!home) return;
    const off = api.onCoreEvent((event) => {
      if (event.type === "home_link" && event.state !== "left") {
        onChange({ ...home, state: event.state, said: event.said ?? home.said, waiting: event.waiting ?? home.waiting });
      }
    });
    return () => {
      off.then((f) => f());
    };
  }, [home, onChange]);

  const attach = () => {
    setError(null);
    setBusy(true);
    api
      .attachHome(address, code)
      .then(() => window.location.reload())
      .catch((e) => setError(toCommandError(e).message))
      .finally(() => setBusy(false));
  };
  const leave = () => {
    api
      .leaveHome()
      .then(() => window.location.reload())
      .catch((e) => setError(toCommandError(e).message));
  };

  return (
    <section className="home-settings" data-testid="home-settings">
      <h2>{t.homeTitle}</h2>
      {home ? (
        <>
          <p data-testid="home-using">{t.homeUsing(home.address, home.name)}</p>
          <p className={home.state === "up" ? "muted" : "form-error"} role="status" data-testid="home-state">
            {home.said}
            {home.waiting > 0 && ` ${t.homeWaiting(home.waiting)}`}
          </p>
          <div className="connection-config">
            <p className="small">{t.homeCertificate}</p>
            <pre data-testid="home-fingerprint">{home.fingerprint}</pre>
          </div>
          <ConfirmButton className="ghost" testId="home-leave" label={t.homeLeave} question={t.homeLeaveSure} yes={t.homeLeave} onConfirm={leave} />
        </>
      ) : (
        <>
          <p className="muted">{t.homeIntro}</p>
          <form
            className="token-row"
            onSubmit={(e) => {
              e.preventDefault();
              attach();
            }}
          >
            <label className="grow">
              <span className="small">{t.homeAddress}</span>
              <input value={address} onChange={(e) => setAddress(e.target.value)} placeholder={t.homeAddressPlaceholder} data-testid="home-address" />
            </label>
            <label>
              <span className="small">{t.homeCode}</span>
              <input value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" spellCheck={false} data-testid="home-code" />
            </label>
            <button type="submit" disabled={busy || !address.trim() || !code.trim()} data-testid="home-attach">
              {busy ? t.homeAttaching : t.homeAttach}
            </button>
          </form>
        </>
      )}
      {error && (
        <div className="form-error" role="alert" data-testid="home-error">
          {error}
        </div>
      )}
    </section>
  );
}
