"""A minimal W3C WebDriver client over plain HTTP, for WebKitWebDriver.

Plain urllib on purpose: the recipe found extra layers (tauri-driver, retries in
client libraries) hid dropped connections.
"""
import json
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class WebDriverError(RuntimeError):
    pass


class Session:
    def __init__(self, base, binary, args=(), caps=None):
        self.base = base
        caps = caps or {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "wry",
                    "webkitgtk:browserOptions": {"binary": binary, "args": list(args)},
                }
            }
        }
        value = self._request("POST", "/session", caps, timeout=90)
        self.id = value["sessionId"]

    @classmethod
    def chromium(cls, base, profile, width=390, height=844, microphone=None):
        """Debian's Chromium, headless, at a phone's size. The flags keep it off the
        network this machine does not have (its own services would try, and fail, at
        every start); the home core's certificate is one a browser has no reason to
        trust, as a phone's browser would say before the user accepts it. `microphone`: a
        WAV file the browser's microphone hears."""
        args = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--ignore-certificate-errors", f"--user-data-dir={profile}", f"--window-size={width},{height}",
            "--lang=en-US",
        ]
        if microphone:
            # A microphone that hears this recording (looped), allowed without asking.
            args += ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     f"--use-file-for-fake-audio-capture={microphone}"]
        # A phone's screen: headless windows are never narrower than 500 pixels.
        phone = {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True}}
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "acceptInsecureCerts": True,
                                                 "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args,
                                                                        "mobileEmulation": phone}}}}
        return cls(base, None, caps=caps)

    def _request(self, method, path, body=None, timeout=30):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + path, data=data, method=method,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return json.loads(resp.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise WebDriverError(f"{method} {path}: {e.code} {e.read()[:500]!r}") from None

    def cmd(self, method, path, body=None, timeout=30):
        return self._request(method, f"/session/{self.id}{path}", body, timeout)

    def find(self, css):
        return self.cmd("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def find_all(self, css):
        # WebKitWebDriver answers "stale element reference" when React replaces a
        # matching node while the list is being built (a reply finishing, a chip
        # appearing); the query itself is sound, so it is asked again.
        for attempt in range(5):
            try:
                return [e[ELEMENT] for e in self.cmd("POST", "/elements", {"using": "css selector", "value": css})]
            except WebDriverError as error:
                if "stale element" not in str(error) or attempt == 4:
                    raise
                time.sleep(0.1)

    def text(self, element):
        return self.cmd("GET", f"/element/{element}/text")

    def send_keys(self, element, text):
        self.cmd("POST", f"/element/{element}/value", {"text": text})

    def click(self, element):
        self.cmd("POST", f"/element/{element}/click", {})

    def script(self, source, *args):
        return self.cmd("POST", "/execute/sync", {"script": source, "args": list(args)})

    def texts(self, css):
        return self.script(
            "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.innerText.trim())", css
        )

    def wait_for(self, css, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                found = self.find_all(css)
            except WebDriverError as e:
                # The page was unloading (a reload onto another core): look again.
                if "no such frame" not in str(e) and "unload" not in str(e):
                    raise
                found = []
            if found:
                return found[0]
            time.sleep(0.05)
        raise TimeoutError(f"no element {css!r} after {timeout}s")

    def tap(self, css, timeout=10):
        """Clicks the first element matching css once it is there; a script click, so
        an element scrolled out of view is still reached."""
        self.wait_for(css, timeout)
        self.script("document.querySelector(arguments[0]).click()", css)

    def settings(self, section, timeout=10):
        """Settings, on one of its sections, as a user gets there: the tab, then the
        section in the list."""
        self.tap("[data-testid=nav-settings]", timeout)
        self.tap(f"[data-testid=settings-nav-{section}]", timeout)
        shown = self.wait_for(f"[data-testid=settings-section-{section}]:not([hidden])", timeout)
        # Shown before Settings has read what it shows (a busy machine): wait for its words.
        deadline = time.time() + timeout
        while not self.text(shown).strip() and time.time() < deadline:
            time.sleep(0.05)
        return shown

    def screenshot(self, path):
        import base64
        png = self.cmd("GET", "/screenshot")
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))

    def quit(self):
        try:
            self._request("DELETE", f"/session/{self.id}", timeout=15)
        except Exception:
            pass
