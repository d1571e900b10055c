"""The OpenAPI document describes what the server really sends and takes, field for field: a real
server is driven as scripts drive it (a board with every kind of timer, a sequence, a schedule, a
message on the screens, a time zone; edits acked, acked unchanged, resent, undone, rejected;
history, report, links, webhooks and their deliveries; refusals), and every JSON body is
validated against the schema the document gives for its path, method and status, with every
object schema made strict: a field the document does not name fails, as it does for a client
generated from the document. Every edit sent is validated against the request schema too."""
import http.server
import json
import queue
import threading
import time
import urllib.error
import urllib.request

from jsonschema import Draft202012Validator

from conftest import ADMIN_TOKEN, ROOT, BoardRef

DOCUMENT = json.loads((ROOT / "web-static" / "api" / "openapi.json").read_text())
EDITS = "/api/boards/{id}/edits"


# MARK: the document, made strict

def strict(schema):
    """`schema` with every `$ref` inlined (the document has no cycles), every `allOf` of object
    schemas merged into one, and `additionalProperties: false` on every object schema that lists
    its properties and says nothing of others."""
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        target = DOCUMENT
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return strict({**target, **{key: value for key, value in schema.items() if key != "$ref"}})
    schema = {key: strict(value) for key, value in schema.items()}
    parts = schema.get("allOf", [])
    if parts and all("properties" in part for part in parts):
        # Each part, strict on its own, would refuse the other parts' fields: one object instead.
        schema = {key: value for key, value in schema.items() if key != "allOf"}
        schema.update(type="object", properties={}, required=[])
        for part in parts:
            schema["properties"].update(part["properties"])
            schema["required"] += [name for name in part.get("required", []) if name not in schema["required"]]
    if "properties" in schema and "additionalProperties" not in schema:
        schema["additionalProperties"] = False
    return schema


def problems(schema, value) -> list:
    """Where `value` breaks the strict form of `schema`, one line each; empty when it fits."""
    validator = Draft202012Validator(strict(schema), format_checker=Draft202012Validator.FORMAT_CHECKER)
    found = []
    for error in validator.iter_errors(value):
        # A oneOf's own message says little; its branches' say which field.
        causes = sorted(error.context, key=lambda cause: len(cause.absolute_path)) if error.context else [error]
        found += [f"{'/'.join(map(str, cause.absolute_path)) or '(top)'}: {cause.message}" for cause in causes]
    return found


def response_schema(method: str, path: str, status: int):
    responses = DOCUMENT["paths"][path][method.lower()]["responses"]
    assert str(status) in responses, f"{method} {path} answered {status}, which the document does not list"
    content = responses[str(status)].get("content")
    return content["application/json"]["schema"] if content else None


def request_schema(method: str, path: str):
    return DOCUMENT["paths"][path][method.lower()]["requestBody"]["content"]["application/json"]["schema"]


# MARK: a script's requests, each answer checked

def call(server, method, path, secret=None, body=None, status=None, raw=None, content_type="application/json", query="", **values):
    """One request to `path` (a path of the document, its `{…}` filled from `values`); its answer is
    checked against the document and returned as (status, parsed body). A `body` is checked
    against the request schema; `raw` bytes are sent as they are, for refusals."""
    if body is not None and "requestBody" in DOCUMENT["paths"][path][method.lower()]:
        assert problems(request_schema(method, path), body) == [], f"the request itself does not fit {method} {path}"
    headers = {**({"Authorization": f"Bearer {secret}"} if secret else {}), "Content-Type": content_type}
    data = raw if raw is not None else json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.http + path.format(**values) + query, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            answered, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        answered, text = error.code, error.read()
    parsed = json.loads(text) if text else None
    schema = response_schema(method, path, answered)
    if schema is None:
        assert parsed is None, f"{method} {path} {answered} has a body the document does not describe: {parsed}"
    else:
        assert problems(schema, parsed) == [], f"{method} {path} {answered} does not fit the document: {parsed}"
    if status is not None:
        assert answered == status, parsed
    return answered, parsed


