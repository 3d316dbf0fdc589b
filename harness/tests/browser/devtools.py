"""Headless Chromium driven through the DevTools protocol over a pipe (--remote-debugging-pipe: the
browser reads commands on fd 3 and answers on fd 4, each message JSON ended by a NUL byte), so that a
test can type into a page as a user does. One browser serves a whole test run (a start costs about
1.3 CPU-s, more than most pages): each page opens in a window of its own, of its own size, and the
window is closed after. Standard library only."""
import base64, json, os, select, shutil, subprocess, tempfile, time


class Browser:
    def __init__(self, chrome):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def fds():  # in the child: the pipes at 3 and 4 (inheritable), where Chromium looks for them
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)  # neither is 3 or 4: both are taken
            os.dup2(r, 3)
            os.dup2(w, 4)

        # Its profile and temporaries in a short folder of its own under /tmp, removed by close(): not
        # under $TMPDIR, which may lie anywhere (the build tree's test-tmp/, under a long path with
        # spaces), where its sockets' paths would not fit a socket address and what it leaves would
        # be left there.
        self._home = tempfile.mkdtemp(prefix="ptxcts-chromium-", dir="/tmp")
        self._proc = subprocess.Popen(
            [chrome, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-pipe",
             f"--user-data-dir={self._home}/profile", "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "TMPDIR": self._home})
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf, self._id, self._events = b"", 0, []  # the events not yet waited for

    def send(self, method, session=None, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        while True:  # events come between, kept; the answer carries our id
            reply = self._read()
            if "id" not in reply:
                self._events.append(reply)
            elif reply["id"] == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def wait_event(self, method, session, timeout=120):
        """The event `method` of `session`, once the browser sends it."""
        end = time.time() + timeout
        while True:
            for i, e in enumerate(self._events):
                if e.get("method") == method and e.get("sessionId") == session:
                    return self._events.pop(i).get("params", {})
            self._events.append(self._read(end))

    def forget(self, session):
        """Drops the events of a closed session."""
        self._events = [e for e in self._events if e.get("sessionId") != session]

    def _read(self, end=None):
        while b"\0" not in self._buf:
            if end is not None and not select.select([self._from_chrome], [], [], max(0, end - time.time()))[0]:
                raise RuntimeError("timed out waiting for the browser")
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def close(self):
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)
        shutil.rmtree(self._home, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    """A page in a new window of `browser`, `width` x `height` as a browser started with
    --window-size would open it. Waits until the page's script has run (<body data-ready>); or, with
    `virtual_ms`, as --virtual-time-budget does for --screenshot and --dump-dom: until the page has
    loaded and its timers due within that much virtual time ran (time runs fast while the page
    idles), with a viewport of exactly `width` x `height`."""

    def __init__(self, browser, url, width=1280, height=1000, virtual_ms=None):
        self.browser = browser
        self.target = browser.send("Target.createTarget", url="about:blank", newWindow=True,
                                   width=width, height=height)["targetId"]
        self.session = browser.send("Target.attachToTarget", targetId=self.target, flatten=True)["sessionId"]
        self.send("Page.enable")
        if virtual_ms:
            self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.send("Page.navigate", url=url)
        if not virtual_ms:
            self.wait_for("document.body && document.body.getAttribute('data-ready') === 'yes'")
            return
        # Loaded (the load event of the page, not of about:blank before it), then its timers: the
        # budget counts from the load event here, from the start of the navigation there.
        browser.wait_event("Page.loadEventFired", self.session)
        while self.eval("location.href") == "about:blank":
            browser.wait_event("Page.loadEventFired", self.session)
        self.send("Emulation.setVirtualTimePolicy", policy="advance", budget=virtual_ms)
        browser.wait_event("Emulation.virtualTimeBudgetExpired", self.session)

    def send(self, method, **params):
        return self.browser.send(method, session=self.session, **params)

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

    def screenshot(self, png):
        """The viewport as a PNG."""
        with open(png, "wb") as f:
            f.write(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))

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
            self.browser.send("Target.closeTarget", targetId=self.target)
        except (RuntimeError, OSError):  # the browser is gone: nothing left to close
            pass
        self.browser.forget(self.session)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
