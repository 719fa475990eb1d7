import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type Connection, type ConnectionScope, type EndpointView, type IssuedToken } from "../../api";
import { useStrings, type Strings } from "../../i18n";
import { CopyButton } from "../chat/CopyButton";

const SCOPES: ConnectionScope[] = ["read_memory", "write_memory", "reminders", "messages", "health", "chat"];

function scopeLabel(t: Strings, scope: ConnectionScope): string {
  return {
    read_memory: t.scopeReadMemory,
    write_memory: t.scopeWriteMemory,
    reminders: t.scopeReminders,
    messages: t.scopeMessages,
    health: t.scopeHealth,
    chat: t.scopeChat,
  }[scope];
}

function ScopeBoxes({ scopes, toggle, prefix }: { scopes: ConnectionScope[]; toggle: (scope: ConnectionScope, on: boolean) => void; prefix: string }) {
  const t = useStrings();
  return (
    <div className="scope-list">
      {SCOPES.map((scope) => (
        <label key={scope} className="small">
          <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} data-testid={`${prefix}${scope}`} />
          {scopeLabel(t, scope)}
        </label>
      ))}
    </div>
  );
}

/** A token to copy; said when no keychain keeps it. While the HTTP endpoint runs, the
 * `mcpServers` entry that reaches it with this token too (the core writes it). */
function TokenBox({ issued }: { issued: IssuedToken }) {
  const t = useStrings();
  const [httpConfig, setHttpConfig] = useState<string | null>(null);
  useEffect(() => {
    api.connectionHttpConfig(issued.token).then((c) => setHttpConfig(c ?? null)).catch(() => setHttpConfig(null));
  }, [issued.token]);
  return (
    <div className="connection-config" data-testid="api-token-box">
      <p className="small">{issued.storage.kind === "session" ? t.apiTokenSession : t.apiTokenOnce}</p>
      <pre data-testid="api-token">{issued.token}</pre>
      <CopyButton text={() => issued.token} label={t.apiCopy} testId="api-token-copy" />
      {httpConfig && (
        <>
          <p className="small">{t.apiHttpConfig}</p>
          <pre data-testid="api-http-config">{httpConfig}</pre>
          <CopyButton text={() => httpConfig} label={t.connectionsCopy} testId="api-http-config-copy" />
        </>
      )}
    </div>
  );
}

function useScopes(initial: ConnectionScope[]) {
  const [scopes, setScopes] = useState<ConnectionScope[]>(initial);
  const toggle = (scope: ConnectionScope, on: boolean) => setScopes((all) => (on ? [...all, scope] : all.filter((s) => s !== scope)));
  return { scopes, toggle };
}

