// Strings of Settings → Connections (programs that use Sidecar as a server), English and Spanish.

export const connectionsEn = {
  connectionsTitle: "Connections",
  connectionsIntro:
    "Programs that use Sidecar as a server (Claude Desktop, Cursor, a script) through `sidecar mcp serve` or the local API. A program gets nothing until you allow it here, and only what its scopes cover.",
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
  endpointSwitch: "Also serve over HTTP on this computer",
  endpointNote:
    "For programs that connect to an address rather than start a command. Only this computer can reach it, and a program must present the token you make for it below.",
  endpointAt: (url: string) => `Listening at ${url}`,
  scopeReadMemory: "Read memory (recall, facts)",
  scopeWriteMemory: "Save facts",
  scopeReminders: "Reminders",
  scopeMessages: "Leave me notes",
  scopeHealth: "Health facts",
  scopeChat: "Chat with Sidecar (its answers may use all it knows)",
  apiTitle: "A program that uses the local API",
  apiIntro: (url: string | null) =>
    url
      ? `Scripts and OpenAI clients reach Sidecar at ${url}/v1 with a token; the description is at ${url}/v1/openapi.json.`
      : "Scripts and OpenAI clients reach Sidecar over HTTP with a token, once the HTTP switch above is on.",
  apiName: "Program name",
  apiMake: "Make a token",
  apiNewToken: "New token",
  apiShowToken: "Show token",
  apiHasToken: "Has an API token",
  apiTokenOnce: "The program's token (kept in the system keychain):",
  apiTokenSession: "No keychain: copy this token now, it cannot be shown again.",
  apiCopy: "Copy token",
  apiHttpConfig: "For a program that connects to the address over MCP (Claude Desktop, Cursor, LM Studio):",
  apiNeedsName: "Give the program a name first.",
};

export const connectionsEs: typeof connectionsEn = {
  connectionsTitle: "Conexiones",
  connectionsIntro:
    "Programas que usan Sidecar como servidor (Claude Desktop, Cursor, un script) con `sidecar mcp serve` o la API local. Un programa no recibe nada hasta que lo permitas aquí, y solo lo que cubren sus permisos.",
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
  endpointSwitch: "Servir también por HTTP en este equipo",
  endpointNote:
    "Para programas que se conectan a una dirección en lugar de lanzar un comando. Solo este equipo puede alcanzarla, y un programa debe presentar el token que crees para él abajo.",
  endpointAt: (url: string) => `Escuchando en ${url}`,
  scopeReadMemory: "Leer la memoria (recuerdos, datos)",
  scopeWriteMemory: "Guardar datos",
  scopeReminders: "Recordatorios",
  scopeMessages: "Dejarme notas",
  scopeHealth: "Datos de salud",
  scopeChat: "Conversar con Sidecar (sus respuestas pueden usar todo lo que sabe)",
  apiTitle: "Un programa que usa la API local",
  apiIntro: (url: string | null) =>
    url
      ? `Los scripts y los clientes de OpenAI llegan a Sidecar en ${url}/v1 con un token; la descripción está en ${url}/v1/openapi.json.`
      : "Los scripts y los clientes de OpenAI llegan a Sidecar por HTTP con un token, cuando el interruptor HTTP de arriba está activado.",
  apiName: "Nombre del programa",
  apiMake: "Crear un token",
  apiNewToken: "Token nuevo",
  apiShowToken: "Mostrar token",
  apiHasToken: "Tiene un token de la API",
  apiTokenOnce: "El token del programa (guardado en el llavero del sistema):",
  apiTokenSession: "No hay llavero: copia este token ahora, no se podrá volver a mostrar.",
  apiCopy: "Copiar token",
  apiHttpConfig: "Para un programa que se conecta a la dirección por MCP (Claude Desktop, Cursor, LM Studio):",
  apiNeedsName: "Primero dale un nombre al programa.",
};
