"""A model file server on loopback, as Hugging Face serves GGUF files: HEAD gives the
length, GET honours `Range: bytes=N-` with 206, and the first download can be cut
part-way (the connection closes early) to make the app resume."""
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FileServer:
    def __init__(self, name, body, cut_first_after=None):
        self.body = body
        self.ranges = []
        self.cut = cut_first_after
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_HEAD(self):
                self.send_response(200)
                self.send_header("content-length", str(len(outer.body)))
                self.send_header("accept-ranges", "bytes")
                self.send_header("connection", "close")
                self.end_headers()

            def do_GET(self):
                if self.path != f"/models/{name}":
                    self.send_error(404)
                    return
                start = 0
                header = self.headers.get("range")
                outer.ranges.append(header)
                if header:
                    start = int(header.split("=")[1].split("-")[0])
                    self.send_response(206)
                    self.send_header("content-range", f"bytes {start}-{len(outer.body) - 1}/{len(outer.body)}")
                else:
                    self.send_response(200)
                self.send_header("content-length", str(len(outer.body) - start))
                self.send_header("connection", "close")
                self.end_headers()
                end = len(outer.body)
                if outer.cut is not None:
                    end, outer.cut = min(end, start + outer.cut), None
                view = memoryview(outer.body)
                for at in range(start, end, 1 << 16):
                    self.wfile.write(view[at:min(end, at + (1 << 16))])
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/models/{name}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
