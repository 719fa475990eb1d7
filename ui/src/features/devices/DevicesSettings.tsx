import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type DevicesView, type HomeView } from "../../api";
import { HomeSettings } from "./HomeSettings";
import { useStrings } from "../../i18n";
import { hm } from "../../format";
import { inBrowser, signOut } from "../../transport";

/** Settings → Devices: this computer using another's Sidecar (`HomeSettings`), or
 * where the user's other devices reach this one. */
export function DevicesSettings() {
  const t = useStrings();
  // undefined: not asked yet; null: this computer uses its own Sidecar.
  const [home, setHome] = useState<HomeView | null | undefined>(undefined);
  useEffect(() => {
    api
      .homeView()
      .then((h) => setHome(h ?? null))
      .catch(() => setHome(null));
  }, []);
  if (home === undefined) return null;
  // In a browser (the web app): this browser is one of the devices listed below.
  if (inBrowser()) {
    return (
      <>
        <button type="button" className="ghost" data-testid="web-sign-out" onClick={() => void signOut().then(() => window.location.reload())}>
          {t.webSignOut}
        </button>
        <ListenSettings />
      </>
    );
  }
  return (
    <>
      <HomeSettings home={home} onChange={setHome} />
      {/* A computer that uses another's Sidecar lets no device in itself. */}
      {!home && <ListenSettings />}
    </>
  );
}

/** Where the user's other devices reach this Sidecar, a pairing code to type there,
 * this Sidecar's certificate to compare, and the paired devices, each revocable at
 * once. The core owns every rule (addresses, codes, tokens). */
function ListenSettings() {
  const t = useStrings();
  const [view, setView] = useState<DevicesView | null>(null);
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = useCallback((work: () => Promise<DevicesView>) => {
    setError(null);
    setBusy(true);
    work()
      .then(setView)
      .catch((e) => setError(toCommandError(e).message))
      .finally(() => setBusy(false));
  }, []);
  useEffect(() => run(api.devicesView), [run]);
  // While a code is open someone is pairing: the device shows up when it has.
  const pairing = Boolean(view?.code);
  useEffect(() => {
    if (!pairing) return;
    const timer = setInterval(() => api.devicesView().then(setView).catch(() => {}), 3000);
    return () => clearInterval(timer);
  }, [pairing]);

  const addresses = typed ?? view?.listening.join(", ") ?? "";
  const listen = (list: string[]) =>
    run(() =>
      api.setDevicesListen(list).then((v) => {
        setTyped(null);
        return v;
      }),
    );
  const when = (iso: string) => `${new Date(iso).toLocaleDateString(t.locale)} ${hm(iso, t.locale)}`;

  return (
    <section className="devices-settings">
      <h2>{t.devicesTitle}</h2>
      <p className="muted">{t.devicesIntro}</p>
      <form
        className="token-row"
        onSubmit={(e) => {
          e.preventDefault();
          listen(addresses.split(/[\s,]+/).filter(Boolean));
        }}
      >
        <label className="grow">
          <span className="small">{t.devicesAddresses}</span>
          <input value={addresses} onChange={(e) => setTyped(e.target.value)} placeholder={t.devicesAddressesPlaceholder} data-testid="devices-addresses" />
        </label>
        <button type="submit" disabled={busy || !addresses.trim()} data-testid="devices-listen">
          {t.devicesSave}
        </button>
        {view && view.listening.length > 0 && (
          <button type="button" className="ghost" disabled={busy} onClick={() => listen([])} data-testid="devices-off">
            {t.devicesOff}
          </button>
        )}
      </form>
      {view && (
        <p className={view.listening.length ? "" : "muted"} data-testid="devices-listening">
          {view.listening.length ? t.devicesListening(view.listening.join(", ")) : t.devicesNotListening}
        </p>
      )}
      {view?.problems.map((problem) => (
        <div key={problem} className="form-error" role="alert" data-testid="devices-problem">
          {problem}
        </div>
      ))}
      {view?.fingerprint && (
        <div className="connection-config">
          <p className="small">{t.devicesCertificate}</p>
          <pre data-testid="devices-fingerprint">{view.fingerprint}</pre>
        </div>
      )}
      {view && view.listening.length > 0 && (
        <div className="devices-code">
          <button disabled={busy} onClick={() => run(api.openPairingCode)} data-testid="devices-open-code">
            {t.devicesCode}
          </button>
          {view.code && (
            <>
              <p className="devices-code-digits" data-testid="devices-code">
                {t.devicesCodeShown(view.code.code, hm(view.code.expires_at, t.locale))}
              </p>
              <p className="muted small">{t.devicesCodeHow(view.listening[0])}</p>
            </>
          )}
        </div>
      )}
      {view?.web.map((page) => (
        <div key={page.url} className="devices-web" data-testid="devices-web">
          <img src={`data:image/svg+xml;utf8,${encodeURIComponent(page.qr)}`} alt={t.devicesWebQr(page.url)} width={148} height={148} />
          <p className="small">{t.devicesWebHow(page.url)}</p>
        </div>
      ))}
      {view && view.devices.length === 0 ? (
        <p className="empty-inline" data-testid="devices-none">
          {t.devicesNone}
        </p>
      ) : (
        <ul className="devices-list" data-testid="devices-list">
          {view?.devices.map((device) => (
            <li key={device.id} className="connection-card" data-testid={`device-${device.id}`}>
              <strong>{device.name}</strong>
              <span className="muted small">
                {t.devicesPaired(when(device.paired_at))} · {device.last_seen ? t.devicesSeen(when(device.last_seen)) : t.devicesNeverSeen}
              </span>
              <button className="ghost small" disabled={busy} onClick={() => run(() => api.revokeDevice(device.id))} data-testid={`device-revoke-${device.id}`}>
                {t.devicesRevoke}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">{t.devicesLost}</p>
      {error && (
        <div className="form-error" role="alert" data-testid="devices-error">
          {error}
        </div>
      )}
    </section>
  );
}
