import { useEffect, useState } from "react";
import { api, toCommandError, type BuiltInEmbedder, type EmbeddingsBackend, type MeaningStatus, type MeaningView } from "../../api";
import { ChoiceGroup } from "../../components/ChoiceGroup";
import { useStrings, type Strings } from "../../i18n";
import { formatBytes } from "../../format";

const BACKENDS: EmbeddingsBackend[] = ["auto", "local", "gemma", "openai", "off"];

/** A built-in embedder's name, size, memory and licence, as the core reports them. */
function facts(t: Strings, model: BuiltInEmbedder | undefined): string {
  if (!model) return "";
  if (model.size_bytes === null) return t.meaningNotInstalled(model.name);
  const facts = t.meaningModelFacts(model.name, formatBytes(model.size_bytes, t.decimal), formatBytes(model.memory_mib * 2 ** 20, t.decimal), model.licence);
  return model.recommended ? `${facts} ${t.meaningRecommended}` : facts;
}

function label(t: Strings, backend: EmbeddingsBackend, view: MeaningView): [string, string] {
  const builtIn = view.built_in;
  if (backend === "auto") {
    const chosen = builtIn.find((m) => m.backend === view.automatic);
    const suited = builtIn.find((m) => m.recommended);
    if (chosen && suited && view.automatic_stands_in) return [t.meaningAuto, t.meaningAutoStandsIn(chosen.name, suited.name)];
    return [t.meaningAuto, chosen ? t.meaningAutoNote(chosen.name) : ""];
  }
  const model = builtIn.find((m) => m.backend === backend);
  if (backend === "local") return [t.meaningLocal, `${t.meaningLocalNote} ${facts(t, model)}`];
  if (backend === "gemma") return [t.meaningGemma, `${t.meaningGemmaNote} ${facts(t, model)}`];
  if (backend === "openai") return [t.meaningOpenai, t.meaningOpenaiNote];
  return [t.meaningOff, t.meaningOffNote];
}

/** Where recall by meaning stands, in words. */
export function meaningState(t: Strings, status: MeaningStatus, builtIn: BuiltInEmbedder[]): string {
  // The built-in embedder's id (which keys the stored vectors) is no name for a person.
  if (status.state === "ready") {
    const backend = builtIn.find((m) => m.model === status.model)?.backend;
    const model = backend === "local" ? t.meaningBuiltIn : backend === "gemma" ? t.meaningGemmaBuiltIn : status.model;
    return t.meaningReady(model);
  }
  if (status.state === "unavailable") return t.meaningUnavailable(status.reason);
  if (status.state === "off") return t.meaningOffNote;
  return t.meaningIdle;
}

/** Settings → Memory search: the embedder behind recall by meaning, and its progress. */
export function MeaningSettings() {
  const t = useStrings();
  const [view, setView] = useState<MeaningView | null>(null);
  const [backend, setBackend] = useState<EmbeddingsBackend>("auto");
  const [url, setUrl] = useState("");
  const [model, setModel] = useState("");
  const [key, setKey] = useState("");
  const [progress, setProgress] = useState<{ embedded: number; total: number } | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [autoRemember, setAutoRemember] = useState(false);

  const show = (next: MeaningView) => {
    setView(next);
    setBackend(next.backend);
    setUrl(next.url ?? "");
    setModel(next.model ?? "");
    setKey("");
    setProgress({ embedded: next.status.embedded, total: next.status.total });
  };
  useEffect(() => {
    api.meaningSetup().then(show).catch(() => undefined);
    api
      .autoRemember()
      .then((on) => setAutoRemember(on === true))
      .catch(() => undefined);
    const off = api.onCoreEvent((event) => {
      if (event.type !== "memory_indexing") return;
      setProgress({ embedded: event.embedded, total: event.total });
      // The embedder loads as indexing starts: its state (ready, or why not) and what
      // "automatic" stands for are read again, leaving any choice being edited as it is.
      api
        .meaningSetup()
        .then((next) =>
          setView((shown) => (shown ? { ...shown, status: next.status, automatic: next.automatic, automatic_stands_in: next.automatic_stands_in } : next)),
        )
        .catch(() => undefined);
    });
    return () => {
      off.then((f) => f());
    };
  }, []);

  if (!view) return null;
  const changed =
    backend !== view.backend ||
    (backend === "openai" && (url.trim() !== (view.url ?? "") || model.trim() !== (view.model ?? ""))) ||
    key.trim() !== "";

  const save = () =>
    api
      .saveMeaning({ backend, url: backend === "openai" ? url : null, model: backend === "openai" ? model : null, api_key: backend === "openai" ? key : null })
      .then((next) => {
        show(next);
        setNote({ ok: true, text: t.meaningSaved });
      })
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }));

  const working = view.backend !== "off" && progress && progress.total > 0;
  return (
    <section className="meaning-settings" data-testid="meaning-settings">
      <h2>{t.meaningTitle}</h2>
      <p className="muted">{t.meaningIntro}</p>
      <ChoiceGroup name="meaning-backend" label={t.meaningTitle} choices={BACKENDS} value={backend} testIdPrefix="meaning" describe={(b) => label(t, b, view)} onChange={setBackend} />
      {backend === "openai" && (
        <>
          <label className="setting-row">
            <span>{t.meaningUrl}</span>
            <input className="search-field" data-testid="meaning-url" value={url} placeholder="http://localhost:11434/v1" onChange={(e) => setUrl(e.target.value)} />
          </label>
          <label className="setting-row">
            <span>{t.meaningModel}</span>
            <input className="search-field" data-testid="meaning-model" value={model} placeholder="nomic-embed-text" onChange={(e) => setModel(e.target.value)} />
          </label>
          <label className="setting-row">
            <span>{t.meaningKey}</span>
            <input className="search-field" type="password" data-testid="meaning-key" value={key} placeholder={view.has_key ? "••••••••" : ""} onChange={(e) => setKey(e.target.value)} />
          </label>
          {view.has_key && <p className="muted small">{t.meaningKeySaved}</p>}
        </>
      )}
      <div className="setting-row">
        <button type="button" data-testid="meaning-save" disabled={!changed} onClick={save}>
          {t.meaningSave}
        </button>
      </div>
      <p className="small" data-testid="meaning-state">
        {meaningState(t, view.status, view.built_in)}
      </p>
      {working && (
        <div className="meaning-progress" data-testid="meaning-progress">
          <progress max={progress.total} value={progress.embedded} />
          <span className="muted small">
            {progress.embedded >= progress.total ? t.meaningDone(progress.total) : t.meaningProgress(progress.embedded, progress.total)}
          </span>
        </div>
      )}
      <label className="setting-row">
        <input
          type="checkbox"
          data-testid="auto-remember"
          checked={autoRemember}
          onChange={(e) =>
            api
              .setAutoRemember(e.target.checked)
              .then(setAutoRemember)
              .catch((err) => setNote({ ok: false, text: toCommandError(err).message }))
          }
        />
        <span>
          {t.autoRemember} <span className="muted small">{t.autoRememberNote}</span>
        </span>
      </label>
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="meaning-note">
          {note.text}
        </p>
      )}
    </section>
  );
}
