"""`/metrics` (issue 16): Prometheus's text format, counting exactly what a scripted session did,
and closed to anyone without the operator token when one is set."""
import math
import re
import time
import urllib.error
import urllib.request

from conftest import ADMIN_TOKEN, BINARY, ServerProcess
from raw_websocket import RawClient

# The text format, version 0.0.4 (prometheus.io/docs/instrumenting/exposition_formats).
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(rf"^({NAME})(?:\{{((?:{LABEL})(?:,{LABEL})*,?)?\}})? (\S+)(?: -?\d+)?$")
TYPE = re.compile(rf"^# TYPE ({NAME}) (counter|gauge|histogram|summary|untyped)$")
HELP = re.compile(rf"^# HELP ({NAME}) .*$")
SUFFIXES = {"histogram": ("_bucket", "_sum", "_count"), "summary": ("_sum", "_count", "")}


def parse(text: str) -> dict:
    """{(name, frozenset of labels): value}; fails on anything the text format does not allow."""
    assert text.endswith("\n"), "the last line ends with a newline"
    types, helps, samples = {}, set(), {}
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("#"):
            if match := TYPE.match(line):
                assert match[1] not in types, f"two TYPE lines for {match[1]}"
                types[match[1]] = match[2]
            elif match := HELP.match(line):
                assert match[1] not in helps, f"two HELP lines for {match[1]}"
                helps.add(match[1])
            else:
                assert not line.startswith(("# TYPE", "# HELP")), line
            continue
        match = SAMPLE.match(line)
        assert match, f"not a sample line: {line!r}"
        name, labels, value = match[1], match[2] or "", match[3]
        pairs = frozenset(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', labels))
        family = next((name[: -len(s)] for s in ("_bucket", "_sum", "_count") if name.endswith(s) and name[: -len(s)] in types), name)
        assert family in types, f"{name} has no TYPE line before it"
        if types[family] == "counter":
            assert name.endswith("_total"), f"counter {name} should end in _total"
        assert (name, pairs) not in samples, f"{name}{{{labels}}} twice"
        samples[(name, pairs)] = float(value)  # float() takes NaN, +Inf and -Inf as the format spells them
    # Every family says what it is (issue 36: none did).
    assert set(types) - helps == set(), f"no HELP line for {sorted(set(types) - helps)}"
    for family, kind in types.items():
        if kind != "histogram":
            continue
        series = {}
        for (name, pairs), value in samples.items():
            if name == family + "_bucket":
                le = dict(pairs)["le"]
                rest = frozenset(p for p in pairs if p[0] != "le")
                series.setdefault(rest, []).append((math.inf if le == "+Inf" else float(le), value))
        assert series, f"histogram {family} has no buckets"
        for rest, buckets in series.items():
            buckets.sort()
            counts = [count for _, count in buckets]
            assert counts == sorted(counts), f"{family}'s buckets are cumulative"
            assert buckets[-1][0] == math.inf, f"{family} has a +Inf bucket"
            assert samples[(family + "_count", rest)] == buckets[-1][1], f"{family}_count is the +Inf bucket"
            assert (family + "_sum", rest) in samples
    return samples


def scrape(server, token=ADMIN_TOKEN):
    """(status, body, content type) of `GET /metrics`."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(server.http + "/metrics", headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read().decode(), response.headers["Content-Type"]
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers["Content-Type"]


def metrics(server) -> dict:
    status, body, content_type = scrape(server)
    assert status == 200, body
    assert content_type.startswith("text/plain; version=0.0.4"), content_type
    return parse(body)


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0.0)


def joined(server, board, client_id, role="edit", since=None):
    client = RawClient(server.port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": client_id})
    client.until("welcome")
    client.send({"type": "join", "board": str(board), "secret": board.secrets[role], **({"since": since} if since is not None else {})})
    assert client.message()["type"] == "access"
    return client


def test_the_counters_move_by_exactly_what_a_scripted_session_did(server):
    board = server.create_board("Metrics")
    before = metrics(server)

    editor = joined(server, board, "editor")
    assert editor.message()["type"] == "snapshot"
    # N accepted edits, each waited for: a section, a timer that runs two seconds, renames.
    edits = [[{"op": "addSection", "id": "s1", "title": "S"}],
             [{"op": "addTimer", "id": "t1", "sectionID": "s1", "title": "Egg", "minutes": 0, "seconds": 2}],
             [{"op": "startTimer", "id": "t1"}]]
    edits += [[{"op": "updateSection", "id": "s1", "title": f"T{n}"}] for n in range(4)]
    for n, ops in enumerate(edits, start=1):
        editor.send({"type": "edit", "opId": f"ok-{n}", "ops": ops})
        assert editor.until("ack")["rev"] == n
    n_edits = len(edits)
    # Rejects with known codes: two of not_found, one duplicate_id (the board's own checks), one
    # forbidden (a view link), one not_joined (the session's own check).
    for op_id, ops in [("nf-1", [{"op": "updateSection", "id": "nope", "title": "x"}]),
                       ("nf-2", [{"op": "deleteSection", "id": "nope"}]),
                       ("dup", [{"op": "addSection", "id": "s1", "title": "again"}])]:
        editor.send({"type": "edit", "opId": op_id, "ops": ops})
        assert editor.until("reject")["opId"] == op_id
    viewer = joined(server, board, "viewer", role="view")
    assert viewer.message()["type"] == "snapshot"
    viewer.send({"type": "edit", "opId": "v1", "ops": [{"op": "updateSection", "id": "s1", "title": "no"}]})
    assert viewer.until("reject")["code"] == "forbidden"
    stranger = RawClient(server.port, None)
    stranger.send({"type": "hello", "protocol": 1, "clientId": "stranger"})
    stranger.until("welcome")
    stranger.send({"type": "edit", "opId": "s1", "ops": [{"op": "updateSection", "id": "s1", "title": "no"}]})
    assert stranger.until("reject")["code"] == "not_joined"
    # A resume: a client that saw revision n_edits - 2 gets the two it missed.
    late = joined(server, board, "late", since=n_edits - 2)
    assert late.message()["type"] == "resume"
    running = metrics(server)
    # The timer runs out two seconds after it started: everyone gets its finish.
    while not any(change.get("run", {}).get("status") == "finished" for change in editor.until("changes")["changes"]):
        pass
    after = metrics(server)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("timerboard_edits_accepted_total") == n_edits
    assert moved("timerboard_edits_rejected_total", code="not_found") == 2
    assert moved("timerboard_edits_rejected_total", code="duplicate_id") == 1
    assert moved("timerboard_edits_rejected_total", code="forbidden") == 1
    assert moved("timerboard_edits_rejected_total", code="not_joined") == 1
    assert moved("timerboard_edits_rejected_total", code="invalid_field") == 0
    assert moved("timerboard_joins_total", kind="snapshot") == 2
    assert moved("timerboard_joins_total", kind="resume") == 1
    # Every edit is a changeset, and so is the server's own finish of the timer.
    assert moved("timerboard_changesets_total") == n_edits + 1
    # The editor was the only subscriber during its edits; three were there for the finish.
    assert moved("timerboard_changeset_deliveries_total") == n_edits + 3
    assert moved("timerboard_sent_messages_total") > n_edits * 2
    assert moved("timerboard_sent_bytes_total") > moved("timerboard_sent_messages_total") * 10
    assert moved("timerboard_edit_durable_seconds_count") == n_edits
    assert 1 <= moved("timerboard_store_commit_seconds_count") <= n_edits + 1
    assert moved("timerboard_timers_finished_total") == 1
    assert value(running, "timerboard_timers_running") == 1
    assert value(after, "timerboard_timers_running") == 0
    assert value(after, "timerboard_live_boards") == 1
    assert value(after, "timerboard_websocket_connections") == 4
    assert moved("timerboard_slow_client_drops_total") == 0
    assert moved("timerboard_heartbeat_closes_total") == 0
    for client in (editor, viewer, stranger, late):
        client.close()


def test_a_connection_closed_by_the_heartbeat_is_counted(server_factory):
    server = server_factory(["--heartbeat-interval-ms", "300"]).start()
    board = server.create_board("Heartbeat")
    silent = joined(server, board, "silent")
    assert silent.close_code() == 1001
    assert value(metrics(server), "timerboard_heartbeat_closes_total") == 1
    silent.close()


def test_metrics_need_the_operator_token_when_one_is_set(server):
    for token in (None, "wrong-token-0123456789", ADMIN_TOKEN[:-1]):
        status, body, _ = scrape(server, token)
        assert status == 401, (token, status)
        assert "timerboard_" not in body
    status, body, _ = scrape(server)
    assert status == 200 and "timerboard_edits_accepted_total" in body


class OpenServer(ServerProcess):
    """A server started without an operator token."""

    def command(self):
        return [str(BINARY), "serve", "--port", str(self.port), "--data-directory", str(self.data_dir),
                "--web-root", str(self.web_root), *self.extra_args]


def test_without_an_operator_token_the_metrics_are_open(tmp_path):
    server = OpenServer(tmp_path / "data", tmp_path / "server.log").start()
    try:
        status, body, _ = scrape(server, token=None)
        assert status == 200
        parse(body)
    finally:
        server.stop()


def test_the_process_the_store_and_the_caps_are_shown(server_factory):
    server = server_factory(["--max-connections", "1234"]).start()
    samples = metrics(server)
    # Prometheus's standard process families, read from the kernel at the scrape.
    assert 0 < value(samples, "process_open_fds") <= value(samples, "process_max_fds")
    assert value(samples, "process_resident_memory_bytes") > 1_000_000
    assert value(samples, "process_virtual_memory_bytes") >= value(samples, "process_resident_memory_bytes")
    assert value(samples, "process_cpu_seconds_total") > 0
    started = value(samples, "process_start_time_seconds")
    assert abs(started - time.time()) < 3600, started
    assert value(samples, "timerboard_store_up") == 1
    assert value(samples, "timerboard_max_connections") == 1234
    assert value(samples, "timerboard_cluster_nodes") == 1
    # SQLite has no pool: the families are there, at 0.
    for name in ("timerboard_store_pool_connections_in_use", "timerboard_store_pool_waiting_calls", "timerboard_store_pool_connections_max"):
        assert (name, frozenset()) in samples and value(samples, name) == 0, name
    reasons = {dict(labels)["reason"] for name, labels in samples if name == "timerboard_http_refusals_total"}
    assert reasons == {"server_full", "address_full", "header_timeout", "request_timeout", "header_too_large", "body_too_large",
                       "board_creation_rate", "history_read_rate"}
