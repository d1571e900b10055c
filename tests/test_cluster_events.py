"""What a cluster's nodes say about each other and their store (issue 36): each logs another
node joining and leaving (stopped, or silent after a kill), counts the nodes it hears, and shows
its connection pool to PostgreSQL in /metrics."""
import json
import os
import tempfile
from pathlib import Path

import pytest

from cluster import Postgres
from conftest import ServerProcess
from log_events import wait_for_events
from test_metrics import metrics, value


@pytest.fixture
def postgres():
    folder = Path(tempfile.mkdtemp(prefix="timerboard-pg-"))
    os.chmod(folder, 0o755)
    server = Postgres(folder / "data")
    yield server
    server.stop()


def node_id(node) -> str:
    """The id a node gave itself at start (its `serving as a node of a cluster` line)."""
    for line in node.log_path.read_text().splitlines():
        if line.startswith("{") and "serving as a node of a cluster" in line:
            return json.loads(line)["metadata"]["tb.node"]
    raise AssertionError("the node logged no id")


def test_nodes_log_each_others_joins_and_leaves_and_count_what_they_hear(postgres, tmp_path):
    started = []

    def start(name):
        node = ServerProcess(tmp_path / f"data-{name}", tmp_path / f"{name}.log",
                             ["--store", postgres.url, "--log-format", "json", "--store-connections", "5",
                              "--cluster-announce-interval-ms", "300", "--cluster-silence-limit-ms", "1500"])
        started.append(node)
        return node.start()

    try:
        first, second = start("first"), start("second")
        first_id, second_id = node_id(first), node_id(second)
        joined = wait_for_events(first.log_path, "node.joined", where=lambda e: e["tb.node"] == second_id)
        assert joined[0]["tb.node.version"]
        wait_for_events(second.log_path, "node.joined", where=lambda e: e["tb.node"] == first_id)
        assert value(metrics(first), "timerboard_cluster_nodes") == 2

        counted = metrics(first)
        assert value(counted, "timerboard_store_pool_connections_max") == 5
        assert value(counted, "timerboard_store_pool_connections_in_use") >= 1  # its LISTEN
        assert value(counted, "timerboard_store_pool_waiting_calls") == 0
        assert value(counted, "timerboard_store_up") == 1

        second.stop()  # SIGTERM: it says goodbye
        left = wait_for_events(first.log_path, "node.left", where=lambda e: e["tb.node"] == second_id)
        assert left[0]["tb.reason"] == "stopped"

        third = start("third")
        third_id = node_id(third)
        wait_for_events(first.log_path, "node.joined", where=lambda e: e["tb.node"] == third_id)
        third.kill()  # says nothing
        silent = wait_for_events(first.log_path, "node.left", where=lambda e: e["tb.node"] == third_id)
        assert silent[0]["tb.reason"] == "silent" and silent[0]["level"] == "warning"
        assert value(metrics(first), "timerboard_cluster_nodes") == 1
    finally:
        for node in started:
            node.stop()
