// Strings of the character on the desktop and its switch in Settings, English and Spanish.

export const characterEn = {
  characterLabel: (mood: string) =>
    `Sidecar, ${({ idle: "resting", listening: "listening", thinking: "thinking", speaking: "speaking", asking: "waiting for your answer", sleeping: "asleep (quiet)" } as Record<string, string>)[mood] ?? mood}`,
  characterBadge: "A phone channel is down",
  characterBubbleHint: "Click to open the chat",
  characterBubbleSnoozeHint: (minutes: number) => `Click to open the chat, double-click to snooze ${minutes} min`,
  characterSnoozed: (minutes: number) => `Snoozed: again in ${minutes} min`,
  characterMenu: "Sidecar menu",
  characterOpen: "Open",
  characterQuietHour: "Quiet for 1 hour",
  characterHide: "Hide the character",
  characterSettings: "Settings",
  characterSetting: "Show Sidecar on the desktop",
  characterSettingHint: "A small character at the corner of the screen that shows when Sidecar listens, thinks, speaks or sleeps. Drag it anywhere; click it to open the chat; right-click for more.",
  characterHotkeyLabel: "Shortcut to show or hide the character",
  characterHotkeySaved: (hotkey: string) => `${hotkey} now shows or hides the character.`,
  characterNoCompositor:
    "Your desktop does not draw see-through windows (no compositor is running), so the character sits on a small card. Turn on your desktop's compositing to see it on its own.",
  hotkeySameAsOther: (hotkey: string) => `${hotkey} is already Sidecar's other shortcut. Choose another combination.`,
  welcomeCharacterTitle: "Sidecar on your desktop",
  welcomeCharacterLead: "A small character can keep you company at the corner of the screen. You can change this later in Settings.",
};

export const characterEs: typeof characterEn = {
  characterLabel: (mood: string) =>
    `Sidecar, ${({ idle: "descansando", listening: "escuchando", thinking: "pensando", speaking: "hablando", asking: "esperando tu respuesta", sleeping: "dormido (en silencio)" } as Record<string, string>)[mood] ?? mood}`,
  characterBadge: "Un canal del móvil no funciona",
  characterBubbleHint: "Haz clic para abrir el chat",
  characterBubbleSnoozeHint: (minutes: number) => `Clic para abrir el chat, doble clic para posponer ${minutes} min`,
  characterSnoozed: (minutes: number) => `Pospuesto: otra vez en ${minutes} min`,
  characterMenu: "Menú de Sidecar",
  characterOpen: "Abrir",
  characterQuietHour: "Silencio durante 1 hora",
  characterHide: "Ocultar el personaje",
  characterSettings: "Ajustes",
  characterSetting: "Mostrar a Sidecar en el escritorio",
  characterSettingHint: "Un pequeño personaje en la esquina de la pantalla que muestra cuándo Sidecar escucha, piensa, habla o duerme. Arrástralo a donde quieras; haz clic para abrir el chat; clic derecho para más.",
  characterHotkeyLabel: "Atajo para mostrar u ocultar el personaje",
  characterHotkeySaved: (hotkey: string) => `${hotkey} ahora muestra u oculta el personaje.`,
  characterNoCompositor:
    "Tu escritorio no dibuja ventanas transparentes (no hay un compositor en marcha), así que el personaje aparece sobre una pequeña tarjeta. Activa la composición del escritorio para verlo solo.",
  hotkeySameAsOther: (hotkey: string) => `${hotkey} ya es el otro atajo de Sidecar. Elige otra combinación.`,
  welcomeCharacterTitle: "Sidecar en tu escritorio",
  welcomeCharacterLead: "Un pequeño personaje puede acompañarte en la esquina de la pantalla. Puedes cambiarlo después en Ajustes.",
};