def edit(server, board, op_id, ops, secret=None, status=200):
    """`POST …/edits`: the answer (ack or reject), checked."""
    return call(server, "POST", EDITS, secret=secret or board.owner, body={"opId": op_id, "ops": ops}, status=status, id=board)[1]


HOUR = 3_600_000


def build_board(server):
    """A board as a show's script builds it: every kind of timer, a schedule, a sequence, a
    message on the screens in the show's time zone; some timers running, one paused, one finished."""
    _, created = call(server, "POST", "/api/boards", body={"title": "Shapes"}, status=201)
    board = BoardRef(created)
    start = int(time.time() * 1000)  # the server's clock is this machine's
    edit(server, board, "screens", [
        {"op": "setTimeZone", "timeZone": "Europe/Paris"},
        {"op": "showMessage", "text": "Wrap up", "flash": True},
        {"op": "setBlackout", "on": False},
    ])
    edit(server, board, "kitchen", [
        {"op": "addSection", "id": "kitchen", "title": "Kitchen", "position": "last"},
        {"op": "addTimer", "id": "eggs", "sectionID": "kitchen", "title": "Eggs", "minutes": 7, "seconds": 30, "warnAt": 30_000},
        {"op": "addTimer", "id": "tea", "sectionID": "kitchen", "title": "Tea", "minutes": 3, "seconds": 0, "position": "last"},
        {"op": "addTimer", "id": "stopwatch", "sectionID": "kitchen", "title": "Stopwatch", "minutes": 0, "seconds": 0, "kind": "countUp"},
        {"op": "addTimer", "id": "wall", "sectionID": "kitchen", "title": "Paris", "minutes": 0, "seconds": 0, "kind": "clock"},
        {"op": "addTimer", "id": "train", "sectionID": "kitchen", "title": "Train", "minutes": 0, "seconds": 0, "kind": "toTime",
         "targetAt": start + 2 * HOUR},
        {"op": "addTimer", "id": "oven", "sectionID": "kitchen", "title": "Oven", "minutes": 45, "seconds": 0, "startAt": start + HOUR,
         "position": {"after": "eggs"}},
        {"op": "addTimer", "id": "toast", "sectionID": "kitchen", "title": "Toast", "minutes": 1, "seconds": 0, "position": {"before": "tea"}},
        {"op": "addTimer", "id": "milk", "sectionID": "kitchen", "title": "Milk", "minutes": 2, "seconds": 0},
    ])
    edit(server, board, "breakfast", [
        {"op": "addSection", "id": "breakfast", "title": "Breakfast", "isExpanded": True},
        {"op": "addTimer", "id": "coffee", "sectionID": "breakfast", "title": "Coffee", "minutes": 4, "seconds": 0},
        {"op": "updateSection", "id": "breakfast", "finishAt": start + HOUR},
    ])
    edit(server, board, "rounds", [
        {"op": "addSection", "id": "rounds", "title": "Rounds", "isExpanded": False, "sequence": True, "loop": True, "position": {"after": "kitchen"}},
        {"op": "addTimer", "id": "work", "sectionID": "rounds", "title": "Work", "minutes": 10, "seconds": 0},
        {"op": "addTimer", "id": "rest", "sectionID": "rounds", "title": "Rest", "minutes": 5, "seconds": 0, "position": "last"},
        {"op": "addSection", "id": "spare", "title": "Spare"},
    ])
    edit(server, board, "run", [
        {"op": "startTimer", "id": "eggs"}, {"op": "startTimer", "id": "stopwatch"}, {"op": "startTimer", "id": "train"},
        {"op": "startTimer", "id": "tea"},
        {"op": "startTimer", "id": "toast"}, {"op": "adjustTimer", "id": "toast", "by": -60_000},
        {"op": "startTimer", "id": "milk"}, {"op": "adjustTimer", "id": "eggs", "by": 60_000},
        {"op": "startSection", "id": "rounds"},
    ])
    edit(server, board, "skip", [{"op": "skipSection", "id": "rounds"}])
    edit(server, board, "pause", [{"op": "pauseSection", "id": "rounds"}, {"op": "pauseTimer", "id": "tea"}])
    edit(server, board, "restart", [{"op": "restartSection", "id": "rounds"}])
    edit(server, board, "tidy", [
        {"op": "updateTimer", "id": "eggs", "title": "Soft eggs", "warnAt": 60_000},
        {"op": "updateTimer", "id": "train", "targetAt": start + 3 * HOUR},
        {"op": "moveTimer", "id": "tea", "sectionID": "breakfast", "position": "first"},
        {"op": "moveSection", "id": "breakfast", "position": "last"},
        {"op": "updateSection", "id": "kitchen", "isExpanded": False},
        {"op": "resetTimer", "id": "milk"},
    ])
    edit(server, board, "gone", [{"op": "deleteTimer", "id": "milk"}, {"op": "deleteSection", "id": "spare"}])
    return board


