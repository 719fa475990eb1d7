// The first launch: three roads to a real model (a local server found running, an
// online provider from a preset, a downloaded model), or keep the demo for now.
import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type FoundServer, type HubView, type Preset, type ProviderInput } from "../../api";
import { useStrings } from "../../i18n";
import { useDownloads } from "./useDownloads";
import { DownloadLine } from "./ModelsSettings";
import { ModelListField } from "./ModelListField";

function LocalServers({ onChosen, setError }: { onChosen: () => void; setError: (m: string | null) => void }) {
  const t = useStrings();
  const [servers, setServers] = useState<FoundServer[] | null>(null);
  const [picked, setPicked] = useState<Record<string, string>>({});
  const look = useCallback(() => {
    setServers(null);
    api.localServers().then((found) => setServers(found ?? [])).catch(() => setServers([]));
  }, []);
  useEffect(look, [look]);
  const use = async (server: FoundServer) => {
    const model = picked[server.id] ?? server.models[0];
    try {
      await api.saveProvider({ id: server.id, kind: "openai", base_url: server.base_url, model, tools: true, api_key: null, api_key_env: null, context_window: server.context_window });
      onChosen();
    } catch (e) {
      setError(toCommandError(e).message);
    }
  };
  if (servers === null) return <p className="muted" role="status">{t.welcomeLooking}</p>;
  if (servers.length === 0)
    return (
      <div>
        <p className="muted" data-testid="welcome-no-servers">{t.welcomeNoneFound}</p>
        <button className="ghost small" onClick={look}>
          {t.welcomeLookAgain}
        </button>
      </div>
    );
  return (
    <ul className="welcome-servers">
      {servers.map((server) => (
        <li key={server.id} data-testid={`found-${server.id}`}>
          <div>{t.welcomeServerModels(server.label, server.models.length)}</div>
          <select value={picked[server.id] ?? server.models[0]} onChange={(e) => setPicked({ ...picked, [server.id]: e.target.value })} aria-label={t.chooseModel}>
            {server.models.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
          <button className="small" onClick={() => use(server)} disabled={server.models.length === 0} data-testid={`use-${server.id}`}>
            {t.welcomeUse}
          </button>
        </li>
      ))}
    </ul>
  );
}

function OnlineProvider({ onChosen, setError }: { onChosen: () => void; setError: (m: string | null) => void }) {
  const t = useStrings();
  const [presets, setPresets] = useState<Preset[]>([]);
  const [form, setForm] = useState<ProviderInput | null>(null);
  // The preset the form was filled from: where its keys are handed out.
  const chosen = presets.find((p) => p.id === form?.id);
  const keyed = !!form?.api_key?.trim();
  useEffect(() => {
    api.providerPresets().then((all) => setPresets((all ?? []).filter((p) => !p.local))).catch(() => setPresets([]));
  }, []);
  const save = async () => {
    if (!form) return;
    try {
      await api.saveProvider({ ...form, api_key: form.api_key || null, api_key_env: null });
      onChosen();
    } catch (e) {
      setError(toCommandError(e).message);
    }
  };
  return (
    <div>
      <p className="muted small">{t.welcomeProviderLead}</p>
      <div className="presets" role="group">
        {presets.map((p) => (
          <button
            key={p.id}
            className={`ghost small${form?.id === p.id ? " active" : ""}`}
            aria-pressed={form?.id === p.id}
            onClick={() => setForm({ id: p.id, kind: p.kind, base_url: p.base_url, model: p.model, tools: true, api_key: "", context_window: p.context_window })}
          >
            {p.label}
          </button>
        ))}
      </div>
      {form && (
        <form
          className="welcome-provider"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <label>
            {t.apiKey}
            <input type="password" autoComplete="off" value={form.api_key ?? ""} onChange={(e) => setForm({ ...form, api_key: e.target.value })} data-testid="welcome-key" />
          </label>
          {chosen?.key_page && (
            <button type="button" className="link small" onClick={() => api.openExternal(chosen.key_page ?? "")} data-testid="welcome-key-page">
              {t.welcomeGetKey(chosen.label)}
            </button>
          )}
          <ModelListField form={form} onPick={(model) => setForm({ ...form, model })} />
          <span className="muted small">{t.contextWindow(form.context_window ?? 0)}</span>
          <button type="submit" disabled={!form.model || !keyed} title={keyed ? undefined : t.welcomeKeyFirst} data-testid="welcome-save-provider">
            {t.saveAndStart}
          </button>
        </form>
      )}
    </div>
  );
}

function Download({ onChosen, onMore, setError }: { onChosen: () => void; onMore: () => void; setError: (m: string | null) => void }) {
  const t = useStrings();
  const [hub, setHub] = useState<HubView | null>(null);
  useEffect(() => {
    api.modelHub().then(setHub).catch(() => setHub(null));
  }, []);
  const best = hub?.catalogue.find((c) => c.id === hub.recommended);
  const finished = useCallback(
    async (state: { file: string; phase: string }) => {
      if (state.phase !== "done" || state.file !== best?.file) return;
      try {
        await api.useLocalModel(best.file.replace(/\.gguf$/, ""));
        onChosen();
      } catch (e) {
        setError(toCommandError(e).message);
      }
    },
    [best, onChosen, setError],
  );
  const downloads = useDownloads(finished);
  if (!hub) return null;
  if (!best) return <p className="muted">{t.welcomeNoFit}</p>;
  const state = downloads[best.file];
  const running = state?.phase === "running";
  return (
    <div data-testid="welcome-download">
      <p className="muted small">{t.welcomeDownloadLead(best.title, best.size_bytes, best.min_ram_gb)}</p>
      <DownloadLine state={state} />
      <div className="form-actions">
        {running ? (
          <button className="ghost small" onClick={() => api.pauseDownload(best.file)}>
            {t.pause}
          </button>
        ) : (
          <button className="ghost small" onClick={() => api.pullModel(best.id).catch((e) => setError(toCommandError(e).message))} data-testid="welcome-download-button">
            {best.partial_bytes || state?.phase === "paused" ? t.resume : t.download}
          </button>
        )}
        <button className="ghost small" onClick={onMore}>
          {t.welcomeMoreModels}
        </button>
      </div>
    </div>
  );
}

/** The welcome offers the character on the desktop, once; Settings keeps the switch. */
function WelcomeCharacter() {
  const t = useStrings();
  const [shown, setShown] = useState(false);
  return (
    <div className="welcome-card" data-testid="welcome-character">
      <h3>{t.welcomeCharacterTitle}</h3>
      <p className="muted small">{t.welcomeCharacterLead}</p>
      <label className="setting-row checkbox">
        <input
          type="checkbox"
          data-testid="welcome-character-shown"
          checked={shown}
          onChange={(e) => {
            const on = e.target.checked;
            api
              .setCharacter(on)
              .then((view) => setShown(view.character))
              .catch(() => setShown(!on));
          }}
        />
        <span>{t.characterSetting}</span>
      </label>
    </div>
  );
}

export function Welcome({ onDone, onMoreModels }: { onDone: () => void; onMoreModels: () => void }) {
  const t = useStrings();
  const [error, setError] = useState<string | null>(null);
  const finish = useCallback(() => {
    api.finishWelcome().catch(() => undefined);
    onDone();
  }, [onDone]);
  return (
    <section className="page welcome" data-testid="welcome">
      <h2>{t.welcomeTitle}</h2>
      <div className="welcome-lead">
        <p>{t.welcomeLead}</p>
        <button onClick={finish} data-testid="welcome-keep-demo">
          {t.welcomeKeepDemo}
        </button>
      </div>
      {error && (
        <div className="bad" role="alert">
          {error}
        </div>
      )}
      <div className="welcome-card">
        <h3>{t.welcomeLocalTitle}</h3>
        <LocalServers onChosen={finish} setError={setError} />
      </div>
      <div className="welcome-card">
        <h3>{t.welcomeProviderTitle}</h3>
        <OnlineProvider onChosen={finish} setError={setError} />
      </div>
      <div className="welcome-card">
        <h3>{t.welcomeDownloadTitle}</h3>
        <Download
          onChosen={finish}
          onMore={() => {
            finish();
            onMoreModels();
          }}
          setError={setError}
        />
      </div>
      <WelcomeCharacter />
    </section>
  );
}
