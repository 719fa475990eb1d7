// Settings → Local models: the catalogue with downloads (progress, pause, resume),
// the downloaded models (use, delete), the built-in demo, and import from disk.
import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type CatalogueModel, type DownloadState, type HubView } from "../../api";
import { formatBytes } from "../../format";
import { useStrings } from "../../i18n";
import { ConfirmButton } from "../../components/ConfirmButton";
import { useDownloads } from "./useDownloads";
import { LocalTuning } from "./LocalTuning";

export function DownloadLine({ state }: { state: DownloadState | undefined }) {
  const t = useStrings();
  if (!state) return null;
  if (state.phase === "failed") return <div className="bad small" role="alert">{t.downloadFailed(state.message ?? "")}</div>;
  if (state.phase === "paused") return <div className="muted small">{t.pausedAt(state.received_bytes)}</div>;
  if (state.phase === "done") return <div className="ok small">{t.downloadDone(state.file)}</div>;
  const pct = state.total_bytes ? (state.received_bytes * 100) / state.total_bytes : 0;
  return (
    <div className="download-progress" data-testid={`progress-${state.file}`}>
      <progress max={100} value={pct} aria-label={state.file} />
      <span className="muted small">{t.progress(state.received_bytes, state.total_bytes)}</span>
    </div>
  );
}

function CatalogueRow({
  entry,
  best,
  state,
  onDownload,
  onPause,
  onDiscard,
}: {
  entry: CatalogueModel;
  best: boolean;
  state: DownloadState | undefined;
  onDownload: () => void;
  onPause: () => void;
  onDiscard: () => void;
}) {
  const t = useStrings();
  const running = entry.downloading || state?.phase === "running";
  const partial = !running && entry.partial_bytes !== null;
  return (
    <li className="model-row" data-testid={`catalogue-${entry.id}`}>
      <div className="model-main">
        <strong>{entry.title}</strong>
        <span className="muted small">
          {formatBytes(entry.size_bytes, t.decimal)} · {t.contextWindow(entry.context_tokens)} · {t.licence(entry.licence)}
        </span>
        {best && <span className="tag">{t.bestHere}</span>}
        {!entry.fits && <span className="tag warn">{t.needsRam(entry.min_ram_gb)}</span>}
        {running || state ? <DownloadLine state={state} /> : null}
      </div>
      <div className="model-actions">
        {entry.installed ? (
          <span className="muted small">{t.downloaded}</span>
        ) : running ? (
          <button className="ghost small" onClick={onPause}>
            {t.pause}
          </button>
        ) : partial ? (
          <>
            <button className="small" onClick={onDownload}>
              {t.resume}
            </button>
            <button className="ghost small" onClick={onDiscard}>
              {t.discard}
            </button>
          </>
        ) : (
          <button className="small" onClick={onDownload} disabled={!entry.fits}>
            {t.download}
          </button>
        )}
      </div>
    </li>
  );
}

