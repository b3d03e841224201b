"""deploy/nginx.conf on this machine: the same file, with the container names swapped for loopback
addresses and its /tmp paths for a temporary directory, checked by ``nginx -t`` or run in front of
gunicorn servers started by the tests (Debian's nginx, installed by scripts/install-test-tools)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.common import LOOPBACK, free_port
from tests.conftest import ROOT

CONF = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+rules:(\d+)([^;]*);", re.M)
LISTEN = re.compile(r"^(\s*)listen\s+(\d+);", re.M)


def loopback_conf(directory: Path, backends: Sequence[int] = (8000,), port: int = 8080) -> Path:
    """deploy/nginx.conf with ``server rules:PORT ...;`` made one line per loopback backend port,
    ``listen N;`` made ``listen 127.0.0.1:port;`` and /tmp/ made ``directory``; its path."""
    text = CONF.read_text(encoding="utf-8")
    assert len(UPSTREAM_SERVER.findall(text)) == 1 and len(LISTEN.findall(text)) == 1
    text = UPSTREAM_SERVER.sub(lambda m: "\n".join(f"{m[1]}server {LOOPBACK}:{b}{m[3]};" for b in backends), text)
    text = LISTEN.sub(lambda m: f"{m[1]}listen {LOOPBACK}:{port};", text)
    text = text.replace("/tmp/", f"{directory}/")
    path = directory / "nginx.conf"
    path.write_text(text, encoding="utf-8")
    return path


def check_syntax(directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([NGINX, "-t", "-e", "stderr", "-c", str(loopback_conf(directory))],
                          capture_output=True, text=True, timeout=30)  # fmt: skip


class NginxServer:
    """nginx in the foreground with the loopback copy of deploy/nginx.conf, as a context manager."""

    def __init__(self, backends: Sequence[int]) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="nginx-"))
        self.port = free_port()
        self.conf = loopback_conf(self.directory, backends, self.port)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def __enter__(self) -> NginxServer:
        log = (self.directory / "nginx.log").open("wb")
        try:
            self.process = subprocess.Popen([NGINX, "-e", "stderr", "-c", str(self.conf), "-g", "daemon off;"],
                                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            start_new_session=True)  # fmt: skip
        finally:
            log.close()
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection((LOOPBACK, self.port), timeout=1).close()
                return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.__exit__()
                    raise RuntimeError(
                        "nginx did not start:\n" + (self.directory / "nginx.log").read_text(errors="replace")
                    ) from None
                time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGQUIT)  # graceful: finish open requests, then exit
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        shutil.rmtree(self.directory, ignore_errors=True)
