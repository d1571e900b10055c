#!/usr/bin/env python3
"""A crowd that comes and goes: CROWD viewers hold one board (a stage's phones), then for
SECONDS one phone arrives and one leaves every 1/RATE s while an editor edits 5 times a second.
Prints the server's CPU per second of churn, what a held phone was sent, and how long an edit
took to reach one phone (p50/p99; one loop does it all, so a phone's handshake delays the
reading by a few ms). docs/performance.md.
  scripts/bench-presence-churn.py SERVER_BINARY [CROWD] [RATE] [SECONDS]
e.g. scripts/bench-presence-churn.py .build/release/timerboard 3000 20 10. It starts the server
with scripts/bench's serve options (every budget far out of reach) on core 0 and runs itself on
core 1, as the published figures were taken."""
import array
import fcntl
import json
import os
import resource
import selectors
import shutil
import subprocess
import sys
import tempfile
import termios
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from raw_websocket import RawClient  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def received_bytes(client: RawClient) -> int:
    """What the socket holds unread (the held phones never read)."""
    buffer = array.array("i", [0])
    fcntl.ioctl(client.sock.fileno(), termios.FIONREAD, buffer)
    return buffer[0]


SERVE_OPTIONS = [
    "--log-level", "warning", "--edits-per-second", "1000000", "--edit-burst", "1000000",
    "--boards-per-minute", "1000000", "--board-burst", "1000000", "--max-connections", "50000",
    "--max-connections-per-address", "50000", "--max-connections-per-ipv6-network", "50000",
    "--address-edits-per-second", "1000000", "--address-edit-burst", "1000000",
    "--board-edits-per-second", "1000000", "--board-edit-burst", "1000000"]


def main():
    binary = sys.argv[1]
    crowd_size = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else 20
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 10
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    pinned = os.cpu_count() >= 2 and shutil.which("taskset")
    data, port = tempfile.mkdtemp(), 18000 + os.getpid() % 1000
    server = subprocess.Popen([*(["taskset", "-c", "0"] if pinned else []), binary, "serve", "--port", str(port),
                               "--data-directory", data, *SERVE_OPTIONS])
    try:
        if pinned:
            os.sched_setaffinity(0, {1})
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health")
                break
            except OSError:
                assert server.poll() is None, "the server did not start"
                time.sleep(0.1)
        churn(server.pid, port, crowd_size, rate, seconds)
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(data)


def churn(pid: int, port: int, crowd_size: int, rate: float, seconds: float):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/boards", method="POST",
                                     data=json.dumps({"title": "Stage"}).encode(),
                                     headers={"Content-Type": "application/json"})
    created = json.load(urllib.request.urlopen(request))

    class Board(str):
        secrets = created["secrets"]
    board = Board(created["id"])

    crowd = []
    for n in range(crowd_size):
        phone = RawClient(port, None)
        phone.hello_and_join(f"phone-{n:06d}-0123456789", board, role="view")
        crowd.append(phone)
    editor = RawClient(port, None)
    editor.hello_and_join("editor-0123456789", board)
    editor.send({"type": "edit", "opId": "s", "ops": [{"op": "addSection", "id": "s", "title": "Act"}]})
    editor.sock.setblocking(False)  # after its answers, read in the loop below
    witness = RawClient(port, None)  # held and never read: what a phone is sent
    witness.hello_and_join("witness-0123456789", board, role="view")
    probe = RawClient(port, None)
    probe.hello_and_join("probe-0123456789", board, role="view")
    probe.sock.setblocking(False)
    time.sleep(1)  # the last arrivals' flush
    unread_before = received_bytes(witness)
    cpu_before, started = cpu_seconds(pid), time.monotonic()
    latencies, sent_at, buffer = [], {}, b""
    poller = selectors.DefaultSelector()
    for sock in (probe.sock, editor.sock):
        poller.register(sock, selectors.EVENT_READ)
    arrivals, edits, next_arrival, next_edit = 0, 0, started, started
    while (now := time.monotonic()) < started + seconds:
        if now >= next_arrival:
            crowd.pop(0).close()
            phone = RawClient(port, None)
            phone.hello_and_join(f"late-{arrivals:06d}-0123456789", board, role="view")
            crowd.append(phone)
            arrivals += 1
            next_arrival += 1 / rate
        if now >= next_edit:
            edits += 1
            sent_at[f"Act {edits}"] = time.monotonic()
            editor.send({"type": "edit", "opId": str(edits), "ops": [{"op": "updateSection", "id": "s", "title": f"Act {edits}"}]})
            next_edit += 0.2
        readable = {key.fileobj for key, _ in poller.select(0.002)}
        if editor.sock in readable:
            editor.sock.recv(1 << 20)
        if probe.sock in readable:
            buffer += probe.sock.recv(1 << 20)
            # Server frames are unmasked and whole; a changeset's new title is found in its text.
            for title in list(sent_at):
                if f'"{title}"'.encode() in buffer:
                    latencies.append((time.monotonic() - sent_at.pop(title)) * 1000)
            buffer = buffer[-4096:]
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(pid) - cpu_before
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")
    print(json.dumps({
        "crowd": crowd_size, "arrivalsPerSecond": rate, "seconds": round(elapsed, 2), "arrivals": arrivals,
        "serverCPUPerSecond": round(cpu / elapsed, 3),
        "bytesToAHeldPhonePerSecond": round((received_bytes(witness) - unread_before) / elapsed),
        "editToPhoneMs": {"p50": round(pick(0.5), 1), "p99": round(pick(0.99), 1), "count": len(latencies), "edits": edits},
    }))


if __name__ == "__main__":
    main()
