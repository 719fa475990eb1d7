// Strings of the conversation list, English and Spanish.

export const chatsEn = {
  chatsTitle: "Conversations",
  chatsToggle: "Conversations",
  chatsSearch: "Search conversations",
  chatsEmpty: "No conversations yet.",
  chatsNoMatch: "No conversation matches.",
  chatUntitled: "New conversation",
  chatRename: "Rename",
  chatDelete: "Delete",
  chatDeleted: (title: string) => `Deleted "${title}".`,
  chatUndo: "Undo",
  chatExport: "Export as Markdown",
  chatExported: (path: string) => `Saved to ${path}.`,
  chatMessages: (n: number) => (n === 1 ? "1 message" : `${n} messages`),
  chatOpenAt: "Open conversation",
};

export const chatsEs: typeof chatsEn = {
  chatsTitle: "Conversaciones",
  chatsToggle: "Conversaciones",
  chatsSearch: "Buscar conversaciones",
  chatsEmpty: "Aún no hay conversaciones.",
  chatsNoMatch: "Ninguna conversación coincide.",
  chatUntitled: "Conversación nueva",
  chatRename: "Renombrar",
  chatDelete: "Borrar",
  chatDeleted: (title: string) => `Borrada «${title}».`,
  chatUndo: "Deshacer",
  chatExport: "Exportar como Markdown",
  chatExported: (path: string) => `Guardada en ${path}.`,
  chatMessages: (n: number) => (n === 1 ? "1 mensaje" : `${n} mensajes`),
  chatOpenAt: "Abrir la conversación",
};
