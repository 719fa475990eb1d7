//! Reads what a GGUF file says about itself: its name, architecture, training
//! context and whether it carries a chat template. Only the header and the tensor
//! table are read; the tensor data is never touched, but the file must be long enough
//! to hold all of it (a download cut after the header is no model).

use std::io::{BufReader, Read};
use std::path::Path;

/// The header facts Sidecar uses to run a model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GgufInfo {
    pub name: Option<String>,
    pub architecture: Option<String>,
    /// `<architecture>.context_length`: the window the model was trained for.
    pub context_length: Option<u32>,
    /// `tokenizer.chat_template` is present: llama.cpp can format chats and tools.
    pub has_chat_template: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum GgufError {
    #[error("{0} is not a GGUF model file (it does not start with \"GGUF\")")]
    NotGguf(String),
    #[error("{path} is a GGUF file of version {version}, which is not supported (1 to 3 are)")]
    Version { path: String, version: u32 },
    #[error("{path} ends inside its header: the file is cut short or damaged")]
    Truncated { path: String },
    #[error("{path} nests metadata arrays more than {MAX_NESTING} deep: it is damaged or not a real model")]
    TooDeep { path: String },
    #[error("{path} is cut short: its tensors need {need} bytes and the file has {have}. Download it again")]
    Incomplete { path: String, have: u64, need: u64 },
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

// Value types of GGUF metadata, as numbered by the format.
const STRING: u32 = 8;
const ARRAY: u32 = 9;
/// A header larger than this is refused rather than read (vocabularies run to a few MB).
const MAX_STRING: u64 = 64 << 20;
/// Arrays of arrays this deep at most: real models use one or two levels, and a file
/// that nests thousands must not exhaust the reader's stack.
const MAX_NESTING: usize = 8;

/// Reads the metadata of the GGUF file at `path`.
pub fn read_info(path: &Path) -> Result<GgufInfo, GgufError> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| GgufError::Io { path: shown.clone(), source })?;
    let mut reader = Header { inner: BufReader::new(file), path: &shown, pos: 0 };
    let mut magic = [0u8; 4];
    reader.exact(&mut magic)?;
    if &magic != b"GGUF" {
        return Err(GgufError::NotGguf(shown));
    }
    let version = reader.u32()?;
    if !(1..=3).contains(&version) {
        return Err(GgufError::Version { path: shown, version });
    }
    let tensors = reader.u64()?;
    let entries = reader.u64()?;
    let mut alignment = DEFAULT_ALIGNMENT;
    let mut info = GgufInfo::default();
    let mut contexts: Vec<(String, u64)> = Vec::new();
    for _ in 0..entries {
        let key = reader.string()?;
        let kind = reader.u32()?;
        match (key.as_str(), kind) {
            ("general.name", STRING) => info.name = Some(reader.string()?),
            ("general.architecture", STRING) => info.architecture = Some(reader.string()?),
            ("tokenizer.chat_template", STRING) => {
                reader.skip_string()?;
                info.has_chat_template = true;
            }
            ("general.alignment", _) => {
                alignment = reader.integer(kind)?.filter(|a| a.is_power_of_two() && *a <= 1 << 20).unwrap_or(DEFAULT_ALIGNMENT);
            }
            (k, _) if k.ends_with(".context_length") => {
                let value = reader.integer(kind)?;
                if let Some(value) = value {
                    contexts.push((k.trim_end_matches(".context_length").to_string(), value));
                }
            }
            _ => reader.skip_value(kind, 0)?,
        }
    }
    let data_end = reader.tensor_table(tensors)?;
    // No tensor data (a bare header): nothing to be missing.
    // Saturating: a damaged table can claim offsets near u64::MAX (then no file is long enough).
    let need = if data_end == 0 { reader.pos } else { reader.pos.div_ceil(alignment).saturating_mul(alignment).saturating_add(data_end) };
    let have = std::fs::metadata(path).map_err(|source| GgufError::Io { path: shown.clone(), source })?.len();
    if have < need {
        return Err(GgufError::Incomplete { path: shown, have, need });
    }
    info.context_length =
        contexts.iter().find(|(arch, _)| Some(arch) == info.architecture.as_ref()).or(contexts.first()).map(|(_, n)| (*n).min(u64::from(u32::MAX)) as u32);
    Ok(info)
}

struct Header<'p, R> {
    inner: R,
    path: &'p str,
    /// Bytes read so far: where the tensor data starts follows from it.
    pos: u64,
}

