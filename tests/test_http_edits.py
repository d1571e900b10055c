"""Edits over HTTP (issue 31): `POST /api/boards/ID/edits` takes a WebSocket edit's body and
answers its ack or reject once durable, applies nothing twice, and keeps every rule a socket
keeps (roles, origins, rate limits, sizes); `GET /api/boards/ID` answers `304` to a reader whose
`ETag` is current."""
import json
import urllib.error
import urllib.request

from raw_websocket import RawClient

SECTION = {"op": "addSection", "id": "s", "title": "Kitchen"}
TIMER = {"op": "addTimer", "id": "eggs", "sectionID": "s", "title": "Eggs", "minutes": 7, "seconds": 0}


def edit(server, board, secret, op_id, ops, headers=None):
    return server.request("POST", f"/api/boards/{board}/edits", secret=secret, body={"opId": op_id, "ops": ops}, headers=headers)


def raw(server, method, path, data: bytes, headers):
    request = urllib.request.Request(server.http + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_a_script_with_http_alone_builds_and_starts_a_timer_and_a_socket_sees_every_change(server):
    board = server.create_board("Scripted")
    watcher = RawClient(server.port, None)
    watcher.hello_and_join("watcher-0123456789", board, role="view")
    assert edit(server, board, board.edit, "1", [SECTION, TIMER]) == (200, {"type": "ack", "opId": "1", "rev": 1})
    status, ack = edit(server, board, board.edit, "2", [{"op": "startTimer", "id": "eggs"}])
    assert status == 200 and ack["rev"] == 2
    assert watcher.until("changes")["rev"] == 1 and watcher.until("changes")["rev"] == 2
    snapshot = server.snapshot(board)
    assert [timer["run"]["status"] for timer in snapshot["timers"]] == ["running"]
    watcher.close()


def test_a_resent_op_id_gets_its_first_answer_and_applies_nothing_twice(server):
    board = server.create_board()
    assert edit(server, board, board.edit, "once", [SECTION])[0] == 200
    assert edit(server, board, board.edit, "once", [SECTION]) == (200, {"type": "ack", "opId": "once", "rev": 1, "duplicate": True})
    status, reject = edit(server, board, board.edit, "dup", [{"op": "addSection", "id": "s", "title": "Again"}])
    assert (status, reject["code"]) == (409, "duplicate_id")
    assert edit(server, board, board.edit, "dup", [{"op": "addSection", "id": "s", "title": "Again"}])[1]["code"] == "duplicate_id"
    assert server.snapshot(board)["rev"] == 1
    # The opIds of another link are its own: the owner's "once" is a new edit.
    status, reject = edit(server, board, board.owner, "once", [SECTION])
    assert (status, reject["code"]) == (409, "duplicate_id")


def test_each_reject_has_its_status_and_changes_nothing(server):
    board = server.create_board()
    assert edit(server, board, board.edit, "1", [SECTION])[0] == 200
    status, reject = edit(server, board, board.edit, "2", [{"op": "updateTimer", "id": "gone", "title": "X"}])
    assert (status, reject["type"], reject["code"], reject["opId"]) == (409, "reject", "not_found", "2")
    status, reject = edit(server, board, board.edit, "3", [{"op": "updateSection", "id": "s", "title": "x" * 500}])
    assert (status, reject["code"], reject["current"]["title"]) == (400, "invalid_field", "Kitchen")
    status, reject = edit(server, board, board.edit, "4", [{"op": "fly", "id": "s"}])
    assert (status, reject["code"]) == (400, "unknown_op")
    status, _, body = raw(server, "POST", f"/api/boards/{board}/edits", b"{not json", {"Authorization": f"Bearer {board.edit}",
                                                                                   "Content-Type": "application/json"})
    assert (status, json.loads(body)["code"]) == (400, "bad_json")
    status, _, body = raw(server, "POST", f"/api/boards/{board}/edits", b"opId=1", {"Authorization": f"Bearer {board.edit}",
                                                                                "Content-Type": "application/x-www-form-urlencoded"})
    assert (status, json.loads(body)["code"]) == (415, "bad_json")
    huge = json.dumps({"opId": "5", "ops": [{"op": "updateSection", "id": "s", "title": "x" * 70_000}]}).encode()
    status, _, body = raw(server, "POST", f"/api/boards/{board}/edits", huge, {"Authorization": f"Bearer {board.edit}",
                                                                           "Content-Type": "application/json"})
    assert status == 413 and json.loads(body)["code"] == "too_large"
    assert server.snapshot(board)["rev"] == 1


def test_a_view_link_a_wrong_secret_and_another_sites_page_change_nothing(server):
    board = server.create_board()
    status, reject = edit(server, board, board.view, "1", [SECTION])
    # The edit's own refusal, as a socket gets it: a script matches answers by opId.
    assert (status, reject["type"], reject["opId"], reject["code"]) == (403, "reject", "1", "forbidden"), reject
    status, error = edit(server, board, "not-the-secret-0123456789", "1", [SECTION])
    assert (status, error["code"]) == (404, "board_not_found")
    assert edit(server, "nosuchboard1", board.edit, "1", [SECTION])[0] == 404
    # Refused before its body is read: the request's error, not the edit's.
    status, error = edit(server, board, board.edit, "1", [SECTION], headers={"Origin": "https://evil.example"})
    assert (status, error["type"], error["code"]) == (403, "error", "forbidden")
    assert server.snapshot(board)["rev"] == 0


def test_an_address_over_its_edit_rate_is_told_when_to_come_back_and_nothing_changes(server_factory):
    server = server_factory(["--edits-per-second", "1", "--edit-burst", "3"]).start()
    board = server.create_board()
    answers = [edit(server, board, board.edit, str(n), [{"op": "addSection", "id": f"s{n}", "title": "S"}]) for n in range(6)]
    assert [status for status, _ in answers[:3]] == [200, 200, 200]
    refused = [answer for status, answer in answers if status == 429]
    assert refused and all(answer["code"] == "rate_limited" and answer["retryAfterMs"] > 0 for answer in refused)
    assert server.snapshot(board)["rev"] == 6 - len(refused)


def test_an_acked_http_edit_survives_a_kill(server):
    board = server.create_board()
    assert edit(server, board, board.edit, "1", [SECTION, TIMER])[0] == 200
    server.kill()
    server.start()
    assert [timer["id"] for timer in server.snapshot(board)["timers"]] == ["eggs"]


def test_a_reader_with_a_current_etag_gets_304_and_a_new_one_after_an_edit_or_a_rename(server):
    board = server.create_board("Tagged")
    status, headers, _ = raw(server, "GET", f"/api/boards/{board}", None, {"Authorization": f"Bearer {board.view}"})
    tag = headers["ETag"]
    assert status == 200 and tag
    conditional = {"Authorization": f"Bearer {board.view}", "If-None-Match": tag}
    status, headers, body = raw(server, "GET", f"/api/boards/{board}", None, conditional)
    assert (status, body, headers["ETag"]) == (304, b"", tag)
    assert edit(server, board, board.edit, "1", [SECTION])[0] == 200
    status, headers, _ = raw(server, "GET", f"/api/boards/{board}", None, conditional)
    assert status == 200 and headers["ETag"] != tag
    renamed_from = headers["ETag"]
    assert server.request("PATCH", f"/api/boards/{board}", secret=board.owner, body={"title": "Renamed"})[0] == 200
    status, headers, _ = raw(server, "GET", f"/api/boards/{board}", None,
                             {"Authorization": f"Bearer {board.view}", "If-None-Match": renamed_from})
    assert status == 200 and headers["ETag"] != renamed_from
