"""A Bot API–compatible server on loopback for end-to-end tests: what Telegram's
servers do for a bot that long-polls. `say(chat, text)` plays the user's phone; the
bot's calls are recorded (`sent_to(chat)` gives what it sent there)."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def message(chat, message_id, text):
    return {"message_id": message_id, "date": int(time.time()),
            "chat": {"id": chat, "type": "private", "first_name": "Ana"},
            "from": {"id": chat, "is_bot": False, "first_name": "Ana"}, "text": text}


class FakeBotApi:
    def __init__(self):
        self.updates = []
        self.calls = []
        self.lock = threading.Condition()
        self.next_message_id = 1
        # While away, every request is dropped unanswered (the server gone).
        self.away = False
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                if outer.away:
                    self.close_connection = True
                    return
                method = self.path.rsplit("/", 1)[-1].lower()
                with outer.lock:
                    outer.calls.append((method, body))
                if method == "getupdates":
                    result = outer.updates_after(body.get("offset", 0), min(body.get("timeout", 0), 2))
                elif method == "sendmessage":
                    with outer.lock:
                        outer.next_message_id += 1
                        result = message(body["chat_id"], outer.next_message_id, body.get("text", ""))
                elif method == "getme":
                    result = {"id": 42, "is_bot": True, "first_name": "Sidecar", "username": "sidecar_e2e_bot"}
                else:
                    result = True
                data = json.dumps({"ok": True, "result": result}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.api_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def updates_after(self, offset, wait):
        deadline = time.time() + wait
        with self.lock:
            while True:
                found = [u for u in self.updates if u["update_id"] >= offset]
                left = deadline - time.time()
                if found or left <= 0:
                    return found
                self.lock.wait(left)

    def say(self, chat, text):
        with self.lock:
            self.next_message_id += 1
            self.updates.append({"update_id": len(self.updates) + 1, "message": message(chat, self.next_message_id, text)})
            self.lock.notify_all()

    def sent_to(self, chat):
        with self.lock:
            return [b.get("text", "") for m, b in self.calls if m == "sendmessage" and b.get("chat_id") == chat]

    def polled(self):
        with self.lock:
            return any(m == "getupdates" for m, _ in self.calls)

    def go_away(self):
        self.away = True

    def come_back(self):
        self.away = False

    def close(self):
        self.server.shutdown()
