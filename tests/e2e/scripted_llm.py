"""A scripted OpenAI-compatible server on loopback for end-to-end tests: each POST to
/v1/chat/completions streams the next scripted reply as SSE. Requests are recorded."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


# How Sidecar's planning request begins (crates/testkit's PLANNING_STARTS).
PLANNING_STARTS = "You plan a request before anyone works on it."


def chunk(delta=None, finish=None, usage=None):
    body = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
            "choices": [] if delta is None and finish is None else
            [{"index": 0, "delta": delta or {}, "finish_reason": finish}]}
    if usage:
        body["usage"] = usage
    return body


def text_reply(*pieces, usage=(1200, 40)):
    return [chunk({"content": p}) for p in pieces] + [
        chunk(finish="stop"), chunk(usage={"prompt_tokens": usage[0], "completion_tokens": usage[1]})]


def tool_reply(*calls):
    """calls: (id, name, arguments JSON text)"""
    out = []
    for i, (cid, name, args) in enumerate(calls):
        out.append(chunk({"tool_calls": [{"index": i, "id": cid, "type": "function",
                                          "function": {"name": name, "arguments": args}}]}))
    return out + [chunk(finish="tool_calls"), chunk(usage={"prompt_tokens": 900, "completion_tokens": 20})]


class ScriptedLlm:
    def __init__(self, replies, status=200, delay=0.03, port=0, plans=False):
        """`plans`: Sidecar's planning request (a request of several steps is planned
        alone before its first step) is scripted and recorded like any; otherwise it is
        answered with no plan, out of the script."""
        self.replies = list(replies)
        self.plans = plans
        self.requests = []
        self.headers = []
        self.status = status
        self.delay = delay
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                # A provider check (the model list), as a real server answers it.
                body = json.dumps({"object": "list", "data": [{"id": "scripted", "object": "model"}]}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                first = (body.get("messages") or [{}])[0].get("content")
                if not outer.plans and isinstance(first, str) and first.startswith(PLANNING_STARTS):
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.end_headers()
                    self.wfile.write(f"data: {json.dumps(chunk({'content': 'No plan.'}))}\n\n".encode())
                    self.wfile.write(f"data: {json.dumps(chunk(finish='stop'))}\n\ndata: [DONE]\n\n".encode())
                    self.wfile.flush()
                    return
                outer.requests.append(body)
                outer.headers.append({k.lower(): v for k, v in self.headers.items()})
                if outer.status != 200:
                    body = json.dumps({"error": {"message": "scripted failure"}}).encode()
                    self.send_response(outer.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                events = outer.replies.pop(0) if len(outer.replies) > 1 else outer.replies[0]
                # A reply may be made when it is asked for: a time "in 4 seconds" counts
                # from the request, not from a slow launch before it.
                events = events() if callable(events) else events
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                for event in events:
                    time.sleep(outer.delay)
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
