"""Mistakes undone (issue 32), from scripts: each kind of edit undone by its author over the
WebSocket and over HTTP, a running timer's reset undone back to its own start, two people
undoing at once without losing a third person's later edit, and the history and report showing
who did what and when."""
import csv
import io
import urllib.request

from raw_websocket import RawClient

SECTION = {"op": "addSection", "id": "s", "title": "Stage"}
TIMER = {"op": "addTimer", "id": "k", "sectionID": "s", "title": "Keynote", "minutes": 10, "seconds": 0}


def person(server, board, name):
    client = RawClient(server.port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": f"{name.lower()}-0123456789abcdef", "name": name})
    client.until("welcome")
    client.send({"type": "join", "board": str(board), "secret": board.edit})
    client.until("snapshot")
    return client


def edit(client, op_id, ops):
    client.send({"type": "edit", "opId": op_id, "ops": ops})
    return outcome(client, op_id)


def undo(client, op_id, target):
    return edit(client, op_id, [{"op": "undo", "opId": target}])


def outcome(client, op_id):
    while True:
        message = client.message()
        if message["type"] in ("ack", "reject") and message["opId"] == op_id:
            return message


def board_with_a_keynote(server):
    board = server.create_board("Conference")
    ada = person(server, board, "Ada")
    assert edit(ada, "setup", [SECTION, TIMER])["type"] == "ack"
    return board, ada


def test_each_kind_of_edit_is_undone_by_its_author(server):
    board, ada = board_with_a_keynote(server)
    before = server.snapshot(board)
    for op_id, ops in [("rename", [{"op": "updateTimer", "id": "k", "title": "Opening"}]),
                       ("delete", [{"op": "deleteTimer", "id": "k"}]),
                       ("collapse", [{"op": "updateSection", "id": "s", "isExpanded": False}])]:
        assert edit(ada, op_id, ops)["type"] == "ack"
        ack = undo(ada, f"undo-{op_id}", op_id)
        assert ack["type"] == "ack" and "skipped" not in ack, ack
        after = server.snapshot(board)
        assert (after["sections"], after["timers"]) == (before["sections"], before["timers"]), op_id
    ada.close()


def test_a_reset_running_timer_undone_runs_on_from_its_own_start(server):
    board, ada = board_with_a_keynote(server)
    assert edit(ada, "start", [{"op": "startTimer", "id": "k"}])["type"] == "ack"
    started = server.snapshot(board)["timers"][0]["run"]
    for op_id, op in [("reset", "resetTimer"), ("pause", "pauseTimer")]:
        assert edit(ada, op_id, [{"op": op, "id": "k"}])["type"] == "ack"
        assert undo(ada, f"undo-{op_id}", op_id)["type"] == "ack"
        assert server.snapshot(board)["timers"][0]["run"] == started, op_id
    assert edit(ada, "adjust", [{"op": "adjustTimer", "id": "k", "by": 60000}])["type"] == "ack"
    assert undo(ada, "undo-adjust", "adjust")["type"] == "ack"
    assert server.snapshot(board)["timers"][0]["run"] == started
    ada.close()


def test_an_undo_over_http_and_nobody_undoes_another_persons_edit(server):
    board, ada = board_with_a_keynote(server)
    assert edit(ada, "rename", [{"op": "updateTimer", "id": "k", "title": "Opening"}])["type"] == "ack"
    status, reject = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit,
                                    body={"opId": "u", "ops": [{"op": "undo", "opId": "rename"}]})
    assert (status, reject["code"]) == (409, "not_found"), "a script's link is not Ada"
    status, _ = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit,
                               body={"opId": "mine", "ops": [{"op": "updateTimer", "id": "k", "minutes": 20}]})
    assert status == 200
    status, ack = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit,
                                 body={"opId": "u2", "ops": [{"op": "undo", "opId": "mine"}]})
    assert status == 200 and ack["type"] == "ack"
    timer = server.snapshot(board)["timers"][0]
    assert (timer["title"], timer["minutes"]) == ("Opening", 10)
    ada.close()


def test_an_edit_or_undo_that_changed_nothing_is_acked_unchanged(server):
    """A script learns from the ack whether its edit did anything, over HTTP and the socket, and
    an undo whose every field someone else changed since says so too."""
    board, ada = board_with_a_keynote(server)
    status, ack = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit,
                                 body={"opId": "same", "ops": [{"op": "updateTimer", "id": "k", "title": "Keynote"}]})
    assert status == 200 and ack.get("unchanged") is True, ack
    status, ack = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit,
                                 body={"opId": "new", "ops": [{"op": "updateTimer", "id": "k", "title": "Opening"}]})
    assert status == 200 and "unchanged" not in ack, ack
    bob = person(server, board, "Bob")
    assert edit(ada, "a", [{"op": "updateSection", "id": "s", "title": "Ada's"}])["type"] == "ack"
    assert edit(bob, "b", [{"op": "updateSection", "id": "s", "title": "Bob's"}])["type"] == "ack"
    ack = undo(ada, "ua", "a")
    assert ack["unchanged"] is True and ack["skipped"] == [{"id": "s", "field": "title"}], ack
    reject = undo(ada, "redo", "ua")
    assert reject["type"] == "reject" and "changed nothing" in reject["message"], reject
    for client in (ada, bob):
        client.close()


