// Strings of Settings → Your data → Keeping: how long conversations are kept, the size
// the database keeps under, chats closed when left idle, how often the tidy runs, and
// what a tidy did. English and Spanish.

import type { RetentionSettings, RetentionView, TidyReport } from "../../types/core";
export type { RetentionSettings, RetentionView, TidyReport };

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const size = (megabytes: number) => (megabytes >= 1000 && megabytes % 1000 === 0 ? `${megabytes / 1000} GB` : `${megabytes} MB`);

export const retentionEn = {
  keepingTitle: "Keeping",
  keepingIntro: "Nothing you wrote is removed unless you choose so here. Pinned conversations, the current one and your facts are always kept.",
  keepLabel: "Keep conversations",
  keepChoice: (days: number | null) => (days == null ? "Forever" : days >= 365 && days % 365 === 0 ? `${days / 365} year${days === 365 ? "" : "s"} after the last message` : `${days} days after the last message`),
  keepSaved: (days: number | null) => (days == null ? "Everything is kept." : `Conversations with nothing said for ${days} days will be deleted at the next tidy.`),
  sizeLabel: "Keep the database under",
  sizeChoice: (megabytes: number | null) => (megabytes == null ? "No limit" : size(megabytes)),
  sizeSaved: (megabytes: number | null) =>
    megabytes == null ? "No size limit: nothing is removed for size." : `Past ${size(megabytes)}, the oldest chats are removed for good at the next tidy (never a pinned one, the current one or a fact).`,
  idleLabel: "Close a chat left untouched for",
  idleChoice: (hours: number | null) => (hours == null ? "Never" : hours === 1 ? "1 hour" : `${hours} hours`),
  idleSaved: (hours: number | null) =>
    hours == null ? "A chat stays open until you start another." : `After ${hours} hour${hours === 1 ? "" : "s"} with nothing said, the chat is summed up in a checkpoint and the next message starts a new one that offers to continue it.`,
  tidyOften: "Tidy every 30 minutes while Sidecar runs (otherwise once a day)",
  tidyOftenSaved: (often: boolean): string => (often ? "Sidecar tidies every 30 minutes." : "Sidecar tidies once a day."),
  tidyNow: "Tidy now",
  tidying: "Tidying…",
  tidied: (r: TidyReport) => {
    const removed = r.conversations_expired + r.conversations_removed + r.vectors_removed + r.corrections_removed + r.conversations_over_size;
    const done =
      removed === 0
        ? "Nothing to tidy: everything kept is in use."
        : `Done: ${r.conversations_expired} old conversations deleted, ${r.conversations_over_size} removed to keep under the size limit, ${r.conversations_removed} deleted ones removed for good, ${r.vectors_removed} search vectors of removed messages and ${r.corrections_removed} expired notes to the model cleared.`;
    const over = r.still_over_size ? " What is left is pinned, current or not a chat, so the database stays over the limit." : "";
    return `${done} The database uses ${mb(r.used_bytes)} MB.${over}`;
  },
};

export const retentionEs: typeof retentionEn = {
  keepingTitle: "Conservación",
  keepingIntro: "Nada de lo que escribiste se borra salvo que lo elijas aquí. Las conversaciones fijadas, la actual y tus datos se conservan siempre.",
  keepLabel: "Conservar conversaciones",
  keepChoice: (days: number | null) =>
    days == null ? "Siempre" : days >= 365 && days % 365 === 0 ? `${days / 365} año${days === 365 ? "" : "s"} tras el último mensaje` : `${days} días tras el último mensaje`,
  keepSaved: (days: number | null) =>
    days == null ? "Se conserva todo." : `Las conversaciones sin mensajes en ${days} días se borrarán en la próxima limpieza.`,
  sizeLabel: "Mantener la base de datos por debajo de",
  sizeChoice: (megabytes: number | null) => (megabytes == null ? "Sin límite" : size(megabytes)),
  sizeSaved: (megabytes: number | null) =>
    megabytes == null
      ? "Sin límite de tamaño: nada se borra por tamaño."
      : `Pasados ${size(megabytes)}, las charlas más antiguas se eliminan del todo en la próxima limpieza (nunca una fijada, la actual ni un dato).`,
  idleLabel: "Cerrar una charla sin tocar durante",
  idleChoice: (hours: number | null) => (hours == null ? "Nunca" : hours === 1 ? "1 hora" : `${hours} horas`),
  idleSaved: (hours: number | null) =>
    hours == null
      ? "Una charla sigue abierta hasta que empiezas otra."
      : `Tras ${hours} hora${hours === 1 ? "" : "s"} sin mensajes, la charla se resume en un punto de control y el siguiente mensaje empieza una nueva que ofrece continuarla.`,
  tidyOften: "Limpiar cada 30 minutos mientras Sidecar está abierto (si no, una vez al día)",
  tidyOftenSaved: (often: boolean) => (often ? "Sidecar limpia cada 30 minutos." : "Sidecar limpia una vez al día."),
  tidyNow: "Limpiar ahora",
  tidying: "Limpiando…",
  tidied: (r: TidyReport) => {
    const removed = r.conversations_expired + r.conversations_removed + r.vectors_removed + r.corrections_removed + r.conversations_over_size;
    const done =
      removed === 0
        ? "Nada que limpiar: todo lo que se conserva está en uso."
        : `Hecho: ${r.conversations_expired} conversaciones antiguas borradas, ${r.conversations_over_size} eliminadas para no pasar el límite de tamaño, ${r.conversations_removed} borradas eliminadas del todo, ${r.vectors_removed} vectores de búsqueda de mensajes eliminados y ${r.corrections_removed} notas caducadas para el modelo quitadas.`;
    const over = r.still_over_size ? " Lo que queda está fijado, es la charla actual o no es una charla, así que la base sigue por encima del límite." : "";
    return `${done} La base de datos ocupa ${mb(r.used_bytes)} MB.${over}`;
  },
};
