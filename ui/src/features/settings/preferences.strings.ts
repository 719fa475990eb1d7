// Strings of Settings → General, English and Spanish.
/** The languages Sidecar speaks (the same as i18n's). */
type Lang = "en" | "es";

const languageNames: Record<Lang, string> = { en: "English", es: "Español" };
/** Inside a Spanish sentence a language's name is lower case. */
const nombres: Record<Lang, string> = { en: "inglés", es: "español" };

export const preferencesEn = {
  desktopTitle: "General",
  settingsSearch: "Search settings",
  settingsNoMatch: (query: string) => `No setting mentions "${query}". Try another word, or pick a section.`,
  themeLabel: "Theme",
  themeSystem: "System",
  themeLight: "Light",
  themeDark: "Dark",
  languageLabel: "Language",
  languageSystem: (lang: Lang) => `System (${languageNames[lang]})`,
  languageRestart: (lang: Lang) => `Reminders and Sidecar's own answers switch to ${languageNames[lang]} at the next start.`,
  hotkeyLabel: "Shortcut to show or hide Sidecar",
  hotkeyChange: "Change",
  hotkeyReset: (hotkey: string) => `Back to ${hotkey}`,
  hotkeyRecording: "Press the new combination… (Esc cancels)",
  hotkeySaved: (hotkey: string) => `${hotkey} now shows or hides Sidecar.`,
  hotkeyTaken: (hotkey: string) => `${hotkey} is already used by another program. Choose another combination; the old one still works.`,
  hotkeyNoModifier: "Add Ctrl, Alt, Shift or Super, or the shortcut would fire while you type.",
  hotkeyUnknown: "Sidecar cannot use that key for a shortcut. Try a letter, a digit or F1–F12 with Ctrl, Alt, Shift or Super.",
  launchAtLogin: "Open Sidecar when I log in",
  launchAtLoginFailed: (why: string) => `Could not change it: ${why}`,
};

export const preferencesEs: typeof preferencesEn = {
  desktopTitle: "General",
  settingsSearch: "Buscar ajustes",
  settingsNoMatch: (query: string) => `Ningún ajuste menciona «${query}». Prueba otra palabra o elige una sección.`,
  themeLabel: "Tema",
  themeSystem: "Sistema",
  themeLight: "Claro",
  themeDark: "Oscuro",
  languageLabel: "Idioma",
  languageSystem: (lang: Lang) => `Sistema (${languageNames[lang]})`,
  languageRestart: (lang: Lang) => `Los recordatorios y las respuestas propias de Sidecar pasan a ${nombres[lang]} en el próximo inicio.`,
  hotkeyLabel: "Atajo para mostrar u ocultar Sidecar",
  hotkeyChange: "Cambiar",
  hotkeyReset: (hotkey: string) => `Volver a ${hotkey}`,
  hotkeyRecording: "Pulsa la nueva combinación… (Esc cancela)",
  hotkeySaved: (hotkey: string) => `${hotkey} ahora muestra u oculta Sidecar.`,
  hotkeyTaken: (hotkey: string) => `${hotkey} ya lo usa otro programa. Elige otra combinación; la anterior sigue funcionando.`,
  hotkeyNoModifier: "Añade Ctrl, Alt, Mayús o Super; si no, el atajo saltaría mientras escribes.",
  hotkeyUnknown: "Sidecar no puede usar esa tecla como atajo. Prueba una letra, un dígito o F1–F12 con Ctrl, Alt, Mayús o Super.",
  launchAtLogin: "Abrir Sidecar al iniciar sesión",
  launchAtLoginFailed: (why: string) => `No se pudo cambiar: ${why}`,
};
