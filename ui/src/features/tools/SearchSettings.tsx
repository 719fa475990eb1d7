import { useEffect, useState } from "react";
import { api, toCommandError, type SearchBackend, type SearchResult, type SearchView } from "../../api";
import { ChoiceGroup } from "../../components/ChoiceGroup";
import { useStrings, type Strings } from "../../i18n";

const BACKENDS: SearchBackend[] = ["duckduckgo", "searxng", "brave"];

function label(t: Strings, backend: SearchBackend): [string, string] {
  if (backend === "duckduckgo") return [t.searchDuckduckgo, t.searchDuckduckgoNote];
  if (backend === "searxng") return [t.searchSearxng, t.searchSearxngNote];
  return [t.searchBrave, t.searchBraveNote];
}

/** Settings → Web search: the service, its address or key, and a search to try it. */
export function SearchSettings() {
  const t = useStrings();
  const [view, setView] = useState<SearchView | null>(null);
  const [backend, setBackend] = useState<SearchBackend>("duckduckgo");
  const [url, setUrl] = useState("");
  const [key, setKey] = useState("");
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [found, setFound] = useState<SearchResult[] | null>(null);
  const [trying, setTrying] = useState(false);

  const show = (next: SearchView) => {
    setView(next);
    setBackend(next.backend);
    setUrl(next.url ?? "");
    setKey("");
  };
  useEffect(() => {
    api.webSearchSetup().then(show).catch(() => undefined);
  }, []);

  if (!view) return null;
  const changed = backend !== view.backend || (backend === "searxng" && url.trim() !== (view.url ?? "")) || key.trim() !== "";

  const save = () =>
    api
      .saveWebSearch({ backend, url: backend === "searxng" ? url : null, api_key: backend === "brave" ? key : null })
      .then((next) => {
        show(next);
        setNote({ ok: true, text: t.searchSaved });
      })
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }));

  const tryIt = () => {
    setTrying(true);
    setFound(null);
    setNote(null);
    api
      .tryWebSearch("Sidecar desktop companion")
      .then(setFound)
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }))
      .finally(() => setTrying(false));
  };

  return (
    <section className="search-settings" data-testid="search-settings">
      <h2>{t.searchTitle}</h2>
      <p className="muted">{t.searchIntro}</p>
      <ChoiceGroup name="search-backend" label={t.searchTitle} choices={BACKENDS} value={backend} testIdPrefix="search" describe={(b) => label(t, b)} onChange={setBackend} />
      {backend === "searxng" && (
        <label className="setting-row">
          <span>{t.searchUrl}</span>
          <input className="search-field" data-testid="search-url" value={url} placeholder="https://search.example.org" onChange={(e) => setUrl(e.target.value)} />
        </label>
      )}
      {backend === "brave" && (
        <label className="setting-row">
          <span>{t.searchKey}</span>
          <input className="search-field" type="password" data-testid="search-key" value={key} placeholder={view.has_key ? "••••••••" : ""} onChange={(e) => setKey(e.target.value)} />
        </label>
      )}
      {backend === "brave" && view.has_key && view.backend === "brave" && <p className="muted small">{t.searchKeySaved}</p>}
      <div className="setting-row">
        <button type="button" data-testid="search-save" disabled={!changed} onClick={save}>
          {t.searchSave}
        </button>
        <button type="button" className="ghost" data-testid="search-try" disabled={trying || changed} onClick={tryIt}>
          {trying ? t.searchTrying : t.searchTry}
        </button>
      </div>
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="search-note">
          {note.text}
        </p>
      )}
      {found && (
        <div data-testid="search-found">
          <p className="small">{found.length === 0 ? t.searchNothing : t.searchFound(found.length)}</p>
          <ul className="search-found">
            {found.map((r) => (
              <li key={r.url} className="small">
                <strong>{r.title}</strong> <span className="muted">{r.url}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
