import { useCallback, useEffect, useState } from "react";
import {
  api,
  toCommandError,
  type ConnectionTest,
  type KeyStorage,
  type ProviderInput,
  type ProviderKind,
  type Preset,
  type ProviderView,
} from "../../api";
import { useStrings, type Strings } from "../../i18n";
import { ModelListField } from "./ModelListField";
import { SamplingFields } from "./SamplingFields";

const EMPTY: ProviderInput = { id: "", kind: "openai", base_url: "", model: "", api_key: "", api_key_env: "", tools: true };

function keyLabel(t: Strings, key: KeyStorage): string {
  switch (key.kind) {
    case "keychain":
      return t.keyKeychain;
    case "session":
      return t.keySession;
    case "environment":
      return t.keyEnv(key.variable);
    case "none":
      return t.keyNone;
  }
}

function ProviderForm({
  initial,
  editing,
  seesImages,
  onDone,
}: {
  initial: ProviderInput;
  editing: boolean;
  /** The core's decision for the saved model, when editing. */
  seesImages?: boolean;
  onDone: (message: string | null) => void;
}) {
  const t = useStrings();
  const [form, setForm] = useState<ProviderInput>(initial);
  const [test, setTest] = useState<ConnectionTest | "running" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<ProviderInput>) => setForm((f) => ({ ...f, ...patch }));
  const [presets, setPresets] = useState<Preset[]>([]);
  useEffect(() => {
    if (!editing) api.providerPresets().then((p) => setPresets(p ?? [])).catch(() => setPresets([]));
  }, [editing]);

  const runTest = async () => {
    setTest("running");
    setTest(await api.testProvider(form).catch((e) => ({ ok: false, latency_ms: 0, message: toCommandError(e).message })));
  };
  const save = async () => {
    setError(null);
    try {
      const saved = await api.saveProvider({ ...form, api_key: form.api_key || null, api_key_env: form.api_key_env || null });
      const key = saved.provider.key;
      const message =
        saved.warning ??
        (form.api_key
          ? key.kind === "keychain"
            ? t.savedKeychain
            : key.kind === "session"
              ? t.savedSession(key.reason)
              : t.savedNoKey
          : t.savedNoKey);
      onDone(message);
    } catch (e) {
      setError(toCommandError(e).message);
    }
  };

  return (
    <form
      className="provider-form"
      data-testid="provider-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      {!editing && (
        <div className="presets">
          <span>{t.presets}:</span>
          {presets.map((p) => (
            <button
              type="button"
              key={p.id}
              className="ghost small"
              onClick={() => set({ id: p.id, kind: p.kind, base_url: p.base_url, model: p.model, context_window: p.context_window })}
            >
              {p.label}
            </button>
          ))}
        </div>
      )}
      <label>
        {t.fieldName}
        <input value={form.id} disabled={editing} onChange={(e) => set({ id: e.target.value })} data-testid="field-id" />
      </label>
      <label>
        {t.fieldKind}
        <select value={form.kind} onChange={(e) => set({ kind: e.target.value as ProviderKind })} data-testid="field-kind">
          <option value="openai">{t.kindOpenai}</option>
          <option value="anthropic">{t.kindAnthropic}</option>
        </select>
      </label>
      <label>
        {t.fieldBaseUrl}
        <input value={form.base_url} onChange={(e) => set({ base_url: e.target.value })} data-testid="field-url" />
      </label>
      <ModelListField form={form} onPick={(model) => set({ model })} />
      <label>
        {t.fieldApiKey}
        <input
          type="password"
          autoComplete="off"
          value={form.api_key ?? ""}
          placeholder={editing ? t.fieldApiKeyKeep : ""}
          onChange={(e) => set({ api_key: e.target.value })}
          data-testid="field-key"
        />
      </label>
      <label>
        {t.fieldApiKeyEnv}
        <input value={form.api_key_env ?? ""} onChange={(e) => set({ api_key_env: e.target.value })} placeholder="OPENAI_API_KEY" />
      </label>
      <label className="check">
        <input type="checkbox" checked={form.tools} onChange={(e) => set({ tools: e.target.checked })} />
        {t.fieldTools}
      </label>
      <label>
        {t.visionLabel}
        <select
          value={form.vision == null ? "auto" : form.vision ? "yes" : "no"}
          onChange={(e) => set({ vision: e.target.value === "auto" ? null : e.target.value === "yes" })}
          data-testid="field-vision"
        >
          <option value="auto">{t.visionAuto(form.model === initial.model ? seesImages : undefined)}</option>
          <option value="yes">{t.visionYes}</option>
          <option value="no">{t.visionNo}</option>
        </select>
      </label>
      <details className="sampling" open={!!form.sampling && Object.values(form.sampling).some((v) => v != null)}>
        <summary>{t.samplingTitle}</summary>
        <SamplingFields
          value={form.sampling ?? {}}
          onChange={(sampling) => set({ sampling })}
          context={form.context_window}
          onContext={(context_window) => set({ context_window })}
          repeatPenalty={form.kind === "openai"}
          testIdPrefix="provider-sampling"
        />
      </details>
      {test && (
        <div
          className={`test-result ${test === "running" ? "" : test.ok ? "ok" : "bad"}`}
          data-testid="test-result"
          role="status"
        >
          {test === "running" ? t.testing : test.message}
        </div>
      )}
      {error && (
        <div className="form-error" role="alert" data-testid="form-error">
          {error}
        </div>
      )}
      <div className="form-actions">
        <button type="button" className="ghost" onClick={runTest} disabled={test === "running"} data-testid="test-connection">
          {t.testConnection}
        </button>
        <button type="button" className="ghost" onClick={() => onDone(null)}>
          {t.cancel}
        </button>
        <button type="submit" data-testid="save-provider">
          {t.save}
        </button>
      </div>
    </form>
  );
}

