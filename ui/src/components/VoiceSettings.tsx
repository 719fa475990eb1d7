import { useEffect, useState } from "react";
import { api, toCommandError } from "../api";
import type { PreferencesView } from "../api";
import { useStrings } from "../i18n";
import type { SpeakReplies, VoiceView } from "../strings/voice";
import { HotkeyField } from "./HotkeyField";

const SPEAK: SpeakReplies[] = ["off", "voice_only", "always"];

/** Settings → Voice: which replies are said aloud, the microphone, and the models in use. */
export function VoiceSettings() {
  const t = useStrings();
  const [view, setView] = useState<VoiceView | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [preferences, setPreferences] = useState<PreferencesView | null>(null);
  const [testing, setTesting] = useState(false);
  const testMicrophone = () => {
    setTesting(true);
    setNote({ ok: true, text: t.testingMicrophone });
    api
      .voiceTestMicrophone()
      .then((heard) => setNote({ ok: true, text: t.heardTest(heard) }), (e) => setNote({ ok: false, text: toCommandError(e).message }))
      .finally(() => setTesting(false));
  };

  useEffect(() => {
    api.voiceView().then(setView).catch((e) => setNote({ ok: false, text: toCommandError(e).message }));
    api.preferences().then(setPreferences).catch(() => undefined);
  }, []);

  const saved = (next: Promise<VoiceView>) =>
    next.then((v) => {
      setView(v);
      setNote({ ok: true, text: t.voiceSaved });
    }, (e) => setNote({ ok: false, text: toCommandError(e).message }));

  return (
    <section data-testid="voice-settings">
      <h2>{t.voiceTitle}</h2>
      <p className="muted small">{t.voiceIntro}</p>
      {view && !view.speech_model && (
        <p className="bad small" role="alert" data-testid="voice-no-model">
          {t.voiceNoModel}
        </p>
      )}
      <div className="setting-row">
        <label>
          {t.speakRepliesLabel}{" "}
          <select data-testid="speak-replies" value={view?.speak_replies ?? "voice_only"} disabled={!view} onChange={(e) => void saved(api.setSpeakReplies(e.target.value as SpeakReplies))}>
            {SPEAK.map((which) => (
              <option key={which} value={which}>
                {t.speakReplies[which]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="setting-row">
        <label>
          {t.inputLabel}{" "}
          <select data-testid="voice-input" value={view?.input_device ?? ""} disabled={!view} onChange={(e) => void saved(api.setInputDevice(e.target.value || null))}>
            <option value="">{t.inputDefault}</option>
            {(view?.inputs ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {view && view.inputs.length === 0 && <p className="muted small">{t.inputNone}</p>}
      <div className="setting-row">
        <button type="button" className="ghost" data-testid="voice-test-microphone" disabled={testing || !view?.speech_model} onClick={testMicrophone}>
          {t.testMicrophone}
        </button>
        <button type="button" className="ghost" data-testid="voice-test-speaking" onClick={() => api.voiceTestSpeaking().catch(() => undefined)}>
          {t.testSpeaking}
        </button>
      </div>
      {preferences && (
        <HotkeyField
          label={t.talkHotkeyLabel}
          current={preferences.talk_hotkey}
          fallback={preferences.default_talk_hotkey}
          save={api.setTalkHotkey}
          savedText={(next) => t.talkHotkeySaved(next.talk_hotkey)}
          onSaved={setPreferences}
          testid="talk-hotkey"
        />
      )}
      <h3>{t.voiceModels}</h3>
      <ul className="plain-list" data-testid="voice-models">
        {(view?.models ?? []).map((m) => (
          <li key={m.role}>
            <strong>{t.voiceRole[m.role] ?? m.role}:</strong> {m.name}
            {m.megabytes != null ? ` · ${m.megabytes} MB` : ""} · <span className="muted">{m.separate_program ? `${m.licence} (${t.separateProgram})` : m.licence}</span>
          </li>
        ))}
      </ul>
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="voice-note">
          {note.text}
        </p>
      )}
    </section>
  );
}
