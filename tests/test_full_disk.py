"""A full disk is the store's failure, not the client's: `POST /api/boards` answers 503 with the
error shape (it answered 500 with an empty body), the server stays up, and once there is room
again it creates boards as before. The disk is a real, tiny tmpfs that the test fills."""
import json
import os
import subprocess
import urllib.request

import pytest

from conftest import ServerProcess, BoardRef
from raw_websocket import RawClient


@pytest.fixture
def tiny_disk(tmp_path):
    mountpoint = tmp_path / "disk"
    mountpoint.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mountpoint)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {result.stderr.strip()}")
    yield mountpoint
    subprocess.run(["umount", "-l", str(mountpoint)], check=False)


def post_board(server, title):
    return server.post_board(json.dumps({"title": title}).encode())


def fill(path):
    """Writes zeros into `path` until the disk is full. Unbuffered: a buffered file would try to
    write its unwritten rest again when closed, and fail there, whenever the free space was not a
    whole number of writes."""
    with open(path, "wb", buffering=0) as file:
        try:
            while True:
                file.write(b"\0" * 65536)
        except OSError:
            pass


def test_a_full_disk_answers_503_with_the_error_shape_and_the_server_stays_up(tiny_disk, tmp_path):
    # 200 boards from one address in a moment: the creation limit is not what this test is about.
    server = ServerProcess(tiny_disk / "data", tmp_path / "server.log", ["--boards-per-minute", "0"]).start()
    try:
        assert post_board(server, "before")[0] == 201
        filler = tiny_disk / "filler"
        fill(filler)
        # SQLite may still write into WAL pages it already has; the disk runs out soon after.
        answers = [post_board(server, f"board {n} " + "x" * 150) for n in range(200)]
        statuses = {status for status, _ in answers}
        assert statuses <= {201, 503}, statuses
        assert 503 in statuses, "the disk never filled up"
        refused = next(answer for status, answer in answers if status == 503)
        assert refused["type"] == "error" and refused["code"] == "unavailable" and refused["message"], refused
        with urllib.request.urlopen(server.http + "/health") as response:
            assert response.status == 200

        os.remove(filler)
        status, created = post_board(server, "after")
        assert status == 201 and created["title"] == "after"
    finally:
        server.stop()



def test_edits_on_a_full_disk_are_never_acked_and_no_acked_edit_is_lost(tiny_disk, tmp_path):
    """The room's failure path (BoardRoom.fail): once the store cannot append, nothing more is
    acked, the board's clients are disconnected (1011) and the server stays up; after the disk
    has room again a rejoin shows every acked edit."""
    server = ServerProcess(tiny_disk / "data", tmp_path / "server.log").start()
    try:
        status, created = post_board(server, "edits")
        board = BoardRef(created)
        client = RawClient(server.port, None)
        client.hello_and_join("writer", board)
        client.until("snapshot")
        client.send({"type": "edit", "opId": "0", "ops": [{"op": "addSection", "id": "s", "title": "S"}]})
        client.until("ack")
        fill(tiny_disk / "filler")
        acked = []
        closed_with = None
        for n in range(1, 2000):
            try:
                client.send({"type": "edit", "opId": str(n), "ops": [{"op": "updateSection", "id": "s", "title": f"{n} " + "x" * 180}]})
                while True:
                    opcode, _, _, payload = client.any_frame()
                    if opcode == 0x8:
                        closed_with = int.from_bytes(payload[:2], "big")
                        break
                    message = json.loads(payload) if opcode == 0x1 else {}
                    if message.get("type") == "ack":
                        acked.append(message["rev"])
                        break
            except (AssertionError, OSError):
                break
            if closed_with is not None:
                break
        assert closed_with == 1011, f"the board was never failed (acked {len(acked)} edits)"
        client.close()
        with urllib.request.urlopen(server.http + "/health") as response:
            assert response.status == 200

        os.remove(tiny_disk / "filler")
        reader = RawClient(server.port, None)
        reader.hello_and_join("reader", board)
        snapshot = reader.until("snapshot")
        assert snapshot["rev"] >= max(acked, default=1), (snapshot["rev"], acked[-3:])
        reader.close()
    finally:
        server.stop()
