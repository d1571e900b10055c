"""Connection caps, time limits and the shutdown deadline (issue 13), on real sockets against real
server processes. Limits are set short by flags; every time bound here is a generous "at all"
bound, never a speed threshold."""
import base64
import json
import os
import socket
import subprocess
import time

from raw_websocket import RawClient

# How long anything that should happen within a short limit may take before the test gives up.
GENEROUS = 15


def read_response(sock) -> tuple[int, dict, bytes]:
    """One HTTP response from `sock`: (status, headers with lower-case names, body)."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, f"the server closed before answering: {head!r}"
        head += chunk
    status_line, *lines = head.decode().split("\r\n")
    headers = {name.lower(): value for name, value in (line.split(": ", 1) for line in lines if ": " in line)}
    body = b""
    while len(body) < int(headers.get("content-length", 0)):
        chunk = sock.recv(int(headers["content-length"]) - len(body))
        assert chunk, "the server closed inside the body"
        body += chunk
    return int(status_line.split(" ")[1]), headers, body


def upgrade(port: int) -> tuple[socket.socket, int, dict, bytes]:
    """Asks for a WebSocket on a fresh connection: (socket, status, headers, body). On 101 the
    socket is a WebSocket and the body empty."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=GENEROUS)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock, *read_response(sock)


def closed_by_server(sock) -> bool:
    """Reads until the server closes the connection (True) or GENEROUS seconds pass (False)."""
    sock.settimeout(GENEROUS)
    try:
        while sock.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def assert_refused_with_503(port: int, reason_word: str):
    sock, status, headers, body = upgrade(port)
    try:
        assert status == 503, (status, body)
        assert int(headers["retry-after"]) > 0
        error = json.loads(body)
        assert error["type"] == "error" and error["code"] == "too_many_connections", error
        assert reason_word in error["message"], error
        assert closed_by_server(sock), "a refused upgrade's connection stays open"
    finally:
        sock.close()


def upgrade_once_a_slot_is_free(port: int) -> socket.socket:
    """The server learns of a closed connection on its own schedule: retry a refused upgrade
    until one succeeds (GENEROUS seconds at most)."""
    deadline = time.monotonic() + GENEROUS
    while True:
        sock, status, _, body = upgrade(port)
        if status == 101:
            return sock
        sock.close()
        assert status == 503 and time.monotonic() < deadline, (status, body)


def test_per_address_cap_answers_503_before_the_upgrade_and_a_closed_socket_frees_its_slot(server_factory):
    server = server_factory(["--max-connections-per-address", "2"]).start()
    first, second = RawClient(server.port, None), RawClient(server.port, None)
    for number, client in enumerate([first, second]):
        client.send({"type": "hello", "protocol": 1, "clientId": f"capped-{number}"})
        assert client.message()["type"] == "welcome"
    assert_refused_with_503(server.port, "address")
    # A plain HTTP connection counts as well (issue 34): the same address gets 503 for it too.
    assert server.request("GET", "/health")[0] == 503
    # Dropped without a close frame: the slot must come back all the same.
    first.sock.close()
    third = upgrade_once_a_slot_is_free(server.port)
    assert_refused_with_503(server.port, "address")
    third.close()
    second.close()


def test_global_cap_answers_503_before_the_upgrade_and_a_closed_socket_frees_its_slot(server_factory):
    server = server_factory(["--max-connections", "2"]).start()
    first, second = RawClient(server.port, None), RawClient(server.port, None)
    assert_refused_with_503(server.port, "server")
    # A polite close this time.
    first.send_frame(b"\x03\xe8", opcode=0x8)
    assert first.close_code() == 1000
    third = upgrade_once_a_slot_is_free(server.port)
    assert_refused_with_503(server.port, "server")
    third.close()
    second.close()
    first.close()


def test_a_connection_that_never_finishes_its_header_is_closed(server_factory):
    server = server_factory(["--header-timeout-seconds", "1"]).start()
    partial = socket.create_connection(("127.0.0.1", server.port))
    partial.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    silent = socket.create_connection(("127.0.0.1", server.port))
    assert closed_by_server(partial), "a connection with half a header is held"
    assert closed_by_server(silent), "a connection that sent nothing is held"
    # The server still serves.
    assert server.request("GET", "/health")[0] == 200


