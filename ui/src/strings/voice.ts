// Strings of push-to-talk: the microphone button in the composer and its states.
// English and Spanish.

export const voiceEn = {
  voiceTalk: "Speak (press again to send)",
  voiceListening: "Listening… press the microphone again to send, Esc to cancel",
  voiceTranscribing: "Writing down what you said…",
  voiceStop: "Send what I said",
  voiceCancel: "Cancel",
  voiceLevel: "Microphone level",
  voiceHush: "Stop speaking",
  speakHereOn: "Every reply in this chat is said aloud (press to stop)",
  speakHereOff: "Say every reply in this chat aloud",
  voiceTitle: "Voice",
  voiceIntro: "Talk to Sidecar with the microphone button beside the message box: press it, speak, press it again. Everything is heard and said on this computer.",
  speakRepliesLabel: "Say replies aloud",
  speakReplies: { off: "Never", voice_only: "When I spoke", always: "Always" } as Record<SpeakReplies, string>,
  speakRemindersLabel: "Also say reminders and the messages Sidecar starts aloud (never while it is quiet)",
  reviewLabel: "Put what I said in the message box to read over, instead of sending it",
  inputLabel: "Microphone",
  inputDefault: "The system's default",
  inputNone: "No microphone found: plug one in, then open this page again.",
  outputLabel: "Speakers",
  outputDefault: "The system's default",
  spanishVoiceLabel: "Voice for Spanish",
  englishVoiceLabel: "Voice for English",
  speedLabel: "Speed",
  speedValue: (speed: number) => `${Number(speed).toFixed(2)}×`,
  voiceModels: "What hears and speaks",
  voiceRole: { hear: "Hears", silence: "Skips silence", speak: "Speaks" } as Record<string, string>,
  voiceNoModel: "The speech model is not installed: reinstall Sidecar to talk to it.",
  voiceSaved: "Saved.",
  separateProgram: "a separate program",
  testMicrophone: "Test the microphone",
  testingMicrophone: "Say something… (3 seconds)",
  micTranscribing: "Writing down what it heard…",
  heardTest: (text: string) => `Heard: “${text}”`,
  testSpeaking: "Test the voice",
  talkHotkeyLabel: "Push-to-talk shortcut (works from any app)",
  talkHotkeySaved: (hotkey: string) => `${hotkey} now starts listening, and sends what you said when pressed again.`,
};

export type SpeakReplies = "off" | "voice_only" | "always";
export type VoiceSwitch = "speak_reminders" | "review_before_sending";

/** What push-to-talk heard, and whether it is read over in the message box before sending. */
export interface Heard {
  text: string;
  review: boolean;
}

/** Settings → Voice, as the core shows it. */
export interface VoiceView {
  speak_replies: SpeakReplies;
  speak_reminders: boolean;
  review_before_sending: boolean;
  inputs: string[];
  input_device: string | null;
  outputs: string[];
  output_device: string | null;
  voices: { id: string; lang: "es" | "en"; name: string }[];
  spanish_voice: string;
  english_voice: string;
  speed: number;
  speeds: [number, number];
  speech_model: boolean;
  models: { role: string; name: string; megabytes: number | null; licence: string; separate_program: boolean }[];
}

export const voiceEs: typeof voiceEn = {
  voiceTalk: "Hablar (pulsa otra vez para enviar)",
  voiceListening: "Escuchando… pulsa el micrófono otra vez para enviar, Esc para cancelar",
  voiceTranscribing: "Escribiendo lo que dijiste…",
  voiceStop: "Enviar lo que dije",
  voiceCancel: "Cancelar",
  voiceLevel: "Nivel del micrófono",
  voiceHush: "Dejar de hablar",
  speakHereOn: "Cada respuesta de este chat se dice en voz alta (pulsa para dejarlo)",
  speakHereOff: "Decir en voz alta cada respuesta de este chat",
  voiceTitle: "Voz",
  voiceIntro: "Habla con Sidecar con el botón del micrófono junto al cuadro de mensaje: púlsalo, habla y vuelve a pulsarlo. Todo se oye y se dice en este equipo.",
  speakRepliesLabel: "Decir las respuestas en voz alta",
  speakReplies: { off: "Nunca", voice_only: "Cuando hablé", always: "Siempre" } as Record<SpeakReplies, string>,
  speakRemindersLabel: "Decir también en voz alta los recordatorios y los mensajes que Sidecar empieza (nunca mientras está en silencio)",
  reviewLabel: "Poner lo que dije en el cuadro de mensaje para revisarlo, en vez de enviarlo",
  inputLabel: "Micrófono",
  inputDefault: "El predeterminado del sistema",
  inputNone: "No encontré ningún micrófono: conecta uno y vuelve a abrir esta página.",
  outputLabel: "Altavoces",
  outputDefault: "Los predeterminados del sistema",
  spanishVoiceLabel: "Voz para el español",
  englishVoiceLabel: "Voz para el inglés",
  speedLabel: "Velocidad",
  speedValue: (speed: number) => `${Number(speed).toFixed(2).replace(".", ",")}×`,
  voiceModels: "Qué oye y qué habla",
  voiceRole: { hear: "Oye", silence: "Salta silencios", speak: "Habla" } as Record<string, string>,
  voiceNoModel: "Falta el modelo de voz: reinstala Sidecar para hablarle.",
  voiceSaved: "Guardado.",
  separateProgram: "un programa aparte",
  testMicrophone: "Probar el micrófono",
  testingMicrophone: "Di algo… (3 segundos)",
  micTranscribing: "Escribiendo lo que oyó…",
  heardTest: (text: string) => `Oí: «${text}»`,
  testSpeaking: "Probar la voz",
  talkHotkeyLabel: "Atajo para hablar (funciona desde cualquier aplicación)",
  talkHotkeySaved: (hotkey: string) => `${hotkey} ahora empieza a escuchar, y envía lo que dijiste al pulsarlo otra vez.`,
};
