// Strings of a message's actions (copy, regenerate, versions, edit) and code blocks,
// English and Spanish.

export const messagesEn = {
  copy: "Copy",
  copied: "Copied",
  copyFailed: "Could not copy",
  copyCode: "Copy code",
  regenerate: "Regenerate",
  regenerateTitle: "Write this reply again (this one is kept)",
  versionOf: (current: number, count: number) => `${current} / ${count}`,
  previousVersion: "Previous version",
  nextVersion: "Next version",
  edit: "Edit",
  editLabel: "Edit your message",
  editSend: "Send",
  editCancel: "Cancel",
  editHint: "Enter sends · Shift+Enter new line · Esc cancels. What followed this message is set aside.",
  pageLoading: "Loading…",
};

export const messagesEs: typeof messagesEn = {
  copy: "Copiar",
  copied: "Copiado",
  copyFailed: "No se pudo copiar",
  copyCode: "Copiar código",
  regenerate: "Regenerar",
  regenerateTitle: "Escribir de nuevo esta respuesta (esta se conserva)",
  versionOf: (current: number, count: number) => `${current} / ${count}`,
  previousVersion: "Versión anterior",
  nextVersion: "Versión siguiente",
  edit: "Editar",
  editLabel: "Edita tu mensaje",
  editSend: "Enviar",
  editCancel: "Cancelar",
  editHint: "Intro envía · Mayús+Intro nueva línea · Esc cancela. Lo que siguió a este mensaje se aparta.",
  pageLoading: "Cargando…",
};
