// Strings of checkpoints: their editor under Memory → Checkpoints, their metadata, and
// the line under a reply before which one was saved on its own. English and Spanish.

import type { CheckpointBody, Decision, Metadata as CheckpointMeta } from "../../types/core";
import { hm, shortDay } from "../../format";

/** What Sidecar wrote about a checkpoint. */
export type { CheckpointMeta };

/** The lists of a checkpoint's body (the core's `CheckpointBody`, less its title, its
 * current work and what Sidecar wrote about it). */
export type CheckpointList = Exclude<keyof CheckpointBody, "title" | "current_work" | "metadata">;

/** A decision as the list shows it: what, why, when, how sure. */
function decisionLine(d: Decision, locale: string, because: string, sure: (percent: number) => string): string {
  const about = [d.when && `${shortDay(d.when, locale)} ${hm(d.when, locale)}`, d.confidence != null && sure(Math.round(d.confidence * 100))].filter(Boolean);
  return `${d.what}${d.why ? ` — ${because} ${d.why}` : ""}${about.length ? ` (${about.join(", ")})` : ""}`;
}

/** A decision in the editor: "what — why". */
export function decisionText(d: Decision): string {
  return d.why ? `${d.what} — ${d.why}` : d.what;
}

/** An edited line back to a decision: the same decision keeps its time and sureness. */
export function decisionOf(line: string, before: Decision[]): Decision {
  const [what, ...why] = line.split(" — ");
  const same = before.find((d) => d.what.trim().toLowerCase() === what.trim().toLowerCase());
  return { what: what.trim(), why: why.join(" — ").trim() || null, when: same?.when ?? null, confidence: same?.confidence ?? null };
}

export const checkpointsEn = {
  checkpointDecision: (d: Decision) => decisionLine(d, "en-GB", "because", (p) => `${p}% sure`),
  checkpointDecisionHint: "One per line: what was decided — why",
  checkpointEdit: "Edit",
  checkpointEditTitle: (id: number) => `Edit checkpoint #${id}`,
  checkpointFieldTitle: "Title",
  checkpointFieldWork: "Current work",
  checkpointList: (list: CheckpointList) =>
    ({
      completed: "Completed",
      pending: "Pending",
      decisions: "Decisions",
      successful_approaches: "Approaches that worked",
      failed_approaches: "Approaches that failed",
      user_preferences: "Your preferences",
      critical_info: "Critical information",
      blockers: "Blockers",
    })[list],
  checkpointOnePerLine: "One per line",
  checkpointSaveHint: "Save (Ctrl+Enter)",
  checkpointSaved: (id: number) => `Checkpoint #${id} saved.`,
  checkpointBlockers: "Blockers",
  checkpointMeta: ({ model, tokens, touched }: CheckpointMeta) =>
    [model && `Model: ${model}`, tokens != null && `${tokens.toLocaleString("en")} tokens of context`, touched?.length && `Touched: ${touched.join(", ")}`]
      .filter(Boolean)
      .join(" · "),
  checkpointExportAll: "Export all as Markdown",
  checkpointsExported: (count: number, path: string) => (count === 1 ? `The checkpoint was saved to ${path}` : `All ${count} checkpoints were saved to ${path}`),
  checkpointAnnounced: (id: number) =>
    `Checkpoint #${id} saved automatically. To pick it up in another conversation, say “continue from checkpoint” or paste “Checkpoint ID: ${id}”.`,
};

export const checkpointsEs: typeof checkpointsEn = {
  checkpointDecision: (d: Decision) => decisionLine(d, "es-ES", "porque", (p) => `${p} % de seguridad`),
  checkpointDecisionHint: "Una por línea: lo decidido — por qué",
  checkpointEdit: "Editar",
  checkpointEditTitle: (id: number) => `Editar el punto de control #${id}`,
  checkpointFieldTitle: "Título",
  checkpointFieldWork: "Trabajo en curso",
  checkpointList: (list: CheckpointList) =>
    ({
      completed: "Hecho",
      pending: "Pendiente",
      decisions: "Decisiones",
      successful_approaches: "Enfoques que funcionaron",
      failed_approaches: "Enfoques que fallaron",
      user_preferences: "Tus preferencias",
      critical_info: "Información crítica",
      blockers: "Bloqueos",
    })[list],
  checkpointOnePerLine: "Uno por línea",
  checkpointSaveHint: "Guardar (Ctrl+Enter)",
  checkpointSaved: (id: number) => `Punto de control #${id} guardado.`,
  checkpointBlockers: "Bloqueos",
  checkpointMeta: ({ model, tokens, touched }: CheckpointMeta) =>
    [model && `Modelo: ${model}`, tokens != null && `${tokens.toLocaleString("es")} tokens de contexto`, touched?.length && `Tocado: ${touched.join(", ")}`]
      .filter(Boolean)
      .join(" · "),
  checkpointExportAll: "Exportar todos en Markdown",
  checkpointsExported: (count: number, path: string) =>
    count === 1 ? `El punto de control se guardó en ${path}` : `Los ${count} puntos de control se guardaron en ${path}`,
  checkpointAnnounced: (id: number) =>
    `Punto de control #${id} guardado automáticamente. Para retomarlo en otra conversación, di «continúa desde el punto de control» o pega «Checkpoint ID: ${id}».`,
};