# MARK: the tests, by what a script does

def test_edits_are_acked_and_rejected_as_the_document_says(server):
    board = build_board(server)
    # Acked, with nothing changed: the timer runs already.
    assert edit(server, board, "again", [{"op": "startTimer", "id": "eggs"}]).get("unchanged") is True
    # A resend of an edit already applied: its first answer again.
    assert edit(server, board, "again", [{"op": "startTimer", "id": "eggs"}]).get("duplicate") is True
    # An undo of a rename that someone renamed again since: skipped, and nothing changed.
    edit(server, board, "rename", [{"op": "updateSection", "id": "kitchen", "title": "Prep"}])
    edit(server, board, "theirs", [{"op": "updateSection", "id": "kitchen", "title": "Mise en place"}], secret=board.edit)
    undone = edit(server, board, "undo-rename", [{"op": "undo", "opId": "rename"}])
    assert undone.get("skipped") == [{"id": "kitchen", "field": "title"}] and undone.get("unchanged") is True, undone
    edit(server, board, "clear", [{"op": "clearMessage"}, {"op": "showMessage", "text": "Doors open"}])

    # Rejected: the failing operation's index in `op`, the entity as it is now in `current`.
    reject = edit(server, board, "too-long", [{"op": "updateTimer", "id": "eggs", "minutes": 5000}], status=400)
    assert reject["code"] == "invalid_field" and reject["op"] == 0 and reject["current"]["id"] == "eggs", reject
    reject = edit(server, board, "idle", [{"op": "updateTimer", "id": "oven", "title": "Oven"}, {"op": "adjustTimer", "id": "oven", "by": 60_000}],
                  status=409)
    assert reject["code"] == "invalid_state" and reject["op"] == 1 and reject["current"]["startAt"] > 0, reject
    reject = edit(server, board, "section", [{"op": "skipSection", "id": "kitchen"}], status=409)
    assert reject["op"] == 0 and reject["current"]["id"] == "kitchen", reject
    reject = edit(server, board, "ghost", [{"op": "deleteTimer", "id": "ghost"}], status=409)
    assert reject["code"] == "not_found" and "current" not in reject, reject
    reject = edit(server, board, "viewer", [{"op": "startTimer", "id": "tea"}], secret=board.view, status=403)
    assert reject["type"] == "reject" and reject["code"] == "forbidden", reject


