import { useEffect, useState } from "react";
import { api, toCommandError, type PreferencesView } from "../../api";
import { useStrings } from "../../i18n";
import { HotkeyField } from "../settings/HotkeyField";

/** How long after turning the character on its window is asked whether it is see-through. */
const WINDOW_SETTLES_MS = 800;

/** Settings → Appearance: the character on the desktop, its shortcut, and a word when
 * the desktop cannot show it see-through. */
export function CharacterSetting({ view, onSaved }: { view: PreferencesView; onSaved: (view: PreferencesView) => void }) {
  const t = useStrings();
  const [transparent, setTransparent] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!view.character) return;
    const ask = () => api.characterTransparent().then(setTransparent).catch(() => undefined);
    ask();
    const timer = window.setTimeout(ask, WINDOW_SETTLES_MS);
    return () => window.clearTimeout(timer);
  }, [view.character]);

  return (
    <div className="character-setting" data-testid="character-setting">
      <label className="setting-row checkbox">
        <input
          type="checkbox"
          data-testid="character-shown"
          checked={view.character}
          onChange={(e) => {
            setError(null);
            api
              .setCharacter(e.target.checked)
              .then(onSaved)
              .catch((why) => setError(toCommandError(why).message));
          }}
        />
        <span>{t.characterSetting}</span>
      </label>
      <p className="muted small">{t.characterSettingHint}</p>
      {view.character && transparent === false && (
        <p className="muted small" role="note" data-testid="character-no-compositor">
          {t.characterNoCompositor}
        </p>
      )}
      {error && (
        <p className="bad small" role="alert">
          {error}
        </p>
      )}
      <HotkeyField
        label={t.characterHotkeyLabel}
        current={view.character_hotkey}
        fallback={view.default_character_hotkey}
        save={api.setCharacterHotkey}
        savedText={(next) => t.characterHotkeySaved(next.character_hotkey)}
        onSaved={onSaved}
        testid="character-hotkey"
      />
    </div>
  );
}
