import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type ChannelsView, type Link, type TokenSource } from "../../api";
import { hm } from "../../format";
import { useStrings, type Strings } from "../../i18n";


function linkText(t: Strings, link: Link): string {
  switch (link.state) {
    case "connecting":
      return t.linkConnecting;
    case "connected":
      return t.linkConnected(hm(link.since, t.locale));
    case "down":
      return t.linkDown(hm(link.since, t.locale), link.reason);
    case "needs_setup":
      return t.linkNeedsSetup(link.what);
  }
}

function tokenText(t: Strings, token: TokenSource): string {
  switch (token.kind) {
    case "keychain":
      return t.tokenKeychain;
    case "environment":
      return t.tokenEnv(token.variable);
    case "missing":
      return t.tokenMissing;
  }
}

function WhatsappCard({ view, busy, act }: { view: ChannelsView["whatsapp"]; busy: boolean; act: Act }) {
  const t = useStrings();
  const health = view.health;
  const state = health ? health.link.state : "off";
  return (
    <div className="channel-card" data-testid="whatsapp-card">
      <div className="channel-head">
        <h3>{t.whatsappTitle}</h3>
        <span className={`channel-state ${state}`} data-testid="whatsapp-state">
          {health ? linkText(t, health.link) : t.channelOff}
        </span>
      </div>
      <p className="muted small">{t.whatsappIntro}</p>
      {health?.last_message_at && <p className="muted small">{t.lastMessage(hm(health.last_message_at, t.locale))}</p>}
      {view.qr && (
        <div className="qr" data-testid="whatsapp-qr">
          {view.qr.expired_before > 0 && (
            <p className="info" data-testid="qr-expired">
              {t.whatsappQrExpired(view.qr.expired_before)}
            </p>
          )}
          <p>
            <strong>{t.whatsappScan}</strong>
          </p>
          <img alt="WhatsApp QR" src={`data:image/svg+xml;utf8,${encodeURIComponent(view.qr.svg)}`} width={240} height={240} />
          <p className="muted small">{t.whatsappQrValid(hm(view.qr.expires_at, t.locale))}</p>
        </div>
      )}
      {view.own_number && <p data-testid="whatsapp-linked">{t.whatsappLinked(view.own_number)}</p>}
      {view.held > 0 && (
        <p className="info" data-testid="whatsapp-held">
          {t.phoneHeld(view.held, t.whatsappTitle)}
        </p>
      )}
      {view.allowed_numbers.length > 0 && <p className="muted small">{t.whatsappAllowed(view.allowed_numbers.join(", "))}</p>}
      <div className="row">
        <button className="ghost small" disabled={busy} onClick={() => act(() => api.setWhatsappEnabled(!view.enabled))} data-testid="whatsapp-toggle">
          {view.enabled ? t.channelTurnOff : t.channelTurnOn}
        </button>
        {view.enabled && (
          <button className="ghost small danger" disabled={busy} onClick={() => act(api.unlinkWhatsapp, t.whatsappUnlinked)} data-testid="whatsapp-unlink">
            {t.whatsappUnlink}
          </button>
        )}
      </div>
    </div>
  );
}

type Act = (work: () => Promise<ChannelsView>, done?: string) => Promise<void>;

/** Settings → Channels: Telegram's state, token, pairing and paired chats; WhatsApp's QR and link. */
export function ChannelsSettings() {
  const t = useStrings();
  const [view, setView] = useState<ChannelsView | null>(null);
  const [token, setToken] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    api.channelsView().then(setView).catch((e) => setError(toCommandError(e).message));
  }, []);
  useEffect(() => {
    load();
    const unlisten = api.onCoreEvent((event) => {
      if (event.type === "channels_changed" || event.type === "channel_alert") load();
    });
    return () => {
      unlisten.then((stop) => stop());
    };
  }, [load]);

  const act: Act = async (work, done) => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      setView(await work());
      if (done) setMessage(done);
    } catch (e) {
      setError(toCommandError(e).message);
    } finally {
      setBusy(false);
    }
  };

  if (!view) return error ? <div className="problems">{error}</div> : null;
  const telegram = view.telegram;
  const health = telegram.health;
  const state = health ? health.link.state : telegram.enabled ? "connecting" : "off";
  const stateText = health ? linkText(t, health.link) : telegram.enabled ? t.linkConnecting : t.channelOff;

  return (
    <section className="channels-settings" data-testid="channels-settings">
      <h2>{t.channelsTitle}</h2>
      <p className="muted">{t.channelsIntro}</p>
      {!view.owner && <p className="info">{t.channelsNotOwner}</p>}
      <div className="channel-card" data-testid="telegram-card">
        <div className="channel-head">
          <h3>{t.telegramTitle}</h3>
          <span className={`channel-state ${state}`} data-testid="telegram-state">
            {stateText}
          </span>
        </div>
        {health?.last_message_at && <p className="muted small">{t.lastMessage(hm(health.last_message_at, t.locale))}</p>}
        {telegram.held > 0 && (
          <p className="info" data-testid="telegram-held">
            {t.phoneHeld(telegram.held, t.telegramTitle)}
          </p>
        )}
        <p className="muted small">{t.telegramTokenFrom(tokenText(t, telegram.token))}</p>
        <form
          className="token-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (token.trim()) act(() => api.setTelegramToken(token)).then(() => setToken(""));
          }}
        >
          <label className="grow">
            {t.telegramToken}
            <input
              type="password"
              autoComplete="off"
              value={token}
              placeholder="123456789:AA…"
              onChange={(e) => setToken(e.target.value)}
              data-testid="telegram-token"
            />
          </label>
          <button type="submit" disabled={busy || !token.trim()} data-testid="save-telegram-token">
            {t.saveToken}
          </button>
        </form>
        <p className="muted small">{t.telegramTokenHint}</p>
        {health && health.link.state !== "needs_setup" && (
          <div className="pairing" data-testid="telegram-pairing">
            {telegram.pairing_code ? (
              <>
                <p>
                  <strong data-testid="pairing-instructions">{t.pairInstructions(telegram.pairing_code)}</strong>
                </p>
                {telegram.pairing_expires_at && <p className="muted small">{t.pairExpires(hm(telegram.pairing_expires_at, t.locale))}</p>}
                <button className="ghost small" disabled={busy} onClick={() => act(api.newTelegramCode)}>
                  {t.pairNew}
                </button>
              </>
            ) : (
              <button disabled={busy} onClick={() => act(api.newTelegramCode)} data-testid="pair-telegram">
                {t.pairChat}
              </button>
            )}
          </div>
        )}
        <h4>{t.pairedChats}</h4>
        {telegram.paired_chats.length === 0 ? (
          <p className="empty-inline" data-testid="paired-none">
            {t.pairedNone}
          </p>
        ) : (
          <ul className="paired-list">
            {telegram.paired_chats.map((chat) => (
              <li key={chat} data-testid="paired-chat">
                <code>{chat}</code>
                <button className="ghost small danger" disabled={busy} onClick={() => act(() => api.unpairTelegram(chat), t.channelUnpaired(chat))}>
                  {t.unpair}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="row">
          <button
            className="ghost small"
            disabled={busy}
            onClick={() => act(() => api.setTelegramEnabled(!telegram.enabled))}
            data-testid="telegram-toggle"
          >
            {telegram.enabled ? t.channelTurnOff : t.channelTurnOn}
          </button>
        </div>
      </div>
      <WhatsappCard view={view.whatsapp} busy={busy} act={act} />
      {message && (
        <p className="ok-text" role="status">
          {message}
        </p>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
