"""Readers of a large board that never read their answers (plain GETs and event streams, each
with a tiny receive window) share one copy of its snapshot: the answer is the joiners' frame,
encoded once per revision, not a copy per reader. A hostile client held 13.5 MB per unread GET
and 11.6 MB per unread stream of an 11 MB board, enough to exhaust memory from one address."""
import socket
import time
import urllib.request

from raw_websocket import RawClient

READERS = 30
# Four bytes a character: a snapshot larger than what the kernel's socket buffers absorb.
TITLE = "\U0001F600" * 200
TIMERS = 3_000


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def large_board(server):
    """About 2.6 MB of snapshot, in edits of 300 timers (the server allows large ones here; a
    frame is at most 1 MiB, and the JSON sent escapes each character in 12 bytes)."""
    board = server.create_board("Large")
    editor = RawClient(server.port, None)
    editor.send({"type": "hello", "protocol": 1, "clientId": "large-0123456789"})
    editor.sock.settimeout(120)  # a debug build takes its time over edits this large
    editor.until("welcome")
    editor.send({"type": "join", "board": str(board), "secret": board.edit})
    editor.until("snapshot")
    editor.send({"type": "edit", "opId": "s", "ops": [{"op": "addSection", "id": "s", "title": "S"}]})
    for batch in range(TIMERS // 300):
        ops = [{"op": "addTimer", "id": f"t{batch}-{i}", "sectionID": "s", "title": TITLE, "minutes": 1, "seconds": 0}
               for i in range(300)]
        editor.send({"type": "edit", "opId": f"b{batch}", "ops": ops})
    while True:
        message = editor.message()
        if message.get("opId") == f"b{TIMERS // 300 - 1}":
            assert message["type"] == "ack", message
            break
    editor.close()
    return board


def unread(server, path, secret, begun: bytes):
    """A connection that asks for `path` and never reads, with a receive window of a few KB: it
    only peeks until the answer has `begun`, so the server holds the rest of it."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(60)
    sock.connect(("127.0.0.1", server.port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {secret}\r\n\r\n".encode())
    while begun not in sock.recv(2048, socket.MSG_PEEK):
        time.sleep(0.01)
    return sock


def test_readers_that_do_not_read_share_one_copy_of_the_snapshot(server_factory):
    server = server_factory(["--max-connections-per-address", "200", "--max-message-bytes", str(1 << 20),
                             "--max-ops-per-edit", "300", "--edit-burst", "1000"]).start()
    board = large_board(server)
    request = urllib.request.Request(f"{server.http}/api/boards/{board}", headers={"Authorization": f"Bearer {board.view}"})
    with urllib.request.urlopen(request) as response:
        size = len(response.read())
    assert size > 2_000_000, size
    before = rss_bytes(server.process.pid)
    sockets = [unread(server, f"/api/boards/{board}", board.view, b'{"type":"snapshot"') for _ in range(READERS)]
    sockets += [unread(server, f"/api/boards/{board}/events", board.view, b"event: snapshot") for _ in range(READERS)]
    grown = rss_bytes(server.process.pid) - before
    copies = 2 * READERS * size
    print(f"{2 * READERS} unread answers of a {size / 1e6:.2f} MB board: RSS grew {grown / 1e6:.1f} MB "
          f"(a copy each would be {copies / 1e6:.1f} MB)")
    assert grown < copies / 4, f"RSS grew {grown} bytes for {2 * READERS} unread answers of {size} bytes"
    assert server.request("GET", "/health")[0] == 200, "the server still answers"
    for sock in sockets:
        sock.close()
