"""A bench the server refuses stops, says what was refused, how many connections were open and
which limit to raise, and exits nonzero: it used to wait for answers that never came (idle,
churn) while holding every socket it had opened. The subprocess timeout only bounds a hang."""
import socket
import subprocess

import pytest

from conftest import BENCH_BINARY

MODES = {
    "idle": ["idle", "--connections", "30"],
    "churn": ["churn", "--connections", "30", "--rounds", "1"],
    "fanout": ["fanout", "--subscribers", "30", "--seconds", "1"],
    "join-storm": ["join-storm", "--clients", "30", "--sections", "1", "--timers-per-section", "1"],
    "timer-expiry": ["timer-expiry", "--timers", "5", "--subscribers", "30"],
}


@pytest.mark.parametrize("mode", MODES)
def test_a_bench_over_the_servers_per_address_limit_exits_and_names_the_flag(server_factory, mode):
    server = server_factory(["--max-connections-per-address", "10"]).start()
    run = subprocess.run([str(BENCH_BINARY), *MODES[mode], "--server", server.http, "--server-pid", str(server.process.pid)],
                         timeout=60, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "could not open" in run.stderr and "too many connections from this address" in run.stderr, run.stderr
    assert "--max-connections-per-address" in run.stderr, run.stderr
    # How far it got: at most the limit's 10 at once (the editor, where a mode has one, counts),
    # and one more in all where a mode's setup socket closed before the rest opened (join-storm).
    opened = int(run.stderr.split(" of the ")[0].rsplit("\n", 1)[-1])
    assert opened <= 11, run.stderr


def test_a_bench_with_no_server_behind_the_websocket_says_so(server_factory):
    # The HTTP side answers (the board is created), then the WebSocket port goes away: here, a
    # closed port given as a subscriber server.
    server = server_factory().start()
    run = subprocess.run([str(BENCH_BINARY), "fanout", "--subscribers", "3", "--seconds", "1", "--server", server.http,
                          "--subscriber-server", "http://127.0.0.1:1"], timeout=60, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "could not open" in run.stderr and "is the server running at --server?" in run.stderr, run.stderr


def test_fanout_opens_its_subscribers_in_waves_not_all_at_once(server_factory):
    # Thousands of connects at once overflow a server's listen backlog: a server pinned to one
    # core then answered some after the bench's connect timeout, and `fanout --subscribers 10000`
    # failed. Here the subscribers go to a listener that accepts and never answers: the bench
    # must wait for its first wave (500) instead of opening all 1,200.
    server = server_factory().start()
    listener = socket.create_server(("127.0.0.1", 0), backlog=4096)
    bench = subprocess.Popen([str(BENCH_BINARY), "fanout", "--subscribers", "1200", "--seconds", "1", "--server", server.http,
                              "--subscriber-server", f"http://127.0.0.1:{listener.getsockname()[1]}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    held = []
    try:
        listener.settimeout(3)  # no new connection for 3 s: the bench is waiting for the ones it opened
        while len(held) < 1200:
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                break
    finally:
        bench.kill()
        bench.wait()
        for connection in held:
            connection.close()
        listener.close()
    assert len(held) == 500
