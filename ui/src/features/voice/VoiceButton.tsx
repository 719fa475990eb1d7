import { useEffect, useRef, useState } from "react";
import { api, toCommandError } from "../../api";
import { microphoneRefusal } from "./browserMic";
import { useStrings } from "../../i18n";
import type { Heard } from "./voice.strings";

type Phase = "idle" | "listening" | "transcribing";

interface Props {
  /** The words heard, once the recording is written down, and whether to read them over before sending. */
  onHeard: (heard: Heard) => void;
  /** What went wrong, in the user's language, with what to do. */
  onProblem: (why: string) => void;
}

/**
 * Push-to-talk in the composer: press to listen, press again to send what was said,
 * Escape to cancel. While listening a meter shows how loud the microphone hears it; the
 * core records, writes down and says what went wrong.
 */
export function VoiceButton({ onHeard, onProblem }: Props) {
  const t = useStrings();
  const [phase, setPhase] = useState<Phase>("idle");
  const [level, setLevel] = useState(0);
  // The words heard so far, while the user still speaks.
  const [draft, setDraft] = useState("");
  const [speaking, setSpeaking] = useState(false);
  const phaseNow = useRef<Phase>("idle");
  phaseNow.current = phase;
  // The latest handler, read by the event subscription made once.
  const problem = useRef(onProblem);
  problem.current = onProblem;

  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type === "voice_level") setLevel(event.level);
      else if (event.type === "voice_heard") setDraft(event.text);
      else if (event.type === "voice_listening") {
        setPhase("listening");
        setDraft("");
      } else if (event.type === "voice_done") {
        setLevel(0);
        setDraft("");
      }
      else if (event.type === "voice_speaking") {
        setSpeaking(event.on);
        if (event.problem) problem.current(event.problem);
      }
    });
    return () => {
      off.then((f) => f()).catch(() => undefined);
    };
  }, []);

  // Push-to-talk's global shortcut presses this button.
  const toggleNow = useRef<() => void>(() => undefined);
  useEffect(() => {
    const off = api.onTalk(() => toggleNow.current());
    return () => {
      off.then((f) => f()).catch(() => undefined);
    };
  }, []);

  const cancel = () => {
    api.voiceCancel().catch(() => undefined);
    setPhase("idle");
    setLevel(0);
    setDraft("");
  };

  useEffect(() => {
    if (phase !== "listening") return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        cancel();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [phase]);

  const toggle = async () => {
    if (phaseNow.current === "idle") {
      try {
        await api.voiceStart();
        setPhase("listening");
      } catch (e) {
        // A browser's own refusal (the web app) is said here; the core says its own.
        const refused = microphoneRefusal(e);
        onProblem(refused === "denied" ? t.webMicDenied : refused === "missing" ? t.webMicMissing : toCommandError(e).message);
      }
    } else if (phaseNow.current === "listening") {
      setPhase("transcribing");
      try {
        onHeard(await api.voiceFinish());
      } catch (e) {
        onProblem(toCommandError(e).message);
      } finally {
        setPhase("idle");
        setLevel(0);
      }
    }
  };

  toggleNow.current = () => void toggle();

  return (
    <>
      {speaking && phase === "idle" && (
        <button
          type="button"
          className="ghost small"
          data-testid="voice-hush"
          onClick={() => {
            api.voiceHush().catch(() => undefined);
            setSpeaking(false);
          }}
        >
          {t.voiceHush}
        </button>
      )}
      {phase !== "idle" && (
        <span className="voice-status muted small" role="status" data-testid="voice-status">
          {phase === "listening" && (
            <span className="voice-level" role="meter" aria-label={t.voiceLevel} aria-valuemin={0} aria-valuemax={1} aria-valuenow={level}>
              <span style={{ transform: `scaleX(${Math.min(1, level * 5)})` }} />
            </span>
          )}
          {phase === "listening" && draft ? (
            <q className="voice-draft" data-testid="voice-draft">
              {draft.length > 160 ? `…${draft.slice(-160)}` : draft}
            </q>
          ) : phase === "listening" ? (
            t.voiceListening
          ) : (
            t.voiceTranscribing
          )}
          {phase === "listening" && (
            <button type="button" className="link small" data-testid="voice-cancel" onClick={cancel}>
              {t.voiceCancel}
            </button>
          )}
        </span>
      )}
      <button
        type="button"
        className={phase === "idle" ? "ghost mic" : "ghost mic listening"}
        data-testid="voice"
        aria-label={phase === "listening" ? t.voiceStop : t.voiceTalk}
        aria-pressed={phase !== "idle"}
        title={phase === "listening" ? t.voiceStop : t.voiceTalk}
        disabled={phase === "transcribing"}
        onClick={() => void toggle()}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <rect x="9" y="2" width="6" height="12" rx="3" />
          <path d="M5 10a7 7 0 0 0 14 0M12 17v5M8 22h8" />
        </svg>
      </button>
    </>
  );
}
