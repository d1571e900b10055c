"""Each balancer of the deploy kit is the first line against one hostile address (issue 36): it
caps one address's sockets and request rate itself (429) while a second address still gets in,
cuts a slow header, and refuses /metrics however it is spelled. The shipped limits are sized
from the server's own (`timerboard serve --help`): per-address sockets no more than the nodes
allow, connections for every socket the nodes admit, timeouts no looser than the server's.

The live checks run the shipped files with two numbers made small, which the test names: the
per-address socket cap (4, not 1,000 sockets) and the header timeout (2 s, not 10 s), so that
they take seconds; the shipped numbers themselves are checked against the server's."""
import asyncio
import http.client
import json
import re
import socket
import ssl
import subprocess
import threading
import time

import pytest
import websockets

from balancers import BALANCERS, HAPROXY_CONF, NGINX_DIR
from cluster import UNVERIFIED_TLS
from conftest import ADMIN_TOKEN, BINARY
from test_nginx_proxy import balancer_params

SOCKETS_PER_ADDRESS = 4
HEADER_TIMEOUT = 2
# The nodes of the kit's cluster (compose.yaml, timerboard-nodes.conf's sizing).
NODES = 2

# What the live test renders small, per balancer: (shipped pattern, small replacement).
SMALL = {
    "nginx": [(r"limit_conn timerboard_connections 1000;", f"limit_conn timerboard_connections {SOCKETS_PER_ADDRESS};"),
              (r"client_header_timeout 10s;", f"client_header_timeout {HEADER_TIMEOUT}s;")],
    "haproxy": [(r"sc_conn_cur\(0\) gt 1000", f"sc_conn_cur(0) gt {SOCKETS_PER_ADDRESS}"),
                (r"timeout http-request 10s", f"timeout http-request {HEADER_TIMEOUT}s")],
}

# /metrics however a client may spell it; each must be refused by the balancer (it would reach
# the server's metrics otherwise: the test sends the operator's token along).
METRICS_SPELLINGS = ["/metrics", "/metrics/", "/metrics?x=1", "//metrics", "/%6Detrics", "/%6detrics", "/METRICS",
                     "/Metrics/", "/./metrics", "/x/../metrics", "/metrics%2F", "/metrics;x", "/%2Fmetrics"]


def server_default(flag: str) -> int:
    help_text = subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, check=True).stdout
    return int(re.search(rf"--{flag} <[^>]+>\s.*?\(default: (\d+)\)", help_text, re.DOTALL).group(1))


def seconds(value: str) -> int:
    return int(value.rstrip("s"))


def test_the_shipped_limits_fit_the_servers_own():
    per_address = server_default("max-connections-per-address")
    per_node = server_default("max-connections")
    header = server_default("header-timeout-seconds")
    idle = server_default("idle-timeout-seconds")
    site = (NGINX_DIR / "timerboard.conf").read_text()
    main = (NGINX_DIR / "nginx.conf").read_text()
    haproxy = HAPROXY_CONF.read_text()

    # One address never holds more sockets than a node would give it.
    assert int(re.search(r"limit_conn timerboard_connections (\d+);", site).group(1)) <= per_address
    assert int(re.search(r"sc_conn_cur\(0\) gt (\d+)", haproxy).group(1)) <= per_address
    # Room for every socket the nodes admit: two nginx connections each, one HAProxy maxconn each.
    assert int(re.search(r"worker_connections (\d+);", main).group(1)) >= 2 * NODES * per_node
    assert int(re.search(r"worker_rlimit_nofile (\d+);", main).group(1)) >= int(re.search(r"worker_connections (\d+);", main).group(1))
    assert all(int(value) >= NODES * per_node for value in re.findall(r"^    maxconn (\d+)$", haproxy, re.MULTILINE))
    # Timeouts no looser than the server's.
    for directive in ("client_header_timeout", "client_body_timeout"):
        assert all(seconds(value) <= header for value in re.findall(rf"{directive} (\w+);", site)), directive
    assert all(seconds(value) <= idle for value in re.findall(r"keepalive_timeout (\w+);", site))
    assert seconds(re.search(r"timeout http-request (\w+)", haproxy).group(1)) <= header
    for directive in ("http-keep-alive", "client"):
        assert seconds(re.search(rf"timeout {directive} (\w+)", haproxy).group(1)) <= idle, directive


