//! Sample-rate conversion with rubato's FFT resampler (band-limited, so 48 kHz voice
//! notes do not fold their high frequencies into the speech band).

use rubato::{FftFixedIn, Resampler};

use crate::error::VoiceError;

/// Input frames per call to the resampler.
const CHUNK: usize = 1_024;

/// `samples` (mono) at `from` Hz, as the same length of time at `to` Hz.
pub(crate) fn resample(samples: &[f32], from: u32, to: u32) -> Result<Vec<f32>, VoiceError> {
    if from == to || samples.is_empty() {
        return Ok(samples.to_vec());
    }
    let engine = |e: String| VoiceError::Engine(format!("resampling {from} Hz to {to} Hz: {e}"));
    let mut resampler = FftFixedIn::<f32>::new(from as usize, to as usize, CHUNK, 2, 1).map_err(|e| engine(e.to_string()))?;
    let wanted = (samples.len() as u64 * u64::from(to) / u64::from(from)) as usize;
    let delay = resampler.output_delay();
    let mut out = Vec::with_capacity(wanted + delay + CHUNK);
    let mut rest = samples;
    while rest.len() >= resampler.input_frames_next() {
        let (chunk, tail) = rest.split_at(resampler.input_frames_next());
        out.extend_from_slice(&resampler.process(&[chunk], None).map_err(|e| engine(e.to_string()))?[0]);
        rest = tail;
    }
    if !rest.is_empty() {
        out.extend_from_slice(&resampler.process_partial(Some(&[rest]), None).map_err(|e| engine(e.to_string()))?[0]);
    }
    // The resampler holds back `delay` frames: flush them out with silence.
    while out.len() < wanted + delay {
        out.extend_from_slice(&resampler.process_partial::<&[f32]>(None, None).map_err(|e| engine(e.to_string()))?[0]);
    }
    Ok(out[delay..delay + wanted].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(rate: u32, hz: f32, seconds: f32) -> Vec<f32> {
        (0..(rate as f32 * seconds) as usize).map(|i| (i as f32 / rate as f32 * hz * std::f32::consts::TAU).sin() * 0.5).collect()
    }

    /// How strongly `samples` at `rate` hold a sine of `hz` (a single DFT bin).
    fn strength(samples: &[f32], rate: u32, hz: f32) -> f32 {
        let (mut re, mut im) = (0f32, 0f32);
        for (i, s) in samples.iter().enumerate() {
            let phase = i as f32 / rate as f32 * hz * std::f32::consts::TAU;
            re += s * phase.cos();
            im += s * phase.sin();
        }
        (re * re + im * im).sqrt() / samples.len() as f32
    }

    #[test]
    fn a_tone_keeps_its_pitch_and_its_length_across_rates() {
        for from in [48_000, 44_100, 22_050, 8_000] {
            let out = resample(&tone(from, 440.0, 1.5), from, 16_000).unwrap();
            assert_eq!(out.len(), 24_000, "{from} Hz");
            assert!(strength(&out, 16_000, 440.0) > 0.2, "{from} Hz: the tone is lost");
            assert!(strength(&out, 16_000, 1_000.0) < 0.01, "{from} Hz: a tone that was not there");
        }
    }

    #[test]
    fn what_lies_above_the_new_band_is_filtered_not_folded_into_speech() {
        // 12 kHz at 48 kHz would fold to 4 kHz at 16 kHz without a low-pass filter.
        let out = resample(&tone(48_000, 12_000.0, 1.0), 48_000, 16_000).unwrap();
        assert!(strength(&out, 16_000, 4_000.0) < 0.01);
    }

    #[test]
    fn the_same_rate_and_nothing_pass_through() {
        assert_eq!(resample(&[0.1, 0.2], 16_000, 16_000).unwrap(), vec![0.1, 0.2]);
        assert!(resample(&[], 48_000, 16_000).unwrap().is_empty());
    }
}
