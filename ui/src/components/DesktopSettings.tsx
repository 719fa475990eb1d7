import { useEffect, useState, type KeyboardEvent } from "react";
import { api, toCommandError, type HotkeyRefusal, type LanguageChoice, type PreferencesView, type Theme } from "../api";
import { useApplyPreferences } from "../appearance";
import { useStrings, type Strings } from "../i18n";

const THEMES: Theme[] = ["system", "light", "dark"];
const MODIFIER_CODES = /^(Control|Shift|Alt|Meta|OS)(Left|Right)?$/;

/** What a refused shortcut means, in the user's words. */
function refusalText(t: Strings, refusal: HotkeyRefusal): string {
  if ("kind" in refusal) {
    if (refusal.kind === "taken") return t.hotkeyTaken(refusal.hotkey);
    if (refusal.kind === "no_modifier") return t.hotkeyNoModifier;
    return t.hotkeyUnknown;
  }
  return refusal.message;
}

/** The combination pressed, as the core reads it ("Ctrl+Shift+KeyK"); null while only modifiers are down. */
function pressed(e: KeyboardEvent): string | null {
  if (MODIFIER_CODES.test(e.code)) return null;
  const mods = [e.ctrlKey && "Ctrl", e.altKey && "Alt", e.shiftKey && "Shift", e.metaKey && "Super"].filter(Boolean);
  return [...mods, e.code].join("+");
}

/** Settings → Appearance and desktop: theme, language, the global shortcut, launch at login. */
export function DesktopSettings() {
  const t = useStrings();
  const applyPreferences = useApplyPreferences();
  const [view, setView] = useState<PreferencesView | null>(null);
  const [recording, setRecording] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [atLogin, setAtLogin] = useState<boolean | null>(null);

  useEffect(() => {
    api.preferences().then(setView).catch(() => undefined);
    api.launchAtLogin().then(setAtLogin).catch(() => setAtLogin(null));
  }, []);

  const saved = (next: PreferencesView) => {
    setView(next);
    applyPreferences(next);
  };
  const fail = (e: unknown) => setNote({ ok: false, text: toCommandError(e).message });

  const saveHotkey = (hotkey: string) => {
    setRecording(false);
    api
      .setHotkey(hotkey)
      .then((next) => {
        saved(next);
        setNote({ ok: true, text: t.hotkeySaved(next.hotkey) });
      })
      .catch((refusal: HotkeyRefusal) => setNote({ ok: false, text: refusalText(t, refusal) }));
  };

  const record = (e: KeyboardEvent) => {
    e.preventDefault();
    if (e.code === "Escape" && !e.ctrlKey && !e.altKey && !e.shiftKey && !e.metaKey) {
      setRecording(false);
      return;
    }
    const combination = pressed(e);
    if (combination) saveHotkey(combination);
  };

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
      <div className="setting-row">
        <span>{t.hotkeyLabel}</span>
        {recording ? (
          <input className="hotkey-recorder" data-testid="hotkey-recorder" autoFocus readOnly value={t.hotkeyRecording} onKeyDown={record} onBlur={() => setRecording(false)} />
        ) : (
          <span className="hotkey-current">
            <kbd data-testid="hotkey">{view.hotkey}</kbd>
            <button type="button" className="ghost small" data-testid="hotkey-change" onClick={() => (setNote(null), setRecording(true))}>
              {t.hotkeyChange}
            </button>
            {view.hotkey !== view.default_hotkey && (
              <button type="button" className="link" onClick={() => saveHotkey(view.default_hotkey)}>
                {t.hotkeyReset(view.default_hotkey)}
              </button>
            )}
          </span>
        )}
      </div>
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="hotkey-note">
          {note.text}
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
                .catch((why) => setNote({ ok: false, text: t.launchAtLoginFailed(String(why)) }))
            }
          />
          <span>{t.launchAtLogin}</span>
        </label>
      )}
    </section>
  );
}
