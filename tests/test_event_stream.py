"""A board followed without a WebSocket (issue 31): `GET /api/boards/ID/events` is a
`text/event-stream` of the board's snapshot and then every changeset, each with its revision as
the event's id; `Last-Event-ID` resumes exactly where a client was; `curl -N` and `EventSource`
(through a one-time ticket) both work; a stream takes a slot of the sockets' caps and ends with
`event: closed` when its link is replaced."""
import http.client
import json
import subprocess
import time

from raw_websocket import RawClient

SECTION = {"op": "addSection", "id": "s", "title": "Kitchen"}


class EventStream:
    """One open stream, read event by event (`curl -N` would print the same lines)."""

    def __init__(self, server, board, secret=None, path=None, headers=None):
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
        all_headers = {**({"Authorization": f"Bearer {secret}"} if secret else {}), **(headers or {})}
        self.connection.request("GET", path or f"/api/boards/{board}/events", headers=all_headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next(self) -> dict:
        """The next event: its fields, `data` parsed; comments (keep-alives) are skipped."""
        event = {}
        while True:
            line = self.response.readline().decode()
            assert line, f"the stream ended; so far {event}"
            line = line.rstrip("\n")
            if line == "":
                if event:
                    if "data" in event:
                        event["data"] = json.loads(event["data"])
                    return event
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            event[name] = value if name != "data" else event.get("data", "") + value

    def until(self, name) -> dict:
        while (event := self.next())["event"] != name:
            pass
        return event

    def close(self):
        self.connection.close()


def edit(server, board, op_id, ops):
    status, answer = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit, body={"opId": op_id, "ops": ops})
    assert status == 200, answer
    return answer


def test_a_stream_starts_with_the_snapshot_and_carries_every_changeset_with_its_revision(server):
    board = server.create_board("Followed")
    edit(server, board, "1", [SECTION])
    stream = EventStream(server, board, board.view)
    assert stream.status == 200
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    snapshot = stream.until("snapshot")
    assert (snapshot["id"], snapshot["data"]["rev"], snapshot["data"]["title"]) == ("1", 1, "Followed")
    edit(server, board, "2", [{"op": "updateSection", "id": "s", "title": "Pantry"}])
    changes = stream.until("changes")
    assert changes["id"] == "2" and changes["data"]["changes"] == [{"update": "section", "id": "s", "title": "Pantry"}]
    # A socket's edit reaches the stream the same way.
    editor = RawClient(server.port, None)
    editor.hello_and_join("editor-0123456789", board)
    editor.send({"type": "edit", "opId": "3", "ops": [{"op": "deleteSection", "id": "s"}]})
    assert stream.until("changes")["id"] == "3"
    editor.close()
    stream.close()


def test_last_event_id_resumes_exactly_after_it_and_one_too_old_gets_a_snapshot(server_factory):
    server = server_factory(["--retained-changesets", "5"]).start()
    board = server.create_board()
    for n in range(1, 4):
        edit(server, board, str(n), [{"op": "addSection", "id": f"s{n}", "title": "S"}])
    stream = EventStream(server, board, board.view, headers={"Last-Event-ID": "1"})
    assert stream.until("resume")["data"]["rev"] == 3
    assert [stream.next()["id"] for _ in range(2)] == ["2", "3"]
    stream.close()
    for n in range(4, 12):
        edit(server, board, str(n), [{"op": "addSection", "id": f"s{n}", "title": "S"}])
    behind = EventStream(server, board, board.view, path=f"/api/boards/{board}/events?since=1")
    assert behind.until("snapshot")["id"] == "11"
    behind.close()


def test_curl_alone_creates_a_board_starts_a_timer_and_follows_it(server):
    def curl(*args):
        return subprocess.run(["curl", "-sS", *args], capture_output=True, text=True, timeout=30, check=True).stdout

    created = json.loads(curl("-H", "Content-Type: application/json", "-d", '{"title":"From curl"}', f"{server.http}/api/boards"))
    board, secret = created["id"], created["secrets"]["edit"]
    follower = subprocess.Popen(["curl", "-sSN", "-H", f"Authorization: Bearer {secret}", f"{server.http}/api/boards/{board}/events"],
                                stdout=subprocess.PIPE, text=True)
    try:
        assert next(line for line in follower.stdout if line.startswith("event: snapshot"))
        ops = [SECTION, {"op": "addTimer", "id": "t", "sectionID": "s", "title": "Tea", "minutes": 3, "seconds": 0},
               {"op": "startTimer", "id": "t"}]
        ack = json.loads(curl("-H", "Content-Type: application/json", "-H", f"Authorization: Bearer {secret}",
                              "-d", json.dumps({"opId": "1", "ops": ops}), f"{server.http}/api/boards/{board}/edits"))
        assert ack == {"type": "ack", "opId": "1", "rev": 1}
        data = next(line for line in follower.stdout if line.startswith("data: ") and '"changes"' in line)
        changes = json.loads(data[len("data: "):])["changes"]
        assert [change.get("run", {}).get("status") for change in changes if change.get("insert") == "timer"] == ["running"]
    finally:
        follower.kill()


