import { useCallback, useEffect, useLayoutEffect, useState } from "react";
import { api, type PreferencesView, type Theme } from "./api";
import { App } from "./App";
import { AppearanceContext, applyTheme, rememberedTheme } from "./appearance";
import { I18nContext, pickLang, strings, type Lang } from "./i18n";
import { tellPreferencesChanged } from "./features/character/preferencesEvent";
import { WebLinkBanner, WebSignIn } from "./features/devices/WebSignIn";
import { LockGate } from "./features/lock/LockGate";
import { inBrowser, webLink, webSession } from "./transport";

/** In a browser, whether the home core knows this one yet; the app's window always runs. */
type Session = "checking" | "signed-in" | "signed-out";

/** The browser's session, and whether its link is down: checked first, and signed out
 * again when the core revokes it (Settings → Devices there, or "Sign out" here). */
function useSession(): [Session, boolean] {
  const [session, setSession] = useState<Session>(inBrowser() ? "checking" : "signed-in");
  const [down, setDown] = useState(false);
  useEffect(() => {
    if (!inBrowser()) return;
    webSession()
      .then((device) => setSession(device ? "signed-in" : "signed-out"))
      .catch(() => setSession("signed-out"));
    return webLink().onState((state) => {
      setDown(state === "down");
      if (state === "refused") setSession("signed-out");
    });
  }, []);
  return [session, down];
}

/** The app in the user's language and theme, as the core keeps them; Settings changes both at once. */
export function Root() {
  const [session, down] = useSession();
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
    if (session !== "signed-in") return;
    api
      .preferences()
      .then(apply)
      .catch(() => undefined);
  }, [apply, session]);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  useLayoutEffect(() => applyTheme(theme), [theme]);
  return (
    <AppearanceContext.Provider value={applied}>
      <I18nContext.Provider value={strings[lang]}>
        {session === "signed-in" && <WebLinkBanner down={down} />}
        {session === "signed-in" ? (
          inBrowser() ? (
            <App />
          ) : (
            <LockGate>
              <App />
            </LockGate>
          )
        ) : session === "signed-out" ? <WebSignIn onSignedIn={() => window.location.reload()} /> : null}
      </I18nContext.Provider>
    </AppearanceContext.Provider>
  );
}
