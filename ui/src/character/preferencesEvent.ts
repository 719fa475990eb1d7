// The chat window tells the character when Settings changed the theme or language.
import { emit } from "@tauri-apps/api/event";
import type { PreferencesView } from "../api";

export const PREFERENCES_CHANGED = "sidecar://preferences-changed";

export function tellPreferencesChanged(view: PreferencesView) {
  emit(PREFERENCES_CHANGED, view).catch(() => undefined);
}