def test_a_ticket_opens_one_stream_once_for_its_board_only(server):
    board, other = server.create_board(), server.create_board()
    status, issued = server.request("POST", f"/api/boards/{board}/event-tickets", secret=board.view)
    assert status == 201 and issued["url"] == f"/api/boards/{board}/events?ticket={issued['ticket']}"
    stream = EventStream(server, board, path=issued["url"])
    assert stream.status == 200 and stream.until("snapshot")
    stream.close()
    assert EventStream(server, board, path=issued["url"]).status == 404, "a ticket works once"
    status, second = server.request("POST", f"/api/boards/{board}/event-tickets", secret=board.view)
    assert EventStream(server, other, path=f"/api/boards/{other}/events?ticket={second['ticket']}").status == 404
    assert EventStream(server, board, path=f"/api/boards/{board}/events?ticket={second['ticket']}").status == 404, \
        "a ticket tried on another board is used up"
    assert server.request("POST", f"/api/boards/{board}/event-tickets", secret="wrong-secret-0123456789")[0] == 404


def test_a_wrong_or_missing_secret_gets_the_unknown_board_answer(server):
    board = server.create_board()
    assert EventStream(server, board).status == 404
    assert EventStream(server, board, "wrong-secret-0123456789").status == 404
    assert EventStream(server, "nosuchboard1", board.view).status == 404


def test_streams_take_slots_of_the_sockets_caps_and_give_them_back(server_factory):
    # Keep-alives every half second: a stream whose client went away is noticed at the next one.
    server = server_factory(["--max-connections-per-address", "2", "--heartbeat-interval-ms", "1000"]).start()
    board = server.create_board()
    socket = RawClient(server.port, None)
    socket.hello_and_join("socket-0123456789", board)
    first = EventStream(server, board, board.view)
    assert first.status == 200 and first.until("snapshot")
    refused = EventStream(server, board, board.view)
    assert refused.status == 503 and refused.response.headers["Retry-After"] == "5"
    first.close()
    socket.close()
    # The slots come back once the stream and the socket are gone (the server sees them go).
    deadline = time.monotonic() + 10
    while (again := EventStream(server, board, board.view)).status != 200 and time.monotonic() < deadline:
        again.close()
    assert again.status == 200
    again.close()


def test_a_replaced_link_ends_its_streams_with_a_closed_event(server):
    board = server.create_board()
    stream = EventStream(server, board, board.view)
    stream.until("snapshot")
    assert server.request("POST", f"/api/boards/{board}/links/view", secret=board.owner)[0] == 200
    closed = stream.until("closed")
    assert closed["data"]["code"] == 4403
    assert stream.response.readline() == b"", "the stream ends after closed"


def test_a_stream_whose_client_left_leaves_the_board_at_once(server_factory):
    # Keep-alives every 5 minutes: a stream that learned of its client's end only by writing one
    # would still be listed when the socket below gives up waiting (10 s).
    server = server_factory(["--heartbeat-interval-ms", "600000"]).start()
    board = server.create_board()
    watcher = RawClient(server.port, None)
    watcher.hello_and_join("watcher-0123456789", board, role="view")
    stream = EventStream(server, board, board.view, path=f"/api/boards/{board}/events")
    stream.until("snapshot")
    joined = watcher.until("presenceChanged")
    stream_user = next(user["userId"] for user in joined["users"] if user["name"] == "Event stream")
    stream.close()
    left = watcher.until("presenceChanged")
    assert left["left"] == [stream_user], left
    watcher.close()


def test_a_since_that_is_no_revision_is_refused_and_spends_no_ticket(server):
    board = server.create_board()
    status, body = server.request("POST", f"/api/boards/{board}/event-tickets", secret=board.view)
    assert status == 201, body
    for since in ["abc", "-1", "1.5"]:
        stream = EventStream(server, board, path=f"/api/boards/{board}/events?ticket={body['ticket']}&since={since}")
        assert stream.status == 400 and json.loads(stream.response.read())["code"] == "invalid_field", since
        stream.close()
    stream = EventStream(server, board, path=f"/api/boards/{board}/events?ticket={body['ticket']}&since=0")
    assert stream.status == 200 and stream.until("resume")  # revision 0 is in the resume window
    stream.close()
