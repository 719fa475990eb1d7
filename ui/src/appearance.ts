// The app's theme and language as the user set them: applied to the page at start
// and at once when Settings changes them.
import { createContext, useContext } from "react";
import type { PreferencesView, Theme } from "./api";

/** Applies preferences just saved (Settings calls it). */
export const AppearanceContext = createContext<(view: PreferencesView) => void>(() => undefined);
export const useApplyPreferences = () => useContext(AppearanceContext);

const DARK_QUERY = "(prefers-color-scheme: dark)";

/**
 * Sets the page's `data-theme` to light or dark; "system" follows the system's setting
 * as it changes. Returns what stops following it.
 */
export function applyTheme(theme: Theme): () => void {
  const root = document.documentElement;
  const media = typeof window.matchMedia === "function" ? window.matchMedia(DARK_QUERY) : null;
  if (theme !== "system" || !media) {
    root.dataset.theme = theme === "dark" ? "dark" : "light";
    return () => undefined;
  }
  const follow = () => {
    root.dataset.theme = media.matches ? "dark" : "light";
  };
  follow();
  media.addEventListener("change", follow);
  return () => media.removeEventListener("change", follow);
}
