"""The load generator against a real server, small: its figures come from deliveries it really
saw. (Speed is never asserted here; scripts/bench measures it.)"""
import json
import subprocess
import time

from conftest import BENCH_BINARY
from test_metrics import metrics, value


def bench(server, *args, tmp_path):
    out = tmp_path / "result.json"
    subprocess.run([str(BENCH_BINARY), *args, "--server", server.http, "--json", str(out)],
                   check=True, timeout=120, capture_output=True)
    return json.loads(out.read_text())


def test_fanout_counts_every_delivery_and_the_bytes_of_a_title_edit(server, tmp_path):
    result = bench(server, "fanout", "--subscribers", "20", "--rate", "20", "--seconds", "1", tmp_path=tmp_path)
    step = result[0] if isinstance(result, list) else result
    assert step["edits"] == 20
    assert step["deliveries"] == 20 * 20
    assert step["lostDeliveries"] == 0
    # A one-field title changeset, framed: {"type":"changes","rev":N,"changes":[{...}]}.
    assert 70 <= step["bytesPerChangeset"] <= 100
    assert step["lastSubscriber"]["p50"] >= step["perDelivery"]["p50"] > 0


def test_join_storm_with_deflate_receives_the_snapshot_compressed_and_inflates_it(server, tmp_path):
    args = ["join-storm", "--clients", "5", "--sections", "10", "--timers-per-section", "20"]
    plain = bench(server, *args, tmp_path=tmp_path)
    compressed = bench(server, *args, "--deflate", tmp_path=tmp_path)
    # Both hold the same board (the inflated snapshot is as long as the plain one, ±digits of ids).
    assert abs(compressed["snapshotBytes"] - plain["snapshotBytes"]) < 100
    assert plain["wireBytesPerClient"] > plain["snapshotBytes"]
    assert compressed["wireBytesPerClient"] * 4 < plain["wireBytesPerClient"]


def test_fanout_reports_the_connections_the_server_closed_instead_of_only_losing_deliveries(server, tmp_path):
    # A server that stops mid-step closes every socket: the step must say so, editor included,
    # since a closed editor otherwise shows only as deliveries that never came.
    out = tmp_path / "closed.json"
    bench = subprocess.Popen([str(BENCH_BINARY), "fanout", "--subscribers", "10", "--rate", "20", "--seconds", "3",
                              "--server", server.http, "--json", str(out)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Mid-step: the server has accepted some of the step's 60 edits, not all of them.
    for _ in range(600):
        if value(metrics(server), "timerboard_edits_accepted_total") >= 10:
            break
        time.sleep(0.01)
    else:
        raise AssertionError("the bench's editor never got going")
    server.stop()
    printed, _ = bench.communicate(timeout=60)
    step = json.loads(out.read_text())
    step = step[0] if isinstance(step, list) else step
    assert step["lostDeliveries"] > 0
    assert step["editorClosedWith"] is not None, printed
    assert sum(step["subscribersClosedWith"].values()) == 10, printed
    assert "closed by the server so far: the editor (" in printed


def test_saturate_measures_a_rate_over_the_limit_again_before_it_counts(server, tmp_path):
    # A limit no step can meet: without retries the search stops after one step, with one retry
    # the same rate is measured twice.
    once = bench(server, "saturate", "--subscribers", "5", "--seconds", "0.5", "--limit", "0.000001", tmp_path=tmp_path)
    twice = bench(server, "saturate", "--subscribers", "5", "--seconds", "0.5", "--limit", "0.000001", "--retries", "1",
                  tmp_path=tmp_path)
    assert [step["editsPerSecond"] for step in once] == [20]
    assert [step["editsPerSecond"] for step in twice] == [20, 20]


def test_acked_edits_stops_with_the_servers_reject_instead_of_waiting_forever(server_factory):
    # A server with its rate limits on (here tight ones): the bench used to ignore the rejects
    # and wait for acks that never came.
    server = server_factory(["--edits-per-second", "5", "--edit-burst", "5"]).start()
    run = subprocess.run([str(BENCH_BINARY), "acked-edits", "--clients", "2", "--window", "8", "--seconds", "2",
                          "--server", server.http], timeout=60, capture_output=True, text=True)
    assert run.returncode != 0
    assert "the server rejected an edit" in run.stderr and "rate_limited" in run.stderr, run.stderr


def test_fanout_counts_the_edits_the_server_rejected(server_factory, tmp_path):
    server = server_factory(["--edits-per-second", "5", "--edit-burst", "5"]).start()
    out = tmp_path / "rejected.json"
    run = subprocess.run([str(BENCH_BINARY), "fanout", "--subscribers", "2", "--rate", "20", "--seconds", "1",
                          "--server", server.http, "--json", str(out)], timeout=120, capture_output=True, text=True)
    step = json.loads(out.read_text())
    step = step[0] if isinstance(step, list) else step
    # 20 edits in a second against a burst of 5 (the setup takes one): most are refused.
    assert 0 < step["rejectedEdits"] < 20, run.stdout
    assert step["lostDeliveries"] == 2 * step["rejectedEdits"], run.stdout
    assert "edits rejected by the server: " in run.stdout


def test_a_refused_websocket_is_reported_with_the_servers_answer(server_factory):
    server = server_factory(["--max-connections-per-address", "3"]).start()
    run = subprocess.run([str(BENCH_BINARY), "fanout", "--subscribers", "5", "--rate", "20", "--seconds", "1",
                          "--server", server.http], timeout=60, capture_output=True, text=True)
    assert run.returncode != 0
    assert "the server refused a WebSocket: HTTP/1.1 503" in run.stderr, run.stderr
    assert "too many connections from this address" in run.stderr, run.stderr


def test_fanout_on_several_generator_threads_counts_every_delivery_once(server, tmp_path):
    # Each thread's subscribers record into their own shard; the step merges them.
    result = bench(server, "fanout", "--subscribers", "9", "--rate", "20", "--seconds", "1", "--threads", "3", tmp_path=tmp_path)
    step = result[0] if isinstance(result, list) else result
    assert step["deliveries"] == 9 * step["edits"] and step["lostDeliveries"] == 0
    assert step["lastSubscriber"]["p50"] >= step["perDelivery"]["p50"] > 0


def test_fanout_over_several_boards_delivers_each_boards_edits_to_its_own_subscribers(server, tmp_path):
    # Three boards, each with its editor and 7 subscribers, 10 edits/s on each: every edit must
    # reach the 7 subscribers of its board, and only those (were all 21 on one board, its edits
    # would make the same number of deliveries, but no other board's edit would reach all of its).
    result = bench(server, "fanout", "--boards", "3", "--subscribers", "7", "--rate", "10", "--seconds", "1", tmp_path=tmp_path)
    assert result["boards"] == 3 and result["edits"] == 3 * 10
    assert result["deliveries"] == 3 * 10 * 7 and result["lostDeliveries"] == 0
    assert result["lastSubscriber"]["count"] == 3 * 10


def test_fanout_refuses_several_boards_of_a_peer_that_can_measure_one(tmp_path):
    run = subprocess.run([str(BENCH_BINARY), "fanout", "--boards", "2", "--target", "y-websocket", "--peer-url", "ws://127.0.0.1:1",
                          "--y-updates", str(tmp_path / "none.bin")], timeout=60, capture_output=True, text=True)
    assert run.returncode != 0 and "y-websocket measures one board" in run.stderr, run.stderr
