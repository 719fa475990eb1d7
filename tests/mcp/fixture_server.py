"""An MCP server of our own for what real servers do not do on request: fail.

Plain JSON-RPC over stdio (no SDK), so each fault is exactly the one asked for:
  --exit-at-start TEXT   print TEXT on stderr and exit 1 before answering anything
  --description-file F   the `echo` tool's description is read from F at every
                         tools/list (a definition that changes under a grant)
  --echo-name NAME       the `echo` tool is listed and called as NAME (a server
                         whose one tool is about something, for choosing tools)
  --env-tool NAME        adds a tool `env` that says the variable NAME (a secret
                         given in Settings reaches the server)
  --stderr-flood MB      writes MB megabytes on stderr with no newline before it
                         answers (then a last line, "flood done")
  --hostile-names        also lists tools named with 10,000 characters, a NUL,
                         a newline and a terminal escape
Tools: echo (read-only), slow (sleeps 120 s), crash (exits mid-call),
announce (sends notifications/tools/list_changed, then answers).
"""
import argparse
import json
import os
import sys
import time


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


HOSTILE = ["x" * 10_000, "nul\u0000name", "two\nlines", "\u001b[31mred"]


def tools(description_file, env_tool=None, hostile=False, echo_name="echo"):
    description = "Echoes the message back."
    if description_file and os.path.exists(description_file):
        description = open(description_file, encoding="utf-8").read().strip()
    message = {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}
    empty = {"type": "object", "properties": {}}
    return [
        {"name": echo_name, "description": description, "inputSchema": message, "annotations": {"readOnlyHint": True}},
        {"name": "slow", "description": "Takes two minutes.", "inputSchema": empty},
        {"name": "crash", "description": "Exits while answering.", "inputSchema": empty},
        {"name": "announce", "description": "Says its tools changed.", "inputSchema": empty},
    ] + ([{"name": "env", "description": f"Says {env_tool}.", "inputSchema": empty}] if env_tool else []) + (
        [{"name": name, "description": "Bad\u0000 name\u001b[2J", "inputSchema": empty} for name in HOSTILE] if hostile else []
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--exit-at-start")
    parser.add_argument("--description-file")
    parser.add_argument("--env-tool")
    parser.add_argument("--echo-name", default="echo")
    parser.add_argument("--stderr-flood", type=int)
    parser.add_argument("--hostile-names", action="store_true")
    args = parser.parse_args()
    if args.stderr_flood:
        chunk = "x" * (1024 * 1024)
        for _ in range(args.stderr_flood):
            sys.stderr.write(chunk)
        sys.stderr.write("\nflood done\n")
        sys.stderr.flush()
    if args.exit_at_start:
        print(args.exit_at_start, file=sys.stderr, flush=True)
        sys.exit(1)
    print("fixture server ready", file=sys.stderr, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        method, ident = request.get("method"), request.get("id")
        if ident is None:
            continue
        params = request.get("params") or {}
        if method == "initialize":
            result = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "sidecar-fixture", "version": "1.0"},
            }
        elif method == "tools/list":
            result = {"tools": tools(args.description_file, args.env_tool, args.hostile_names, args.echo_name)}
        elif method == "tools/call":
            name, arguments = params.get("name"), params.get("arguments") or {}
            if name == args.echo_name:
                result = {"content": [{"type": "text", "text": "echo: " + arguments.get("message", "")}]}
            elif name == "slow":
                time.sleep(120)
                result = {"content": [{"type": "text", "text": "done"}]}
            elif name == "crash":
                print("fixture server: crashing as asked", file=sys.stderr, flush=True)
                os._exit(3)
            elif name == "env" and args.env_tool:
                result = {"content": [{"type": "text", "text": os.environ.get(args.env_tool, "(unset)")}]}
            elif name == "announce":
                send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
                result = {"content": [{"type": "text", "text": "announced"}]}
            else:
                result = {"content": [{"type": "text", "text": f"no tool {name}"}], "isError": True}
        elif method == "ping":
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"unknown method {method}"}})
            continue
        send({"jsonrpc": "2.0", "id": ident, "result": result})


if __name__ == "__main__":
    main()
