"""A full disk is the store's failure, not the client's: `POST /api/boards` answers 503 with the
error shape (it answered 500 with an empty body), the server stays up, and once there is room
again it creates boards as before. The disk is a real, tiny tmpfs that the test fills."""
import json
import os
import subprocess
import urllib.error
import urllib.request

import pytest

from conftest import ServerProcess


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
    request = urllib.request.Request(server.http + "/api/boards", data=json.dumps({"title": title}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_a_full_disk_answers_503_with_the_error_shape_and_the_server_stays_up(tiny_disk, tmp_path):
    server = ServerProcess(tiny_disk / "data", tmp_path / "server.log").start()
    try:
        assert post_board(server, "before")[0] == 201
        filler = tiny_disk / "filler"
        with open(filler, "wb") as file:
            try:
                while True:
                    file.write(b"\0" * 65536)
                    file.flush()
            except OSError:
                pass
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
