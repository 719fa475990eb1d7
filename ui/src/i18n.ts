// English and Spanish strings. The language comes from the core (system locale or
// SIDECAR_LANG), falling back to the webview's.
import { createContext, useContext } from "react";

const en = {
  title: "Sidecar",
  placeholder: "Message Sidecar… (Enter to send, Shift+Enter for a new line)",
  send: "Send",
  stop: "Stop",
  retry: "Retry",
  dismiss: "Dismiss",
  emptyTitle: "Say hello",
  emptyBody:
    "Sidecar runs a small offline model until you configure a provider. Your conversation is saved on this computer.",
  you: "You",
  sidecar: "Sidecar",
  thinking: "Thinking…",
  stopped: "Stopped",
  interrupted: "Interrupted",
  truncated: "Cut off at the length limit",
  modelIdle: "Model not started",
  modelStarting: "Starting the offline model…",
  modelReady: "Ready",
  modelUnavailable: "Model unavailable",
  errorPrefix: "Something went wrong:",
  shortcutHint: "Ctrl+Shift+Space shows or hides this window",
  historyError: "Could not load the conversation:",
  toolRunning: "running…",
  toolFailed: "failed",
  toolArguments: "Arguments",
  toolResult: "Result",
  fallbackAnswered: (to: string, from: string) => `Answered by ${to} because ${from} failed`,
  continuedMarker: "Continued after the length limit",
  correctedMarker: "Corrected: the first answer claimed an action it had not taken",
  capMarker: "Stopped at the step limit for one reply",
  noticeRetrying: (provider: string, seconds: string) => `${provider} is busy; trying again in ${seconds} s…`,
  noticeFallingBack: (from: string, to: string) => `${from} failed; asking ${to}…`,
  noticeContinued: "Reply cut at the length limit; continuing…",
  noticeCorrected: "Checking that answer…",
  noticeCap: "Reached the step limit",
  noticeTimedOut: "Out of time",
  priceUnknown: "price unknown",
  tokens: (input: number, output: number) => `${input.toLocaleString("en")} in / ${output.toLocaleString("en")} out`,
};

export type Strings = typeof en;

const es: Strings = {
  title: "Sidecar",
  placeholder: "Escribe a Sidecar… (Enter para enviar, Shift+Enter para nueva línea)",
  send: "Enviar",
  stop: "Detener",
  retry: "Reintentar",
  dismiss: "Cerrar",
  emptyTitle: "Saluda",
  emptyBody:
    "Sidecar usa un modelo pequeño sin conexión hasta que configures un proveedor. Tu conversación se guarda en este equipo.",
  you: "Tú",
  sidecar: "Sidecar",
  thinking: "Pensando…",
  stopped: "Detenido",
  interrupted: "Interrumpido",
  truncated: "Cortado por el límite de longitud",
  modelIdle: "Modelo sin iniciar",
  modelStarting: "Iniciando el modelo sin conexión…",
  modelReady: "Listo",
  modelUnavailable: "Modelo no disponible",
  errorPrefix: "Algo salió mal:",
  shortcutHint: "Ctrl+Shift+Espacio muestra u oculta esta ventana",
  historyError: "No se pudo cargar la conversación:",
  toolRunning: "ejecutando…",
  toolFailed: "falló",
  toolArguments: "Argumentos",
  toolResult: "Resultado",
  fallbackAnswered: (to: string, from: string) => `Respondió ${to} porque ${from} falló`,
  continuedMarker: "Continuado tras el límite de longitud",
  correctedMarker: "Corregido: la primera respuesta afirmaba una acción que no hizo",
  capMarker: "Detenido en el límite de pasos de una respuesta",
  noticeRetrying: (provider: string, seconds: string) => `${provider} está ocupado; reintento en ${seconds} s…`,
  noticeFallingBack: (from: string, to: string) => `${from} falló; pregunto a ${to}…`,
  noticeContinued: "Respuesta cortada por longitud; continuando…",
  noticeCorrected: "Verificando esa respuesta…",
  noticeCap: "Límite de pasos alcanzado",
  noticeTimedOut: "Se acabó el tiempo",
  priceUnknown: "precio desconocido",
  tokens: (input: number, output: number) => `${input.toLocaleString("es")} entrada / ${output.toLocaleString("es")} salida`,
};

export const strings = { en, es } as const;
export type Lang = keyof typeof strings;

export function pickLang(value: string | undefined | null): Lang {
  return value && value.toLowerCase().startsWith("es") ? "es" : "en";
}

export const I18nContext = createContext<Strings>(en);
export const useStrings = () => useContext(I18nContext);
