#!/usr/bin/env python3
"""Random edits from many clients for a while, then checks that every order key is valid and short
and that every client's replica equals the server's board (issue 12).

    python3 scripts/soak_order_keys.py [--server http://127.0.0.1:8080] [--clients 20] [--seconds 300]

Each client adds timers at the top or the bottom, moves them to either end, and deletes them, as
fast as its acks come back; every changeset it receives is applied to its own replica. At the end
each replica is compared with a fresh snapshot, and the key lengths are printed. Exit status 1 on
any mismatch or invalid key.
"""
import argparse
import asyncio
import json
import random
import re
import sys
import time
import urllib.request
import uuid

import websockets

# What the server writes (docs/protocol.md, "Order keys"); at most 32 characters by its own rule.
CANONICAL = re.compile(r"^(?:[a-z]|[A-Z])[0-9A-Za-z]*$")


def integer_length(head: str) -> int:
    return ord(head) - ord("a") + 2 if "a" <= head <= "z" else ord("Z") - ord(head) + 2


def is_canonical(key: str) -> bool:
    if not CANONICAL.match(key) or len(key) > 128:
        return False
    length = integer_length(key[0])
    return len(key) >= length and (len(key) == length or key[-1] != "0")


class Replica:
    """A client's copy of the board, built only from what the server sends."""

    def __init__(self, snapshot):
        self.rev = snapshot["rev"]
        self.sections = {s["id"]: s for s in snapshot["sections"]}
        self.timers = {t["id"]: t for t in snapshot["timers"]}

    def apply(self, message):
        assert message["rev"] == self.rev + 1, f"gap: at {self.rev}, got {message['rev']}"
        self.rev = message["rev"]
        for change in message["changes"]:
            for action in ("insert", "update", "delete"):
                if action in change:
                    kind = change[action]
                    break
            table = self.sections if kind == "section" else self.timers
            fields = {k: v for k, v in change.items() if k not in ("insert", "update", "delete")}
            if action == "insert":
                table[change["id"]] = fields
            elif action == "update":
                table[change["id"]].update(fields)
            else:
                del table[change["id"]]
                if kind == "section":
                    self.timers = {i: t for i, t in self.timers.items() if t["sectionID"] != change["id"]}

    def board(self):
        return {"sections": self.sections, "timers": self.timers}


async def client(url, board, secret, sections, deadline, seed, stats):
    rng = random.Random(seed)
    client_id = f"soak-{seed}-{uuid.uuid4().hex[:6]}"
    # Left open on return: the caller reads the rest of the stream to the final revision.
    ws = await websockets.connect(url, max_size=None)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": client_id}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    await ws.send(json.dumps({"type": "join", "board": board, "secret": secret}))
    replica = None
    while replica is None:
        message = json.loads(await ws.recv())
        if message["type"] == "snapshot":
            replica = Replica(message)
    op_number = 0
    while time.monotonic() < deadline:
        op_number += 1
        section = rng.choice(sections)
        mine = [t for t in replica.timers.values() if t["sectionID"] == section]
        roll = rng.random()
        if roll < 0.45 or not mine:
            op = {"op": "addTimer", "id": f"t{seed}x{op_number}", "sectionID": section, "title": "T",
                  "minutes": 1, "seconds": 0, "position": rng.choice(["first", "last"])}
        elif roll < 0.85:
            op = {"op": "moveTimer", "id": rng.choice(mine)["id"], "position": rng.choice(["first", "last"])}
            if rng.random() < 0.2:
                op["sectionID"] = rng.choice(sections)
        else:
            op = {"op": "deleteTimer", "id": rng.choice(mine)["id"]}
        # Keep each section's list around a few hundred items, so keys are tested at scale.
        if len(replica.timers) > 600 and op["op"] == "addTimer" and mine:
            op = {"op": "deleteTimer", "id": rng.choice(mine)["id"]}
        op_id = str(op_number)
        await ws.send(json.dumps({"type": "edit", "opId": op_id, "ops": [op]}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "changes":
                replica.apply(message)
            elif message["type"] in ("ack", "reject") and message.get("opId") == op_id:
                stats["ack" if message["type"] == "ack" else "reject"] += 1
                break
    return client_id, replica, ws


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="http://127.0.0.1:8080")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=300)
    args = parser.parse_args()
    request = urllib.request.Request(args.server + "/api/boards", data=b'{"title":"Soak"}',
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        created = json.load(response)
    board, secret = created["id"], created["secrets"]["edit"]
    url = args.server.replace("http", "ws", 1) + "/ws"
    sections = ["s1", "s2", "s3"]
    async with websockets.connect(url) as setup:
        await setup.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "soak-setup"}))
        await setup.recv()
        await setup.send(json.dumps({"type": "join", "board": board, "secret": secret}))
        await setup.send(json.dumps({"type": "edit", "opId": "s", "ops": [
            {"op": "addSection", "id": s, "title": s, "position": "last"} for s in sections]}))
        while json.loads(await setup.recv()).get("type") != "ack":
            pass

    stats = {"ack": 0, "reject": 0}
    started = time.monotonic()
    deadline = started + args.seconds
    tasks = [asyncio.create_task(client(url, board, secret, sections, deadline, seed, stats)) for seed in range(args.clients)]
    # Every client stops editing at the deadline; each then reads until it holds the final revision.
    results = await asyncio.gather(*tasks)
    read = urllib.request.Request(f"{args.server}/api/boards/{board}", headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(read) as response:
        final = json.load(response)
    server = Replica(final).board()
    mismatches = 0
    for client_id, replica, ws in results:
        while replica.rev < final["rev"]:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "changes":
                replica.apply(message)
        if replica.board() != server:
            mismatches += 1
            print(f"{client_id}: replica differs from the server at rev {replica.rev}", file=sys.stderr)
        await ws.close()

    keys = [e["order"] for e in list(final["sections"]) + list(final["timers"])]
    invalid = [k for k in keys if not is_canonical(k) or len(k) > 32]
    lengths = sorted(len(k) for k in keys)
    elapsed = time.monotonic() - started
    print(f"{args.clients} clients, {elapsed:.0f} s, rev {final['rev']}: {stats['ack']} acked, {stats['reject']} rejected "
          f"({stats['ack'] / elapsed:.0f} acked edits/s)")
    print(f"{len(final['timers'])} timers at the end; key length min {lengths[0]}, median {lengths[len(lengths) // 2]}, "
          f"max {lengths[-1]}; invalid keys: {len(invalid)}; replicas differing from the server: {mismatches}")
    return 1 if invalid or mismatches else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
