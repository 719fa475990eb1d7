// Strings of push-to-talk: the microphone button in the composer and its states.
// English and Spanish.

export const voiceEn = {
  voiceTalk: "Speak (press again to send)",
  voiceListening: "Listening… press the microphone again to send, Esc to cancel",
  voiceTranscribing: "Writing down what you said…",
  voiceStop: "Send what I said",
  voiceCancel: "Cancel",
  voiceLevel: "Microphone level",
};

export const voiceEs: typeof voiceEn = {
  voiceTalk: "Hablar (pulsa otra vez para enviar)",
  voiceListening: "Escuchando… pulsa el micrófono otra vez para enviar, Esc para cancelar",
  voiceTranscribing: "Escribiendo lo que dijiste…",
  voiceStop: "Enviar lo que dije",
  voiceCancel: "Cancelar",
  voiceLevel: "Nivel del micrófono",
};
