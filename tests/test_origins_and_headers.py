"""Browsers and origins (issue 13, first part): a page of another site cannot open the board
socket or change state over HTTP; scripts (no Origin) and the server's own pages can; every
response carries the security headers."""
import base64
import os
import socket
import urllib.request


def upgrade_status(port, origin=None):
    """The status line of a WebSocket upgrade request, with `Origin` when given."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    lines = ["GET /ws HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}", "Sec-WebSocket-Version: 13"]
    if origin:
        lines.append(f"Origin: {origin}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(256)
        if not chunk:
            break
        head += chunk
    sock.close()
    return int(head.split(b" ")[1])


def post(server, origin=None):
    return server.post_board(b'{"title":"x"}', {"Origin": origin} if origin else None)


def test_a_page_of_another_site_cannot_open_the_socket_or_create_a_board(server_factory):
    server = server_factory(["--allowed-origin", "https://kitchen.example"]).start()
    own = f"http://127.0.0.1:{server.port}"
    assert upgrade_status(server.port) == 101, "scripts send no Origin"
    assert upgrade_status(server.port, own) == 101, "the server's own page"
    assert upgrade_status(server.port, "https://kitchen.example") == 101, "--allowed-origin"
    assert upgrade_status(server.port, "ws://127.0.0.1") == 101, "a WebSocket library, not a page"
    assert upgrade_status(server.port, "https://evil.example") == 403, "a refused upgrade is a 403 with the error shape"
    assert upgrade_status(server.port, f"http://127.0.0.1:{server.port + 1}") == 403, "another port is another origin"

    before = server.board_count()
    status, answer = post(server, "https://evil.example")
    assert status == 403 and answer["type"] == "error" and answer["code"] == "forbidden", (status, answer)
    assert server.board_count() == before, "nothing was created"
    assert post(server, own)[0] == 201
    assert post(server, "https://kitchen.example")[0] == 201
    assert post(server)[0] == 201


def test_every_response_carries_the_security_headers(server):
    # /api/boards answers 403 without the operator token; its headers are checked in test_links.py.
    for path in ["/", "/main.js", "/b/abc", "/b/abc/display", "/b/abc/display/tim-1", "/health"]:
        with urllib.request.urlopen(server.http + path) as response:
            headers = response.headers
            policy = headers["Content-Security-Policy"]
            assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, (path, policy)
            assert headers["X-Content-Type-Options"] == "nosniff", path
            assert headers["Referrer-Policy"] == "no-referrer", path
            assert headers["Cache-Control"], path