/** A program that will call the local API: named here, given scopes and a token. */
function ApiClientForm({ apiBase, made }: { apiBase: string | null; made: () => void }) {
  const t = useStrings();
  const [name, setName] = useState("");
  const { scopes, toggle } = useScopes(["read_memory"]);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [error, setError] = useState<string | null>(null);
  const make = () => {
    setError(null);
    if (!name.trim()) return setError(t.apiNeedsName);
    api
      .makeApiToken(name.trim(), scopes)
      .then((i) => {
        setIssued(i);
        made();
      })
      .catch((e) => setError(toCommandError(e).message));
  };
  return (
    <div className="channel-card" data-testid="api-client-form">
      <h3>{t.apiTitle}</h3>
      <p className="muted small">{t.apiIntro(apiBase)}</p>
      <div className="row">
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder={t.apiName} aria-label={t.apiName} data-testid="api-client-name" />
        <button className="small" onClick={make} data-testid="api-make-token">
          {t.apiMake}
        </button>
      </div>
      <ScopeBoxes scopes={scopes} toggle={toggle} prefix="api-scope-" />
      {issued && <TokenBox issued={issued} />}
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

function stateLabel(t: Strings, state: Connection["state"]): string {
  return { pending: t.connectionsPending, allowed: t.connectionsAllowed, revoked: t.connectionsRevoked }[state];
}

function ClientCard({ client, act }: { client: Connection; act: (work: () => Promise<Connection[]>) => void }) {
  const t = useStrings();
  // A program waiting for the first time is offered reading memory; the user picks.
  const { scopes, toggle } = useScopes(client.state === "allowed" ? client.scopes : ["read_memory"]);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const show = () => api.showApiToken(client.name).then((token) => token && setIssued({ token, storage: { kind: "keychain" } }));
  const renew = () => api.makeApiToken(client.name, scopes).then(setIssued);
  return (
    <div className="channel-card" data-testid="connection" data-name={client.name}>
      <div className="channel-head">
        <h3>{client.name}</h3>
        <span className={`channel-state ${client.state === "allowed" ? "connected" : client.state === "revoked" ? "down" : ""}`} data-testid="connection-state">
          {stateLabel(t, client.state)}
        </span>
      </div>
      {client.has_token && (
        <p className="muted small" data-testid="connection-has-token">
          {t.apiHasToken}
        </p>
      )}
      <ScopeBoxes scopes={scopes} toggle={toggle} prefix="scope-" />
      <div className="row">
        <button className="small" onClick={() => act(() => api.allowConnection(client.name, scopes))} data-testid="connection-allow">
          {client.state === "allowed" ? t.connectionsSave : t.connectionsAllow}
        </button>
        {client.has_token && client.state === "allowed" && (
          <>
            <button className="ghost small" onClick={show} data-testid="api-show-token">
              {t.apiShowToken}
            </button>
            <button className="ghost small" onClick={renew} data-testid="api-new-token">
              {t.apiNewToken}
            </button>
          </>
        )}
        {client.state !== "revoked" && (
          <button className="ghost small danger" onClick={() => act(() => api.revokeConnection(client.name))} data-testid="connection-revoke">
            {t.connectionsRevoke}
          </button>
        )}
      </div>
      {issued && <TokenBox issued={issued} />}
      {client.activity.length > 0 && (
        <>
          <div className="label small">{t.connectionsRecent}</div>
          <ul className="mcp-tools small" data-testid="connection-activity">
            {client.activity.map((a, i) => (
              <li key={i}>
                <code>{a.action}</code> · {a.allowed ? t.connectionsServed : t.connectionsRefused} · <span className="muted">{new Date(a.at).toLocaleString()}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Settings → Connections: programs that use Sidecar as a server, allowed or revoked here. */
export function ConnectionsSettings() {
  const t = useStrings();
  const [clients, setClients] = useState<Connection[] | null>(null);
  const [config, setConfig] = useState("");
  const [endpoint, setEndpoint] = useState<EndpointView | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.listConnections().then((c) => setClients(c ?? [])).catch((e) => setError(toCommandError(e).message));
    api.connectionConfig().then((c) => setConfig(c ?? "")).catch(() => setConfig(""));
    api.connectionEndpoint().then((e) => setEndpoint(e ?? null)).catch(() => setEndpoint(null));
    // Programs connect through another process (`sidecar mcp serve`): look again now and then.
    const look = () => api.listConnections().then((c) => c && setClients(c)).catch(() => undefined);
    const again = setInterval(look, 5000);
    // The core says when one starts waiting: shown at once.
    const off = api.onCoreEvent((event) => {
      if (event.type === "connection_waiting") look();
    });
    return () => {
      clearInterval(again);
      off.then((f) => f());
    };
  }, []);

  const act = useCallback((work: () => Promise<Connection[]>) => {
    setError(null);
    work()
      .then(setClients)
      .catch((e) => setError(toCommandError(e).message));
  }, []);

  return (
    <section className="connections-settings">
      <h2>{t.connectionsTitle}</h2>
      <p className="muted">{t.connectionsIntro}</p>
      {config && (
        <div className="connection-config">
          <p className="small">{t.connectionsConfig}</p>
          <pre data-testid="connection-config">{config}</pre>
          <CopyButton text={() => config} label={t.connectionsCopy} testId="connection-copy" />
        </div>
      )}
      {endpoint && (
        <label className="switch-row">
          <input
            type="checkbox"
            checked={Boolean(endpoint.url || endpoint.problem)}
            onChange={(e) => api.setConnectionEndpoint(e.target.checked).then(setEndpoint).catch((err) => setError(toCommandError(err).message))}
            data-testid="endpoint-switch"
          />
          <span>
            {t.endpointSwitch}
            <br />
            <span className="muted small">{t.endpointNote}</span>
            {endpoint.url && (
              <>
                <br />
                <span className="small" data-testid="endpoint-url">
                  {t.endpointAt(endpoint.url)}
                </span>
              </>
            )}
            {endpoint.problem && (
              <>
                <br />
                <span className="small form-error" data-testid="endpoint-problem">
                  {endpoint.problem}
                </span>
              </>
            )}
          </span>
        </label>
      )}
      <ApiClientForm
        apiBase={endpoint?.url ? endpoint.url.replace(/\/mcp$/, "") : null}
        made={() => api.listConnections().then((c) => c && setClients(c)).catch(() => undefined)}
      />
      {clients && clients.length === 0 && (
        <p className="empty-inline" data-testid="connections-none">
          {t.connectionsNone}
        </p>
      )}
      {(clients ?? []).map((client) => (
        <ClientCard key={`${client.name}-${client.changed_at}`} client={client} act={act} />
      ))}
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
