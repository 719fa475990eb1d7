//! Random recordings as a hostile sender could make them: WAV headers with any format,
//! channel count, rate, sample width and declared length over a little real data, and
//! Ogg streams whose Opus head and packets are random. Shared by the property test and
//! the bench that prints the time and memory of the worst case.

use std::io::Cursor;

use ogg::writing::{PacketWriteEndInfo, PacketWriter};
use proptest::prelude::*;

const USUAL_RATES: &[u32] = &[8_000, 16_000, 44_100, 48_000];
const RATES: &[u32] = &[0, 1, 7_999, 8_000, 16_000, 44_100, 48_000, 384_000, 384_001, u32::MAX];
const WIDTHS: &[u16] = &[0, 1, 8, 16, 24, 32, 33, 64, u16::MAX];
const USUAL_WIDTHS: &[u16] = &[8, 16, 24, 32];
/// PCM, float, extensible, none, ADPCM, MP3.
const FORMATS: &[u16] = &[1, 1, 1, 3, 0xfffe, 0, 2, 0x55];

fn wav() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(FORMATS),
        prop_oneof![6 => 1u16..3, 1 => Just(0), 1 => 3u16..12, 1 => Just(u16::MAX)],
        prop_oneof![4 => prop::sample::select(USUAL_RATES), 2 => prop::sample::select(RATES), 1 => any::<u32>()],
        prop_oneof![3 => prop::sample::select(USUAL_WIDTHS), 1 => prop::sample::select(WIDTHS)],
        // The block size a header should have, or any.
        prop::bool::weighted(0.8),
        prop_oneof![3 => Just(None), 1 => Just(Some(u32::MAX)), 1 => (0u32..100_000_000).prop_map(Some)],
        prop::collection::vec(any::<u8>(), 0..4_096),
    )
        .prop_map(|(format, channels, rate, bits, fitting, declared, data)| {
            let align = if fitting { channels.wrapping_mul(bits / 8) } else { channels.wrapping_mul(3) };
            let mut fmt = Vec::new();
            fmt.extend_from_slice(&format.to_le_bytes());
            fmt.extend_from_slice(&channels.to_le_bytes());
            fmt.extend_from_slice(&rate.to_le_bytes());
            fmt.extend_from_slice(&rate.wrapping_mul(u32::from(align)).to_le_bytes());
            fmt.extend_from_slice(&align.to_le_bytes());
            fmt.extend_from_slice(&bits.to_le_bytes());
            if format == 0xfffe {
                // WAVE_FORMAT_EXTENSIBLE: valid bits, channel mask, the PCM subformat.
                fmt.extend_from_slice(&[22, 0]);
                fmt.extend_from_slice(&bits.to_le_bytes());
                fmt.extend_from_slice(&[3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71]);
            }
            let mut body = b"WAVE".to_vec();
            body.extend_from_slice(b"fmt ");
            body.extend_from_slice(&(fmt.len() as u32).to_le_bytes());
            body.extend_from_slice(&fmt);
            body.extend_from_slice(b"data");
            body.extend_from_slice(&declared.unwrap_or(data.len() as u32).to_le_bytes());
            body.extend_from_slice(&data);
            let mut out = b"RIFF".to_vec();
            out.extend_from_slice(&(body.len() as u32).to_le_bytes());
            out.extend_from_slice(&body);
            out
        })
}

fn ogg() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![3 => Just(b"OpusHead".to_vec()), 1 => prop::collection::vec(any::<u8>(), 8)],
        prop_oneof![1u8..3, any::<u8>()],
        any::<u16>(),
        prop::collection::vec(prop_oneof![1 => Just(Vec::new()), 1 => prop::collection::vec(any::<u8>(), 1..3), 4 => packet()], 0..400),
        prop_oneof![8 => Just(1usize), 1 => Just(60_000)],
    )
        .prop_map(|(magic, channels, pre_skip, packets, repeat)| {
            let mut out = Vec::new();
            let mut writer = PacketWriter::new(Cursor::new(&mut out));
            let mut head = magic;
            head.extend_from_slice(&[1, channels]);
            head.extend_from_slice(&pre_skip.to_le_bytes());
            head.extend_from_slice(&[0x80, 0xbb, 0, 0, 0, 0, 0]);
            writer.write_packet(head, 7, PacketWriteEndInfo::EndPage, 0).expect("in memory");
            writer.write_packet(b"OpusTags\0\0\0\0\0\0\0\0".to_vec(), 7, PacketWriteEndInfo::EndPage, 0).expect("in memory");
            // A tiny last packet (none, or a header of a frame with no data), repeated,
            // makes a long stream that claims more than it holds.
            let last = packets.last().cloned().filter(|p| p.len() <= 2).unwrap_or_default();
            let repeat = if packets.is_empty() { 1 } else { repeat };
            let all: Vec<Vec<u8>> = packets.into_iter().chain(std::iter::repeat_n(last, repeat - 1)).collect();
            for (i, packet) in all.iter().enumerate() {
                let end = if i + 1 == all.len() { PacketWriteEndInfo::EndStream } else { PacketWriteEndInfo::NormalPacket };
                writer.write_packet(packet.clone(), 7, end, (i as u64 + 1) * 960).expect("in memory");
            }
            out
        })
}

/// An Opus packet of one frame (TOC code 0) of random data, mostly; any bytes otherwise.
fn packet() -> impl Strategy<Value = Vec<u8>> {
    (prop::bool::weighted(0.8), prop::collection::vec(any::<u8>(), 1..200)).prop_map(|(one_frame, mut bytes)| {
        if one_frame {
            bytes[0] &= 0xfc;
        }
        bytes
    })
}

/// A recording's bytes: a WAV, an Ogg/Opus stream, either cut short, or noise.
pub(crate) fn recording() -> impl Strategy<Value = Vec<u8>> {
    (prop_oneof![4 => wav(), 4 => ogg(), 1 => prop::collection::vec(any::<u8>(), 0..64)], prop::option::weighted(0.2, any::<prop::sample::Index>())).prop_map(
        |(bytes, cut)| match cut {
            Some(at) if !bytes.is_empty() => bytes[..at.index(bytes.len())].to_vec(),
            _ => bytes,
        },
    )
}