def test_two_people_undoing_at_once_never_lose_a_third_persons_later_edit(server):
    board, ada = board_with_a_keynote(server)
    bob, cy = person(server, board, "Bob"), person(server, board, "Cy")
    assert edit(ada, "a", [{"op": "updateSection", "id": "s", "title": "Ada's"}])["type"] == "ack"
    assert edit(bob, "b", [{"op": "updateSection", "id": "s", "isExpanded": False}])["type"] == "ack"
    assert edit(cy, "c", [{"op": "updateSection", "id": "s", "title": "Cy's"}])["type"] == "ack"
    ada.send({"type": "edit", "opId": "ua", "ops": [{"op": "undo", "opId": "a"}]})
    bob.send({"type": "edit", "opId": "ub", "ops": [{"op": "undo", "opId": "b"}]})
    assert outcome(ada, "ua")["skipped"] == [{"id": "s", "field": "title"}]
    assert "skipped" not in outcome(bob, "ub")
    section = server.snapshot(board)["sections"][0]
    assert (section["title"], section["isExpanded"]) == ("Cy's", True)
    for client in (ada, bob, cy):
        client.close()


def test_the_history_names_who_did_what_and_when_newest_first(server):
    board, ada = board_with_a_keynote(server)
    bob = person(server, board, "Bob")
    assert edit(bob, "b", [{"op": "updateTimer", "id": "k", "title": "Opening"}])["type"] == "ack"
    assert edit(ada, "d", [{"op": "deleteTimer", "id": "k"}])["type"] == "ack"
    status, page = server.request("GET", f"/api/boards/{board}/history?limit=2", secret=board.view)
    assert status == 200
    assert [(entry["rev"], entry["by"]) for entry in page["entries"]] == [(3, "Ada"), (2, "Bob")]
    assert all(isinstance(entry["time"], int) and entry["time"] > 0 for entry in page["entries"])
    # What a delete replaced is in the entry: enough to put the timer back.
    assert page["entries"][0]["replaced"][0]["insert"] == "timer" and page["entries"][0]["replaced"][0]["title"] == "Opening"
    status, older = server.request("GET", f"/api/boards/{board}/history?before={page['next']}", secret=board.view)
    assert [(entry["rev"], entry["by"]) for entry in older["entries"]] == [(1, "Ada")] and older["next"] is None
    assert server.request("GET", f"/api/boards/{board}/history", secret="wrong-secret-0123456789")[0] == 404
    ada.close()
    bob.close()


def test_the_report_has_a_row_per_run_with_who_started_and_ended_it(server):
    board, ada = board_with_a_keynote(server)
    bob = person(server, board, "Bob")
    assert edit(ada, "short", [{"op": "addTimer", "id": "q", "sectionID": "s", "title": "=Q&A", "minutes": 0, "seconds": 1},
                               {"op": "startTimer", "id": "q"}, {"op": "startTimer", "id": "k"}])["type"] == "ack"
    while not any(change.get("run", {}).get("status") == "finished" for change in ada.until("changes")["changes"]):
        pass
    assert edit(bob, "reset", [{"op": "resetTimer", "id": "k"}, {"op": "resetTimer", "id": "q"}])["type"] == "ack"
    request = urllib.request.Request(f"{server.http}/api/boards/{board}/report.csv", headers={"Authorization": f"Bearer {board.view}"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.read().decode())))
    by_timer = {row["timer"]: row for row in rows}
    assert set(by_timer) == {"Keynote", "'=Q&A"}
    assert (by_timer["'=Q&A"]["outcome"], by_timer["'=Q&A"]["started_by"], by_timer["'=Q&A"]["ended_by"]) == ("finished", "Ada", "TimerBoard")
    assert float(by_timer["'=Q&A"]["overtime_seconds"]) >= 0
    assert (by_timer["Keynote"]["outcome"], by_timer["Keynote"]["ended_by"]) == ("reset", "Bob")
    status, report = server.request("GET", f"/api/boards/{board}/report.json", secret=board.view)
    assert status == 200 and {run["timer"] for run in report["runs"]} == {"Keynote", "=Q&A"}
    ada.close()
    bob.close()
