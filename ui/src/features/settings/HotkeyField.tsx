import { useState, type KeyboardEvent } from "react";
import type { HotkeyRefusal, PreferencesView } from "../../api";
import { useStrings, type Strings } from "../../i18n";

const MODIFIER_CODES = /^(Control|Shift|Alt|Meta|OS)(Left|Right)?$/;

/** What a refused shortcut means, in the user's words. */
function refusalText(t: Strings, refusal: HotkeyRefusal): string {
  if ("kind" in refusal) {
    if (refusal.kind === "taken") return t.hotkeyTaken(refusal.hotkey);
    if (refusal.kind === "same_as_other") return t.hotkeySameAsOther(refusal.hotkey);
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

/** One global shortcut: shown, changed by pressing the new combination, or set back to
 * its default. `testid` prefixes its parts ("hotkey", "hotkey-change", …). */
export function HotkeyField({
  label,
  current,
  fallback,
  save,
  savedText,
  onSaved,
  testid,
}: {
  label: string;
  current: string;
  fallback: string;
  save: (hotkey: string) => Promise<PreferencesView>;
  savedText: (view: PreferencesView) => string;
  onSaved: (view: PreferencesView) => void;
  testid: string;
}) {
  const t = useStrings();
  const [recording, setRecording] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);

  const saveHotkey = (hotkey: string) => {
    setRecording(false);
    save(hotkey)
      .then((next) => {
        onSaved(next);
        setNote({ ok: true, text: savedText(next) });
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

  return (
    <>
      <div className="setting-row">
        <span>{label}</span>
        {recording ? (
          <input className="hotkey-recorder" data-testid={`${testid}-recorder`} autoFocus readOnly value={t.hotkeyRecording} onKeyDown={record} onBlur={() => setRecording(false)} />
        ) : (
          <span className="hotkey-current">
            <kbd data-testid={testid}>{current}</kbd>
            <button type="button" className="ghost small" data-testid={`${testid}-change`} onClick={() => (setNote(null), setRecording(true))}>
              {t.hotkeyChange}
            </button>
            {current !== fallback && (
              <button type="button" className="link" onClick={() => saveHotkey(fallback)}>
                {t.hotkeyReset(fallback)}
              </button>
            )}
          </span>
        )}
      </div>
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid={`${testid}-note`}>
          {note.text}
        </p>
      )}
    </>
  );
}
