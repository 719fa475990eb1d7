// The app's theme and language as the user set them: applied to the page at start
// and at once when Settings changes them.
import { createContext, useContext } from "react";
import type { PreferencesView, Theme } from "./api";

/** Applies preferences just saved (Settings calls it). */
export const AppearanceContext = createContext<(view: PreferencesView) => void>(() => undefined);
export const useApplyPreferences = () => useContext(AppearanceContext);

const DARK_QUERY = "(prefers-color-scheme: dark)";
/** The last theme applied, so the next start paints in it before the core answers. */
const REMEMBERED = "sidecar.theme";

/** The theme the window last had ("system" the first time). */
export function rememberedTheme(): Theme {
  const saved = typeof localStorage === "undefined" ? null : localStorage.getItem(REMEMBERED);
  return saved === "light" || saved === "dark" ? saved : "system";
}

/**
 * Sets the page's `data-theme` to light or dark; "system" follows the system's setting
 * as it changes. Returns what stops following it.
 */
export function applyTheme(theme: Theme): () => void {
  const root = document.documentElement;
  try {
    localStorage.setItem(REMEMBERED, theme);
  } catch {
    // Storage refused (private mode): the next start follows the system until the core answers.
  }
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
