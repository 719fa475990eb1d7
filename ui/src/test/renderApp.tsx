import { render, screen } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { App } from "../App";
import { I18nContext, strings } from "../i18n";
import type { SettingsSection } from "../features/settings/SettingsView";

/** The whole app in one language, as the tests drive it. */
export function renderApp(lang: "en" | "es" = "en") {
  return render(
    <I18nContext.Provider value={strings[lang]}>
      <App />
    </I18nContext.Provider>,
  );
}

/** Settings, on one of its sections, as a user gets there: the tab, then the section. */
export async function openSettingsSection(user: UserEvent, section: SettingsSection) {
  await user.click(await screen.findByTestId("nav-settings"));
  await user.click(await screen.findByTestId(`settings-nav-${section}`));
}
