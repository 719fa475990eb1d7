//! Talking to Sidecar, offline: recordings in (WAV, OGG/Opus voice notes, the
//! microphone through the desktop's sound server) become text, and replies are said
//! aloud (espeak-ng, sentence by sentence as they stream) with Whisper run by whisper.cpp in process.
//!
//! The narrow API the assembly wires in: [`Audio`] (any recording as 16 kHz mono),
//! [`SpeechModel::transcribe`] (audio in, words out, blocking), [`VoiceError`] and its
//! words for the person ([`words::problem`]). The weights ship in the offline runtime
//! folder (`scripts/whisper.sh`).

mod audio;
mod error;
pub mod events;
pub mod microphone;
pub mod narrator;
mod resample;
pub mod sentences;
pub mod speaker;
mod speech;
pub mod synth;
pub mod talk;
pub mod talk_key;
mod voice_note_out;
pub mod voicing;
pub mod wer;
pub mod words;

pub use audio::{Audio, MAX_FILE_BYTES, MAX_SECONDS, SAMPLE_RATE};
pub use error::VoiceError;
pub use events::VoiceEvent;
pub use microphone::Listening;
pub use speaker::output_devices;
pub use speech::{Language, Recording, SpeechModel, Transcript, IDLE_UNLOAD};
pub use talk::Talk;
pub use voice_note_out::encode_voice_note;
pub use voicing::Voicing;
