"""The server runs one event loop for each CPU it may use, not for each CPU of the machine: under
`taskset` (or a cpuset) NIO's own count put every core's loop on the few allowed ones, and each
broadcast woke them all to take turns (issue 33). `--event-loops` sets the number."""
import os
import re
import subprocess

import pytest

from conftest import BINARY
from raw_websocket import RawClient

EVENT_LOOP_THREAD = re.compile(r"^NIO-SGLTN-\d+-#")


def event_loop_threads(pid: int) -> int:
    names = [open(f"/proc/{pid}/task/{task}/comm").read().strip() for task in os.listdir(f"/proc/{pid}/task")]
    return sum(1 for name in names if EVENT_LOOP_THREAD.match(name))


def start_pinned(server_factory, cpus, extra_args=()):
    """Starts a server that inherits this process's CPU affinity, pinned to `cpus` for the start."""
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        return server_factory(extra_args).start()
    finally:
        os.sched_setaffinity(0, allowed)


def test_a_server_pinned_to_one_cpu_runs_one_event_loop_and_serves(server_factory):
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        pytest.skip("this machine lets the tests use one CPU: nothing to tell apart")
    server = start_pinned(server_factory, {allowed[0]})
    assert event_loop_threads(server.process.pid) == 1

    board = server.create_board("Pinned")
    viewers = [RawClient(server.port, None) for _ in range(3)]
    for number, viewer in enumerate(viewers):
        viewer.hello_and_join(f"screen-{number}", board)
        viewer.until("snapshot")
    section = {"op": "addSection", "id": "s", "title": "Still served"}
    status, _ = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit, body={"opId": "1", "ops": [section]})
    assert status == 200
    for viewer in viewers:
        assert viewer.until("changes")["rev"] == 1
        viewer.close()


def test_event_loops_option_sets_the_number_whatever_the_cpus(server_factory):
    allowed = sorted(os.sched_getaffinity(0))
    server = start_pinned(server_factory, {allowed[0]}, ["--event-loops", "3"])
    assert event_loop_threads(server.process.pid) == 3


def test_the_machine_s_cpus_give_one_loop_each_when_nothing_pins_the_server(server_factory):
    server = server_factory().start()
    assert event_loop_threads(server.process.pid) == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("count", ["0", "-2", "1025", "many"])
def test_a_wrong_event_loop_count_is_refused_before_serving(tmp_path, count):
    result = subprocess.run([str(BINARY), "serve", "--port", "0", "--data-directory", str(tmp_path),
                             "--event-loops", count], capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "--event-loops" in result.stderr or "event-loops" in result.stderr, result.stderr
