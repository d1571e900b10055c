"""A wrong secret for a board that is not in memory is checked against the stored hashes before
anything else: it never makes the server load the board (issue 34: a few dozen such requests a
second at big boards kept every core busy loading and unloading them)."""
from log_events import events, wait_for_events
from raw_websocket import RawClient

WRONG = "wrong-secret-0123456789"


def loads_of(server, board) -> list:
    return [event for event in events(server.log_path, "board.loaded") if event["tb.board.id"] == str(board)]


def test_a_wrong_secret_does_not_load_the_board(server_factory):
    server = server_factory(["--log-format", "json"]).start()
    board = server.create_board("Big and cold")
    # Over HTTP, over the socket and as an event stream: the unknown-board answer, nothing loaded.
    assert server.request("GET", f"/api/boards/{board}", secret=WRONG)[0] == 404
    assert server.request("PATCH", f"/api/boards/{board}", secret=WRONG, body={"title": "x"})[0] == 404
    client = RawClient(server.port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": "guesser-0123456789"})
    assert client.message()["type"] == "welcome"
    client.send({"type": "join", "board": str(board), "secret": WRONG})
    assert client.message()["code"] == "board_not_found"
    assert server.request("GET", f"/api/boards/{board}/events", secret=WRONG)[0] == 404

    # The right secret loads it, once: the log holds that load and no earlier one.
    assert server.request("GET", f"/api/boards/{board}", secret=board.view)[0] == 200
    wait_for_events(server.log_path, "board.loaded", where=lambda event: event["tb.board.id"] == str(board))
    assert len(loads_of(server, board)) == 1, loads_of(server, board)
    client.close()
