import { useEffect, useState } from "react";
import { api, toCommandError, type LanguageChoice, type PreferencesView, type Theme } from "../../api";
import { useApplyPreferences } from "../../appearance";
import { useStrings } from "../../i18n";
import { onPreferencesChanged } from "../character/preferencesEvent";
import { CharacterSetting } from "../character/CharacterSetting";
import { HotkeyField } from "./HotkeyField";
import { ZoneSetting } from "./ZoneSetting";

const THEMES: Theme[] = ["system", "light", "dark"];

/** Settings → General: theme, language, time zone, the global shortcut, launch at
 * login, and the character on the desktop. */
export function DesktopSettings() {
  const t = useStrings();
  const applyPreferences = useApplyPreferences();
  const [view, setView] = useState<PreferencesView | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [atLogin, setAtLogin] = useState<boolean | null>(null);

  useEffect(() => {
    api.preferences().then(setView).catch(() => undefined);
    api.launchAtLogin().then(setAtLogin).catch(() => setAtLogin(null));
    // The character's menu or shortcut changed its switch.
    const off = onPreferencesChanged(setView);
    return () => {
      off.then((stop) => stop());
    };
  }, []);

  const saved = (next: PreferencesView) => {
    setView(next);
    applyPreferences(next);
  };
  const fail = (e: unknown) => setNote(toCommandError(e).message);

  if (!view) return null;
  return (
    <section className="desktop-settings" data-testid="desktop-settings">
      <h2>{t.desktopTitle}</h2>
      <div className="setting-row">
        <span id="theme-label">{t.themeLabel}</span>
        <div className="segmented" role="radiogroup" aria-labelledby="theme-label">
          {THEMES.map((theme) => (
            <button
              key={theme}
              type="button"
              role="radio"
              aria-checked={view.theme === theme}
              className={view.theme === theme ? "active" : ""}
              data-testid={`theme-${theme}`}
              onClick={() => api.setTheme(theme).then(saved).catch(fail)}
            >
              {theme === "system" ? t.themeSystem : theme === "light" ? t.themeLight : t.themeDark}
            </button>
          ))}
        </div>
      </div>
      <label className="setting-row">
        <span>{t.languageLabel}</span>
        <select
          data-testid="language"
          value={view.language}
          onChange={(e) => api.setLanguage(e.target.value as LanguageChoice).then(saved).catch(fail)}
        >
          <option value="system">{t.languageSystem(view.language === "system" ? view.chosen_lang : "en")}</option>
          <option value="en">English</option>
          <option value="es">Español</option>
        </select>
      </label>
      {view.restart_for_language && (
        <p className="muted small" data-testid="language-restart">
          {t.languageRestart(view.chosen_lang)}
        </p>
      )}
      <ZoneSetting />
      <HotkeyField
        label={t.hotkeyLabel}
        current={view.hotkey}
        fallback={view.default_hotkey}
        save={api.setHotkey}
        savedText={(next) => t.hotkeySaved(next.hotkey)}
        onSaved={saved}
        testid="hotkey"
      />
      {note && (
        <p className="bad small" role="alert">
          {note}
        </p>
      )}
      {atLogin !== null && (
        <label className="setting-row checkbox">
          <input
            type="checkbox"
            data-testid="launch-at-login"
            checked={atLogin}
            onChange={(e) =>
              api
                .setLaunchAtLogin(e.target.checked)
                .then(setAtLogin)
                .catch((why) => setNote(t.launchAtLoginFailed(String(why))))
            }
          />
          <span>{t.launchAtLogin}</span>
        </label>
      )}
      <CharacterSetting view={view} onSaved={saved} />
    </section>
  );
}
