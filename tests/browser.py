"""Headless Chromium (from the OS packages) driven over the DevTools protocol,
to check a page as a person sees it: layout, and every network request made."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--remote-allow-origins=*"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class Page:
    """One tab showing `url` at `width` x `height`; requests are recorded."""

    def __init__(self, url: str, width: int = 1280, height: int = 900):
        import websocket  # websocket-client, a test dependency

        exe = chromium()
        assert exe, "chromium is not installed (tests/install-deps.sh installs it)"
        self.profile = tempfile.mkdtemp(prefix="advisor-chromium-")
        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self.profile}",
                                      f"--window-size={width},{height}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.time() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            assert time.time() < deadline, "chromium did not start"
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=20) as reply:
            targets = json.loads(reply.read().decode())
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
        self.next_id = 0
        self.requests: list[str] = []
        self.call("Network.enable")
        self.call("Page.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.call("Page.navigate", url=url)
        self._wait_for("Page.loadEventFired")

    def _read(self) -> dict:
        message = json.loads(self.ws.recv())
        if message.get("method") == "Network.requestWillBeSent":
            self.requests.append(message["params"]["request"]["url"])
        return message

    def _wait_for(self, method: str) -> None:
        while self._read().get("method") != method:
            pass

    def call(self, method: str, **params: object) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = self._read()
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message.get("result", {})

    def evaluate(self, expression: str) -> object:
        """Runs in the tab from the test's side; the page itself has no script."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            self.proc.wait(timeout=20)
            shutil.rmtree(self.profile, ignore_errors=True)
