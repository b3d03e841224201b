"""deploy/nginx.conf on this machine: the same file, with the container names swapped for loopback
addresses, its /tmp paths for a temporary directory and its mounted files (/etc/nginx/card-rules/: the API
keys and the limits) for files written there, checked by ``nginx -t`` or run in front of gunicorn servers
started by the tests (Debian's nginx, installed by scripts/install-test-tools)."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from bench.common import LOOPBACK, GunicornServer, free_port
from tests.conftest import ROOT

CONF = ROOT / "deploy" / "nginx.conf"
LIMITS = ROOT / "deploy" / "gateway" / "limits.conf"
KEYS_EXAMPLE = ROOT / "deploy" / "gateway" / "api-keys.example.map"
MOUNTED = "/etc/nginx/card-rules/"  # where compose and Kubernetes mount the keys and the limits
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+rules:(\d+)([^;]*);", re.M)
LISTEN = re.compile(r"^(\s*)listen\s+(\d+);", re.M)
RATE = re.compile(r"(\brate=)[^;\s]+")
BURST = re.compile(r"(\bburst=)\d+")
RETRY_AFTER = re.compile(r"(\$card_rules_retry_after \{\s*default )[^;]+")

# The keys of the proxies the tests start (made per run: no key is ever written in the repository).
KEY = secrets.token_hex(32)
CLIENT = "tests"
# Limits no test reaches unless it sets its own: the tests that are not about the limit send many requests.
GENEROUS_RATE, GENEROUS_BURST = "1000r/s", 1000


def bearer(key: str = KEY) -> dict[str, str]:
    """The header that admits a request with ``key``."""
    return {"Authorization": f"Bearer {key}"}


def keys_map(keys: Mapping[str, str]) -> str:
    """An api-keys.map: one ``"<key>" <client-name>;`` line per key."""
    return "".join(f'"{key}" {client};\n' for key, client in keys.items())


def limits_conf(rate: str | None = None, burst: int | None = None, retry_after: int | None = None) -> str:
    """deploy/gateway/limits.conf with the rate, the burst and the Retry-After seconds given replaced."""
    text = LIMITS.read_text(encoding="utf-8")
    for pattern, value in ((RATE, rate), (BURST, burst), (RETRY_AFTER, retry_after)):
        assert len(pattern.findall(text)) == 1, pattern.pattern
        if value is not None:
            text = pattern.sub(rf"\g<1>{value}", text)
    return text


def loopback_conf(directory: Path, backends: Sequence[int] = (8000,), port: int = 8080,
                  keys: str | None = None, limits: str | None = None) -> Path:  # fmt: skip  # two lines of parameters
    """deploy/nginx.conf with ``server rules:PORT ...;`` made one line per loopback backend port,
    ``listen N;`` made ``listen 127.0.0.1:port;``, /tmp/ made ``directory`` and /etc/nginx/card-rules/ made
    ``directory/card-rules/``, where ``keys`` (an api-keys.map; by default the example's) and ``limits`` (a
    limits.conf; by default deploy/gateway/limits.conf) are written; its path."""
    text = CONF.read_text(encoding="utf-8")
    assert len(UPSTREAM_SERVER.findall(text)) == 1 and len(LISTEN.findall(text)) == 1
    assert re.findall(rf"^\s*include\s+{MOUNTED}(\S+);", text, re.M) == ["api-keys.map", "limits.conf"]
    text = UPSTREAM_SERVER.sub(lambda m: "\n".join(f"{m[1]}server {LOOPBACK}:{b}{m[3]};" for b in backends), text)
    text = LISTEN.sub(lambda m: f"{m[1]}listen {LOOPBACK}:{port};", text)
    text = text.replace("/tmp/", f"{directory}/")
    mounted = directory / "card-rules"
    mounted.mkdir(exist_ok=True)
    keys = KEYS_EXAMPLE.read_text(encoding="utf-8") if keys is None else keys
    limits = LIMITS.read_text(encoding="utf-8") if limits is None else limits
    (mounted / "api-keys.map").write_text(keys, encoding="utf-8")
    (mounted / "limits.conf").write_text(limits, encoding="utf-8")
    text = text.replace(MOUNTED, f"{mounted}/")
    path = directory / "nginx.conf"
    path.write_text(text, encoding="utf-8")
    return path


def check_syntax(directory: Path) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` on the conf with the committed example keys and default limits."""
    return subprocess.run([NGINX, "-t", "-e", "stderr", "-c", str(loopback_conf(directory))],
                          capture_output=True, text=True, timeout=30)  # fmt: skip


def service_log_after(backend: GunicornServer | NginxServer, request_id: str) -> str:
    """The service's (or the gateway's) log once it holds the line of ``request_id``, the last request sent
    through the proxy, so every request that reached it before is logged too: a worker writes its lines a
    batch per turn, and nginx its access line once the answer is sent, each a moment after the client has
    read the answer."""
    deadline = time.monotonic() + 10
    while f'"request_id": "{request_id}"' not in (log := backend.log_text()):
        assert time.monotonic() < deadline, f"never logged: {request_id}"
        time.sleep(0.02)
    return log


class NginxServer:
    """nginx in the foreground with the loopback copy of deploy/nginx.conf, as a context manager. It admits
    ``keys`` (key -> client name; by default ``KEY`` as ``CLIENT``) at ``rate`` with ``burst`` (by default
    more than any test sends) and answers a 429 with ``Retry-After: retry_after``."""

    def __init__(self, backends: Sequence[int], keys: Mapping[str, str] | None = None, rate: str = GENEROUS_RATE,
                 burst: int = GENEROUS_BURST, retry_after: int = 1) -> None:  # fmt: skip  # two lines of parameters
        self.directory = Path(tempfile.mkdtemp(prefix="nginx-"))
        self.port = free_port()
        self.conf = loopback_conf(self.directory, backends, self.port, keys_map(keys or {KEY: CLIENT}),
                                  limits_conf(rate, burst, retry_after))  # fmt: skip
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def log_text(self) -> str:
        """What nginx wrote so far: its access log (one JSON line per request) and its error log."""
        return (self.directory / "nginx.log").read_text(errors="replace")

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
                    log_text = self.log_text()  # before __exit__ removes the directory
                    self.__exit__()
                    raise RuntimeError("nginx did not start:\n" + log_text) from None
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
