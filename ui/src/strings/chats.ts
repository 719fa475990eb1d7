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
  chatConfirmDelete: (title: string) => `Delete "${title}"? You can undo it for a few seconds.`,
  chatDeleted: "Conversation deleted.",
  chatUndo: "Undo",
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
  chatConfirmDelete: (title: string) => `¿Borrar «${title}»? Podrás deshacerlo durante unos segundos.`,
  chatDeleted: "Conversación borrada.",
  chatUndo: "Deshacer",
  chatMessages: (n: number) => (n === 1 ? "1 mensaje" : `${n} mensajes`),
  chatOpenAt: "Abrir la conversación",
};
