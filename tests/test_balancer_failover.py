"""Restart a node, then kill the other (issue 36), behind each balancer of the deploy kit, with two
real nodes on a real PostgreSQL: while a healthy node is up, no connection or request through
the balancer is refused for more than a second, and a board's sockets meet on one node, also
on the restarted node once it is back.

Clients probe all along, as users would: WebSocket upgrades (hello, then welcome) and HTTP reads
of two boards, one at home on each node, each probe from an address of its own. What a probe
saw is measured from the client side: the longest stretch from a refused attempt to the next
one that got through. Where a socket landed is read from the nodes' own join counters
(`timerboard_joins_total`); the probes never join, so only the placed sockets move them."""
import asyncio
import http.client
import json
import time
import urllib.request

import pytest
import websockets

from balancers import BALANCERS
from cluster import UNVERIFIED_TLS
from conftest import ADMIN_TOKEN
from test_cluster import nodes, postgres  # noqa: F401 (fixtures)
from test_nginx_proxy import balancer_params

# The promise: a healthy node up, and no request refused for longer than this.
LONGEST_REFUSAL_SECONDS = 1.0
# Under the balancers' 20 requests a second per address, so their own limits refuse no probe.
PROBE_PACING_SECONDS = 0.08


def joins(node) -> float:
    request = urllib.request.Request(node.http + "/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return sum(float(line.split()[-1]) for line in response.read().decode().splitlines()
                   if line.startswith("timerboard_joins_total"))


async def place(balancer, nodes, board, count=3) -> list:
    """Joins `count` sockets to `board` through the balancer; how many each node received."""
    before = [await asyncio.to_thread(joins, node) for node in nodes]
    sockets = []
    for index in range(count):
        socket = await websockets.connect(f"wss://127.0.0.1:{balancer.https_port}/ws?board={board}", ssl=UNVERIFIED_TLS,
                                          local_addr=("127.0.2.1", 0), open_timeout=10)
        sockets.append(socket)
        await socket.send(json.dumps({"type": "hello", "protocol": 1, "clientId": f"placed-{index}-0123456789abcdef"}))
        await socket.send(json.dumps({"type": "join", "board": str(board), "secret": board.view}))
        while json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] != "snapshot":
            pass
    after = [await asyncio.to_thread(joins, node) for node in nodes]
    for socket in sockets:
        await socket.close()
    return [round(a - b) for a, b in zip(after, before)]


class Probe:
    """One client asking for one board again and again; records (start, got through, what)."""

    def __init__(self, balancer, board, kind, source):
        self.balancer, self.board, self.kind, self.source = balancer, board, kind, source
        self.attempts = []
        self.stopping = False

    async def ask(self):
        if self.kind == "websocket":
            url = f"wss://127.0.0.1:{self.balancer.https_port}/ws?board={self.board}"
            async with websockets.connect(url, ssl=UNVERIFIED_TLS, local_addr=(self.source, 0), open_timeout=5) as socket:
                await socket.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "probe-" + self.source.replace(".", "-") + "-0123456789"}))
                assert json.loads(await asyncio.wait_for(socket.recv(), 5))["type"] == "welcome"
            return "welcome"

        def read():
            connection = http.client.HTTPSConnection("127.0.0.1", self.balancer.https_port, context=UNVERIFIED_TLS,
                                                     timeout=5, source_address=(self.source, 0))
            connection.request("GET", f"/api/boards/{self.board}", headers={"Authorization": f"Bearer {self.board.view}"})
            status = connection.getresponse().status
            connection.close()
            assert status == 200, status
            return status
        return await asyncio.to_thread(read)

    async def run(self):
        while not self.stopping:
            started = time.monotonic()
            try:
                self.attempts.append((started, True, await self.ask()))
            except Exception as error:  # any refusal: a status, a reset, a timeout
                self.attempts.append((started, False, repr(error)[:200]))
            # Pacing only: the probes' order against the restart and the kill is not assumed.
            await asyncio.sleep(PROBE_PACING_SECONDS)

    def attempts_after(self, instant) -> int:
        return sum(1 for started, _, _ in self.attempts if started >= instant)

    def successes_after(self, instant) -> int:
        return sum(1 for started, ok, _ in self.attempts if ok and started >= instant)

    def longest_refusal(self) -> float:
        """Seconds from the first refused attempt of a run to the next attempt that got through
        (to the last attempt when none did)."""
        longest, run_start = 0.0, None
        for started, ok, _ in self.attempts:
            if not ok and run_start is None:
                run_start = started
            elif ok and run_start is not None:
                longest, run_start = max(longest, started - run_start), None
        if run_start is not None:
            longest = max(longest, self.attempts[-1][0] - run_start + PROBE_PACING_SECONDS)
        return longest

    def __str__(self):
        refused = [detail for _, ok, detail in self.attempts if not ok]
        return (f"{self.kind} {self.board} from {self.source}: {len(self.attempts)} attempts, {len(refused)} refused, "
                f"longest refusal {self.longest_refusal():.2f} s{(', e.g. ' + refused[0]) if refused else ''}")


