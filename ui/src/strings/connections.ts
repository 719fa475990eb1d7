// Strings of Settings → Connections (programs that use Sidecar as a server), English and Spanish.

export const connectionsEn = {
  connectionsTitle: "Connections",
  connectionsIntro:
    "Programs that use Sidecar as a server (Claude Desktop, Cursor, a script) through `sidecar mcp serve`. A program gets nothing until you allow it here, and only what its scopes cover.",
  connectionsConfig: "Paste this into the other program's MCP configuration (Claude Desktop: claude_desktop_config.json):",
  connectionsCopy: "Copy configuration",
  connectionsNone: "No program has connected yet. Once one does, it waits here for you to allow it.",
  connectionsPending: "Waiting for you",
  connectionsAllowed: "Allowed",
  connectionsRevoked: "Revoked",
  connectionsAllow: "Allow with these scopes",
  connectionsSave: "Save scopes",
  connectionsRevoke: "Revoke",
  connectionsRecent: "Latest calls:",
  connectionsServed: "served",
  connectionsRefused: "refused",
  scopeReadMemory: "Read memory (recall, facts)",
  scopeWriteMemory: "Save facts",
  scopeReminders: "Reminders",
  scopeMessages: "Messages",
  scopeHealth: "Health facts",
};

export const connectionsEs: typeof connectionsEn = {
  connectionsTitle: "Conexiones",
  connectionsIntro:
    "Programas que usan Sidecar como servidor (Claude Desktop, Cursor, un script) con `sidecar mcp serve`. Un programa no recibe nada hasta que lo permitas aquí, y solo lo que cubren sus permisos.",
  connectionsConfig: "Pega esto en la configuración MCP del otro programa (Claude Desktop: claude_desktop_config.json):",
  connectionsCopy: "Copiar configuración",
  connectionsNone: "Todavía no se ha conectado ningún programa. Cuando uno lo haga, esperará aquí a que lo permitas.",
  connectionsPending: "Esperando tu permiso",
  connectionsAllowed: "Permitido",
  connectionsRevoked: "Revocado",
  connectionsAllow: "Permitir con estos permisos",
  connectionsSave: "Guardar permisos",
  connectionsRevoke: "Revocar",
  connectionsRecent: "Últimas llamadas:",
  connectionsServed: "atendida",
  connectionsRefused: "rechazada",
  scopeReadMemory: "Leer la memoria (recuerdos, datos)",
  scopeWriteMemory: "Guardar datos",
  scopeReminders: "Recordatorios",
  scopeMessages: "Mensajes",
  scopeHealth: "Datos de salud",
};
