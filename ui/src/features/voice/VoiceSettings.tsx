import { useEffect, useState } from "react";
import { api, toCommandError } from "../../api";
import type { PreferencesView } from "../../api";
import { useStrings } from "../../i18n";
import type { SpeakReplies, VoiceSwitch, VoiceView } from "./voice.strings";
import { HotkeyField } from "../settings/HotkeyField";

const SPEAK: SpeakReplies[] = ["off", "voice_only", "always"];
const SWITCHES: { which: VoiceSwitch; testid: string }[] = [
  { which: "speak_reminders", testid: "speak-reminders" },
  { which: "review_before_sending", testid: "voice-review" },
];

/** A microphone or speakers by the name the sound server gives them; "" is the system's default. */
function DeviceSelect(props: {
  label: string;
  fallback: string;
  names: string[] | undefined;
  chosen: string | null | undefined;
  testid: string;
  pick: (name: string | null) => void;
}) {
  return (
    <div className="setting-row">
      <label className="voice-field">
        {props.label}
        <select data-testid={props.testid} value={props.chosen ?? ""} disabled={!props.names} onChange={(e) => props.pick(e.target.value || null)}>
          <option value="">{props.fallback}</option>
          {(props.names ?? []).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** The voice for each language and the pace; the pace is saved when the slider is let go. */
function Voicing({ view, save }: { view: VoiceView; save: (spanish: string, english: string, speed: number) => void }) {
  const t = useStrings();
  const [speed, setSpeed] = useState(view.speed);
  useEffect(() => setSpeed(view.speed), [view.speed]);
  const languages = [
    { lang: "es" as const, label: t.spanishVoiceLabel, current: view.spanish_voice, testid: "voice-spanish", pick: (id: string) => save(id, view.english_voice, speed) },
    { lang: "en" as const, label: t.englishVoiceLabel, current: view.english_voice, testid: "voice-english", pick: (id: string) => save(view.spanish_voice, id, speed) },
  ];
  const letGo = () => {
    if (speed !== view.speed) save(view.spanish_voice, view.english_voice, speed);
  };
  return (
    <>
      {languages.map(({ lang, label, current, testid, pick }) => (
        <div className="setting-row" key={lang}>
          <label className="voice-field">
            {label}
            <select data-testid={testid} value={current} onChange={(e) => pick(e.target.value)}>
              {view.voices
                .filter((v) => v.lang === lang)
                .map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
            </select>
          </label>
        </div>
      ))}
      <div className="setting-row">
        <label className="voice-field">
          {t.speedLabel}
          <input
            type="range"
            data-testid="voice-speed"
            min={view.speeds[0]}
            max={view.speeds[1]}
            step={0.05}
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value))}
            onPointerUp={letGo}
            onKeyUp={letGo}
            onBlur={letGo}
          />
          <span data-testid="voice-speed-value">{t.speedValue(speed)}</span>
        </label>
      </div>
    </>
  );
}

/** The microphone test: a level meter while it listens, "writing it down…" while the
 * speech model works, and what it heard, all beside the button. */
function MicrophoneTest({ ready }: { ready: boolean }) {
  const t = useStrings();
  const [phase, setPhase] = useState<"idle" | "listening" | "transcribing">("idle");
  const [level, setLevel] = useState(0);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const testing = phase !== "idle";
  useEffect(() => {
    if (!testing) return;
    const off = api.onCoreEvent((event) => {
      if (event.type === "voice_level") setLevel(event.level);
      else if (event.type === "voice_transcribing") setPhase("transcribing");
    });
    return () => {
      off.then((f) => f()).catch(() => undefined);
    };
  }, [testing]);
  const test = () => {
    setPhase("listening");
    setLevel(0);
    setResult(null);
    api
      .voiceTestMicrophone()
      .then((heard) => setResult({ ok: true, text: t.heardTest(heard) }), (e) => setResult({ ok: false, text: toCommandError(e).message }))
      .finally(() => setPhase("idle"));
  };
  return (
    <span className="mic-test">
      <button type="button" className="ghost" data-testid="voice-test-microphone" disabled={phase !== "idle" || !ready} onClick={test}>
        {t.testMicrophone}
      </button>
      {phase === "listening" && (
        <span className="muted small" role="status" data-testid="mic-test-listening">
          {t.testingMicrophone}{" "}
          <span className="voice-level" role="meter" aria-label={t.voiceLevel} aria-valuemin={0} aria-valuemax={1} aria-valuenow={level}>
            <span style={{ transform: `scaleX(${Math.min(1, level * 5)})` }} />
          </span>
        </span>
      )}
      {phase === "transcribing" && (
        <span className="muted small" role="status" data-testid="mic-test-transcribing">
          {t.micTranscribing}
        </span>
      )}
      {result && (
        <span className={result.ok ? "small" : "bad small"} role={result.ok ? "status" : "alert"} data-testid="mic-test-result">
          {result.text}
        </span>
      )}
    </span>
  );
}

/** Settings → Voice: which replies are said aloud, the microphone and the speakers, the voices, and the models in use. */
export function VoiceSettings() {
  const t = useStrings();
  const [view, setView] = useState<VoiceView | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [preferences, setPreferences] = useState<PreferencesView | null>(null);

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
        <label className="voice-field">
          {t.speakRepliesLabel}
          <select data-testid="speak-replies" value={view?.speak_replies ?? "voice_only"} disabled={!view} onChange={(e) => void saved(api.setSpeakReplies(e.target.value as SpeakReplies))}>
            {SPEAK.map((which) => (
              <option key={which} value={which}>
                {t.speakReplies[which]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {SWITCHES.map(({ which, testid }) => (
        <div className="setting-row" key={which}>
          <label>
            <input
              type="checkbox"
              data-testid={testid}
              checked={view?.[which] ?? false}
              disabled={!view}
              onChange={(e) => void saved(api.setVoiceSwitch(which, e.target.checked))}
            />{" "}
            {which === "speak_reminders" ? t.speakRemindersLabel : t.reviewLabel}
          </label>
        </div>
      ))}
      <DeviceSelect
        label={t.inputLabel}
        fallback={t.inputDefault}
        names={view?.inputs}
        chosen={view?.input_device}
        testid="voice-input"
        pick={(name) => void saved(api.setInputDevice(name))}
      />
      {view && view.inputs.length === 0 && <p className="muted small">{t.inputNone}</p>}
      <DeviceSelect
        label={t.outputLabel}
        fallback={t.outputDefault}
        names={view?.outputs}
        chosen={view?.output_device}
        testid="voice-output"
        pick={(name) => void saved(api.setOutputDevice(name))}
      />
      {view && <Voicing view={view} save={(spanish, english, speed) => void saved(api.setVoicing(spanish, english, speed))} />}
      <div className="setting-row">
        <MicrophoneTest ready={Boolean(view?.speech_model)} />
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
