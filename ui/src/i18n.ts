// English and Spanish strings. The language comes from the core (system locale or
// SIDECAR_LANG), falling back to the webview's.
import { createContext, useContext } from "react";
import { baseEn } from "./strings/base.en";
import { baseEs } from "./strings/base.es";
import { chatsEn, chatsEs } from "./strings/chats";
import { messagesEn, messagesEs } from "./strings/messages";
import { modelsEn, modelsEs } from "./strings/models";
import { preferencesEn, preferencesEs } from "./strings/preferences";
import { characterEn, characterEs } from "./strings/character";
import { budgetEn, budgetEs } from "./strings/budget";
import { memoryEn, memoryEs } from "./strings/memory";
import { searchEn, searchEs } from "./strings/search";
import { toolsEn, toolsEs } from "./strings/tools";
import { connectionsEn, connectionsEs } from "./strings/connections";
import { devicesEn, devicesEs } from "./strings/devices";
import { calendarEn, calendarEs } from "./strings/calendar";
import { checkpointsEn, checkpointsEs } from "./strings/checkpoints";
import { updatesEn, updatesEs } from "./strings/updates";
import { retentionEn, retentionEs } from "./strings/retention";
import { tasksEn, tasksEs } from "./strings/tasks";
import { caldavEn, caldavEs } from "./strings/caldav";
import { voiceEn, voiceEs } from "./strings/voice";

const en = { ...baseEn, ...modelsEn, ...chatsEn, ...messagesEn, ...preferencesEn, ...searchEn, ...memoryEn, ...calendarEn, ...checkpointsEn, ...toolsEn, ...connectionsEn, ...devicesEn, ...characterEn, ...budgetEn, ...updatesEn, ...retentionEn, ...voiceEn, ...tasksEn, ...caldavEn };
export type Strings = typeof en;

const es: Strings = { ...baseEs, ...modelsEs, ...chatsEs, ...messagesEs, ...preferencesEs, ...searchEs, ...memoryEs, ...calendarEs, ...checkpointsEs, ...toolsEs, ...connectionsEs, ...devicesEs, ...characterEs, ...budgetEs, ...updatesEs, ...retentionEs, ...voiceEs, ...tasksEs, ...caldavEs };

export const strings = { en, es } as const;
export type Lang = keyof typeof strings;

export function pickLang(value: string | undefined | null): Lang {
  return value && value.toLowerCase().startsWith("es") ? "es" : "en";
}

export const I18nContext = createContext<Strings>(en);
export const useStrings = () => useContext(I18nContext);
