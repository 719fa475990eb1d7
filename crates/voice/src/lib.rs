//! Talking to Sidecar, offline: recordings in (WAV, OGG/Opus voice notes, the
//! microphone through the desktop's sound server) become text, and replies are said
//! aloud (espeak-ng, sentence by sentence as they stream) with Whisper run by whisper.cpp in process.
//!
//! The narrow API the assembly wires in: [`Audio`] (any recording as 16 kHz mono),
//! [`SpeechModel::transcribe`] (audio in, words out, blocking), [`VoiceError`] and its
//! words for the person ([`words::problem`]), and [`ReplyFollower`]: which replies are
//! said aloud as they stream, step by step. The weights ship in the offline runtime
//! folder (`scripts/whisper.sh`).

mod aloud;
mod audio;
mod error;
mod events;
mod microphone;
mod narrator;
mod resample;
mod sentences;
mod speaker;
mod speech;
mod synth;
mod talk;
mod talk_key;
mod voice_note_out;
mod voicing;
mod wer;
mod words;

// The face: what the crates above, the faces and the tests name.
pub use aloud::{ReplyFollower, ReplyStep, ReplyTexts, Speaking};
pub use audio::{Audio, MAX_FILE_BYTES, MAX_SECONDS, SAMPLE_RATE};
pub use error::VoiceError;
pub use events::VoiceEvent;
pub use microphone::input_devices;
pub use microphone::Listening;
pub use speaker::output_devices;
pub use speaker::Speaker;
pub use speech::{Language, Recording, SpeechModel, Transcript, IDLE_UNLOAD};
pub use synth::{synthesize, voice_note_of, VoiceNote};
pub use talk::Talk;
pub use talk_key::TalkKey;
pub use voice_note_out::encode_voice_note;
pub use voicing::{offered, Voicing, SPEEDS, VOICES};
pub use wer::{word_errors, word_errors_unaccented};
pub use words::{asks_for_voice, problem, voice_name, voice_sample, Unheard};