def test_edits_the_server_refuses_for_their_shape_are_refused_by_the_request_schema_too(server):
    board = server.create_board("Shapes")
    schema = request_schema("POST", EDITS)
    refused = [
        {"op": "explode", "id": "x"},  # unknown_op
        {"op": "addSection", "id": "s", "titel": "typo"},  # bad_message: a field the operation does not take
        {"op": "updateTimer", "id": "t", "sectionID": "s"},  # bad_message: moveTimer moves
        {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": "2", "seconds": 0},  # bad_message: a string
        {"op": "setBlackout"},  # bad_message: `on` missing
        {"op": "moveTimer", "id": "t", "position": {"before": "a", "after": "b"}},  # invalid_field
    ]
    for operation in refused:
        body = {"opId": "bad", "ops": [operation]}
        assert problems(schema, body) != [], f"the request schema takes {body}"
        status, answer = call(server, "POST", EDITS, secret=board.edit, raw=json.dumps(body).encode(), id=board)
        assert status == 400 and answer["type"] == "reject", answer


def test_a_script_reads_the_board_its_history_and_report(server):
    board = build_board(server)
    _, snapshot = call(server, "GET", "/api/boards/{id}", secret=board.view, status=200, id=board)
    # The snapshot carries what the document must describe; were it missing, the check above proved little.
    assert snapshot["display"] == {"message": {"text": "Wrap up", "flash": True, "shownAt": snapshot["display"]["message"]["shownAt"]},
                                   "blackout": False, "timeZone": "Europe/Paris"}
    timers = {timer["id"]: timer for timer in snapshot["timers"]}
    sections = {section["id"]: section for section in snapshot["sections"]}
    assert {timers[id].get("kind") for id in ("stopwatch", "wall", "train")} == {"countUp", "clock", "toTime"}
    assert "startAt" in timers["oven"] and "startAt" in timers["coffee"] and "targetAt" in timers["train"] and "warnAt" in timers["eggs"]
    assert "finishAt" in sections["breakfast"] and sections["rounds"].get("sequence") and sections["rounds"].get("loop")
    assert {timers[id]["run"]["status"] for id in ("eggs", "tea", "toast", "work")} == {"running", "paused", "finished"}
    assert "finishedAt" in timers["toast"]["run"] and timers["eggs"]["run"]["elapsed"] < 0

    _, history = call(server, "GET", "/api/boards/{id}/history", query="?limit=200", secret=board.view, status=200, id=board)
    kinds = {(verb, change[verb]) for entry in history["entries"] for change in entry["changes"] for verb in ("insert", "update", "delete")
             if verb in change}
    assert kinds == {(kind, entity) for kind in ("insert", "update", "delete") for entity in ("section", "timer")} | {("update", "board")}, kinds
    assert any("replaced" in entry for entry in history["entries"]) and history["next"] is None
    _, page = call(server, "GET", "/api/boards/{id}/history", query="?limit=2", secret=board.view, status=200, id=board)
    assert isinstance(page["next"], int)

    _, report = call(server, "GET", "/api/boards/{id}/report.json", secret=board.view, status=200, id=board)
    assert {run["outcome"] for run in report["runs"]} >= {"running", "paused", "finished", "reset"}, report


def test_an_owner_manages_the_board_its_links_and_webhooks(server_factory):
    # The endpoint is loopback's discard port: nothing listens, nothing leaves the machine.
    server = server_factory(["--allow-private-webhooks"]).start()
    board = server.create_board("Shapes")
    _, hook = call(server, "POST", "/api/boards/{id}/webhooks", secret=board.owner, status=201, id=board,
                   body={"url": "http://127.0.0.1:9/in", "events": ["timer.started", "board.changed"]})
    edit(server, board, "1", [{"op": "addSection", "id": "s", "title": "S"},
                              {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": 1, "seconds": 0},
                              {"op": "startTimer", "id": "t"}])
    deadline = time.monotonic() + 20
    while True:  # the attempt is listed once the connection was refused
        _, listed = call(server, "GET", "/api/boards/{id}/webhooks", secret=board.owner, status=200, id=board)
        attempts = listed["webhooks"][0]["attempts"]
        if attempts or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert attempts and attempts[0]["status"] is None and attempts[0]["error"], listed
    call(server, "DELETE", "/api/boards/{id}/webhooks/{webhookId}", secret=board.owner, status=204, id=board, webhookId=hook["id"])
    call(server, "DELETE", "/api/boards/{id}/webhooks/{webhookId}", secret=board.owner, status=404, id=board, webhookId=hook["id"])

    call(server, "PATCH", "/api/boards/{id}", secret=board.owner, body={"title": "Renamed"}, status=200, id=board)
    call(server, "GET", "/api/boards/{id}/links", secret=board.owner, status=200, id=board)
    call(server, "POST", "/api/boards/{id}/links/{role}", secret=board.owner, status=200, id=board, role="view")
    call(server, "POST", "/api/boards/{id}/event-tickets", secret=board.edit, status=201, id=board)
    call(server, "POST", "/api/boards/{id}/reset-links", secret=ADMIN_TOKEN, status=200, id=board)
    call(server, "GET", "/api/boards", secret=ADMIN_TOKEN, status=200)
    call(server, "GET", "/health", status=200)
    call(server, "GET", "/ready", status=200)
    call(server, "POST", "/api/boards", raw=b"", status=201)  # no body: an untitled board


def test_refusals_have_the_error_shape(server):
    board = server.create_board("Shapes")
    call(server, "POST", "/api/boards", body={"title": "  "}, status=400)
    call(server, "POST", "/api/boards", raw=b"{}", content_type="text/plain", status=415)
    call(server, "GET", "/api/boards/{id}", secret="wrong-secret-0123456789", status=404, id=board)
    call(server, "POST", EDITS, secret=board.edit, raw=b"not json", status=400, id=board)
    call(server, "POST", EDITS, secret=board.edit, raw=b"{}", content_type="text/plain", status=415, id=board)
    call(server, "PATCH", "/api/boards/{id}", secret=board.edit, body={"title": "Mine"}, status=403, id=board)
    call(server, "GET", "/api/boards/{id}/history", query="?limit=0", secret=board.view, status=400, id=board)
    call(server, "GET", "/api/boards/{id}/events", query="?since=-1", secret=board.view, status=400, id=board)
    call(server, "GET", "/api/boards", secret=board.owner, status=403)
    call(server, "GET", "/metrics", status=401)
    call(server, "GET", "/ws", status=426)


class Receiver(http.server.ThreadingHTTPServer):
    """A webhook endpoint on loopback: every delivery's body, as it came."""

    def __init__(self):
        self.bodies = queue.Queue()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                receiver.bodies.put(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


def test_webhook_deliveries_have_the_documented_payloads(server_factory):
    server = server_factory(["--allow-private-webhooks", "--webhook-debounce-ms", "100"]).start()
    receiver = Receiver()
    try:
        board = server.create_board("Shapes")
        events = list(DOCUMENT["webhooks"])
        call(server, "POST", "/api/boards/{id}/webhooks", secret=board.owner, status=201, id=board,
             body={"url": f"http://127.0.0.1:{receiver.server_address[1]}/in", "events": events})
        edit(server, board, "1", [
            {"op": "addSection", "id": "seq", "title": "Rounds", "sequence": True},
            {"op": "addTimer", "id": "a", "sectionID": "seq", "title": "A", "minutes": 0, "seconds": 1, "warnAt": 500},
            {"op": "addTimer", "id": "b", "sectionID": "seq", "title": "B", "minutes": 5, "seconds": 0, "position": "last"},
            {"op": "startSection", "id": "seq"},
            {"op": "showMessage", "text": "Go", "flash": True},
        ])
        seen = {}
        deadline = time.monotonic() + 30
        while set(seen) != set(events) and time.monotonic() < deadline:
            try:
                body = receiver.bodies.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                break
            if body["type"] in seen:
                continue
            seen[body["type"]] = body
            if body["type"] == "sequence.advanced":  # B runs now: pause it
                edit(server, board, "2", [{"op": "pauseTimer", "id": "b"}])
            if body["type"] == "timer.paused":  # then the board's last event: its end
                call(server, "DELETE", "/api/boards/{id}", secret=board.owner, status=204, id=board)
        assert set(seen) == set(events), sorted(seen)
        for event, body in seen.items():
            schema = DOCUMENT["webhooks"][event]["post"]["requestBody"]["content"]["application/json"]["schema"]
            assert problems(schema, body) == [], f"{event} does not fit the document: {body}"
    finally:
        receiver.shutdown()
        receiver.server_close()