def https_connection(balancer, source):
    return http.client.HTTPSConnection("127.0.0.1", balancer.https_port, context=UNVERIFIED_TLS, timeout=10,
                                       source_address=(source, 0))


def get(balancer, path, source, headers=None):
    connection = https_connection(balancer, source)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def cut_after(balancer, source) -> float:
    """Sends half a request header and nothing more: seconds until the balancer closes."""
    raw = socket.create_connection(("127.0.0.1", balancer.https_port), timeout=30, source_address=(source, 0))
    with UNVERIFIED_TLS.wrap_socket(raw) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sent = time.monotonic()
        try:
            while connection.recv(4096):
                pass  # HAProxy answers 408 before it closes
        except (ConnectionError, ssl.SSLError):
            pass
        return time.monotonic() - sent


@pytest.mark.parametrize("name", balancer_params())
def test_one_hostile_address_is_held_off_by_the_balancer(name, server_factory, tmp_path):
    server = server_factory(["--trusted-proxy", "127.0.0.1"]).start()
    balancer = BALANCERS[name](tmp_path / name, server.port, overrides=SMALL[name])
    assert balancer.check().returncode == 0
    balancer.start()
    try:
        # A slow header from 127.0.0.5, timed meanwhile.
        slow = {}
        slow_thread = threading.Thread(target=lambda: slow.update(seconds=cut_after(balancer, "127.0.0.5")))
        slow_thread.start()

        # Sockets: 127.0.0.2 gets its share and no more, from the balancer (429; the server
        # would allow 1,000 and answer 503); 127.0.0.3 still gets in.
        async def sockets():
            url = f"wss://127.0.0.1:{balancer.https_port}/ws"

            async def welcomed(source):
                ws = await websockets.connect(url, ssl=UNVERIFIED_TLS, local_addr=(source, 0))
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "limits-client-0123456789"}))
                assert json.loads(await ws.recv())["type"] == "welcome"
                return ws

            held = [await welcomed("127.0.0.2") for _ in range(SOCKETS_PER_ADDRESS)]
            with pytest.raises(websockets.InvalidStatus) as refused:
                await welcomed("127.0.0.2")
            other = await welcomed("127.0.0.3")
            for ws in [*held, other]:
                await ws.close()
            return refused.value.response.status_code

        assert asyncio.run(sockets()) == 429

        # Requests: 127.0.0.4 asks as fast as it can until refused (429), within a bound; the
        # next address is served at once.
        connection, statuses = https_connection(balancer, "127.0.0.4"), []
        while 429 not in statuses and len(statuses) < 1000:
            try:
                connection.request("GET", "/health")
                response = connection.getresponse()
                response.read()
                statuses.append(response.status)
            except (http.client.HTTPException, OSError):
                connection.close()
                connection = https_connection(balancer, "127.0.0.4")
        connection.close()
        assert statuses[-1] == 429 and set(statuses[:-1]) <= {200, 429}, statuses[-5:]
        print(f"{name}: 127.0.0.4 refused after {statuses.index(429)} requests")
        assert get(balancer, "/health", "127.0.0.6")[0] == 200

        # /metrics, however spelled, even with the operator's token.
        token = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        leaks = {}
        for spelling in METRICS_SPELLINGS + [f"https://127.0.0.1:{balancer.https_port}/metrics"]:
            status, body = get(balancer, spelling, "127.0.0.7", token)
            if status != 404 or b"timerboard_" in body:
                leaks[spelling] = status
        assert leaks == {}, f"{name} let these through: {leaks}"
        assert get(balancer, "/", "127.0.0.7")[0] == 200  # and nothing else is closed

        slow_thread.join(timeout=HEADER_TIMEOUT + 20)
        assert "seconds" in slow, f"{name} held a half-sent header for {HEADER_TIMEOUT + 20} s"
        print(f"{name}: a half-sent header was cut after {slow['seconds']:.1f} s ({HEADER_TIMEOUT} s configured)")
    finally:
        balancer.stop()
