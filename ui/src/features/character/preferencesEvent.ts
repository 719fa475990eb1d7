// Preferences changed in one window reach the others: Settings' theme and language reach
// the character; the character's switch (its menu, its shortcut) reaches Settings.
import { emit, listen, type UnlistenFn } from "../../transport";
import type { PreferencesView } from "../../api";

export const PREFERENCES_CHANGED = "sidecar://preferences-changed";

export function tellPreferencesChanged(view: PreferencesView) {
  emit(PREFERENCES_CHANGED, view).catch(() => undefined);
}

export function onPreferencesChanged(handler: (view: PreferencesView) => void): Promise<UnlistenFn> {
  return listen<PreferencesView>(PREFERENCES_CHANGED, (e) => handler(e.payload));
}