def test_an_idle_kept_alive_http_connection_is_closed(server_factory):
    server = server_factory(["--idle-timeout-seconds", "1"]).start()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS)
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    status, headers, _ = read_response(sock)
    assert status == 200 and headers.get("connection", "").lower() != "close"
    assert closed_by_server(sock), "an idle kept-alive connection is held"


def test_an_oversized_request_header_gets_431_and_a_close(server):
    # Over the 16 KiB default (NIO's own bound is 80 KiB).
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS)
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 32 * 1024 + b"\r\n\r\n")
    status, _, body = read_response(sock)
    assert status == 431, (status, body)
    assert json.loads(body)["code"] == "too_large"
    assert closed_by_server(sock)
    # The same on a WebSocket upgrade: refused before it.
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS)
    sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Big: "
                 + b"a" * 32 * 1024 + b"\r\n\r\n")
    assert read_response(sock)[0] == 431
    assert closed_by_server(sock)


def answer_pings_until_closed(client: RawClient) -> tuple[int, bytes]:
    """Answers every ping with a pong, as a live client does, until the server's close frame:
    (close code, reason). Fails after GENEROUS seconds without one."""
    deadline = time.monotonic() + GENEROUS
    while time.monotonic() < deadline:
        opcode, _, _, payload = client.any_frame()
        if opcode == 0x9:
            client.send_frame(payload, opcode=0xA)
        elif opcode == 0x8:
            return int.from_bytes(payload[:2], "big"), payload[2:]
    raise AssertionError("the socket is still open")


def test_a_socket_that_answers_pings_but_never_says_hello_is_closed_with_1008(server_factory):
    server = server_factory(["--hello-timeout-seconds", "1", "--heartbeat-interval-ms", "200"]).start()
    silent = RawClient(server.port, None)
    silent.sock.settimeout(GENEROUS)
    code, reason = answer_pings_until_closed(silent)
    assert code == 1008 and reason == b"no hello in time", (code, reason)
    silent.close()


def test_a_socket_that_said_hello_outlives_the_hello_timeout(server_factory):
    server = server_factory(["--hello-timeout-seconds", "1"]).start()
    client = RawClient(server.port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": "prompt"})
    assert client.message()["type"] == "welcome"
    time.sleep(2.5)  # past the hello timeout: nothing is to happen
    client.send({"type": "ping", "t": 1})
    assert client.message()["type"] == "pong"
    client.close()


def test_sigterm_ends_the_process_despite_a_deaf_peer_and_an_idle_tcp_connection_and_keeps_acked_edits(server_factory):
    grace = 2
    # Long header and hello timeouts: only the shutdown may close these connections.
    server = server_factory(["--shutdown-grace-seconds", str(grace), "--header-timeout-seconds", "300",
                             "--hello-timeout-seconds", "300"]).start()
    board = server.create_board("Last words")
    deaf = RawClient(server.port, None)
    deaf.hello_and_join("deaf", board)
    deaf.until("snapshot")
    deaf.send({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "s1", "title": "Acked"}]})
    assert deaf.until("ack")["opId"] == "1"
    idle = socket.create_connection(("127.0.0.1", server.port))
    # From here the deaf peer reads nothing and answers nothing, the close frame included.

    server.process.terminate()
    try:
        status = server.process.wait(timeout=grace + 30)
    except subprocess.TimeoutExpired:
        raise AssertionError("SIGTERM did not end the process") from None
    assert status == 0, server.output_after_exit()
    assert "Error" not in server.output_after_exit()
    # It was asked politely first: the close frame is there, unread.
    assert deaf.close_code() == 1000
    assert closed_by_server(idle)
    deaf.close()
    idle.close()

    server.start()
    titles = [section["title"] for section in server.snapshot(board)["sections"]]
    assert titles == ["Acked"]
