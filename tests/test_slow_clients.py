"""Slow HTTP clients do not outlive the limits (issue 34): a kept-alive connection that keeps
asking is closed once it has lived `--keep-alive-lifetime-seconds`, and a body dripped a byte at a
time is cut off `--request-timeout-seconds` after its header. Raw sockets against a real server,
with the limits set short by flags."""
import select
import socket
import time

from test_socket_limits import GENEROUS, read_response


def test_a_kept_alive_connection_that_keeps_asking_is_closed_after_its_lifetime(server_factory):
    # The idle timeout is far away: only the lifetime may end this connection.
    server = server_factory(["--keep-alive-lifetime-seconds", "1", "--idle-timeout-seconds", "300"]).start()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS)
    deadline = time.monotonic() + GENEROUS
    answers = 0
    # Ends either way a kept-alive connection may end: an answer saying `Connection: close` (a
    # request was in progress when the lifetime was up), or closed between two requests.
    try:
        while True:
            assert time.monotonic() < deadline, f"still kept alive after {answers} answers"
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            status, headers, _ = read_response(sock)
            assert status == 200
            answers += 1
            if headers.get("connection", "").lower() == "close":
                assert sock.recv(1) == b"", "the answer that said close was not the last"
                break
    except (ConnectionResetError, BrokenPipeError):
        pass
    except AssertionError as error:
        if "closed before answering" not in str(error):
            raise
    sock.close()
    assert server.request("GET", "/health")[0] == 200


def test_a_body_dripped_a_byte_at_a_time_is_cut_off_with_408(server_factory):
    server = server_factory(["--request-timeout-seconds", "1", "--idle-timeout-seconds", "300"]).start()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS)
    sock.sendall(b"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 10000\r\n\r\n{")
    deadline = time.monotonic() + GENEROUS
    # A byte whenever the server has said nothing for a fifth of a second: the connection is never idle.
    while not select.select([sock], [], [], 0.2)[0]:
        assert time.monotonic() < deadline, "a dripping body is held"
        sock.sendall(b" ")
    status, headers, body = read_response(sock)
    assert status == 408, (status, body)
    assert headers.get("connection", "").lower() == "close"
    sock.settimeout(GENEROUS)
    try:
        assert sock.recv(1) == b""
    except ConnectionResetError:
        pass
    sock.close()
    assert server.request("GET", "/health")[0] == 200


def test_a_body_that_arrives_in_time_is_served(server_factory):
    server = server_factory(["--request-timeout-seconds", "5"]).start()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS)
    body = b'{"title":"On time"}'
    sock.sendall(b"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    status, _, answer = read_response(sock)
    assert status == 201, answer
    sock.close()
