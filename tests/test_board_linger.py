"""A board an HTTP request or an event stream used stays in memory for the next one
(`--board-linger-seconds`, 30 by default), then leaves if nobody is on it. Before, every request
to a board no socket held loaded the whole board and let it go again: at 500 timers 13.8 ms and
13.5 ms of server CPU a request instead of 1.4-1.7 ms (docs/performance.md)."""
import subprocess
import time

import pytest

from conftest import BINARY
from log_events import events, wait_for_events
from raw_websocket import RawClient


def loads_of(server, board) -> list:
    return [event for event in events(server.log_path, "board.loaded") if event["tb.board.id"] == str(board)]


def live_boards(server) -> int:
    return server.request("GET", "/health")[1]["liveBoards"]


def test_a_scripts_requests_within_the_linger_load_the_board_once(server_factory):
    server = server_factory(["--log-format", "json"]).start()
    board = server.create_board("Scripted")
    ops = [{"op": "addSection", "id": "s1", "title": "Stage"}]
    assert server.request("POST", f"/api/boards/{board}/edits", secret=board.edit, body={"opId": "1", "ops": ops})[0] == 200
    assert server.snapshot(board)["sections"][0]["title"] == "Stage"
    ops = [{"op": "updateSection", "id": "s1", "title": "Main stage"}]
    assert server.request("POST", f"/api/boards/{board}/edits", secret=board.edit, body={"opId": "2", "ops": ops})[0] == 200
    assert server.snapshot(board)["sections"][0]["title"] == "Main stage"
    assert len(loads_of(server, board)) == 1, loads_of(server, board)
    assert live_boards(server) == 1


def test_a_socket_leaving_a_lingering_board_does_not_drop_it_before_the_linger_ends(server_factory):
    server = server_factory().start()
    board = server.create_board("Shared")
    assert server.snapshot(board)["rev"] == 0  # a script's read: the board lingers from here
    client = RawClient(server.port, None)
    client.hello_and_join("passer-by-0123456789", board)
    client.until("snapshot")
    client.send({"type": "leave"})
    client.send({"type": "ping", "t": 1})
    client.until("pong")  # the leave has been handled, with its release of an idle board
    assert live_boards(server) == 1
    client.close()


@pytest.mark.parametrize("seconds", ["0", "1"])
def test_the_board_leaves_memory_once_the_linger_has_ended(server_factory, seconds):
    server = server_factory(["--log-format", "json", "--board-linger-seconds", seconds]).start()
    board = server.create_board("Briefly")
    assert server.snapshot(board)["rev"] == 0
    unloaded = wait_for_events(server.log_path, "board.unloaded", where=lambda event: event["tb.board.id"] == str(board))
    assert unloaded[0]["tb.reason"] == "idle"
    # The room logs its close, then the registry lets it go: /health may answer in between.
    deadline = time.monotonic() + 10
    while live_boards(server) != 0:
        assert time.monotonic() < deadline, "the board stayed in memory after it was unloaded"
        time.sleep(0.05)
    # The next request loads it again.
    assert server.snapshot(board)["rev"] == 0
    assert len(loads_of(server, board)) == 2, loads_of(server, board)


@pytest.mark.parametrize("seconds, says", [("-1", "must be 0 to 3600"), ("3601", "must be 0 to 3600"), ("soon", "is invalid for")])
def test_a_wrong_board_linger_is_refused_before_serving(tmp_path, seconds, says):
    result = subprocess.run([str(BINARY), "serve", "--port", "0", "--data-directory", str(tmp_path),
                             f"--board-linger-seconds={seconds}"], capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "board-linger-seconds" in result.stderr and says in result.stderr, result.stderr
