import { render } from "@testing-library/react";
import { App } from "../App";
import { I18nContext, strings } from "../i18n";

/** The whole app in one language, as the tests drive it. */
export function renderApp(lang: "en" | "es" = "en") {
  return render(
    <I18nContext.Provider value={strings[lang]}>
      <App />
    </I18nContext.Provider>,
  );
}