export function ModelsSettings() {
  const t = useStrings();
  const [hub, setHub] = useState<HubView | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [importPath, setImportPath] = useState("");
  const [link, setLink] = useState({ url: "", sha256: "" });
  const reload = useCallback(() => {
    api.modelHub().then(setHub).catch((e) => setMessage(toCommandError(e).message));
  }, []);
  useEffect(reload, [reload]);
  const downloads = useDownloads(reload);

  const act = async (work: () => Promise<unknown>) => {
    setMessage(null);
    try {
      await work();
    } catch (e) {
      setMessage(toCommandError(e).message);
    }
    reload();
  };
  const use = (name: string | null) =>
    act(async () => {
      setBusy(true);
      try {
        const switched = await api.useLocalModel(name);
        setMessage(switched.warning ?? t.switched(switched.active ?? t.builtInDemo, switched.restart_ms));
      } finally {
        setBusy(false);
      }
    });

  if (!hub) return null;
  return (
    <section className="models-settings" data-testid="models-settings">
      <h2>{t.modelsTitle}</h2>
      <p className="muted small">{t.modelsLead(hub.memory_bytes, hub.folder)}</p>
      {busy && <p role="status">{t.switching}</p>}
      {message && !busy && (
        <p role="status" data-testid="models-message">
          {message}
        </p>
      )}
      <ul className="model-list">
        <li className="model-row" data-testid="installed-built-in">
          <div className="model-main">
            <strong>{t.builtInDemo}</strong>
            <span className="muted small">{t.builtInDemoNote}</span>
          </div>
          <div className="model-actions">
            {hub.active === null ? (
              <span className="tag">{t.inUse}</span>
            ) : (
              <button className="ghost small" onClick={() => use(null)} disabled={busy}>
                {t.useModel}
              </button>
            )}
          </div>
        </li>
        {hub.installed.length === 0 && <li className="muted small">{t.noInstalled}</li>}
        {hub.installed.map((m) => (
          <li className="model-row" key={m.name} data-testid={`installed-${m.name}`}>
            <div className="model-main">
              <strong>{m.name}</strong>
              <span className="muted small">
                {formatBytes(m.size_bytes, t.decimal)}
                {m.context_tokens ? ` · ${t.contextWindow(m.context_tokens)}` : ""}
              </span>
            </div>
            <div className="model-actions">
              {hub.active === m.name ? (
                <span className="tag">{t.inUse}</span>
              ) : (
                <button className="small" onClick={() => use(m.name)} disabled={busy}>
                  {t.useModel}
                </button>
              )}
              <ConfirmButton
                className="ghost small danger"
                disabled={busy}
                label={t.deleteModel}
                question={t.confirmDeleteModel(m.name)}
                yes={t.deleteModel}
                onConfirm={() => act(() => api.removeLocalModel(m.name))}
              />
            </div>
          </li>
        ))}
      </ul>
      <ul className="model-list">
        {hub.catalogue.map((entry) => (
          <CatalogueRow
            key={entry.id}
            entry={entry}
            best={hub.recommended === entry.id}
            state={downloads[entry.file]}
            onDownload={() => act(() => api.pullModel(entry.id))}
            onPause={() => act(() => api.pauseDownload(entry.file))}
            onDiscard={() => act(() => api.discardDownload(entry.file))}
          />
        ))}
      </ul>
      {[...hub.partials.map((p) => p.file), ...Object.keys(downloads)]
        .filter((file, i, all) => all.indexOf(file) === i && !hub.catalogue.some((c) => c.file === file))
        .map((file) => (
          <div className="model-row" key={file} data-testid={`link-download-${file}`}>
            <div className="model-main">
              <strong>{file}</strong>
              <DownloadLine state={downloads[file]} />
            </div>
          </div>
        ))}
      <form
        className="import-model"
        onSubmit={(e) => {
          e.preventDefault();
          if (link.url.trim()) act(() => api.pullModel(link.url.trim(), link.sha256.trim() || null)).then(() => setLink({ url: "", sha256: "" }));
        }}
      >
        <label>
          {t.linkTitle}
          <input value={link.url} onChange={(e) => setLink({ ...link, url: e.target.value })} placeholder={t.linkPlaceholder} data-testid="link-url" />
        </label>
        <label>
          {t.linkSha}
          <input value={link.sha256} onChange={(e) => setLink({ ...link, sha256: e.target.value })} data-testid="link-sha" />
        </label>
        <button className="small" type="submit" disabled={!link.url.trim()} data-testid="link-download">
          {t.download}
        </button>
      </form>
      <form
        className="import-model"
        onSubmit={(e) => {
          e.preventDefault();
          if (importPath.trim()) act(() => api.importModel(importPath)).then(() => setImportPath(""));
        }}
      >
        <label>
          {t.modelImportTitle}
          <input value={importPath} onChange={(e) => setImportPath(e.target.value)} placeholder={t.modelImportPlaceholder} data-testid="import-path" />
        </label>
        <button
          className="ghost small"
          type="button"
          data-testid="import-choose"
          onClick={() =>
            api.chooseModelFile(t.modelImportFilter).then((path) => {
              if (path) act(() => api.importModel(path)).then(() => setImportPath(""));
            }, () => undefined)
          }
        >
          {t.modelImportChoose}
        </button>
        <button className="small" type="submit" disabled={!importPath.trim()}>
          {t.modelImportButton}
        </button>
      </form>
      <LocalTuning />
    </section>
  );
}
