import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type Grant, type McpServer, type McpView } from "../../api";
import { useStrings, type Strings } from "../../i18n";
import { McpServerEditor } from "./McpServerEditor";

function stateText(t: Strings, server: McpServer): string {
  switch (server.state) {
    case "off":
      return t.toolsOff;
    case "starting":
      return t.toolsStarting;
    case "running":
      return t.toolsRunning(server.tools.length);
    case "failed":
      return t.toolsFailed(server.retry_in_secs);
  }
}

function ServerCard({ server, busy, act }: { server: McpServer; busy: boolean; act: (work: () => Promise<McpView>, then?: () => void) => void }) {
  const t = useStrings();
  const [editing, setEditing] = useState(false);
  return (
    <div className="channel-card" data-testid="mcp-server" data-name={server.name}>
      <div className="channel-head">
        <h3>{server.name}</h3>
        <span className={`channel-state ${server.state === "running" ? "connected" : server.state === "failed" ? "down" : ""}`} data-testid="mcp-state">
          {stateText(t, server)}
        </span>
      </div>
      <p className="muted small">
        <code>{server.summary}</code>
      </p>
      {server.state === "failed" && (
        <div className="mcp-failure" data-testid="mcp-failure">
          <p className="small">{server.error}</p>
          {server.stderr.length > 0 && (
            <>
              <div className="label small">{t.toolsServerSaid}</div>
              <pre>{server.stderr.slice(-5).join("\n")}</pre>
            </>
          )}
        </div>
      )}
      {server.tools.length > 0 && (
        <details>
          <summary className="small">{t.toolsShow}</summary>
          <ul className="mcp-tools small">
            {server.tools.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code>
                {tool.read_only && <span className="muted"> · {t.toolsReadOnly}</span>}
                {tool.description && <span className="muted"> — {tool.description.split("\n")[0]}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {editing && (
        <McpServerEditor
          initial={server.form}
          name={server.name}
          busy={busy}
          onSave={(name, form) => act(() => api.mcpSave(name, form), () => setEditing(false))}
          onCancel={() => setEditing(false)}
        />
      )}
      <div className="row">
        {!editing && (
          <button className="ghost small" disabled={busy} onClick={() => setEditing(true)} data-testid="mcp-edit">
            {t.toolsEdit}
          </button>
        )}
        <button className="ghost small" disabled={busy} onClick={() => act(() => api.mcpSetEnabled(server.name, !server.enabled))} data-testid="mcp-toggle">
          {server.enabled ? t.toolsTurnOff : t.toolsTurnOn}
        </button>
        <button className="ghost small danger" disabled={busy} onClick={() => act(() => api.mcpRemove(server.name))} data-testid="mcp-remove">
          {t.toolsRemove}
        </button>
      </div>
    </div>
  );
}

/** Settings → Tools: the MCP servers, their state and tools, adding and importing them. */
export function ToolsSettings() {
  const t = useStrings();
  const [view, setView] = useState<McpView | null>(null);
  // Bumped after each add, so the form starts empty again.
  const [added, setAdded] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);

  useEffect(() => {
    api.mcpServers().then((v) => v && setView(v)).catch((e) => setError(toCommandError(e).message));
    const off = api.onCoreEvent((event) => {
      if (event.type === "mcp_servers") setView((current) => (current ? { ...current, servers: event.servers } : current));
    });
    return () => {
      off.then((f) => f());
    };
  }, []);

  const act = useCallback((work: () => Promise<McpView>, then?: () => void) => {
    setBusy(true);
    setError(null);
    setInfo(null);
    work()
      .then((v) => {
        setView(v);
        then?.();
      })
      .catch((e) => setError(toCommandError(e).message))
      .finally(() => setBusy(false));
  }, []);

  const importOthers = () => {
    setBusy(true);
    setError(null);
    api
      .mcpImport()
      .then((reports) => {
        setInfo(reports.length === 0 ? t.toolsNoneFound : t.toolsImported(reports.flatMap(([, r]) => r.added).join(", ")));
        return api.mcpServers().then(setView);
      })
      .catch((e) => setError(toCommandError(e).message))
      .finally(() => setBusy(false));
  };

  const servers = view?.servers ?? [];
  return (
    <section className="tools-settings">
      <h2>{t.toolsTitle}</h2>
      <p className="muted">{t.toolsIntro}</p>
      {view && <p className="muted small">{t.toolsFile(view.config_path)}</p>}
      {servers.length === 0 && (
        <p className="empty-inline" data-testid="mcp-none">
          {t.toolsNone}
        </p>
      )}
      {servers.map((server) => (
        <ServerCard key={server.name} server={server} busy={busy} act={act} />
      ))}
      <McpServerEditor key={added} initial={{ line: "", fields: [] }} busy={busy} onSave={(name, form) => act(() => api.mcpSave(name, form), () => setAdded((n) => n + 1))} />
      <div className="row">
        <button className="ghost small" disabled={busy} onClick={importOthers} data-testid="mcp-import">
          {t.toolsImport}
        </button>
      </div>
      {info && (
        <p className="info" role="status" data-testid="mcp-info">
          {info}
        </p>
      )}
      {error && (
        <div className="form-error" role="alert" data-testid="mcp-error">
          {error}
        </div>
      )}
    </section>
  );
}

/** Settings → Permissions: every standing grant, each revocable. */
export function PermissionsSettings() {
  const t = useStrings();
  const [grants, setGrants] = useState<Grant[]>([]);
  const [readOnly, setReadOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api.listGrants().then((g) => setGrants(g ?? [])).catch((e) => setError(toCommandError(e).message));
  }, []);
  useEffect(() => {
    load();
    api.autoAllowReadOnly().then((on) => setReadOnly(Boolean(on))).catch(() => undefined);
    // A card answered "always" adds a grant: the list follows.
    const off = api.onCoreEvent((event) => {
      if (event.type === "permission_settled" || event.type === "mcp_servers") load();
    });
    return () => {
      off.then((f) => f());
    };
  }, [load]);

  const revoke = (grant: Grant) =>
    api
      .revokeGrant(grant.server, grant.tool)
      .then(setGrants)
      .catch((e) => setError(toCommandError(e).message));

  return (
    <section className="permissions-settings">
      <h2>{t.permissionsTitle}</h2>
      <p className="muted">{t.permissionsIntro}</p>
      <label className="switch-row">
        <input
          type="checkbox"
          checked={readOnly}
          onChange={(e) => {
            const on = e.target.checked;
            api.setAutoAllowReadOnly(on).then(setReadOnly).catch((err) => setError(toCommandError(err).message));
          }}
          data-testid="auto-read-only"
        />
        <span>
          {t.autoReadOnly}
          <br />
          <span className="muted small">{t.autoReadOnlyNote}</span>
        </span>
      </label>
      {grants.length === 0 ? (
        <p className="empty-inline" data-testid="grants-none">
          {t.permissionsNone}
        </p>
      ) : (
        <ul className="grants">
          {grants.map((grant) => (
            <li key={grant.id} data-testid="grant">
              <span>
                <strong>{grant.server}</strong> / {grant.tool ?? t.permissionsEveryTool} · {grant.allow ? t.permissionsAllowed : t.permissionsDenied}
              </span>
              <button className="ghost small" onClick={() => revoke(grant)} data-testid="grant-revoke">
                {t.permissionsRevoke}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
