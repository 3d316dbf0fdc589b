"""A page in headless Chromium driven through the DevTools protocol over a pipe
(--remote-debugging-pipe: the browser reads commands on fd 3 and answers on fd 4, each message JSON
ended by a NUL byte), so that a test can type into a page as a user does. Standard library only."""
import json, os, subprocess, time


class Page:
    def __init__(self, chrome, url, width=1280, height=1000):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def fds():  # in the child: the pipes at 3 and 4 (inheritable), where Chromium looks for them
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)  # neither is 3 or 4: both are taken
            os.dup2(r, 3)
            os.dup2(w, 4)

        self._proc = subprocess.Popen(
            [chrome, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-pipe",
             f"--window-size={width},{height}", "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf, self._id, self.session = b"", 0, None
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable")
        self.send("Page.navigate", url=url)
        self.wait_for("document.body && document.body.getAttribute('data-ready') === 'yes'")

    def send(self, method, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        while True:  # events come between; the answer carries our id
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _read(self):
        while b"\0" not in self._buf:
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def eval(self, expression):
        r = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expression, timeout=60):
        end = time.time() + timeout
        while not self.eval(expression):
            if time.time() > end:
                raise RuntimeError(f"timed out waiting for {expression}")
            time.sleep(0.05)

    def type_into(self, selector, text):
        """Focuses the element and types `text` as keyboard input (the page sees input events)."""
        self.eval(f"document.querySelector({json.dumps(selector)}).focus()")
        for ch in text:
            self.send("Input.insertText", text=ch)

    def choose(self, selector, value):
        """Picks an option of a <select> as a user does: the value changes and a change event fires."""
        self.eval(f"(function(s){{s.focus();s.value={json.dumps(value)};"
                  f"s.dispatchEvent(new Event('change',{{bubbles:true}}));}})(document.querySelector({json.dumps(selector)}))")

    def close(self):
        try:
            self.send("Browser.close")
        except RuntimeError:
            pass
        try:
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