/** Settings → Model providers: the chain the chat tries, in order, with a form to add or edit one. */
export function ProvidersSettings() {
  const t = useStrings();
  const [providers, setProviders] = useState<ProviderView[] | null>(null);
  const [form, setForm] = useState<{ initial: ProviderInput; editing: boolean; seesImages?: boolean } | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const reload = useCallback(() => {
    api.listProviders().then(setProviders).catch((e) => setMessage(toCommandError(e).message));
  }, []);
  useEffect(reload, [reload]);

  const move = async (index: number, by: number) => {
    if (!providers) return;
    const ids = providers.map((p) => p.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id);
    setMessage(await api.orderProviders(ids));
    reload();
  };

  return (
    <section className="providers-settings" data-testid="providers-settings">
        <h2>{t.providersTitle}</h2>
        <p className="muted">{t.providersIntro}</p>
        {message && (
          <div className="info" role="status" data-testid="settings-message">
            {message}
          </div>
        )}
        {providers && providers.length === 0 && !form && <p className="empty-inline">{t.providersEmpty}</p>}
        <ul className="provider-list">
          {(providers ?? []).map((p, i) => (
            <li key={p.id} data-testid="provider-row">
              <div className="provider-main">
                <strong>{p.id}</strong> <span className="muted">{p.model}</span>
                <div className="muted small">
                  {p.kind === "anthropic" ? t.kindAnthropic : t.kindOpenai} · {p.base_url} · {keyLabel(t, p.key)}
                </div>
              </div>
              <div className="provider-actions">
                <button className="ghost small" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t.moveUp}>
                  ↑
                </button>
                <button
                  className="ghost small"
                  disabled={i === providers!.length - 1}
                  onClick={() => move(i, 1)}
                  aria-label={t.moveDown}
                >
                  ↓
                </button>
                <button
                  data-testid="edit-provider"
                  className="ghost small"
                  onClick={() =>
                    setForm({
                      initial: {
                      id: p.id,
                      kind: p.kind,
                      base_url: p.base_url,
                      model: p.model,
                      api_key: "",
                      api_key_env: p.api_key_env ?? "",
                      tools: p.tools,
                      context_window: p.context_window ?? null,
                      sampling: p.sampling ?? {},
                      vision: p.vision ?? null,
                    },
                    seesImages: p.sees_images,
                    editing: true,
                    })
                  }
                >
                  {t.editProvider}
                </button>
                <button
                  className="ghost small danger"
                  onClick={async () => {
                    setMessage(await api.removeProvider(p.id));
                    reload();
                  }}
                >
                  {t.removeProvider}
                </button>
              </div>
            </li>
          ))}
        </ul>
        {form ? (
          <ProviderForm
            key={form.initial.id || "new"}
            initial={form.initial}
            editing={form.editing}
            seesImages={form.seesImages}
            onDone={(m) => {
              setForm(null);
              if (m) setMessage(m);
              reload();
            }}
          />
        ) : (
          <button onClick={() => setForm({ initial: EMPTY, editing: false })} data-testid="add-provider">
            {t.addProvider}
          </button>
        )}
    </section>
  );
}
