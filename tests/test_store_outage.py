"""Every store failure answers fast and truthfully (issue 36): while the database does not answer,
`POST /api/boards`, the operator's list and `/ready` answer 503 at once instead of waiting for it,
and nothing is created that a client was not told of: a create answered 503 whose write the store
made after all (it was under way when the time was up) is deleted. When the database is back,
`/ready` says so at its next probes, not when the connection pool's backoff (up to a minute)
ends. Real PostgreSQL, stopped and started; real SQLite, locked by another process."""
import os
import sqlite3
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from cluster import Postgres
from conftest import ADMIN_TOKEN, ServerProcess
from raw_websocket import RawClient
from log_events import events, wait_for_events

STORE_TIMEOUT = "2"


@pytest.fixture
def postgres():
    # Not pytest's tmp_path: its parents are closed to the postgres user the server runs as.
    folder = Path(tempfile.mkdtemp(prefix="timerboard-pg-"))
    os.chmod(folder, 0o755)
    server = Postgres(folder / "data")
    yield server
    server.stop()


@pytest.fixture
def node(postgres, tmp_path):
    server = ServerProcess(tmp_path / "data", tmp_path / "node.log",
                           ["--store", postgres.url, "--store-timeout-seconds", STORE_TIMEOUT, "--log-format", "json"])
    yield server.start()
    server.stop()


def timed(call, *arguments, **keywords):
    """(seconds, what `call` returned): for the figures the test prints, never for an assertion."""
    started = time.monotonic()
    result = call(*arguments, **keywords)
    return time.monotonic() - started, result


def ready(server) -> int:
    request = urllib.request.Request(server.http + "/ready")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def stored_board_ids(postgres) -> set:
    return {row[0] for row in postgres.query("SELECT id FROM board")}


def test_a_database_outage_answers_503_at_once_creates_nothing_and_ends_at_the_next_probe(postgres, node):
    before = node.create_board("Before the outage")
    postgres.stop()

    # Creates, the operator's list and /ready: each answered, 503, while the database is away.
    answered = []
    for number in range(3):
        seconds, (status, body) = timed(node.post_board, f'{{"title":"During {number}"}}'.encode())
        assert (status, body["code"]) == (503, "unavailable"), body
        answered.append(seconds)
    seconds, (status, body) = timed(node.request, "GET", "/api/boards", secret=ADMIN_TOKEN)
    assert (status, body["code"]) == (503, "unavailable"), body
    answered.append(seconds)
    assert ready(node) == 503
    down = wait_for_events(node.log_path, "store.down")
    assert "127.0.0.1" in down[0]["tb.error"], down  # PostgreSQL's address, in words: not a generic description

    # Long enough for the pool to back off: postgres-nio waits 100 ms × 1.25^n after n failed
    # attempts to connect, which it logs; after 16 the next wait is about 3.5 s.
    deadline = time.monotonic() + 120
    while node.log_path.read_text().count("Connection creation failed") < 16:
        assert time.monotonic() < deadline, "the pool stopped trying to connect"
        time.sleep(0.2)

    postgres.resume()
    resumed = time.monotonic()
    probes = [ready(node)]
    while probes[-1] != 200:
        assert len(probes) < 3, f"/ready answered {probes} after the database came back"
        probes.append(ready(node))
    back_after = time.monotonic() - resumed
    wait_for_events(node.log_path, "store.up")
    # Ready means ready: the next create succeeds at once.
    after = node.create_board("After the outage")
    # Every create answered 503 is settled (it never reached the database), and the database
    # holds exactly the boards whose creation was answered 201.
    settled = wait_for_events(node.log_path, "board.rolled_back", count=3)
    assert {event["tb.reason"] for event in settled} == {"never_written"}, settled
    assert stored_board_ids(postgres) == {str(before), str(after)}
    print(f"\n503 answers during the outage after {', '.join(f'{s:.2f}' for s in answered)} s "
          f"(--store-timeout-seconds {STORE_TIMEOUT}); /ready 200 {back_after:.2f} s after the database "
          f"was back, probes {probes}")


