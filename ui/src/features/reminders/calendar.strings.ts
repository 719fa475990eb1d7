// Strings of the Reminders page's calendar files (.ics import and export), English and Spanish.

export const calendarEn = {
  calendarReading: "Reading the calendar…",
  calendarSaving: (saved: number, total: number) => `Importing ${saved.toLocaleString("en")} of ${total.toLocaleString("en")} events…`,
  calendarStop: "Stop",
  calendarStopped: "Import stopped. Nothing was imported; your reminders are as they were.",
  calendarShortened: (n: number) =>
    `${n} title${n === 1 ? " was" : "s were"} too long for a notification and ${n === 1 ? "was" : "were"} cut; the rest is in the reminder's notes.`,
  calendarSkippedHeading: "Not imported:",
  calendarSkippedMore: (n: number) => `…and ${n} more.`,
  reminderNotes: "Notes",
  reminderOtherZone: (time: string, zone: string) => `${time} in ${zone}, where it was set`,
  snoozeFor: "Snooze",
  reminderDone: "Done",
  reminderDoneSaid: "Done ✓",
  reminderSnoozedSaid: (minutes: number) => `Snoozed: it comes again in ${minutes === 60 ? "1 hour" : `${minutes} minutes`}.`,
  reminderAnswered: "Answered",
};

export const calendarEs: typeof calendarEn = {
  calendarReading: "Leyendo el calendario…",
  calendarSaving: (saved: number, total: number) => `Importando ${saved.toLocaleString("es")} de ${total.toLocaleString("es")} eventos…`,
  calendarStop: "Detener",
  calendarStopped: "Importación detenida. No se importó nada; tus recordatorios siguen como estaban.",
  calendarShortened: (n: number) =>
    `${n} título${n === 1 ? " era" : "s eran"} demasiado largo${n === 1 ? "" : "s"} para una notificación y se ${n === 1 ? "recortó" : "recortaron"}; el resto está en las notas del recordatorio.`,
  calendarSkippedHeading: "No se importaron:",
  calendarSkippedMore: (n: number) => `…y ${n} más.`,
  reminderNotes: "Notas",
  reminderOtherZone: (time: string, zone: string) => `${time} en ${zone}, donde se creó`,
  snoozeFor: "Posponer",
  reminderDone: "Hecho",
  reminderDoneSaid: "Hecho ✓",
  reminderSnoozedSaid: (minutes: number) => `Pospuesto: vuelve en ${minutes === 60 ? "1 hora" : `${minutes} minutos`}.`,
  reminderAnswered: "Respondido",
};
