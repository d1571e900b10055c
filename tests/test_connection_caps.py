"""Every TCP connection counts against the caps, plain HTTP ones too (issue 34): one address
holding kept-alive HTTP connections cannot take every file descriptor, and a server that runs
short of them keeps serving. Servers run under a low open-file limit (`prlimit`), so what would
run out is the process's descriptors, as it would in production at 10,000 connections."""
import socket
import time

from conftest import ServerProcess
from raw_websocket import RawClient
from test_socket_limits import GENEROUS, closed_by_server, read_response

# The process may open this many files: its connection cap is then 256 less the reserve (128).
FILE_LIMIT = 256


class LimitedServer(ServerProcess):
    """A server that may open only FILE_LIMIT files (soft and hard: it cannot raise it)."""

    def command(self) -> list:
        return ["prlimit", f"--nofile={FILE_LIMIT}:{FILE_LIMIT}", "--", *super().command()]


def limited_server(tmp_path, extra_args=()) -> LimitedServer:
    return LimitedServer(tmp_path / "data", tmp_path / "server.log", list(extra_args)).start()


def kept_alive_request(port: int, source="127.0.0.1") -> socket.socket:
    """A connection that asked one thing and keeps the connection open afterwards."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(GENEROUS)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    status, headers, _ = read_response(sock)
    assert status == 200 and headers.get("connection", "").lower() != "close", (status, headers)
    return sock


def test_one_address_with_kept_alive_http_connections_cannot_lock_anyone_out(tmp_path):
    server = limited_server(tmp_path, ["--max-connections-per-address", "40"])
    try:
        # More kept-alive connections than the address may hold, and than the process has files.
        held = [kept_alive_request(server.port) for _ in range(FILE_LIMIT + 50)]
        # Each newcomer past the cap took the slot of its address's longest-idle connection,
        # which the server closed: the first ones are gone, the newest still answer.
        assert closed_by_server(held[0]), "the longest-idle connection of a full address is kept"
        held[-1].sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_response(held[-1])[0] == 200

        # Another client still gets its WebSocket, and the server still answers.
        other = RawClient(server.port, None, source="127.0.0.2")
        other.send({"type": "hello", "protocol": 1, "clientId": "someone-else"})
        assert other.message()["type"] == "welcome"
        status, _ = server.request("GET", "/health")
        assert status == 200
        assert server.process.poll() is None
        other.close()
        for sock in held:
            sock.close()
    finally:
        server.stop()


def test_running_short_of_file_descriptors_never_ends_the_process(tmp_path):
    # Caps as high as they go: the limit that bites is the process's own file limit.
    server = limited_server(tmp_path, ["--max-connections", "100000", "--max-connections-per-address", "100000",
                                       "--header-timeout-seconds", "60", "--hello-timeout-seconds", "60"])
    try:
        board = server.create_board("Crowded")
        # WebSockets are never closed to make room: fill the server with them, from many addresses.
        sockets = []
        for number in range(FILE_LIMIT):
            try:
                client = RawClient(server.port, None, source=f"127.0.1.{number % 200 + 1}")
                client.hello_and_join(f"crowd-{number}", board)
                client.until("snapshot")
                sockets.append(client)
            except (AssertionError, OSError):
                break
        else:
            raise AssertionError("the server took more WebSockets than it has files for")
        # Then raw connections that say nothing, many more than are left.
        silent = []
        for _ in range(FILE_LIMIT):
            try:
                silent.append(socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS))
            except OSError:
                pass
        # Work that needs the runtime's worker threads (store writes) goes on meanwhile: with no
        # descriptor left, their monitor used to trap (SIGILL) and end the process.
        for number, client in enumerate(sockets):
            client.send({"type": "edit", "opId": f"e{number}", "ops": [{"op": "addSection", "id": f"s{number}", "title": "S"}]})
        for client in sockets:
            assert client.until("ack")
        # The server is alive and, once some close, admits again.
        assert server.process.poll() is None, server.output_after_exit()
        for sock in silent:
            sock.close()
        for client in sockets[:10]:
            client.close()
        deadline = time.monotonic() + GENEROUS
        while True:
            try:
                client = RawClient(server.port, None, source="127.0.0.250")
                break
            except (AssertionError, OSError):
                assert time.monotonic() < deadline, "no WebSocket is admitted after others closed"
        client.send({"type": "hello", "protocol": 1, "clientId": "late"})
        assert client.message()["type"] == "welcome"
        assert server.request("GET", "/health")[0] == 200
        assert server.process.poll() is None
        client.close()
        for client in sockets[10:]:
            client.close()
    finally:
        server.stop()
