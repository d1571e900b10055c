"""Requests that are not what they should be (a WebSocket handshake that breaks RFC 6455, an
upgrade to another protocol, bytes that are not HTTP) get an answer at once, with the error
shape every HTTP error has, instead of a closed connection or a wait for the header deadline."""
import base64
import json
import os
import socket

from test_socket_limits import GENEROUS, closed_by_server, read_response

KEY = base64.b64encode(os.urandom(16)).decode()


def ask(port: int, request: str) -> tuple[socket.socket, int, dict, dict | None]:
    """Sends `request` on a fresh connection: (socket, status, headers, JSON body or None)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=GENEROUS)
    sock.sendall(request.encode())
    status, headers, body = read_response(sock)
    is_json = headers.get("content-type", "").startswith("application/json")
    return sock, status, headers, json.loads(body) if is_json else None


def upgrade_request(port: int, *fields: str) -> str:
    lines = ["GET /ws HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade", *fields]
    return "\r\n".join(lines) + "\r\n\r\n"


def assert_error(status, headers, body, expected_status, code):
    assert status == expected_status, (status, headers, body)
    assert body and body["type"] == "error" and body["code"] == code and body["message"], body


def test_a_handshake_of_another_websocket_version_is_told_which_one_this_server_speaks(server):
    for version in (["Sec-WebSocket-Version: 8"], []):
        sock, status, headers, body = ask(server.port, upgrade_request(server.port, f"Sec-WebSocket-Key: {KEY}", *version))
        assert_error(status, headers, body, 426, "bad_message")
        assert headers["sec-websocket-version"] == "13", headers  # RFC 6455 4.4
        assert headers["upgrade"] == "websocket", headers
        assert closed_by_server(sock)


def test_a_handshake_without_one_proper_key_is_a_400(server):
    for keys in ([], ["Sec-WebSocket-Key: short"], [f"Sec-WebSocket-Key: {KEY}", f"Sec-WebSocket-Key: {KEY}"],
                 [f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(15)).decode()}"]):
        sock, status, headers, body = ask(server.port, upgrade_request(server.port, *keys, "Sec-WebSocket-Version: 13"))
        assert_error(status, headers, body, 400, "bad_message")
        assert closed_by_server(sock)
    sock, status, _, _ = ask(server.port, upgrade_request(server.port, f"Sec-WebSocket-Key: {KEY}", "Sec-WebSocket-Version: 13"))
    assert status == 101, "a proper handshake still opens the socket"
    sock.close()


def test_the_socket_path_without_an_upgrade_says_what_it_needs(server):
    sock, status, headers, body = ask(server.port, f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n")
    assert_error(status, headers, body, 426, "bad_message")
    assert headers["upgrade"] == "websocket", headers  # RFC 9110 15.5.22
    sock.close()


def test_an_upgrade_to_another_protocol_is_served_as_http_1_1(server):
    # Java's HttpClient asks for h2c on every http:// request by default.
    request = (f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: Upgrade, HTTP2-Settings\r\n"
               "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n")
    sock, status, headers, body = ask(server.port, request)
    assert status == 200 and body["status"] == "ok", (status, headers, body)
    # The decoder reads nothing after a request that asks to upgrade: the next goes on a new connection.
    assert headers["connection"] == "close", headers
    assert closed_by_server(sock)


def test_bytes_that_are_not_http_get_a_400_with_the_error_shape(server):
    for request in ("HELLO\r\n\r\n",
                    f"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Length: abc\r\n\r\n"):
        sock, status, headers, body = ask(server.port, request)
        assert_error(status, headers, body, 400, "bad_message")
        assert closed_by_server(sock)
    # The same for a later request on a kept-alive connection.
    sock, status, _, _ = ask(server.port, f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n")
    assert status == 200
    sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
    status, headers, raw = read_response(sock)
    assert_error(status, headers, json.loads(raw) if raw else None, 400, "bad_message")
    assert closed_by_server(sock)
