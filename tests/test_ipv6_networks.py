"""IPv6 clients count by their /64 and by a wider network too (issue 34): one site holds a whole
/48, so ten of its /64s must not fill the server. The machine has one loopback address, so the
many-/64s case is unit-tested (Tests/TimerBoardServerTests/IPv6NetworkCountsTests.swift); here
a real IPv6 client from ::1 meets its network's cap below its address's, with a plain `503`,
while a client of another network (the machine's own global address, when it has one) is served."""
import socket
from pathlib import Path

import pytest

from test_socket_limits import GENEROUS, read_response


def other_ipv6_address():
    """A global or unique-local IPv6 address of this machine (not ::1, not link-local), or None."""
    try:
        lines = Path("/proc/net/if_inet6").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        raw, _, _, scope, *_ = line.split()
        if scope == "00":  # global scope (unique-local fd00::/8 counts here too)
            return ":".join(raw[i:i + 4] for i in range(0, 32, 4))
    return None


def connect(address: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    sock.settimeout(GENEROUS)
    sock.bind((address, 0))
    sock.connect((address, port))
    return sock


def health(sock) -> int:
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: timerboard\r\n\r\n")
    return read_response(sock)[0]


def test_an_ipv6_network_at_its_cap_is_refused_below_its_addresss_cap(server_factory):
    try:
        socket.socket(socket.AF_INET6, socket.SOCK_STREAM).bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    server = server_factory(["--host", "::", "--max-connections-per-address", "10",
                             "--max-connections-per-ipv6-network", "2"]).start()
    # Two connections that have sent nothing yet: neither is idle, so neither gives up its slot.
    holders = [connect("::1", server.port) for _ in range(2)]
    third = connect("::1", server.port)
    status = health(third)
    assert status == 503, status
    if other := other_ipv6_address():
        elsewhere = connect(other, server.port)
        assert health(elsewhere) == 200
        elsewhere.close()
    for sock in [*holders, third]:
        sock.close()
