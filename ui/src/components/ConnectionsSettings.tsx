import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type Connection, type ConnectionScope, type EndpointView } from "../api";
import { useStrings, type Strings } from "../i18n";
import { CopyButton } from "./CopyButton";

// `messages` waits for send_message, which is not served yet.
const SCOPES: ConnectionScope[] = ["read_memory", "write_memory", "reminders", "health"];

function scopeLabel(t: Strings, scope: ConnectionScope): string {
  return {
    read_memory: t.scopeReadMemory,
    write_memory: t.scopeWriteMemory,
    reminders: t.scopeReminders,
    messages: t.scopeMessages,
    health: t.scopeHealth,
  }[scope];
}

function stateLabel(t: Strings, state: Connection["state"]): string {
  return { pending: t.connectionsPending, allowed: t.connectionsAllowed, revoked: t.connectionsRevoked }[state];
}

function ClientCard({ client, act }: { client: Connection; act: (work: () => Promise<Connection[]>) => void }) {
  const t = useStrings();
  // A program waiting for the first time is offered reading memory; the user picks.
  const [scopes, setScopes] = useState<ConnectionScope[]>(client.state === "allowed" ? client.scopes : ["read_memory"]);
  const toggle = (scope: ConnectionScope, on: boolean) => setScopes((all) => (on ? [...all, scope] : all.filter((s) => s !== scope)));
  return (
    <div className="channel-card" data-testid="connection" data-name={client.name}>
      <div className="channel-head">
        <h3>{client.name}</h3>
        <span className={`channel-state ${client.state === "allowed" ? "connected" : client.state === "revoked" ? "down" : ""}`} data-testid="connection-state">
          {stateLabel(t, client.state)}
        </span>
      </div>
      <div className="scope-list">
        {SCOPES.map((scope) => (
          <label key={scope} className="small">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} data-testid={`scope-${scope}`} />
            {scopeLabel(t, scope)}
          </label>
        ))}
      </div>
      <div className="row">
        <button className="small" onClick={() => act(() => api.allowConnection(client.name, scopes))} data-testid="connection-allow">
          {client.state === "allowed" ? t.connectionsSave : t.connectionsAllow}
        </button>
        {client.state !== "revoked" && (
          <button className="ghost small danger" onClick={() => act(() => api.revokeConnection(client.name))} data-testid="connection-revoke">
            {t.connectionsRevoke}
          </button>
        )}
      </div>
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
