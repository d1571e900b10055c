"""What docs/protocol.md promises, checked on a real server process from the outside, as a
script written only from the document would see it (issue 12)."""
import json
import sqlite3
import struct
import urllib.request

from raw_websocket import RawClient


def greeted(server, client_id="c1"):
    client = RawClient(server.port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": client_id})
    client.until("welcome")
    return client


def joined(server, board, client_id="c1"):
    client = RawClient(server.port, None)
    client.hello_and_join(client_id, board)
    return client


def test_a_create_request_that_is_not_a_json_object_gets_a_4xx_with_the_error_shape_and_creates_nothing(server):
    before = server.board_count()
    for body, code in [(b"not json", "bad_json"), (b"[1,2]", "bad_json"), (b'"Kitchen"', "bad_json"),
                       (b'{"title": 5}', "invalid_field"), (b"x" * 20_000, "too_large")]:
        status, answer = server.post_board(body)
        assert 400 <= status < 500, (body[:20], status)
        assert answer["type"] == "error" and answer["code"] == code and answer["message"], answer
    assert server.board_count() == before
    status, answer = server.post_board(b'{"title":"Kitchen"}')
    assert status == 201 and answer["title"] == "Kitchen"


def test_a_ping_without_t_gets_a_pong_without_t(server):
    client = greeted(server)
    for ping in [{"type": "ping"}, {"type": "ping", "t": None}]:
        client.send(ping)
        pong = client.message()
        assert pong["type"] == "pong" and "t" not in pong and isinstance(pong["serverTime"], int), pong
    client.send({"type": "ping", "t": 12.5})
    assert client.message()["t"] == 12.5
    client.close()


def test_an_op_id_is_counted_in_characters_with_a_byte_bound(server):
    board = server.create_board("opIds")
    client = joined(server, board)
    assert client.until("snapshot")["rev"] == 0
    accented = "é" * 40  # 40 characters, 80 bytes: refused before
    client.send({"type": "edit", "opId": accented, "ops": [{"op": "addSection", "id": "s1", "title": "A"}]})
    assert client.until("ack")["opId"] == accented
    for too_long in ["x" * 65, "👍🏽" * 40]:  # 65 characters; 40 characters but 320 bytes
        client.send({"type": "edit", "opId": too_long, "ops": [{"op": "addSection", "id": "s2", "title": "B"}]})
        answer = client.message()
        assert answer["type"] == "error" and answer["code"] == "invalid_field", answer
    client.close()


def editor_at_revision(server, board, revision):
    """A joined client that has brought the board to `revision`: a section, then renames."""
    editor = joined(server, board, "editor")
    editor.until("snapshot")
    for n in range(1, revision + 1):
        op = {"op": "addSection", "id": "s1", "title": "S"} if n == 1 else {"op": "updateSection", "id": "s1", "title": f"T{n}"}
        editor.send({"type": "edit", "opId": str(n), "ops": [op]})
        assert editor.until("ack")["rev"] == n
    return editor


def close_code(client) -> int:
    """Reads until the server's close frame and returns its code."""
    while True:
        opcode, _, _, payload = client.any_frame()
        if opcode == 0x8:
            return struct.unpack(">H", payload[:2])[0]


def test_frames_rfc_6455_forbids_fail_the_connection_with_1002(server):
    # A continuation with no message started.
    client = greeted(server)
    client.send({"type": "ping", "t": 1})
    assert client.message()["type"] == "pong"
    client.send_frame(b"{}", opcode=0x0)
    assert close_code(client) == 1002
    client.close()

    # A new data frame inside a fragmented message.
    client = greeted(server)
    client.send({"type": "ping", "t": 1})
    assert client.message()["type"] == "pong"
    client.send_frame(b'{"type":', fin=False)
    client.send_frame(b'{"type":"ping"}')
    assert close_code(client) == 1002
    client.close()

    # An unmasked frame from the client.
    client = greeted(server)
    client.send({"type": "ping", "t": 1})
    assert client.message()["type"] == "pong"
    payload = json.dumps({"type": "ping", "t": 2}).encode()
    client.sock.sendall(bytes([0x81, len(payload)]) + payload)
    assert close_code(client) == 1002
    client.close()

    # Control frames between fragments are allowed, and the server is still up.
    client = greeted(server)
    client.send_frame(b'{"type":', fin=False)
    client.send_frame(b"", opcode=0x9)  # a ping in the middle
    client.send_frame(b'"ping","t":3}', opcode=0x0)
    assert client.until("pong")["t"] == 3
    client.close()


def test_a_message_fragmented_past_what_one_frame_may_carry_fails_with_1009(server):
    """A frame over 1 MiB gets 1009; so does a message whose fragments bring more, however small
    each is: one that never ended was read for ever (8.5 GiB a minute from one socket). A message
    over the message bound but under that is answered too_large and the connection stays."""
    client = greeted(server)
    client.send_frame(b'{"type":"ping","t":"' + b"x" * 100_000, fin=False)
    client.send_frame(b'"}', opcode=0x0)
    assert client.until("error")["code"] == "too_large"
    client.send({"type": "ping", "t": 4})
    assert client.until("pong")["t"] == 4
    client.send_frame(b'{"type":"ping","t":"', fin=False)
    chunk = b"x" * 65_536
    for _ in range(17):  # 17 x 64 KiB: past 1 MiB
        client.send_frame(chunk, opcode=0x0, fin=False)
    assert close_code(client) == 1009
    client.close()
    other = greeted(server)
    other.send({"type": "ping", "t": 5})
    assert other.until("pong")["t"] == 5, "the server is still up"
    other.close()


def test_the_resume_window_is_exactly_the_retained_changesets(server_factory):
    server = server_factory(["--retained-changesets", "10"]).start()
    board = server.create_board("Window")
    editor = editor_at_revision(server, board, 30)
    for behind, expected in [(10, "resume"), (11, "snapshot")]:
        client = greeted(server, f"late-{behind}")
        client.send({"type": "join", "board": board, "secret": board.edit, "since": 30 - behind})
        assert client.message()["type"] == "access"
        assert client.message()["type"] == expected, behind
        client.close()
    editor.close()


def test_presence_comes_after_a_resume_and_the_changesets_it_replays(server):
    # protocol.md, presence: "right after its snapshot, or after a resume and the changesets it
    # replays (before any changeset newer than those)".
    board = server.create_board("Order")
    editor = editor_at_revision(server, board, 5)
    client = greeted(server, "resumer")
    client.send({"type": "join", "board": board, "secret": board.edit, "since": 2})
    kinds = [client.message()["type"] for _ in range(6)]
    assert kinds == ["access", "resume", "changes", "changes", "changes", "presence"], kinds
    client.close()
    editor.close()


def test_a_catch_up_that_would_not_fit_the_queue_goes_as_a_snapshot(server_factory):
    # 16 frames per connection: a client 20 changesets behind could never be resumed, as the
    # catch-up itself overflows the queue and the server closes it with 1008, again and again.
    server = server_factory(["--outbound-queue-limit", "16"]).start()
    board = server.create_board("Catch-up")
    editor = editor_at_revision(server, board, 20)
    client = greeted(server, "behind")
    client.send({"type": "join", "board": board, "secret": board.edit, "since": 0})
    assert client.message()["type"] == "access"
    snapshot = client.message()
    assert snapshot["type"] == "snapshot" and snapshot["rev"] == 20
    # Within half the queue it still resumes.
    client.send({"type": "join", "board": board, "secret": board.edit, "since": 15})
    assert client.until("resume")["since"] == 15
    client.close()
    editor.close()


def test_a_board_with_over_long_order_keys_written_into_sqlite_loads_and_is_repaired(server_factory):
    server = server_factory().start()
    board = server.create_board("Bricked")
    editor = joined(server, board, "editor")
    editor.until("snapshot")
    editor.send({"type": "edit", "opId": "1", "ops": [
        {"op": "addSection", "id": "s1", "title": "A"}, {"op": "addSection", "id": "s2", "title": "B", "position": "last"},
        {"op": "addTimer", "id": "t1", "sectionID": "s1", "title": "x", "minutes": 1, "seconds": 0},
        {"op": "addTimer", "id": "t2", "sectionID": "s1", "title": "y", "minutes": 1, "seconds": 0, "position": "last"}]})
    editor.until("ack")
    editor.close()
    server.stop()

    # What today's main stored after ~800 adds at the top: keys over the 128-character limit.
    database = sqlite3.connect(server.data_dir / "timerboard.sqlite")
    (changes,) = database.execute("SELECT changes FROM changeset WHERE boardID = ? AND revision = 1", (board,)).fetchone()
    stored = json.loads(changes)
    for change in stored:
        if change["id"] == "s1":
            change["order"] = "0" + "1" * 200
        if change["id"] == "t2":
            change["order"] = "z" * 300
    database.execute("UPDATE changeset SET changes = ? WHERE boardID = ? AND revision = 1", (json.dumps(stored), board))
    database.commit()
    database.close()

    server.start()
    snapshot = server.snapshot(board)  # 500 on the code before the fix
    assert snapshot["rev"] == 2, "the repair is a changeset of its own"
    assert [s["id"] for s in snapshot["sections"]] == ["s1", "s2"]
    assert [t["id"] for t in snapshot["timers"]] == ["t1", "t2"]
    for entity in snapshot["sections"] + snapshot["timers"]:
        assert len(entity["order"]) <= 32, entity
    client = joined(server, board, "after")
    assert client.until("snapshot")["rev"] == 2
    client.close()
    # A client that saw revision 1 resumes and gets the repair.
    client = greeted(server, "resumer")
    client.send({"type": "join", "board": board, "secret": board.edit, "since": 1})
    assert client.message()["type"] == "access"
    assert client.message()["type"] == "resume"
    repair = client.message()
    assert repair["type"] == "changes" and repair["rev"] == 2
    assert {change["update"] for change in repair["changes"]} <= {"section", "timer"}
    client.close()
    assert "repaired stored order keys" in server.log_path.read_text()


def live_boards(server) -> int:
    with urllib.request.urlopen(server.http + "/health") as response:
        return json.load(response)["liveBoards"]


def test_a_board_leaves_memory_when_nobody_is_on_it_even_with_running_timers(server):
    board = server.create_board("Running")
    client = joined(server, board)
    client.until("snapshot")
    client.send({"type": "edit", "opId": "1", "ops": [
        {"op": "addSection", "id": "s1", "title": "A"},
        {"op": "addTimer", "id": "t1", "sectionID": "s1", "title": "x", "minutes": 5, "seconds": 0},
        {"op": "startTimer", "id": "t1"}]})
    client.until("ack")
    client.send({"type": "leave"})
    client.send({"type": "ping", "t": 1})
    client.until("pong")
    assert live_boards(server) == 0
    # A read over HTTP loads it, answers what is durable, and keeps it for the next request
    # (--board-linger-seconds; tests/test_board_linger.py sees it go when that ends).
    snapshot = server.snapshot(board)
    assert snapshot["timers"][0]["run"]["status"] == "running"
    assert live_boards(server) == 1
    client.close()
