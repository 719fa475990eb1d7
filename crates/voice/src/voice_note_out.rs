//! A voice note as phones send them: Opus in an Ogg stream (RFC 7845), mono, made from
//! speech samples, for a reply asked for as a voice note.

use std::io::Cursor;

use ogg::writing::{PacketWriteEndInfo, PacketWriter};

use crate::error::VoiceError;
use crate::resample::resample;

/// Opus is encoded from 16 kHz here: speech needs no more, and notes stay small.
const RATE: u32 = 16_000;
/// 20 ms frames.
const FRAME: usize = RATE as usize / 50;
/// Granule positions count 48 kHz samples whatever the input rate.
const GRANULE_PER_FRAME: u64 = 960;
/// The encoder's look-ahead at 48 kHz, skipped by players (libopus' usual 312).
const PRE_SKIP: u16 = 312;
const SERIAL: u32 = 0x5344_4352;

/// `samples` (mono at `rate`) as an OGG/Opus voice note at 24 kbit/s.
pub fn encode_voice_note(samples: &[f32], rate: u32) -> Result<Vec<u8>, VoiceError> {
    let failed = |e: String| VoiceError::Speech(format!("making the voice note: {e}"));
    let mut pcm = resample(samples, rate, RATE)?;
    pcm.resize(pcm.len().div_ceil(FRAME).max(1) * FRAME, 0.0);
    let mut encoder = opus::Encoder::new(RATE, opus::Channels::Mono, opus::Application::Voip).map_err(|e| failed(e.to_string()))?;
    encoder.set_bitrate(opus::Bitrate::Bits(24_000)).map_err(|e| failed(e.to_string()))?;
    let mut out = Vec::new();
    {
        let mut writer = PacketWriter::new(Cursor::new(&mut out));
        let mut head = b"OpusHead".to_vec();
        head.push(1); // version
        head.push(1); // channels
        head.extend_from_slice(&PRE_SKIP.to_le_bytes());
        head.extend_from_slice(&RATE.to_le_bytes());
        head.extend_from_slice(&0i16.to_le_bytes()); // output gain
        head.push(0); // channel mapping family
        writer.write_packet(head, SERIAL, PacketWriteEndInfo::EndPage, 0).map_err(|e| failed(e.to_string()))?;
        let vendor = b"Sidecar";
        let mut tags = b"OpusTags".to_vec();
        tags.extend_from_slice(&(vendor.len() as u32).to_le_bytes());
        tags.extend_from_slice(vendor);
        tags.extend_from_slice(&0u32.to_le_bytes());
        writer.write_packet(tags, SERIAL, PacketWriteEndInfo::EndPage, 0).map_err(|e| failed(e.to_string()))?;
        let frames = pcm.chunks(FRAME).count();
        for (i, frame) in pcm.chunks(FRAME).enumerate() {
            let packet = encoder.encode_vec_float(frame, 4_000).map_err(|e| failed(e.to_string()))?;
            let end = if i + 1 == frames { PacketWriteEndInfo::EndStream } else { PacketWriteEndInfo::NormalPacket };
            let granule = (i as u64 + 1) * GRANULE_PER_FRAME + u64::from(PRE_SKIP);
            writer.write_packet(packet, SERIAL, end, granule).map_err(|e| failed(e.to_string()))?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audio::Audio;

    #[test]
    fn a_note_made_here_reads_back_as_the_same_length_of_sound() {
        let rate = 22_050;
        let tone: Vec<f32> = (0..rate * 2).map(|i| (i as f32 / rate as f32 * 440.0 * std::f32::consts::TAU).sin() * 0.4).collect();
        let note = encode_voice_note(&tone, rate as u32).unwrap();
        assert_eq!(&note[..4], b"OggS");
        assert!(note.len() < 10_000, "{} bytes for 2 s at 24 kbit/s", note.len());
        let back = Audio::decode(&note).unwrap();
        assert!((back.seconds() - 2.0).abs() < 0.05, "{} s", back.seconds());
        let loud = back.samples().iter().fold(0f32, |m, s| m.max(s.abs()));
        assert!(loud > 0.2, "{loud}");
    }
}
