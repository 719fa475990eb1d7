// The web app's microphone: what the browser hears, kept as it comes and handed over as
// a 16-bit WAV for the home core to write down (the core has the speech model; a phone's
// browser has none). Needs HTTPS, which the home core always speaks.

type Recording = { stream: MediaStream; context: AudioContext; node: ScriptProcessorNode; chunks: Float32Array[] };

let recording: Recording | null = null;

/** Opens the microphone (the browser asks the user the first time). */
export async function startRecording(): Promise<void> {
  if (recording) return;
  // The voice as it is: the browser's filters, made for calls, blur words for Whisper.
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  // A script node rather than a worklet: no module to load, and every browser has it.
  const node = context.createScriptProcessor(4096, 1, 1);
  const chunks: Float32Array[] = [];
  node.onaudioprocess = (e) => chunks.push(new Float32Array(e.inputBuffer.getChannelData(0)));
  source.connect(node);
  node.connect(context.destination);
  recording = { stream, context, node, chunks };
}

function close(r: Recording) {
  r.node.disconnect();
  r.stream.getTracks().forEach((track) => track.stop());
  void r.context.close();
}

/** Stops listening: what was heard, as base64 of a WAV file. */
export function finishRecording(): string {
  const r = recording;
  recording = null;
  if (!r) return "";
  close(r);
  return toBase64(wav(r.chunks, r.context.sampleRate));
}

export function cancelRecording() {
  if (recording) close(recording);
  recording = null;
}

/** Mono 16-bit PCM in a RIFF/WAVE file, at the rate the browser recorded. */
function wav(chunks: Float32Array[], rate: number): Uint8Array {
  const length = chunks.reduce((n, c) => n + c.length, 0);
  const out = new DataView(new ArrayBuffer(44 + length * 2));
  const text = (at: number, s: string) => [...s].forEach((ch, i) => out.setUint8(at + i, ch.charCodeAt(0)));
  text(0, "RIFF");
  out.setUint32(4, 36 + length * 2, true);
  text(8, "WAVEfmt ");
  out.setUint32(16, 16, true);
  out.setUint16(20, 1, true);
  out.setUint16(22, 1, true);
  out.setUint32(24, rate, true);
  out.setUint32(28, rate * 2, true);
  out.setUint16(32, 2, true);
  out.setUint16(34, 16, true);
  text(36, "data");
  out.setUint32(40, length * 2, true);
  let at = 44;
  for (const chunk of chunks) {
    for (const sample of chunk) {
      out.setInt16(at, Math.max(-1, Math.min(1, sample)) * 0x7fff, true);
      at += 2;
    }
  }
  return new Uint8Array(out.buffer);
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** What to tell the user when the browser refused the microphone, if it did. */
export function microphoneRefusal(error: unknown): "denied" | "missing" | null {
  const name = error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") return "denied";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "missing";
  return null;
}
