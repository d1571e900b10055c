"""The server gives the heap's free pages back to the kernel every `--heap-trim-seconds` (issue 33):
glibc keeps what a moment of load freed resident between long-lived objects otherwise (the
arrays of a broadcast to thousands, a join storm's buffers), 100-550 bytes per idle connection
at 15,000 (docs/performance.md). `0` turns it off."""
import subprocess
import time

import pytest

from conftest import BINARY, ServerProcess
from raw_websocket import RawClient
from test_metrics import metrics, value


def join_and_leave(server, board, count):
    """A small crowd joins and goes: its connections' objects and buffers are freed heap."""
    clients = []
    for number in range(count):
        client = RawClient(server.port, None)
        client.hello_and_join(f"crowd-{number}", board)
        clients.append(client)
    for client in clients:
        client.until("snapshot")
    for client in clients:
        client.close()


def wait_for_trims(server, count, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        samples = metrics(server)
        if value(samples, "timerboard_heap_trims_total") >= count:
            return samples
        time.sleep(0.2)
    raise AssertionError(f"fewer than {count} heap trims in {seconds} s")


def test_freed_heap_goes_back_every_interval_and_not_at_all_with_0(server_factory, tmp_path):
    trimming = server_factory(["--heap-trim-seconds", "1"]).start()
    keeping = ServerProcess(tmp_path / "kept", tmp_path / "kept.log", ["--heap-trim-seconds", "0"]).start()
    try:
        for server in (trimming, keeping):
            join_and_leave(server, server.create_board("Crowd"), 300)
        samples = wait_for_trims(trimming, 2)
        # A trim after the crowd left gave pages back, and the resident memory shows it.
        assert value(samples, "timerboard_heap_trimmed_bytes_total") > 0
        # Meanwhile, two seconds at least, the other server never trimmed.
        kept = metrics(keeping)
        assert value(kept, "timerboard_heap_trims_total") == 0
        assert value(kept, "timerboard_heap_trimmed_bytes_total") == 0
    finally:
        keeping.stop()


@pytest.mark.parametrize("seconds", ["-1", "soon"])
def test_a_wrong_heap_trim_interval_is_refused_before_serving(tmp_path, seconds):
    result = subprocess.run([str(BINARY), "serve", "--port", "0", "--data-directory", str(tmp_path),
                             "--heap-trim-seconds", seconds], capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "heap-trim-seconds" in result.stderr, result.stderr
