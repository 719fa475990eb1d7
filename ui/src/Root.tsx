import { useCallback, useEffect, useLayoutEffect, useState } from "react";
import { api, type PreferencesView, type Theme } from "./api";
import { App } from "./App";
import { AppearanceContext, applyTheme, rememberedTheme } from "./appearance";
import { I18nContext, pickLang, strings, type Lang } from "./i18n";
import { tellPreferencesChanged } from "./character/preferencesEvent";

/** The app in the user's language and theme, as the core keeps them; Settings changes both at once. */
export function Root() {
  const [lang, setLang] = useState<Lang>(pickLang(navigator.language));
  // The last theme, until the core's answer: no light flash for a dark window.
  const [theme, setTheme] = useState<Theme>(rememberedTheme);
  const apply = useCallback((view: PreferencesView) => {
    setLang(pickLang(view.chosen_lang));
    setTheme(view.theme);
  }, []);
  // Settings changed them: the character on the desktop follows.
  const applied = useCallback(
    (view: PreferencesView) => {
      apply(view);
      tellPreferencesChanged(view);
    },
    [apply],
  );
  useEffect(() => {
    api
      .preferences()
      .then(apply)
      .catch(() => undefined);
  }, [apply]);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  useLayoutEffect(() => applyTheme(theme), [theme]);
  return (
    <AppearanceContext.Provider value={applied}>
      <I18nContext.Provider value={strings[lang]}>
        <App />
      </I18nContext.Provider>
    </AppearanceContext.Provider>
  );
}
