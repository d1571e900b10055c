#!/usr/bin/env python3
"""Presence on a cluster: two nodes on a scratch PostgreSQL, 110 phones on node 1 (each reading
what it is sent), Bob on node 2. Prints, for 30 s of an idle crowd and then for 50 unnamed
phones arriving (10 a second) and leaving again, the presence messages and bytes Bob was sent
and the transactions PostgreSQL committed (each NOTIFY is one; about 8 a second are the nodes'
own heartbeats and claims). docs/performance.md.
  TIMERBOARD_BIN=SERVER_BINARY scripts/bench-cluster-presence.py
It uses the end-to-end tests' helpers (tests/cluster.py, tests/conftest.py); the default binary
is the debug build, as the tests use."""
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import websockets  # noqa: E402
from cluster import Postgres, joined, keep_reading  # noqa: E402
from conftest import ServerProcess  # noqa: E402


def commits(pg: Postgres) -> int:
    return int(pg.query("select xact_commit from pg_stat_database where datname = 'postgres'")[0][0])


async def scenario(pg: Postgres, node1: ServerProcess, node2: ServerProcess):
    board = node1.create_board("Crowd")
    readers = []

    async def phone(client_id, name):
        socket = await joined(node1.ws, board, board.secrets["view"], client_id, name)
        readers.append(asyncio.create_task(keep_reading(socket)))
        return socket

    phones = [await phone(f"phone-{n:03d}-0123456789", f"Phone {n:03d}") for n in range(110)]
    bob = await joined(node2.ws, board, board.edit, "bob-client-0123456789", "Bob")
    got = {"messages": 0, "bytes": 0}

    async def read_bob():
        try:
            async for raw in bob:
                if json.loads(raw)["type"] in ("presence", "presenceChanged"):
                    got["messages"] += 1
                    got["bytes"] += len(raw)
        except websockets.ConnectionClosed:
            pass

    reader = asyncio.create_task(read_bob())
    await asyncio.sleep(12)  # the crowd's arrival settles, and each node has announced once

    async def phase(name, body):
        got.update(messages=0, bytes=0)
        before, started = commits(pg), time.monotonic()
        await body()
        print(f"{name}: {time.monotonic() - started:.1f} s, Bob was sent {got['messages']} presence messages, "
              f"{got['bytes']} bytes; PostgreSQL committed {commits(pg) - before} transactions", flush=True)

    async def churn():
        # Unnamed phones (they sort after the first 100) come, 10 a second, then go: the count alone changes.
        extra = []
        for n in range(50):
            extra.append(await phone(f"zed-{n:03d}-0123456789", f"Zed {n:03d}"))
            await asyncio.sleep(0.1)
        for socket in extra:
            await socket.close()
            await asyncio.sleep(0.1)

    await phase("idle", lambda: asyncio.sleep(30))
    await phase("churn", churn)
    for socket in phones + [bob]:
        await socket.close()
    await asyncio.gather(reader, *readers)


def main():
    # Not a tmp folder of the caller's: its parents must be open to the postgres user.
    folder = Path(tempfile.mkdtemp(prefix="timerboard-bench-pg-"))
    os.chmod(folder, 0o755)
    pg = Postgres(folder / "data")
    data = Path(tempfile.mkdtemp(prefix="timerboard-bench-"))
    nodes = []
    try:
        for index in (1, 2):
            node = ServerProcess(data / f"data-{index}", data / f"node-{index}.log",
                                 ["--store", pg.url, "--edits-per-second", "1000", "--edit-burst", "1000"])
            nodes.append(node.start())
        asyncio.run(scenario(pg, *nodes))
    finally:
        for node in nodes:
            node.stop()
        pg.stop()
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
