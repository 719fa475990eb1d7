// The character window's entry: its own small page, in the user's theme and language.
import { StrictMode, useEffect, useLayoutEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { api, type PreferencesView, type Theme } from "../../api";
import { applyTheme, rememberedTheme } from "../../appearance";
import { I18nContext, pickLang, strings, type Lang } from "../../i18n";
import { Character } from "./Character";
import { onPreferencesChanged } from "./preferencesEvent";
import "./character.css";

function CharacterRoot() {
  const [lang, setLang] = useState<Lang>(pickLang(navigator.language));
  const [theme, setTheme] = useState<Theme>(rememberedTheme);
  useEffect(() => {
    const apply = (view: PreferencesView) => {
      setLang(pickLang(view.chosen_lang));
      setTheme(view.theme);
    };
    api.preferences().then(apply).catch(() => undefined);
    // Settings changed the theme or language in the chat window.
    const unlisten = onPreferencesChanged(apply);
    return () => {
      unlisten.then((stop) => stop());
    };
  }, []);
  useLayoutEffect(() => applyTheme(theme), [theme]);
  return (
    <I18nContext.Provider value={strings[lang]}>
      <Character />
    </I18nContext.Provider>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <CharacterRoot />
  </StrictMode>,
);
