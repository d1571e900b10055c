"""A burst of connections while the server is busy (10,000 screens coming back after a node
restarted) waits in the kernel's accept queue instead of being dropped: the server listens
with a backlog of 4,096 (capped by net.core.somaxconn), not hummingbird's 256."""
import os
import select
import signal
import socket
import urllib.request

BURST = 600


def test_connections_that_arrive_while_the_server_cannot_accept_are_held_and_then_served(server):
    with open("/proc/sys/net/core/somaxconn") as file:
        assert int(file.read()) >= BURST, "this machine's net.core.somaxconn caps any backlog below the burst"
    # The server stopped (as a busy one does not accept): only the kernel answers connects,
    # up to the listen backlog.
    os.kill(server.process.pid, signal.SIGSTOP)
    sockets = []
    try:
        for _ in range(BURST):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", server.port))
            sockets.append(sock)
        # Handshakes the kernel completes it completes at once; the others wait for a SYN that
        # is not answered while the queue is full.
        pending = list(sockets)
        for _ in range(30):
            _, writable, _ = select.select([], pending, [], 0.1)
            pending = [sock for sock in pending if sock not in writable]
            if not pending:
                break
        connected = [sock for sock in sockets if sock not in pending and sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0]
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    assert len(connected) == BURST, f"{len(connected)} of {BURST} connects were held"
    # And each one is served once the server runs again.
    for sock in connected[:20]:
        sock.setblocking(True)
        sock.settimeout(15)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.1 200")
    for sock in sockets:
        sock.close()
    assert urllib.request.urlopen(server.http + "/health").status == 200
