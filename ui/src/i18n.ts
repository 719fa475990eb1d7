// English and Spanish strings. The language comes from the core (system locale or
// SIDECAR_LANG), falling back to the webview's.
import { createContext, useContext } from "react";
import { baseEn } from "./strings/base.en";
import { baseEs } from "./strings/base.es";
import { chatsEn, chatsEs } from "./features/chat/chats.strings";
import { messagesEn, messagesEs } from "./features/chat/messages.strings";
import { modelsEn, modelsEs } from "./features/models/models.strings";
import { preferencesEn, preferencesEs } from "./features/settings/preferences.strings";
import { characterEn, characterEs } from "./features/character/character.strings";
import { budgetEn, budgetEs } from "./features/usage/budget.strings";
import { memoryEn, memoryEs } from "./features/memory/memory.strings";
import { lockEn, lockEs } from "./features/lock/lock.strings";
import { encryptionEn, encryptionEs } from "./features/memory/encryption.strings";
import { searchEn, searchEs } from "./features/tools/search.strings";
import { toolsEn, toolsEs } from "./features/tools/tools.strings";
import { connectionsEn, connectionsEs } from "./features/connections/connections.strings";
import { devicesEn, devicesEs } from "./features/devices/devices.strings";
import { calendarEn, calendarEs } from "./features/reminders/calendar.strings";
import { checkpointsEn, checkpointsEs } from "./features/memory/checkpoints.strings";
import { updatesEn, updatesEs } from "./features/settings/updates.strings";
import { retentionEn, retentionEs } from "./features/memory/retention.strings";
import { tasksEn, tasksEs } from "./features/tasks/tasks.strings";
import { caldavEn, caldavEs } from "./features/calendar/caldav.strings";
import { mailEn, mailEs } from "./features/mail/mail.strings";
import { voiceEn, voiceEs } from "./features/voice/voice.strings";
import { suspectEn, suspectEs } from "./features/memory/suspect.strings";

const en = { ...baseEn, ...modelsEn, ...chatsEn, ...messagesEn, ...preferencesEn, ...searchEn, ...memoryEn, ...calendarEn, ...checkpointsEn, ...toolsEn, ...connectionsEn, ...devicesEn, ...characterEn, ...budgetEn, ...updatesEn, ...retentionEn, ...voiceEn, ...tasksEn, ...caldavEn, ...mailEn, ...lockEn, ...encryptionEn, ...suspectEn };
export type Strings = typeof en;

const es: Strings = { ...baseEs, ...modelsEs, ...chatsEs, ...messagesEs, ...preferencesEs, ...searchEs, ...memoryEs, ...calendarEs, ...checkpointsEs, ...toolsEs, ...connectionsEs, ...devicesEs, ...characterEs, ...budgetEs, ...updatesEs, ...retentionEs, ...voiceEs, ...tasksEs, ...caldavEs, ...mailEs, ...lockEs, ...encryptionEs, ...suspectEs };

export const strings = { en, es } as const;
export type Lang = keyof typeof strings;

export function pickLang(value: string | undefined | null): Lang {
  return value && value.toLowerCase().startsWith("es") ? "es" : "en";
}

export const I18nContext = createContext<Strings>(en);
export const useStrings = () => useContext(I18nContext);
