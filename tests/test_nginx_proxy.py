"""The deploy kit's balancers in front of a real server, as an operator would run them:
deploy/nginx/ and deploy/haproxy/haproxy.cfg. Each accepts its file (`nginx -t`, `haproxy -c`),
HTTP, TLS and the WebSocket go through it, and with --trusted-proxy the per-address limits
count the clients behind it, not the balancer itself, while forwarding headers from anyone else
are ignored.

Clients connect from other loopback addresses (127.0.0.2, 127.0.0.3) than the balancer's own
(127.0.0.1), so the server can tell them apart only by what the balancer forwards."""
import asyncio
import http.client
import json
import ssl

import pytest
import websockets

from balancers import BALANCERS, installed
from conftest import BoardRef


def balancer_params():
    return [pytest.param(name, marks=pytest.mark.skipif(not installed(name), reason=f"{name} is not installed "
                                                        "(scripts/install-deps --test installs it)"))
            for name in BALANCERS]


TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE


@pytest.fixture(params=balancer_params())
def proxied(request, server_factory, tmp_path):
    """A server that trusts 127.0.0.1 (the balancer), with small per-address limits, behind
    each balancer in turn."""
    server = server_factory(["--trusted-proxy", "127.0.0.1", "--board-burst", "2", "--boards-per-minute", "0.001",
                             "--max-connections-per-address", "2"]).start()
    balancer = BALANCERS[request.param](tmp_path / request.param, server.port)
    checked = balancer.check()
    assert checked.returncode == 0, checked.stdout + checked.stderr
    balancer.start()
    yield server, balancer
    balancer.stop()


def https(balancer, method, path, source, body=None, headers=None):
    connection = http.client.HTTPSConnection("127.0.0.1", balancer.https_port, context=TLS, timeout=10,
                                             source_address=(source, 0))
    all_headers = {"Content-Type": "application/json", **(headers or {})} if body is not None else dict(headers or {})
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    return response.status, response.headers, json.loads(raw) if raw and raw[:1] in b"{[" else raw


@pytest.mark.parametrize("name", balancer_params())
def test_each_balancer_accepts_its_deploy_configuration(name, tmp_path):
    balancer = BALANCERS[name](tmp_path / name, [8081, 8082])
    checked = balancer.check()
    # nginx says so on stderr, HAProxy on stdout; any warning fails too.
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "warn" not in (checked.stdout + checked.stderr).lower(), checked.stdout + checked.stderr


def test_http_tls_and_websocket_go_through_the_balancer(proxied):
    server, balancer = proxied
    status, _, body = https(balancer, "GET", "/ready", "127.0.0.2")
    assert (status, body) == (200, {"status": "ready"})
    status, headers, body = https(balancer, "GET", "/", "127.0.0.2")
    assert status == 200 and b"<html" in body.lower()
    assert headers.get("Strict-Transport-Security")
    status, _, created = https(balancer, "POST", "/api/boards", "127.0.0.2", body=b'{"title":"Behind the balancer"}')
    assert status == 201, created
    board, secret = created["id"], created["secrets"]["edit"]

    # Port 80 sends everyone to TLS.
    plain = http.client.HTTPConnection("127.0.0.1", balancer.http_port, timeout=10)
    plain.request("GET", "/b/" + board)
    redirect = plain.getresponse()
    assert redirect.status == 301 and redirect.getheader("Location").startswith("https://")
    plain.close()

    async def scenario():
        url = f"wss://127.0.0.1:{balancer.https_port}/ws?board={board}"
        async def joined(name, source):
            ws = await websockets.connect(url, ssl=TLS, local_addr=(source, 0))
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": f"proxied-{name}-0123456789"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "join", "board": board, "secret": secret}))
            assert json.loads(await ws.recv())["type"] == "access"
            assert json.loads(await ws.recv())["type"] == "snapshot"
            return ws

        editor, watcher = await joined("editor", "127.0.0.2"), await joined("watcher", "127.0.0.3")
        await editor.send(json.dumps({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "s1", "title": "Through the balancer"}]}))
        seen = {}
        while "ack" not in seen:
            message = json.loads(await editor.recv())
            seen[message["type"]] = message
        assert seen["ack"]["opId"] == "1"
        while True:
            message = json.loads(await watcher.recv())
            if message["type"] == "changes":
                break
        assert message["changes"][0]["title"] == "Through the balancer"
        await editor.close()
        await watcher.close()

    asyncio.run(scenario())
    assert server.snapshot(BoardRef(created))["sections"][0]["title"] == "Through the balancer"


def test_per_address_limits_count_the_clients_behind_the_balancer(proxied):
    server, balancer = proxied
    # Board creation: a burst of 2 per address.
    for _ in range(2):
        assert https(balancer, "POST", "/api/boards", "127.0.0.2", body=b"{}")[0] == 201
    assert https(balancer, "POST", "/api/boards", "127.0.0.2", body=b"{}")[0] == 429
    # A client cannot step around it by writing the header itself: the balancer appends its address.
    spoofed = https(balancer, "POST", "/api/boards", "127.0.0.2", body=b"{}", headers={"X-Forwarded-For": "203.0.113.7"})
    assert spoofed[0] == 429
    # Another client behind the same balancer has its own budget (before --trusted-proxy, all shared one).
    assert https(balancer, "POST", "/api/boards", "127.0.0.3", body=b"{}")[0] == 201

    # WebSocket connections: at most 2 open per address.
    async def sockets():
        url = f"wss://127.0.0.1:{balancer.https_port}/ws"
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
