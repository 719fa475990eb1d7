// Strings of the lines of the knowledge files held out of the prompt for reading as
// instructions from somewhere else (Bug 6), English and Spanish.

import type { Injection, KnowledgeFile } from "../../types/settings";

export const suspectEn = {
  suspectTitle: "These lines of your memory files read as instructions to Sidecar from somewhere else (pasted web text, a synced file). Sidecar does not read them until you decide:",
  suspectAlert: (n: number) =>
    `${n === 1 ? "A line" : `${n} lines`} in your memory files ${n === 1 ? "reads" : "read"} as instructions from somewhere else. Sidecar does not read ${n === 1 ? "it" : "them"} until you look.`,
  suspectKeep: "It is mine, use it",
  suspectRemove: "Remove it",
  suspectFile: (file: KnowledgeFile) => ({ soul: "SOUL.md", user: "user.md", learnings: "learnings.md" })[file],
  suspectReason: (reason: Injection) =>
    ({
      override: "tells Sidecar to ignore what it was told",
      reveal: "asks for Sidecar's instructions",
      secrecy: "tells Sidecar to keep something from you",
      exfiltration: "tells Sidecar to send something to an address",
      role_markup: "imitates a system message",
      hidden: "has characters you cannot see",
    })[reason],
};

export const suspectEs: typeof suspectEn = {
  suspectTitle: "Estas líneas de tus archivos de memoria parecen instrucciones para Sidecar venidas de otro sitio (texto pegado de la web, un archivo sincronizado). Sidecar no las lee hasta que decidas:",
  suspectAlert: (n: number) =>
    `${n === 1 ? "Una línea" : `${n} líneas`} de tus archivos de memoria ${n === 1 ? "parece" : "parecen"} instrucciones venidas de otro sitio. Sidecar no ${n === 1 ? "la" : "las"} lee hasta que ${n === 1 ? "la" : "las"} mires.`,
  suspectKeep: "Es mía, úsala",
  suspectRemove: "Quitarla",
  suspectFile: suspectEn.suspectFile,
  suspectReason: (reason: Injection) =>
    ({
      override: "le dice a Sidecar que ignore lo que se le dijo",
      reveal: "pide las instrucciones de Sidecar",
      secrecy: "le dice a Sidecar que te oculte algo",
      exfiltration: "le dice a Sidecar que envíe algo a una dirección",
      role_markup: "imita un mensaje del sistema",
      hidden: "tiene caracteres que no se ven",
    })[reason],
};