def test_a_create_the_database_holds_past_the_timeout_is_answered_503_and_deleted_once_made(postgres, node):
    # Another session holds the board table: the node's INSERT reaches PostgreSQL and waits.
    locker = subprocess.Popen(["psql", postgres.url, "-qAt", "-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        locker.stdin.write("BEGIN;\nLOCK TABLE board IN ACCESS EXCLUSIVE MODE;\nSELECT 'locked';\n")
        locker.stdin.flush()
        assert locker.stdout.readline().strip() == "locked"
        status, body = node.post_board(b'{"title":"Held"}')
        assert (status, body["code"]) == (503, "unavailable"), body
        # The INSERT is still waiting in PostgreSQL, and goes through once the lock goes.
        locker.stdin.write("COMMIT;\n")
        locker.stdin.close()
        locker.wait(timeout=30)
    finally:
        if locker.poll() is None:
            locker.kill()
    settled = wait_for_events(node.log_path, "board.rolled_back")
    # Deleted once the INSERT went through, or never written if PostgreSQL dropped the statement:
    # either way, once no INSERT is left running, the board whose id nobody was told is not there.
    assert settled[0]["tb.reason"] in ("deleted", "never_written"), settled
    deadline = time.monotonic() + 30
    while postgres.query("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'INSERT INTO board%' AND state <> 'idle'") != [["0"]]:
        assert time.monotonic() < deadline, "the node's INSERT never ended"
        time.sleep(0.05)
    assert stored_board_ids(postgres) == set()
    print(f"\nthe held create settled as {settled[0]['tb.reason']}")


def test_on_sqlite_a_create_behind_another_writer_is_answered_503_and_leaves_nothing(server_factory, tmp_path):
    server = server_factory(["--store-timeout-seconds", STORE_TIMEOUT, "--log-format", "json"]).start()
    kept = server.create_board("Kept")
    # Another process (an operator's import, say) holds SQLite's write lock for longer than the timeout.
    other = sqlite3.connect(tmp_path / "data" / "timerboard.sqlite", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        status, body = server.post_board(b'{"title":"Behind the lock"}')
        assert (status, body["code"]) == (503, "unavailable"), body
    finally:
        other.execute("COMMIT")
        other.close()
    settled = wait_for_events(server.log_path, "board.rolled_back")
    assert settled[0]["tb.reason"] in ("deleted", "never_written"), settled
    assert [board["id"] for board in server.request("GET", "/api/boards", secret=ADMIN_TOKEN)[1]["boards"]] == [str(kept)]
    assert events(server.log_path, "store.down") == []  # reads went on: the store answered its checks


def test_while_the_database_is_away_an_edit_metrics_and_a_stop_wait_the_store_timeout_not_a_minute(postgres, node):
    # postgres-nio's pool keeps a call waiting for a connection while it backs off, up to a
    # minute; every such wait is bounded by --store-timeout-seconds (2 s here). The socket and
    # HTTP reads below give up after 10 s: a wait of a minute fails them.
    board = node.create_board("Outage")
    client = RawClient(node.port, None)
    client.hello_and_join("outage-editor-0123456789", board)
    postgres.stop()
    client.send({"type": "edit", "opId": "during", "ops": [{"op": "addSection", "id": "s", "title": "Lost?"}]})
    assert client.close_code() == 1011, "an edit the store could not make durable closes the room"
    request = urllib.request.Request(node.http + "/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert "timerboard_store_up 0" in response.read().decode()
    started = time.monotonic()
    node.process.terminate()
    node.process.wait(timeout=30)
    print(f"\nstopped {time.monotonic() - started:.1f} s after SIGTERM with the database away")
    assert node.process.returncode == 0
