//! What can go wrong between a recording and its words.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum VoiceError {
    /// Neither WAV nor OGG/Opus (Telegram's and WhatsApp's voice notes).
    #[error("the audio is neither WAV nor OGG/Opus")]
    UnknownFormat,
    /// A known container whose content cannot be read.
    #[error("the audio could not be read: {0}")]
    Malformed(String),
    /// A path that is no regular file (a folder, a FIFO, a device like `/dev/zero`).
    #[error("{0} is not a regular file")]
    NotAFile(PathBuf),
    /// A file larger than any recording within [`crate::MAX_SECONDS`].
    #[error("the file is {bytes} bytes; recordings of up to {limit} bytes are read")]
    TooBig { bytes: u64, limit: u64 },
    #[error("the recording is {seconds:.0} s long; at most {limit} s are transcribed")]
    TooLong { seconds: f32, limit: u32 },
    /// The recording holds no words (silence, noise, or too short to say one).
    #[error("no speech was heard in the recording")]
    NoSpeech,
    #[error("the speech model is not installed (looked for {0})")]
    ModelMissing(PathBuf),
    /// No input by that name (`None`: the system has no microphone at all).
    #[error("no microphone found{}", .0.as_ref().map(|n| format!(" named {n:?}")).unwrap_or_default())]
    NoMicrophone(Option<String>),
    #[error("the microphone could not be used: {0}")]
    Microphone(String),
    /// The program that speaks (espeak-ng) is missing.
    #[error("espeak-ng could not be run: {0}")]
    NoVoice(String),
    #[error("speaking failed: {0}")]
    Speech(String),
    /// No output to play through.
    #[error("no speakers found: {0}")]
    NoSpeakers(String),
    #[error("the speech model failed: {0}")]
    Engine(String),
}
