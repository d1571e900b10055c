"""deploy/nginx/timerboard.conf in front of a real server, as an operator would run it: nginx
accepts it (`nginx -t`), HTTP, TLS and the WebSocket go through it, and with --trusted-proxy the
per-address limits count the clients behind nginx, not nginx itself, while forwarding headers
from anyone else are ignored.

Clients connect from other loopback addresses (127.0.0.2, 127.0.0.3) than nginx's own
(127.0.0.1), so the server can tell them apart only by what nginx forwards."""
import asyncio
import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest
import websockets

from conftest import ROOT, BoardRef

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
DEPLOY_CONF = ROOT / "deploy" / "nginx" / "timerboard.conf"

pytestmark = pytest.mark.skipif(not Path(NGINX).exists(),
                                reason="nginx is not installed (scripts/install-deps --test installs nginx-light)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def render(conf: str, directory: Path, http_port: int, https_port: int) -> str:
    """The deploy file with only what a test must change: where it listens, its certificate and
    its log. Each replacement must happen, so the test fails if the file drifts from it."""
    replacements = [
        (r"^\s*listen \[::\]:80;\n", ""),
        (r"^\s*listen \[::\]:443 ssl http2;\n", ""),
        (r"listen 80;", f"listen 127.0.0.1:{http_port};"),
        (r"listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        (r"/etc/ssl/timerboard/", f"{directory}/certs/"),
        (r"access_log /var/log/nginx/timerboard.access.log;", f"access_log {directory}/timerboard.access.log;"),
    ]
    for pattern, replacement in replacements:
        conf, count = re.subn(pattern, replacement, conf, flags=re.MULTILINE)
        assert count >= 1, f"deploy/nginx/timerboard.conf no longer has {pattern!r}"
    return conf


class Nginx:
    def __init__(self, directory: Path, upstream_port: int):
        self.directory = directory
        self.http_port = free_port()
        self.https_port = free_port()
        (directory / "certs").mkdir(parents=True)
        (directory / "tmp").mkdir()
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                        "-keyout", str(directory / "certs" / "privkey.pem"), "-out", str(directory / "certs" / "fullchain.pem"),
                        "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True)
        (directory / "timerboard.conf").write_text(render(DEPLOY_CONF.read_text(), directory, self.http_port, self.https_port))
        (directory / "timerboard-nodes.conf").write_text(f"server 127.0.0.1:{upstream_port};\n")
        temp = directory / "tmp"
        (directory / "nginx.conf").write_text(f"""
{"user root;" if os.geteuid() == 0 else ""}
pid {directory}/nginx.pid;
error_log {directory}/error.log;
worker_processes 1;
events {{ worker_connections 256; }}
http {{
    access_log {directory}/access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {directory}/timerboard.conf;
}}
""")
        self.process = None

    def args(self, *extra):
        return [NGINX, "-p", str(self.directory), "-c", str(self.directory / "nginx.conf"),
                "-e", str(self.directory / "error.log"), *extra]

    def check(self):
        return subprocess.run(self.args("-t"), capture_output=True, text=True)

    def start(self):
        self.process = subprocess.Popen(self.args("-g", "daemon off;"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:  # nginx says nothing when it listens: try the port, within a bound
            try:
                socket.create_connection(("127.0.0.1", self.https_port), timeout=1).close()
                return self
            except OSError:
                assert self.process.poll() is None, (self.directory / "error.log").read_text()
                assert time.monotonic() < deadline, "nginx did not start listening"
                time.sleep(0.05)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE


@pytest.fixture
def proxied(server_factory, tmp_path):
    """A server that trusts 127.0.0.1 (nginx), with small per-address limits, behind nginx."""
    server = server_factory(["--trusted-proxy", "127.0.0.1", "--board-burst", "2", "--boards-per-minute", "0.001",
                             "--max-connections-per-address", "2"]).start()
    nginx = Nginx(tmp_path / "nginx", server.port)
    checked = nginx.check()
    assert checked.returncode == 0, checked.stderr
    nginx.start()
    yield server, nginx
    nginx.stop()


def https(nginx, method, path, source, body=None, headers=None):
    connection = http.client.HTTPSConnection("127.0.0.1", nginx.https_port, context=TLS, timeout=10,
                                             source_address=(source, 0))
    all_headers = {"Content-Type": "application/json", **(headers or {})} if body is not None else dict(headers or {})
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), json.loads(raw) if raw and raw[:1] in b"{[" else raw


def test_nginx_accepts_the_deploy_configuration(tmp_path):
    nginx = Nginx(tmp_path / "nginx", 8080)
    checked = nginx.check()
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_http_tls_and_websocket_go_through_nginx(proxied):
    server, nginx = proxied
    status, _, body = https(nginx, "GET", "/ready", "127.0.0.2")
    assert (status, body) == (200, {"status": "ready"})
    status, headers, body = https(nginx, "GET", "/", "127.0.0.2")
    assert status == 200 and b"<html" in body.lower()
    assert headers.get("Strict-Transport-Security")
    status, _, created = https(nginx, "POST", "/api/boards", "127.0.0.2", body=b'{"title":"Behind nginx"}')
    assert status == 201, created
    board, secret = created["id"], created["secrets"]["edit"]

    # Port 80 sends everyone to TLS.
    plain = http.client.HTTPConnection("127.0.0.1", nginx.http_port, timeout=10)
    plain.request("GET", "/b/" + board)
    redirect = plain.getresponse()
    assert redirect.status == 301 and redirect.getheader("Location").startswith("https://")
    plain.close()

    async def scenario():
        url = f"wss://127.0.0.1:{nginx.https_port}/ws?board={board}"
        async def joined(name, source):
            ws = await websockets.connect(url, ssl=TLS, local_addr=(source, 0))
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": f"nginx-{name}-0123456789"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "join", "board": board, "secret": secret}))
            assert json.loads(await ws.recv())["type"] == "access"
            assert json.loads(await ws.recv())["type"] == "snapshot"
            return ws

        editor, watcher = await joined("editor", "127.0.0.2"), await joined("watcher", "127.0.0.3")
        await editor.send(json.dumps({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "s1", "title": "Through nginx"}]}))
        seen = {}
        while "ack" not in seen:
            message = json.loads(await editor.recv())
            seen[message["type"]] = message
        assert seen["ack"]["opId"] == "1"
        while True:
            message = json.loads(await watcher.recv())
            if message["type"] == "changes":
                break
        assert message["changes"][0]["title"] == "Through nginx"
        await editor.close()
        await watcher.close()

    asyncio.run(scenario())
    assert server.snapshot(BoardRef(created))["sections"][0]["title"] == "Through nginx"


def test_per_address_limits_count_the_clients_behind_nginx(proxied):
    server, nginx = proxied
    # Board creation: a burst of 2 per address.
    for _ in range(2):
        assert https(nginx, "POST", "/api/boards", "127.0.0.2", body=b"{}")[0] == 201
    assert https(nginx, "POST", "/api/boards", "127.0.0.2", body=b"{}")[0] == 429
    # A client cannot step around it by writing the header itself: nginx appends its address.
    spoofed = https(nginx, "POST", "/api/boards", "127.0.0.2", body=b"{}", headers={"X-Forwarded-For": "203.0.113.7"})
    assert spoofed[0] == 429
    # Another client behind the same nginx has its own budget (before --trusted-proxy, all shared one).
    assert https(nginx, "POST", "/api/boards", "127.0.0.3", body=b"{}")[0] == 201

    # WebSocket connections: at most 2 open per address.
    async def sockets():
        url = f"wss://127.0.0.1:{nginx.https_port}/ws"
        first = [await websockets.connect(url, ssl=TLS, local_addr=("127.0.0.2", 0)) for _ in range(2)]
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(url, ssl=TLS, local_addr=("127.0.0.2", 0))
        assert refused.value.response.status_code == 503
        other = await websockets.connect(url, ssl=TLS, local_addr=("127.0.0.3", 0))
        for ws in [*first, other]:
            await ws.close()

    asyncio.run(sockets())


def test_forwarding_headers_from_an_untrusted_peer_are_ignored(proxied):
    server, _ = proxied
    # Straight to the server from 127.0.0.4, which is no trusted proxy: a new X-Forwarded-For
    # and X-Real-IP on every request would otherwise be a new address every time.
    statuses = []
    for n in range(3):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=("127.0.0.4", 0))
        connection.request("POST", "/api/boards", body=b"{}", headers={
            "Content-Type": "application/json", "X-Forwarded-For": f"198.51.100.{n}", "X-Real-IP": f"198.51.100.{n}"})
        statuses.append(connection.getresponse().status)
        connection.close()
    assert statuses == [201, 201, 429]
