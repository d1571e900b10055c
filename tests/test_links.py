"""Capability links (issue 13) on a real server, from the outside: a board is reached only with
one of its three secrets, each role does exactly what docs/protocol.md says, and a wrong secret
cannot be told apart from a board that does not exist."""
import json
import sqlite3
import urllib.request

from conftest import ADMIN_TOKEN
from raw_websocket import RawClient

EVERY_EDIT = [
    [{"op": "addSection", "id": "new", "title": "New"}],
    [{"op": "updateSection", "id": "s", "title": "Renamed"}],
    [{"op": "moveSection", "id": "s", "position": "first"}],
    [{"op": "deleteSection", "id": "s"}],
    [{"op": "addTimer", "id": "t2", "sectionID": "s", "title": "T2", "minutes": 1, "seconds": 0}],
    [{"op": "updateTimer", "id": "t", "title": "Renamed"}],
    [{"op": "moveTimer", "id": "t", "sectionID": "s", "position": "first"}],
    [{"op": "deleteTimer", "id": "t"}],
    [{"op": "startTimer", "id": "t"}],
    [{"op": "pauseTimer", "id": "t"}],
    [{"op": "resetTimer", "id": "t"}],
    [{"op": "startSection", "id": "s"}],
    [{"op": "pauseSection", "id": "s"}],
]


