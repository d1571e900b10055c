"""Signed webhooks (issue 31): a board's owner registers endpoints; each event arrives signed as
Standard Webhooks says (checked with its own Python library), from a durable outbox: at least
once, exactly once per `webhook-id` across a kill -9 of the node, retried on the schedule, and an
endpoint that keeps failing ends disabled with its reason. Private targets are refused unless
the operator allows them. A receiver on loopback (tests/webhook_receiver.py) plays the endpoint,
so every server here but the SSRF ones runs with --allow-private-webhooks."""
import base64
import os
import re
import socket
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from standardwebhooks.webhooks import Webhook

from cluster import Postgres
from conftest import ADMIN_TOKEN, ServerProcess
from raw_websocket import RawClient
from webhook_receiver import WebhookReceiver

ALL_EVENTS = ["timer.started", "timer.paused", "timer.finished", "timer.warning", "sequence.advanced", "board.changed",
              "board.deleted", "message.shown"]
PRIVATE = ["--allow-private-webhooks"]


@pytest.fixture
def postgres():
    # Not pytest's tmp_path: its parents are closed to the postgres user the server runs as.
    folder = Path(tempfile.mkdtemp(prefix="timerboard-pg-"))
    os.chmod(folder, 0o755)
    server = Postgres(folder / "data")
    yield server
    server.stop()


@pytest.fixture
def receiver():
    receiver = WebhookReceiver()
    yield receiver
    receiver.close()


def register(server, board, url, events, secret=None, headers=None):
    return server.request("POST", f"/api/boards/{board}/webhooks", secret=secret or board.owner,
                          body={"url": url, "events": events}, headers=headers)


def edit(server, board, op_id, ops):
    # No resend here: on a cluster under load a node's room reloads when the other node wrote
    # first, and the server sends the edit to the reloaded board itself.
    status, answer = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit, body={"opId": op_id, "ops": ops})
    assert status == 200 and answer["type"] == "ack", answer
    return answer


def webhooks(server, board):
    status, body = server.request("GET", f"/api/boards/{board}/webhooks", secret=board.owner)
    assert status == 200, body
    return body["webhooks"]


def metric(server, name) -> float:
    request = urllib.request.Request(server.http + "/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    with urllib.request.urlopen(request) as response:
        for line in response.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[-1])
    raise AssertionError(f"no {name} in /metrics")


def verified(received, secret) -> dict:
    """The body, once Standard Webhooks' own library has checked its signature and timestamp."""
    return Webhook(secret).verify(received.body, received.headers)


def until(check, what, attempts=300):
    """Polls the server's own answers (its HTTP API, its metrics) until `check()` is truthy."""
    for _ in range(attempts):
        if result := check():
            return result
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}")


# MARK: Every event, signed

def test_every_event_arrives_signed_and_verifies_with_the_standard_webhooks_library(server_factory, receiver):
    server = server_factory([*PRIVATE, "--webhook-debounce-ms", "100"]).start()
    board = server.create_board("Signed")
    status, created = register(server, board, receiver.url + "/hook", ALL_EVENTS)
    assert status == 201, created
    secret = created["secret"]
    edit(server, board, "1", [
        {"op": "addSection", "id": "s", "title": "Rounds", "sequence": True},
        {"op": "addTimer", "id": "a", "sectionID": "s", "title": "Work", "minutes": 0, "seconds": 1, "warnAt": 500},
        {"op": "addTimer", "id": "b", "sectionID": "s", "title": "Rest", "minutes": 0, "seconds": 30, "position": "last"},
    ])
    edit(server, board, "2", [{"op": "startSection", "id": "s"}])
    receiver.wait_for_type("sequence.advanced")
    edit(server, board, "3", [{"op": "pauseTimer", "id": "b"}])
    receiver.wait_for_type("timer.paused")
    assert server.request("DELETE", f"/api/boards/{board}", secret=board.owner)[0] == 204
    receiver.wait_for_type("board.deleted")

    bodies = {}
    for received in receiver.received:
        assert received.headers["content-type"] == "application/json"
        assert received.headers["user-agent"].startswith("TimerBoard/")
        assert re.fullmatch(r"msg_[0-9A-Za-z]{24}", received.webhook_id)
        assert received.headers["webhook-signature"].startswith("v1,")
        body = verified(received, secret)
        assert body["type"] in ALL_EVENTS and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["timestamp"])
        bodies.setdefault(body["type"], []).append(body["data"])
    assert set(bodies) == set(ALL_EVENTS) - {"message.shown"}, sorted(bodies)
    assert [data["timer"]["id"] for data in bodies["timer.started"]] == ["a", "b"]
    assert bodies["timer.warning"][0]["timer"]["id"] == "a" and bodies["timer.warning"][0]["remainingMs"] == 500
    finished = bodies["timer.finished"][0]["timer"]
    assert finished["id"] == "a" and finished["run"]["status"] == "finished"
    advanced = bodies["sequence.advanced"][0]
    assert (advanced["section"]["id"], advanced["finished"]["id"], advanced["started"]["id"]) == ("s", "a", "b")
    assert bodies["timer.paused"][0]["timer"]["run"]["status"] == "paused"
    assert all(data["boardId"] == board for data in bodies["board.changed"])
    assert bodies["board.deleted"] == [{"boardId": board, "title": "Signed"}]
    # A signature made with another secret does not verify.
    with pytest.raises(Exception):
        verified(receiver.received[0], "whsec_" + base64.b64encode(b"x" * 24).decode())


