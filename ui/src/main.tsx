import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { api } from "./api";
import { App } from "./App";
import { I18nContext, pickLang, strings, type Lang } from "./i18n";
import "./styles.css";

function Root() {
  const [lang, setLang] = useState<Lang>(pickLang(navigator.language));
  useEffect(() => {
    api
      .uiLanguage()
      .then((l) => setLang(pickLang(l)))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return (
    <I18nContext.Provider value={strings[lang]}>
      <App />
    </I18nContext.Provider>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