async def until(condition, what, timeout=30, context=()):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never {what} in {timeout} s; " + "; ".join(map(str, context))
        await asyncio.sleep(0.05)


def ready(node) -> bool:
    try:
        with urllib.request.urlopen(node.http + "/ready", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.mark.parametrize("name", balancer_params())
def test_restart_one_node_then_kill_the_other(name, nodes, tmp_path):  # noqa: F811 (fixture)
    balancer = BALANCERS[name](tmp_path / name, [node.port for node in nodes])
    assert balancer.check().returncode == 0
    balancer.start()

    async def scenario():
        for node in nodes:
            await asyncio.to_thread(balancer.routes_to, node.port)
        # A board's sockets meet on one node: its home.
        first = nodes[0].create_board("Home")
        placed = await place(balancer, nodes, first)
        assert sorted(placed) == [0, 3], f"one board's sockets went to both nodes: {placed}"
        home, other = (nodes[0], nodes[1]) if placed[0] else (nodes[1], nodes[0])
        # And a board at home on the other node, so the probes cover both.
        for attempt in range(20):
            second = nodes[0].create_board(f"Other {attempt}")
            if (await place(balancer, nodes, second, count=1))[nodes.index(other)]:
                break
        else:
            raise AssertionError("20 boards in a row hashed to one node")

        probes = [Probe(balancer, board, kind, f"127.0.1.{index}") for index, (board, kind) in enumerate(
            [(first, "websocket"), (first, "http"), (second, "websocket"), (second, "http")], start=1)]
        tasks = [asyncio.create_task(probe.run()) for probe in probes]
        started = time.monotonic()
        await until(lambda: all(probe.successes_after(started) >= 3 for probe in probes), "every probe got through", context=probes)

        # Restart the first board's home (SIGTERM, then start again on its port), down long
        # enough for every probe to ask while it is (as during an upgrade) ...
        await asyncio.to_thread(home.stop)
        stopped = time.monotonic()
        await until(lambda: all(probe.attempts_after(stopped) >= 3 for probe in probes), "every probe asked", context=probes)
        await asyncio.to_thread(home.start)
        await until(lambda: ready(home), "the restarted node ready")
        await asyncio.to_thread(balancer.routes_to, home.port)
        # ... its board's new sockets go back to it ...
        placed_again = await place(balancer, nodes, first)
        # ... then kill the other one: now only the restarted node is up.
        await asyncio.to_thread(other.kill)
        killed = time.monotonic()
        await until(lambda: all(probe.successes_after(killed) >= 5 for probe in probes), "every probe got through after the kill",
                    context=probes)
        for probe in probes:
            probe.stopping = True
        await asyncio.gather(*tasks)
        return probes, placed_again, nodes.index(home)

    try:
        probes, placed_again, home_index = asyncio.run(scenario())
    finally:
        balancer.stop()
    for probe in probes:
        print(f"{name}: {probe}")
    for probe in probes:
        assert probe.longest_refusal() < LONGEST_REFUSAL_SECONDS, str(probe)
    assert placed_again[home_index] == 3, f"the restarted node got {placed_again[home_index]} of its board's 3 new sockets"
