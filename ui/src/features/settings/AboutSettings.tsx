import { useEffect, useState } from "react";
import { api, toCommandError, type UpdateOffer, type UpdatesView } from "../../api";
import { useStrings } from "../../i18n";

/** Settings → About: the version, how this copy was installed, and updates — a look on
 * demand or daily, what changed, and an install only after the user says yes. */
export function AboutSettings() {
  const t = useStrings();
  const [view, setView] = useState<UpdatesView | null>(null);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [address, setAddress] = useState("");
  const [addressNote, setAddressNote] = useState<string | null>(null);

  const show = (next: UpdatesView) => {
    setView(next);
    setAddress(next.own_address ? (next.address ?? "") : "");
  };
  useEffect(() => {
    api.updates().then((v) => v && show(v)).catch(() => undefined);
    const off = api.onCoreEvent((event) => {
      if (event.type !== "update") return;
      const { type: _type, ...next } = event;
      setView(next);
    });
    return () => {
      off.then((stop) => stop());
    };
  }, []);

  if (!view) return null;
  const fail = (e: unknown) => setError(toCommandError(e).message);
  const act = (work: Promise<UpdatesView>) => {
    setError(null);
    work.then(setView).catch(fail);
  };
  const state = view.state;
  const busy = state.state === "looking" || state.state === "installing";
  const install = () => {
    setAsking(false);
    act(api.installUpdate());
  };
  const saveAddress = (text: string | null) => {
    setAddressNote(null);
    api
      .setUpdateAddress(text)
      .then((next) => {
        show(next);
        setAddressNote(t.updateAddressSaved);
      })
      .catch((e) => setAddressNote(toCommandError(e).message));
  };

  return (
    <section className="about-settings" data-testid="about-settings">
      <h2>{t.aboutTitle}</h2>
      <p>
        <strong data-testid="about-version">{t.aboutVersion(view.version)}</strong> <span className="muted" data-testid="about-format">{t.aboutInstalled(view.format)}</span>
      </p>
      {view.cannot && (
        <p className="muted" data-testid="update-cannot">
          {view.cannot}
        </p>
      )}
      <div className="setting-row">
        <button type="button" data-testid="update-look" disabled={busy || view.cannot !== null} onClick={() => act(api.lookForUpdate())}>
          {t.updateLook}
        </button>
        {view.last_looked && <span className="muted small">{t.updateLastLooked(new Date(view.last_looked).toLocaleString(t.locale))}</span>}
      </div>
      <label className="setting-row checkbox">
        <input type="checkbox" data-testid="update-daily" checked={view.daily} onChange={(e) => act(api.setDailyUpdates(e.target.checked))} />
        <span>{t.updateDaily}</span>
      </label>
      <p className="muted small">{t.updateDailyHint}</p>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <div className="update-state" data-testid="update-state" aria-live="polite">
        {state.state === "looking" && <p className="muted">{t.updateLooking}</p>}
        {state.state === "up_to_date" && <p className="ok">{t.updateUpToDate(view.version)}</p>}
        {state.state === "available" && (
          <Offer offer={state.offer}>
            {asking ? (
              <div className="update-confirm" role="alertdialog" aria-label={t.updateAvailable(state.offer.version)} data-testid="update-confirm">
                <p>{t.updateConfirm(state.offer.version)}</p>
                <button type="button" data-testid="update-confirm-yes" autoFocus onClick={install}>
                  {t.updateConfirmYes}
                </button>{" "}
                <button type="button" className="ghost" data-testid="update-confirm-no" onClick={() => setAsking(false)}>
                  {t.updateConfirmNo}
                </button>
              </div>
            ) : (
              <button type="button" data-testid="update-install" onClick={() => setAsking(true)}>
                {t.updateInstall}
              </button>
            )}
          </Offer>
        )}
        {state.state === "installing" && (
          <div className="download-progress" data-testid="update-progress">
            <span>{state.total !== null && state.received >= state.total ? t.updateInstalling : t.updateDownloading(state.total ? Math.floor((state.received * 100) / state.total) : null)}</span>
            {state.total ? <progress max={state.total} value={state.received} /> : <progress />}
          </div>
        )}
        {state.state === "installed" && (
          <p className="ok" data-testid="update-installed">
            {t.updateInstalled(state.version)}{" "}
            <button type="button" data-testid="update-restart" onClick={() => api.restartApp().catch(fail)}>
              {t.updateRestart}
            </button>
          </p>
        )}
        {state.state === "failed" && (
          <div className="form-error" role="alert" data-testid="update-failed">
            {state.message}{" "}
            {state.offer && (
              <button type="button" className="ghost small" data-testid="update-retry" onClick={install}>
                {t.updateTryAgain}
              </button>
            )}
          </div>
        )}
      </div>
      <h3>{t.updateAddress}</h3>
      <p className="muted small">{t.updateAddressHint}</p>
      {view.own_key && <p className="muted small">{t.updateOwnKey}</p>}
      <form
        className="setting-row"
        onSubmit={(e) => {
          e.preventDefault();
          saveAddress(address.trim() || null);
        }}
      >
        <input
          type="url"
          className="search-field wide"
          data-testid="update-address"
          aria-label={t.updateAddress}
          value={address}
          placeholder={view.own_address ? "" : (view.address ?? "https://…/latest.json")}
          onChange={(e) => setAddress(e.target.value)}
        />
        <button type="submit" className="ghost" data-testid="update-address-save">
          {t.updateAddressSave}
        </button>
        {view.own_address && (
          <button type="button" className="ghost" data-testid="update-address-default" onClick={() => saveAddress(null)}>
            {view.built_address ? t.updateAddressDefault : t.updateAddressRemove}
          </button>
        )}
      </form>
      {addressNote && (
        <p className="small" role="status" data-testid="update-address-note">
          {addressNote}
        </p>
      )}
    </section>
  );
}

/** A newer version: its number, when, and what changed. */
function Offer({ offer, children }: { offer: UpdateOffer; children: React.ReactNode }) {
  const t = useStrings();
  return (
    <div className="update-offer" data-testid="update-offer">
      <h3>{t.updateAvailable(offer.version)}</h3>
      {offer.published && <p className="muted small">{t.updatePublished(new Date(offer.published).toLocaleDateString(t.locale))}</p>}
      <h4>{t.updateWhatChanged}</h4>
      <div className="update-notes" data-testid="update-notes">
        {offer.notes.trim() || t.updateNoNotes}
      </div>
      {children}
    </div>
  );
}
