#!/usr/bin/env python3
"""EmbeddingGemma-300M (Google's sentence-transformers release) as a GGUF that llama.cpp's
server embeds with (`--embedding --pooling mean`), without PyTorch.

llama.cpp's own `convert_hf_to_gguf.py` needs PyTorch and transformers (about 3 GB with the
CUDA libraries PyPI's torch loads at import); this does the same for this one model with
llama.cpp's `gguf-py`, numpy, safetensors and sentencepiece: the `gemma-embedding`
architecture, the keys and tensor names that converter writes (conversion/gemma.py,
`EmbeddingGemma`), RMS norm weights shifted by one as Gemma3RMSNorm applies them, the two
Dense layers of sentence-transformers, mean pooling, the SentencePiece vocabulary. Matrices
are stored as Q8_0 (as `--outtype q8_0`), norms as F32.

Usage: embeddinggemma-gguf.py MODEL_DIR GGUF_PY_DIR OUT.gguf
"""

import json
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from sentencepiece import SentencePieceProcessor


def main(model_dir: Path, gguf_py: Path, out: Path) -> None:
    sys.path.insert(0, str(gguf_py))
    import gguf

    config = json.loads((model_dir / "config.json").read_text())
    assert config["architectures"] == ["Gemma3TextModel"], config["architectures"]
    arch = gguf.MODEL_ARCH.GEMMA_EMBEDDING
    blocks = config["num_hidden_layers"]
    writer = gguf.GGUFWriter(str(out) + ".part", gguf.MODEL_ARCH_NAMES[arch])

    writer.add_name("EmbeddingGemma 300M")
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)
    writer.add_block_count(blocks)
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_head_count(config["num_attention_heads"])
    writer.add_head_count_kv(config["num_key_value_heads"])
    writer.add_key_length(config["head_dim"])
    writer.add_value_length(config["head_dim"])
    writer.add_layer_norm_rms_eps(config["rms_norm_eps"])
    writer.add_rope_freq_base(config["rope_theta"])
    writer.add_rope_freq_base_swa(config["rope_local_base_freq"])
    writer.add_sliding_window(config["sliding_window"])
    dense = {}
    for module in json.loads((model_dir / "modules.json").read_text()):
        if module["type"].endswith("Dense"):
            name = "dense_2" if module["path"] == "2_Dense" else "dense_3"
            features = json.loads((model_dir / module["path"] / "config.json").read_text())
            writer.add_dense_features_dims(name, features["in_features"], features["out_features"])
            dense[name] = model_dir / module["path"] / "model.safetensors"
        if module["type"].endswith("Pooling"):
            pooling = json.loads((model_dir / module["path"] / "config.json").read_text())
            assert pooling["pooling_mode_mean_tokens"], pooling
            writer.add_pooling_type(gguf.PoolingType.MEAN)
    assert set(dense) == {"dense_2", "dense_3"}, dense

    tokens, scores, types = vocabulary(model_dir, config["vocab_size"], gguf)
    writer.add_tokenizer_model("llama")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    gguf.SpecialVocab(model_dir, n_vocab=len(tokens)).add_to_gguf(writer)
    writer.add_add_space_prefix(False)

    names = gguf.get_tensor_name_map(arch, blocks)
    tensors = load_file(model_dir / "model.safetensors")
    for name, dense_file in dense.items():
        tensors[name + ".weight"] = load_file(dense_file)["linear.weight"]
    for hf_name in sorted(tensors):
        data = tensors[hf_name].astype(np.float32)
        if hf_name == "embed_tokens.weight":
            data = data[: len(tokens)]
        if hf_name.endswith("norm.weight"):
            data = data + 1.0
        name = names.get_name(hf_name, try_suffixes=(".weight",))
        if name is None:
            raise SystemExit(f"no GGUF name for {hf_name}")
        if data.ndim == 1:
            writer.add_tensor(name, data)
        else:
            quantized = gguf.quants.quantize(data, gguf.GGMLQuantizationType.Q8_0)
            writer.add_tensor(name, quantized, raw_dtype=gguf.GGMLQuantizationType.Q8_0)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    Path(str(out) + ".part").replace(out)


def vocabulary(model_dir: Path, vocab_size: int, gguf):
    """The SentencePiece vocabulary as llama.cpp's converter lists it (`_create_vocab_sentencepiece`)."""
    NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
    tokenizer = SentencePieceProcessor()
    tokenizer.LoadFromFile(str(model_dir / "tokenizer.model"))
    tokens = [f"[PAD{i}]".encode() for i in range(vocab_size)]
    scores = [-10000.0] * vocab_size
    types = [UNUSED] * vocab_size
    for token_id in range(min(tokenizer.vocab_size(), vocab_size)):
        tokens[token_id] = tokenizer.IdToPiece(token_id).encode()
        scores[token_id] = tokenizer.GetScore(token_id)
        if tokenizer.IsUnknown(token_id):
            types[token_id] = UNKNOWN
        elif tokenizer.IsControl(token_id):
            types[token_id] = CONTROL
        elif tokenizer.IsUnused(token_id):
            types[token_id] = UNUSED
        elif tokenizer.IsByte(token_id):
            types[token_id] = BYTE
        else:
            types[token_id] = NORMAL
    added = model_dir / "added_tokens.json"
    if added.is_file():
        for text, token_id in json.loads(added.read_text()).items():
            if token_id < vocab_size:
                tokens[token_id], scores[token_id], types[token_id] = text.encode(), -1000.0, USER_DEFINED
    decoder = json.loads((model_dir / "tokenizer_config.json").read_text()).get("added_tokens_decoder", {})
    for token_id, token in decoder.items():
        token_id, text = int(token_id), token["content"]
        if token_id >= vocab_size:
            continue
        if token.get("special") or looks_special(text):
            types[token_id] = CONTROL
        else:
            text = text.replace("\u2581", " ")
            types[token_id] = USER_DEFINED
        scores[token_id] = -1000.0
        tokens[token_id] = text.encode()
    return tokens, scores, types


def looks_special(text: str) -> bool:
    """Added tokens some models leave unmarked that are control tokens (the converter's list)."""
    return (
        text in ("<pad>", "<mask>", "<2mass>", "[@BOS@]")
        or (text.startswith("<|") and text.endswith("|>"))
        or (text.startswith("<\uff5c") and text.endswith("\uff5c>"))
        or (text.startswith("<unused") and text.endswith(">"))
    )


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
