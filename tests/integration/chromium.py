"""Headless Chromium driven over the Chrome DevTools Protocol, with nothing but ``websocket-client``.

Debian's ``chromium`` (``/usr/bin/chromium``, installed by ``scripts/install-test-tools``), started with a
fresh profile and every background-networking feature off, so the only traffic is what the page asks for.
``Chromium`` is a context manager: it starts the browser, attaches to its first tab, and on exit kills the
process group it started. Clicks are real mouse events at the element's centre, as a person would click.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websocket

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--mute-audio", "--window-size=1280,1600",
    "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
]  # fmt: skip


class Chromium:
    def __init__(self, startup_timeout: float = 30.0) -> None:
        self.startup_timeout = startup_timeout
        self.profile = Path(tempfile.mkdtemp(prefix="chromium-profile-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.socket: websocket.WebSocket | None = None
        self.events: list[dict[str, Any]] = []
        self._next_id = 0

    # --- life cycle --------------------------------------------------------------------------------

    def __enter__(self) -> Chromium:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        log = (self.profile / "chromium.log").open("wb")
        try:
            self.process = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            start_new_session=True)  # fmt: skip
        finally:
            log.close()
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + self.startup_timeout
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"chromium did not start:\n{self.log_tail()}")
            time.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        while True:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as response:
                pages = [t for t in json.load(response) if t["type"] == "page"]
            if pages or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if not pages:
            raise RuntimeError(f"chromium has no tab:\n{self.log_tail()}")
        self.socket = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)

    def stop(self) -> None:
        if self.socket is not None:
            try:
                self.socket.close()
            except OSError:
                pass
            self.socket = None
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)  # the session we started: the browser and its helpers
                process.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait(timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join((self.profile / "chromium.log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    # --- protocol ----------------------------------------------------------------------------------

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Call a DevTools method and return its result; events that arrive meanwhile go to ``events``."""
        assert self.socket is not None
        self._next_id += 1
        call_id = self._next_id
        self.socket.send(json.dumps({"id": call_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == call_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(
                f"{expression[:80]}: {result['exceptionDetails'].get('exception', result['exceptionDetails'])}"
            )
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 20.0, what: str = "") -> Any:
        """Poll ``expression`` until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what or expression}")
            time.sleep(0.1)

    def navigate(self, url: str) -> None:
        self.send("Page.navigate", url=url)

    def click(self, selector: str, timeout: float = 10.0) -> None:
        """A left click with the mouse at the centre of the first element matching ``selector``."""
        find = f"""(() => {{
            const element = document.querySelector({json.dumps(selector)});
            if (!element) return null;
            element.scrollIntoView({{block: "center"}});
            const box = element.getBoundingClientRect();
            return box.width && box.height ? [box.x + box.width / 2, box.y + box.height / 2] : null;
        }})()"""
        x, y = self.wait_for(find, timeout, what=f"a visible {selector}")
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        self.send("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
        self.send("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", clickCount=1)