def test_a_finished_timer_arrives_after_its_deadline_and_the_lateness_is_printed(server_factory, receiver):
    server = server_factory(PRIVATE).start()
    board = server.create_board()
    assert register(server, board, receiver.url, ["timer.finished"])[0] == 201
    edit(server, board, "1", [{"op": "addSection", "id": "s", "title": "S"},
                              {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": 0, "seconds": 1}])
    latenesses = []
    for round_ in range(5):
        edit(server, board, f"start {round_}", [{"op": "startTimer", "id": "t"}])
        received = receiver.wait_for_type("timer.finished", count=round_ + 1)[-1]
        deadline = received.json["data"]["timer"]["run"]["finishedAt"]
        latenesses.append(received.arrived * 1000 - deadline)
    print(f"\ntimer.finished arrived {', '.join(f'{ms:.0f}' for ms in latenesses)} ms after the deadline "
          f"(median {sorted(latenesses)[2]:.0f} ms)")
    # The server's clock and this process's are the same machine's.
    assert all(lateness >= -5 for lateness in latenesses), latenesses


# MARK: The routes

def test_the_secret_is_shown_once_and_the_list_shows_each_attempt(server_factory, receiver):
    server = server_factory(PRIVATE).start()
    board = server.create_board()
    status, created = register(server, board, receiver.url + "/in", ["timer.started", "timer.started"])
    assert status == 201
    assert re.fullmatch(r"wh_[0-9A-Za-z]{16}", created["id"]) and created["events"] == ["timer.started"]
    assert created["url"] == receiver.url + "/in" and created["enabled"] is True
    assert len(base64.b64decode(created["secret"].removeprefix("whsec_"))) == 24
    listed = webhooks(server, board)
    assert [hook["id"] for hook in listed] == [created["id"]]
    assert "secret" not in listed[0] and listed[0]["attempts"] == [] and listed[0]["disabledReason"] is None
    edit(server, board, "1", [{"op": "addSection", "id": "s", "title": "S"},
                              {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": 5, "seconds": 0},
                              {"op": "startTimer", "id": "t"}])
    arrived = receiver.wait_for_type("timer.started")[0]
    attempts = until(lambda: webhooks(server, board)[0]["attempts"], "the attempt in the list")
    assert attempts[0]["webhookId"] == arrived.webhook_id and attempts[0]["status"] == 200 and attempts[0]["error"] is None
    assert attempts[0]["event"] == "timer.started" and attempts[0]["durationMs"] >= 0
    # The operator's token works as the owner's.
    assert server.request("GET", f"/api/boards/{board}/webhooks", secret=ADMIN_TOKEN)[0] == 200
    assert server.request("DELETE", f"/api/boards/{board}/webhooks/{created['id']}", secret=board.owner) == (204, None)
    assert webhooks(server, board) == []
    status, error = server.request("DELETE", f"/api/boards/{board}/webhooks/{created['id']}", secret=board.owner)
    assert (status, error["code"]) == (404, "not_found")


def test_each_bad_registration_gets_its_typed_error_and_changes_nothing(server_factory, receiver):
    server = server_factory([*PRIVATE, "--max-webhooks-per-board", "2"]).start()
    board = server.create_board()
    url = receiver.url
    cases = [
        ({"url": url}, 400, "invalid_field"),
        ({"url": url, "events": []}, 400, "invalid_field"),
        ({"url": url, "events": "timer.started"}, 400, "invalid_field"),
        ({"url": url, "events": ["timer.exploded"]}, 400, "invalid_field"),
        ({"url": 7, "events": ["timer.started"]}, 400, "invalid_field"),
        ({"url": "ftp://example.com/", "events": ["timer.started"]}, 400, "invalid_field"),
        ({"url": "http://user:pw@127.0.0.1/", "events": ["timer.started"]}, 400, "invalid_field"),
        ({"url": url + "/#part", "events": ["timer.started"]}, 400, "invalid_field"),
        ({"url": "/relative", "events": ["timer.started"]}, 400, "invalid_field"),
        ({"url": url + "/" + "x" * 2_100, "events": ["timer.started"]}, 400, "invalid_field"),
        ([url], 400, "bad_json"),
    ]
    for body, expected_status, code in cases:
        status, error = server.request("POST", f"/api/boards/{board}/webhooks", secret=board.owner, body=body)
        assert (status, error["code"]) == (expected_status, code), body
    request = urllib.request.Request(server.http + f"/api/boards/{board}/webhooks", data=b"url=x", method="POST",
                                     headers={"Authorization": f"Bearer {board.owner}", "Content-Type": "text/plain"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code == 415
    status, error = server.request("POST", f"/api/boards/{board}/webhooks", secret=board.owner,
                                   body={"url": url, "events": ["timer.started"], "pad": "x" * 20_000})
    assert (status, error["code"]) == (413, "too_large")
    assert webhooks(server, board) == []
    assert register(server, board, url, ["timer.started"])[0] == 201
    assert register(server, board, url, ["timer.paused"])[0] == 201
    status, error = register(server, board, url, ["timer.finished"])
    assert (status, error["code"]) == (409, "limit_exceeded")
    assert len(webhooks(server, board)) == 2


def test_every_webhook_route_keeps_the_rules_of_the_other_owner_routes(server_factory, receiver):
    server = server_factory(PRIVATE).start()
    board = server.create_board()
    other = server.create_board()
    status, created = register(server, board, receiver.url, ["timer.started"])
    assert status == 201
    routes = [("POST", f"/api/boards/{board}/webhooks", {"url": receiver.url, "events": ["timer.started"]}),
              ("GET", f"/api/boards/{board}/webhooks", None),
              ("DELETE", f"/api/boards/{board}/webhooks/{created['id']}", None)]
    for method, path, body in routes:
        # No secret, a wrong one, another board's owner secret: as if there were no board.
        for secret in (None, "not-the-secret-0123456789", other.owner):
            status, error = server.request(method, path, secret=secret, body=body)
            assert (status, error["code"]) == (404, "board_not_found"), (method, secret)
        for role in ("edit", "view"):
            status, error = server.request(method, path, secret=board.secrets[role], body=body)
            assert (status, error["code"]) == (403, "forbidden"), (method, role)
    for method, path, body in (routes[0], routes[2]):
        status, error = server.request(method, path, secret=board.owner, body=body, headers={"Origin": "https://evil.example"})
        assert (status, error["code"]) == (403, "forbidden"), method
    assert len(webhooks(server, board)) == 1


def test_a_flood_of_registrations_from_one_address_is_refused_with_when_to_come_back(server_factory, receiver):
    server = server_factory([*PRIVATE, "--webhooks-per-minute", "1", "--webhook-burst", "2"]).start()
    board = server.create_board()
    answers = [register(server, board, receiver.url, ["timer.started"]) for _ in range(4)]
    assert [status for status, _ in answers] == [201, 201, 429, 429]
    assert answers[2][1]["code"] == "rate_limited" and "try again in" in answers[2][1]["message"]
    assert len(webhooks(server, board)) == 2


# MARK: SSRF

@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9/", "http://localhost/", "http://10.1.2.3/", "http://172.16.0.1/", "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://[::ffff:192.168.1.1]/", "http://[fd00::1]/",
    "http://[fe80::1]/", "http://224.0.0.1/", "http://0.0.0.0/", "http://[::]/", "http://100.64.0.1/",
])
def test_a_private_target_is_refused_without_the_flag(server, url):
    board = server.create_board()
    status, error = register(server, board, url, ["timer.started"])
    assert (status, error["code"]) == (400, "invalid_field"), error
    assert "only to the internet" in error["message"]
    assert webhooks(server, board) == []


def test_a_delivery_is_checked_again_when_it_is_sent(server_factory, receiver):
    allowed = server_factory([*PRIVATE, "--webhook-retry-ms", "60000"]).start()
    board = allowed.create_board()
    assert register(allowed, board, receiver.url, ["timer.started"])[0] == 201
    allowed.stop()
    refusing = server_factory(["--webhook-retry-ms", "60000"])
    refusing.port = allowed.port
    refusing.start()
    edit(refusing, board, "1", [{"op": "addSection", "id": "s", "title": "S"},
                                {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": 5, "seconds": 0},
                                {"op": "startTimer", "id": "t"}])
    attempts = until(lambda: webhooks(refusing, board)[0]["attempts"], "the refused attempt")
    assert attempts[0]["status"] is None and "only to the internet" in attempts[0]["error"]
    assert receiver.received == []


# MARK: Retries, disabling, exactly once

def test_retries_follow_the_schedule_and_an_endpoint_that_keeps_failing_is_disabled(server_factory):
    failing = WebhookReceiver(answer=lambda received: 500)
    try:
        server = server_factory([*PRIVATE, "--webhook-retry-ms", "200,400,800", "--webhook-disable-after-ms", "1000"]).start()
        board = server.create_board()
        status, created = register(server, board, failing.url, ["timer.started"])
        assert status == 201
        edit(server, board, "1", [{"op": "addSection", "id": "s", "title": "S"},
                                  {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": 5, "seconds": 0},
                                  {"op": "startTimer", "id": "t"}])
        attempts = failing.wait_for_type("timer.started", count=4)
        assert len({attempt.webhook_id for attempt in attempts}) == 1, "a retry is the same message"
        gaps = [(later.arrived - earlier.arrived) * 1000 for earlier, later in zip(attempts, attempts[1:])]
        print(f"\ngaps between attempts: {', '.join(f'{gap:.0f}' for gap in gaps)} ms (schedule 200, 400, 800)")
        # Never sooner than the schedule says (the clocks are one machine's; 5 ms for rounding).
        assert all(gap >= wait - 5 for gap, wait in zip(gaps, [200, 400, 800])), gaps
        hook = until(lambda: (hooks := webhooks(server, board)) and not hooks[0]["enabled"] and hooks[0], "the endpoint disabled")
        assert "HTTP 500" in hook["disabledReason"] and hook["failingSince"] is not None
        assert [attempt["status"] for attempt in hook["attempts"]] == [500, 500, 500, 500]
        assert metric(server, 'timerboard_webhook_deliveries_total{result="retried"}') == 3
        assert metric(server, 'timerboard_webhook_deliveries_total{result="failed"}') == 1
        # Nothing more is queued for it: the next event is durable once acked, and no delivery waits.
        edit(server, board, "2", [{"op": "pauseTimer", "id": "t"}, {"op": "startTimer", "id": "t"}])
        assert metric(server, "timerboard_webhook_pending") == 0
        assert len(failing.received) == 4
    finally:
        failing.close()


def test_an_endpoint_that_refuses_the_connection_is_told_at_once_in_words(server_factory):
    # A port nothing listens on: the system refuses a connection to it at once.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Connect and attempt timeouts far beyond how long `until` looks: an attempt that waited for
    # them (trying the connection again and again) is never seen.
    server = server_factory([*PRIVATE, "--webhook-connect-timeout-ms", "60000", "--webhook-timeout-ms", "60000"]).start()
    board = server.create_board()
    assert register(server, board, f"http://127.0.0.1:{port}/hook", ["board.changed"])[0] == 201
    edit(server, board, "1", [{"op": "addSection", "id": "s", "title": "S"}])
    hook = until(lambda: (hooks := webhooks(server, board)) and hooks[0]["attempts"] and hooks[0], "an attempt")
    attempt = hook["attempts"][0]
    assert (attempt["status"], attempt["error"]) == (None, "the endpoint refused the connection"), attempt


def test_exactly_once_per_webhook_id_across_a_kill_between_the_event_and_its_delivery(server_factory):
    healed = {"yes": False}
    flaky = WebhookReceiver(answer=lambda received: 200 if healed["yes"] else 500)
    try:
        server = server_factory([*PRIVATE, "--webhook-retry-ms", "300,300,300,300,300,300,300,300"]).start()
        board = server.create_board()
        assert register(server, board, flaky.url, ["timer.finished", "timer.started"])[0] == 201
        edit(server, board, "1", [{"op": "addSection", "id": "s", "title": "S"},
                                  {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": 0, "seconds": 1},
                                  {"op": "addTimer", "id": "u", "sectionID": "s", "title": "U", "minutes": 5, "seconds": 0},
                                  {"op": "startTimer", "id": "t"}])
        first = flaky.wait_for_type("timer.finished")[0]
        assert first.answered == 500
        server.kill()  # kill -9: the delivery is in the store's outbox, not sent yet
        healed["yes"] = True
        server.start()
        flaky.wait_for(lambda rs: any(r.type == "timer.finished" and r.answered == 200 for r in rs), "the delivery after the restart")
        until(lambda: metric(server, "timerboard_webhook_pending") == 0, "an empty outbox")
        # A later event arrives too; the first one, delivered, never comes again.
        edit(server, board, "2", [{"op": "startTimer", "id": "u"}])
        flaky.wait_for(lambda rs: any(r.type == "timer.started" and r.json["data"]["timer"]["id"] == "u" for r in rs), "u's start")
        finished = flaky.of_type("timer.finished")
        assert {r.webhook_id for r in finished} == {first.webhook_id}, "one event, one webhook-id, across the kill"
        assert [r.answered for r in finished].count(200) == 1, [r.answered for r in finished]
        assert finished[-1].answered == 200
        print(f"\ntimer.finished: {len(finished)} attempts across the kill, one webhook-id, delivered once")
    finally:
        flaky.close()


def test_board_changed_is_debounced_into_one_delivery_of_the_latest_revision(server_factory, receiver):
    server = server_factory(PRIVATE).start()
    board = server.create_board()
    edit(server, board, "setup", [{"op": "addSection", "id": "s", "title": "S"}])
    assert register(server, board, receiver.url, ["board.changed"])[0] == 201
    client = RawClient(server.port, None)
    client.hello_and_join("debounce-0123456789", board)
    for n in range(5):
        client.send({"type": "edit", "opId": f"e{n}", "ops": [{"op": "updateSection", "id": "s", "title": f"Title {n}"}]})
    for _ in range(5):
        client.until("ack")
    changed = receiver.wait_for_type("board.changed")[0]
    assert changed.json["data"]["revision"] == 6, "the latest revision, not the first"
    client.send({"type": "edit", "opId": "later", "ops": [{"op": "updateSection", "id": "s", "title": "Later"}]})
    later = receiver.wait_for_type("board.changed", count=2)[1]
    assert later.json["data"]["revision"] == 7 and later.webhook_id != changed.webhook_id
    assert len(receiver.of_type("board.changed")) == 2
    client.close()


# MARK: A cluster

def test_on_a_cluster_each_event_is_delivered_once_not_once_per_node(postgres, tmp_path, receiver):
    """Both nodes have the board loaded (a socket on each) and both poll the shared outbox: the
    finish is written by one node (the revision's claim) and its delivery leased by one."""
    nodes = []
    try:
        for index in (1, 2):
            node = ServerProcess(tmp_path / f"data-{index}", tmp_path / f"node-{index}.log",
                                 ["--store", postgres.url, *PRIVATE])
            nodes.append(node.start())
        node1, node2 = nodes
        board = node1.create_board("Shared")
        status, created = register(node1, board, receiver.url, ["timer.started", "timer.finished"])
        assert status == 201, created
        watchers = []
        for index, node in enumerate(nodes):
            watcher = RawClient(node.port, None)
            watcher.hello_and_join(f"watcher-{index}-0123456789", board, role="view")
            watchers.append(watcher)
        edit(node2, board, "1", [{"op": "addSection", "id": "s", "title": "S"},
                                 {"op": "addTimer", "id": "t", "sectionID": "s", "title": "T", "minutes": 0, "seconds": 1},
                                 {"op": "startTimer", "id": "t"}])
        receiver.wait_for_type("timer.finished")
        # A later event, through the other node, arrives too; by then a second copy of either would have.
        edit(node1, board, "2", [{"op": "startTimer", "id": "t"}])
        receiver.wait_for_type("timer.started", count=2)
        until(lambda: postgres.query("SELECT count(*) FROM webhook_delivery") == [["0"]], "an empty outbox")
        kinds = [(received.type, received.webhook_id) for received in receiver.received]
        assert len(kinds) == len(set(kinds)) == 3, kinds
        assert [received.type for received in receiver.received].count("timer.finished") == 1
        for watcher in watchers:
            watcher.close()
    finally:
        for node in nodes:
            node.stop()