impl<R: Read> Header<'_, R> {
    fn exact(&mut self, buf: &mut [u8]) -> Result<(), GgufError> {
        self.inner.read_exact(buf).map_err(|source| match source.kind() {
            std::io::ErrorKind::UnexpectedEof => GgufError::Truncated { path: self.path.to_string() },
            _ => GgufError::Io { path: self.path.to_string(), source },
        })?;
        self.pos += buf.len() as u64;
        Ok(())
    }

    /// Reads the tensor table; where the last tensor's data ends, counted from the
    /// start of the data section (a tensor of a type whose size is not known here
    /// counts from its offset only, so no good file is refused).
    fn tensor_table(&mut self, tensors: u64) -> Result<u64, GgufError> {
        let mut end = 0u64;
        for _ in 0..tensors {
            self.skip_string()?;
            let dims = self.u32()?;
            if dims > MAX_DIMS {
                return Err(GgufError::Truncated { path: self.path.to_string() });
            }
            let mut elements = 1u64;
            for _ in 0..dims {
                elements = elements.saturating_mul(self.u64()?);
            }
            let kind = self.u32()?;
            let offset = self.u64()?;
            let bytes = block_bytes(kind).map_or(0, |(per_block, bytes)| elements.div_ceil(per_block).saturating_mul(bytes));
            end = end.max(offset.saturating_add(bytes));
        }
        Ok(end)
    }

    fn u32(&mut self) -> Result<u32, GgufError> {
        let mut b = [0u8; 4];
        self.exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, GgufError> {
        let mut b = [0u8; 8];
        self.exact(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn string(&mut self) -> Result<String, GgufError> {
        let len = self.u64()?;
        if len > MAX_STRING {
            return Err(GgufError::Truncated { path: self.path.to_string() });
        }
        let mut bytes = vec![0u8; len as usize];
        self.exact(&mut bytes)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn skip(&mut self, n: u64) -> Result<(), GgufError> {
        let copied =
            std::io::copy(&mut (&mut self.inner).take(n), &mut std::io::sink()).map_err(|source| GgufError::Io { path: self.path.to_string(), source })?;
        if copied < n {
            return Err(GgufError::Truncated { path: self.path.to_string() });
        }
        self.pos += n;
        Ok(())
    }

    fn skip_string(&mut self) -> Result<(), GgufError> {
        let len = self.u64()?;
        self.skip(len)
    }

    /// An unsigned or signed integer value widened to u64 (negative: `None`).
    fn integer(&mut self, kind: u32) -> Result<Option<u64>, GgufError> {
        Ok(match kind {
            0 | 1 => {
                let mut b = [0u8; 1];
                self.exact(&mut b)?;
                Some(u64::from(b[0]))
            }
            2 | 3 => {
                let mut b = [0u8; 2];
                self.exact(&mut b)?;
                Some(u64::from(u16::from_le_bytes(b)))
            }
            4 => Some(u64::from(self.u32()?)),
            5 => u64::try_from(self.u32()? as i32).ok(),
            10 => Some(self.u64()?),
            11 => u64::try_from(self.u64()? as i64).ok(),
            other => {
                self.skip_value(other, 0)?;
                None
            }
        })
    }

    /// Skips one value; `depth` is how many arrays it sits in.
    fn skip_value(&mut self, kind: u32, depth: usize) -> Result<(), GgufError> {
        match kind {
            STRING => self.skip_string(),
            ARRAY if depth >= MAX_NESTING => Err(GgufError::TooDeep { path: self.path.to_string() }),
            ARRAY => {
                let item = self.u32()?;
                let len = self.u64()?;
                match fixed_size(item) {
                    Some(size) => self.skip(len.saturating_mul(size)),
                    None => (0..len).try_for_each(|_| self.skip_value(item, depth + 1)),
                }
            }
            other => match fixed_size(other) {
                Some(size) => self.skip(size),
                None => Err(GgufError::Truncated { path: self.path.to_string() }),
            },
        }
    }
}

/// Where tensor data is aligned unless `general.alignment` says otherwise.
const DEFAULT_ALIGNMENT: u64 = 32;
/// ggml tensors have at most four dimensions; more is a damaged table.
const MAX_DIMS: u32 = 8;

/// Elements per block and bytes per block of a ggml tensor type, for the types whose
/// layout is certain here (plain floats and integers, the classic and K quants).
fn block_bytes(kind: u32) -> Option<(u64, u64)> {
    Some(match kind {
        0 => (1, 4),       // F32
        1 => (1, 2),       // F16
        2 => (32, 18),     // Q4_0
        3 => (32, 20),     // Q4_1
        6 => (32, 22),     // Q5_0
        7 => (32, 24),     // Q5_1
        8 => (32, 34),     // Q8_0
        10 => (256, 84),   // Q2_K
        11 => (256, 110),  // Q3_K
        12 => (256, 144),  // Q4_K
        13 => (256, 176),  // Q5_K
        14 => (256, 210),  // Q6_K
        24 => (1, 1),      // I8
        25 => (1, 2),      // I16
        26 => (1, 4),      // I32
        27 | 28 => (1, 8), // I64, F64
        30 => (1, 2),      // BF16
        _ => return None,
    })
}

/// Bytes of one value of a fixed-size GGUF type.
fn fixed_size(kind: u32) -> Option<u64> {
    match kind {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        _ => None,
    }
}

impl sidecar_domain::Worded for GgufError {
    fn spanish(&self) -> String {
        match self {
            GgufError::NotGguf(path) => format!("{path} no es un archivo de modelo GGUF (no empieza por «GGUF»)"),
            GgufError::Version { path, version } => format!("{path} es un archivo GGUF de la versión {version}, que no se admite (se admiten de la 1 a la 3)"),
            GgufError::Truncated { path } => format!("{path} termina dentro de su cabecera: el archivo está cortado o dañado"),
            GgufError::TooDeep { path } => format!("{path} anida sus metadatos a demasiada profundidad: está dañado o no es un modelo real"),
            GgufError::Incomplete { path, have, need } => {
                format!("{path} está cortado: sus tensores necesitan {need} bytes y el archivo tiene {have}. Descárgalo de nuevo")
            }
            GgufError::Io { path, source } => format!("no se puede leer {path}: {source}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv_string(out: &mut Vec<u8>, key: &str, value: &str) {
        out.extend((key.len() as u64).to_le_bytes());
        out.extend(key.as_bytes());
        out.extend(STRING.to_le_bytes());
        out.extend((value.len() as u64).to_le_bytes());
        out.extend(value.as_bytes());
    }

    fn header(entries: u64, body: &[u8]) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend(0u64.to_le_bytes());
        out.extend(entries.to_le_bytes());
        out.extend(body);
        out
    }

    #[test]
    fn reads_name_context_and_template_past_arrays() {
        let mut body = Vec::new();
        kv_string(&mut body, "general.architecture", "llama");
        // An array of strings (a vocabulary) before the facts wanted.
        body.extend(("tokenizer.ggml.tokens".len() as u64).to_le_bytes());
        body.extend(b"tokenizer.ggml.tokens");
        body.extend(ARRAY.to_le_bytes());
        body.extend(STRING.to_le_bytes());
        body.extend(2u64.to_le_bytes());
        for t in ["a", "bc"] {
            body.extend((t.len() as u64).to_le_bytes());
            body.extend(t.as_bytes());
        }
        body.extend(("llama.context_length".len() as u64).to_le_bytes());
        body.extend(b"llama.context_length");
        body.extend(4u32.to_le_bytes());
        body.extend(8192u32.to_le_bytes());
        kv_string(&mut body, "general.name", "Tiny");
        kv_string(&mut body, "tokenizer.chat_template", "{{ messages }}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.gguf");
        std::fs::write(&path, header(5, &body)).unwrap();
        let info = read_info(&path).unwrap();
        assert_eq!(info.name.as_deref(), Some("Tiny"));
        assert_eq!(info.architecture.as_deref(), Some("llama"));
        assert_eq!(info.context_length, Some(8192));
        assert!(info.has_chat_template);
    }

    #[test]
    fn refuses_other_files_and_cut_headers() {
        let dir = tempfile::tempdir().unwrap();
        let html = dir.path().join("page.gguf");
        std::fs::write(&html, b"<html>not found</html>").unwrap();
        assert!(matches!(read_info(&html), Err(GgufError::NotGguf(_))));
        let mut body = Vec::new();
        kv_string(&mut body, "general.name", "Tiny");
        let cut = dir.path().join("cut.gguf");
        let whole = header(2, &body);
        std::fs::write(&cut, &whole[..whole.len() - 2]).unwrap();
        assert!(matches!(read_info(&cut), Err(GgufError::Truncated { .. })));
    }

    /// Arrays of arrays nested 100,000 deep (what a hostile server can send for `models
    /// pull`): a clear error, on a small stack, instead of a stack overflow; arrays of
    /// strings two levels deep still read.
    #[test]
    fn deeply_nested_arrays_are_refused_without_exhausting_the_stack() {
        let dir = tempfile::tempdir().unwrap();
        let nested = |levels: usize| {
            let mut body = Vec::new();
            let key = "x.nested";
            body.extend((key.len() as u64).to_le_bytes());
            body.extend(key.as_bytes());
            body.extend(ARRAY.to_le_bytes());
            for _ in 0..levels {
                body.extend(ARRAY.to_le_bytes()); // items are arrays…
                body.extend(1u64.to_le_bytes()); // …one of them
            }
            body.extend(STRING.to_le_bytes());
            body.extend(1u64.to_le_bytes());
            body.extend(1u64.to_le_bytes());
            body.extend(b"a");
            kv_string(&mut body, "general.name", "Tiny");
            header(2, &body)
        };
        let deep = dir.path().join("deep.gguf");
        std::fs::write(&deep, nested(100_000)).unwrap();
        let path = deep.clone();
        let on_small_stack = std::thread::Builder::new().stack_size(256 << 10).spawn(move || read_info(&path)).unwrap().join().expect("no stack overflow");
        assert!(matches!(on_small_stack, Err(GgufError::TooDeep { .. })), "{on_small_stack:?}");
        let shallow = dir.path().join("shallow.gguf");
        std::fs::write(&shallow, nested(2)).unwrap();
        assert_eq!(read_info(&shallow).unwrap().name.as_deref(), Some("Tiny"));
    }
}