def board_with_a_timer(server):
    board = server.create_board("Links")
    editor = RawClient(server.port, None)
    editor.hello_and_join("editor-0123456789", board)
    editor.send({"type": "edit", "opId": "setup", "ops": [
        {"op": "addSection", "id": "s", "title": "S"},
        {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": 1, "seconds": 0}]})
    assert editor.until("ack")["opId"] == "setup"
    return board, editor


def join_answer(server, board_id, secret):
    """What a join with `secret` gets: the first message after the welcome."""
    client = RawClient(server.port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": "prober-0123456789"})
    client.until("welcome")
    message = {"type": "join", "board": board_id}
    if secret is not None:
        message["secret"] = secret
    client.send(message)
    answer = client.message()
    client.close()
    return answer


def test_creating_a_board_returns_three_links_once_and_the_store_keeps_only_hashes(server):
    board = server.create_board("Kitchen")
    assert set(board.secrets) == {"owner", "edit", "view"}
    assert len(set(board.secrets.values())) == 3
    for role, secret in board.secrets.items():
        assert len(secret) == 22
        assert board.links[role] == f"/b/{board}#{role}={secret}"
    database = (server.data_dir / "timerboard.sqlite").read_bytes()
    wal = server.data_dir / "timerboard.sqlite-wal"
    stored = database + (wal.read_bytes() if wal.exists() else b"")
    for secret in board.secrets.values():
        assert secret.encode() not in stored


def test_each_link_joins_with_its_role(server):
    board = server.create_board()
    for role in ("owner", "edit", "view"):
        client = RawClient(server.port, None)
        client.hello_and_join(f"joiner-{role}-0123456789", board, role=role)
        assert client.access["role"] == role and client.access["board"] == board
        assert client.message()["type"] == "snapshot"
        client.close()


def test_a_wrong_or_missing_secret_looks_exactly_like_an_unknown_board(server):
    board = server.create_board()
    unknown = "AAAAAAAAAAAA"
    for secret in (None, "", "x" * 22, board.edit[:-1] + ("A" if board.edit[-1] != "A" else "B")):
        refused = join_answer(server, board, secret)
        assert refused == {"type": "error", "code": "board_not_found", "message": f"no board {board}"}, secret
        status, body = server.request("GET", f"/api/boards/{board}", secret=secret)
        assert (status, body) == (404, {"type": "error", "code": "board_not_found", "message": f"no board {board}"})
    assert join_answer(server, unknown, board.edit) == {"type": "error", "code": "board_not_found", "message": f"no board {unknown}"}
    assert server.request("GET", f"/api/boards/{unknown}", secret=board.owner)[0] == 404


def test_a_view_link_reads_and_follows_but_every_change_is_refused_and_changes_nothing(server):
    board, editor = board_with_a_timer(server)
    viewer = RawClient(server.port, None)
    viewer.hello_and_join("viewer-0123456789", board, role="view")
    assert viewer.access["role"] == "view"
    before = viewer.message()
    assert before["type"] == "snapshot"
    for index, ops in enumerate(EVERY_EDIT):
        viewer.send({"type": "edit", "opId": f"v{index}", "ops": ops})
        reject = viewer.until("reject")
        assert reject["opId"] == f"v{index}" and reject["code"] == "forbidden", ops
    viewer.send({"type": "presence", "editing": "s"})
    assert viewer.until("error")["code"] == "forbidden"
    # Over HTTP: a view secret reads, and may do nothing else.
    assert server.request("GET", f"/api/boards/{board}", secret=board.view)[0] == 200
    for method, path, body in [("PATCH", f"/api/boards/{board}", {"title": "Mine"}), ("GET", f"/api/boards/{board}/links", None),
                               ("POST", f"/api/boards/{board}/links/edit", None), ("POST", f"/api/boards/{board}/links/view", None),
                               ("DELETE", f"/api/boards/{board}", None)]:
        for role in ("view", "edit"):
            status, answer = server.request(method, path, secret=board.secrets[role], body=body)
            assert status == 403 and answer["code"] == "forbidden", (method, path, role)
    after = server.snapshot(board)
    assert {k: v for k, v in after.items()} == {**before, "rev": before["rev"]}
    # The viewer still follows the board live.
    editor.send({"type": "edit", "opId": "live", "ops": [{"op": "updateTimer", "id": "t", "title": "Live"}]})
    assert viewer.until("changes")["changes"] == [{"update": "timer", "id": "t", "title": "Live"}]


def test_replacing_the_edit_link_stops_the_old_one_at_once_and_closes_its_sockets(server):
    board, editor = board_with_a_timer(server)
    owner = RawClient(server.port, None)
    owner.hello_and_join("owner-0123456789", board, role="owner")
    viewer = RawClient(server.port, None)
    viewer.hello_and_join("viewer-0123456789", board, role="view")
    status, replaced = server.request("POST", f"/api/boards/{board}/links/edit", secret=board.owner)
    assert status == 200 and replaced["role"] == "edit" and replaced["secret"] != board.edit
    assert replaced["url"] == f"/b/{board}#edit={replaced['secret']}"
    assert editor.close_code() == 4403
    assert join_answer(server, board, board.edit)["code"] == "board_not_found"
    assert server.request("GET", f"/api/boards/{board}", secret=board.edit)[0] == 404
    assert join_answer(server, board, replaced["secret"])["role"] == "edit"
    status, links = server.request("GET", f"/api/boards/{board}/links", secret=board.owner)
    assert status == 200 and links["links"] == {"edit": replaced["url"], "view": board.links["view"]}
    # The owner and the viewer were not on the replaced link: they stay and go on.
    for client in (owner, viewer):
        client.send({"type": "ping", "t": 7})
        assert client.until("pong")["t"] == 7


def test_the_owner_renames_and_everyone_on_the_board_and_every_later_joiner_sees_it(server):
    board, editor = board_with_a_timer(server)
    status, answer = server.request("PATCH", f"/api/boards/{board}", secret=board.owner, body={"title": "Kitchen, Saturday"})
    assert (status, answer) == (200, {"id": board, "title": "Kitchen, Saturday"})
    assert editor.until("renamed") == {"type": "renamed", "title": "Kitchen, Saturday"}
    assert server.snapshot(board)["title"] == "Kitchen, Saturday"
    resumer = RawClient(server.port, None)
    resumer.send({"type": "hello", "protocol": 1, "clientId": "resumer-0123456789"})
    resumer.until("welcome")
    resumer.send({"type": "join", "board": board, "secret": board.edit, "since": 1})
    assert resumer.until("resume")["title"] == "Kitchen, Saturday"
    for bad in ({"title": ""}, {"title": 5}, {"title": "x" * 201}):
        assert server.request("PATCH", f"/api/boards/{board}", secret=board.owner, body=bad)[0] == 400
    assert server.snapshot(board)["title"] == "Kitchen, Saturday"


def test_deleting_a_board_closes_its_sockets_and_leaves_nothing_in_the_store(server):
    board, editor = board_with_a_timer(server)
    other = server.create_board("Other")
    status, _ = server.request("DELETE", f"/api/boards/{board}", secret=board.owner)
    assert status == 204
    assert editor.close_code() == 4410
    assert server.request("GET", f"/api/boards/{board}", secret=board.owner)[0] == 404
    assert join_answer(server, board, board.owner)["code"] == "board_not_found"
    status, listed = server.request("GET", "/api/boards", secret=ADMIN_TOKEN)
    assert [entry["id"] for entry in listed["boards"]] == [other]
    with sqlite3.connect(server.data_dir / "timerboard.sqlite") as db:
        for table, column in [("board", "id"), ("changeset", "boardID"), ("snapshot", "boardID")]:
            assert db.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (str(board),)).fetchone()[0] == 0


def test_only_the_operator_token_lists_boards(server):
    server.create_board("Secret plans")
    for secret in (None, "wrong-token-0123456789", ADMIN_TOKEN[:-1]):
        status, answer = server.request("GET", "/api/boards", secret=secret)
        assert status == 403 and answer["code"] == "forbidden"
    status, answer = server.request("GET", "/api/boards", secret=ADMIN_TOKEN)
    assert status == 200 and [entry["title"] for entry in answer["boards"]] == ["Secret plans"]
    # A refused list still carries the security headers.
    request = urllib.request.Request(server.http + "/api/boards")
    try:
        urllib.request.urlopen(request)
    except urllib.error.HTTPError as error:
        assert error.headers["X-Content-Type-Options"] == "nosniff"


def test_a_create_request_that_is_not_application_json_is_refused_and_creates_nothing(server):
    before = server.board_count()
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"Content-Type": content_type} if content_type else {}
        request = urllib.request.Request(server.http + "/api/boards", data=b'{"title":"Form"}', method="POST", headers=headers)
        if content_type is None:
            request.remove_header("Content-type")
        try:
            urllib.request.urlopen(request)
            raise AssertionError(f"{content_type} was accepted")
        except urllib.error.HTTPError as error:
            assert error.code == 415 and json.loads(error.read())["code"] == "bad_json"
    assert server.board_count() == before


def test_no_participant_can_make_another_ones_edits_count_as_duplicates(server):
    """The attack of issue 13: a participant sends edits under the id it sees for another one
    in presence, with opIds 1, 2, 3. The other one's own edits 1, 2, 3 must still be applied."""
    board, _ = board_with_a_timer(server)
    victim = RawClient(server.port, None)
    victim.hello_and_join("victim-7Hq2xKp0aZ", board)
    attacker = RawClient(server.port, None)
    attacker.hello_and_join("attacker-0123456789", board)
    seen = []
    while not any(user["name"] == "Guest" and user.get("userId") != attacker.access["userId"] for user in seen):
        message = attacker.message()
        if message["type"] in ("presence", "presenceChanged"):
            seen += message["users"]
    assert "victim-7Hq2xKp0aZ" not in json.dumps(seen), "presence shows the victim's client id"
    victim_ids = {user.get("userId") or user.get("clientId") for user in seen} - {attacker.access["userId"]}
    for stolen in victim_ids:
        impostor = RawClient(server.port, None)
        impostor.hello_and_join(stolen, board)
        for op_id in ("1", "2", "3"):
            impostor.send({"type": "edit", "opId": op_id, "ops": [{"op": "updateTimer", "id": "t", "title": f"impostor {op_id}"}]})
            assert impostor.until("ack")["opId"] == op_id
        impostor.close()
    for op_id in ("1", "2", "3"):
        victim.send({"type": "edit", "opId": op_id, "ops": [{"op": "updateTimer", "id": "t", "title": f"victim {op_id}"}]})
        ack = victim.until("ack")
        assert ack["opId"] == op_id and "duplicate" not in ack, ack
    assert [t["title"] for t in server.snapshot(board)["timers"]] == ["victim 3"]


def test_an_operator_gives_a_board_from_before_links_a_new_set_and_every_old_link_stops(server):
    import subprocess
    from conftest import BINARY
    board, editor = board_with_a_timer(server)
    editor.close()
    server.stop()
    # A board made before links existed: no hashes at all. Nobody can reach it.
    with sqlite3.connect(server.data_dir / "timerboard.sqlite") as db:
        db.execute("UPDATE board SET ownerHash = NULL, editHash = NULL, viewHash = NULL WHERE id = ?", (str(board),))
    server.start()
    assert server.request("GET", f"/api/boards/{board}", secret=board.owner)[0] == 404
    server.stop()
    result = subprocess.run([str(BINARY), "reset-links", str(board), "--data-directory", str(server.data_dir)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    links = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    assert set(links) == {"owner", "edit", "view"}
    server.start()
    for role, path in links.items():
        secret = path.split(f"#{role}=", 1)[1]
        assert join_answer(server, board, secret)["role"] == role
        assert board.secrets[role] != secret
        assert join_answer(server, board, board.secrets[role])["code"] == "board_not_found"
    assert [t["title"] for t in server.request("GET", f"/api/boards/{board}", secret=links["view"].split("=", 1)[1])[1]["timers"]] == ["T"]
    # The server runs: the command asks it, with the operator token.
    missing = subprocess.run([str(BINARY), "reset-links", "nope", "--data-directory", str(server.data_dir),
                              "--admin-token", ADMIN_TOKEN], capture_output=True, text=True, timeout=60)
    assert missing.returncode != 0 and "no board nope" in missing.stderr


def test_replacing_the_edit_and_the_view_link_at_once_keeps_both_replacements(server):
    from concurrent.futures import ThreadPoolExecutor
    for round in range(5):
        board = server.create_board(f"Race {round}")
        with ThreadPoolExecutor(2) as pool:
            edit, view = pool.map(lambda role: server.request("POST", f"/api/boards/{board}/links/{role}", secret=board.owner),
                                  ["edit", "view"])
        assert edit[0] == 200 and view[0] == 200
        assert join_answer(server, board, edit[1]["secret"])["role"] == "edit"
        assert join_answer(server, board, view[1]["secret"])["role"] == "view"
        status, links = server.request("GET", f"/api/boards/{board}/links", secret=board.owner)
        assert links["links"] == {"edit": edit[1]["url"], "view": view[1]["url"]}
