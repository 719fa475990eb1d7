// Strings of Settings → Your data → Keeping: how long conversations are kept, and the
// tidy that applies it. English and Spanish.

import type { TidyReport } from "../../types/core";
export type { TidyReport };

export const retentionEn = {
  keepingTitle: "Keeping",
  keepingIntro: "Nothing you wrote is removed unless you choose so here. Pinned conversations and the current one are always kept.",
  keepLabel: "Keep conversations",
  keepChoice: (days: number | null) => (days == null ? "Forever" : days >= 365 && days % 365 === 0 ? `${days / 365} year${days === 365 ? "" : "s"} after the last message` : `${days} days after the last message`),
  keepSaved: (days: number | null) => (days == null ? "Everything is kept." : `Conversations with nothing said for ${days} days will be deleted at the next tidy.`),
  tidyNow: "Tidy now",
  tidying: "Tidying…",
  tidied: (r: TidyReport) =>
    r.conversations_expired + r.conversations_removed + r.vectors_removed + r.corrections_removed === 0
      ? "Nothing to tidy: everything kept is in use."
      : `Done: ${r.conversations_expired} old conversations deleted, ${r.conversations_removed} deleted ones removed for good, ${r.vectors_removed} search vectors of removed messages and ${r.corrections_removed} expired notes to the model cleared.`,
};

export const retentionEs: typeof retentionEn = {
  keepingTitle: "Conservación",
  keepingIntro: "Nada de lo que escribiste se borra salvo que lo elijas aquí. Las conversaciones fijadas y la actual se conservan siempre.",
  keepLabel: "Conservar conversaciones",
  keepChoice: (days: number | null) =>
    days == null ? "Siempre" : days >= 365 && days % 365 === 0 ? `${days / 365} año${days === 365 ? "" : "s"} tras el último mensaje` : `${days} días tras el último mensaje`,
  keepSaved: (days: number | null) =>
    days == null ? "Se conserva todo." : `Las conversaciones sin mensajes en ${days} días se borrarán en la próxima limpieza.`,
  tidyNow: "Limpiar ahora",
  tidying: "Limpiando…",
  tidied: (r: TidyReport) =>
    r.conversations_expired + r.conversations_removed + r.vectors_removed + r.corrections_removed === 0
      ? "Nada que limpiar: todo lo que se conserva está en uso."
      : `Hecho: ${r.conversations_expired} conversaciones antiguas borradas, ${r.conversations_removed} borradas eliminadas del todo, ${r.vectors_removed} vectores de búsqueda de mensajes eliminados y ${r.corrections_removed} notas caducadas para el modelo quitadas.`,
};
