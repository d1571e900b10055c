"""What the cluster tests share: a real PostgreSQL server (scripts/scratch-postgres), TimerBoard
nodes on it, and a client that behaves as the browser does when its node goes away: it
reconnects, rejoins from its revision and resends every edit not yet answered."""
import asyncio
import json
import random
import ssl
import subprocess
import uuid
from pathlib import Path

import websockets

from conftest import ROOT

SCRATCH = ROOT / "scripts" / "scratch-postgres"

# nginx in the tests has a throwaway self-signed certificate.
UNVERIFIED_TLS = ssl.create_default_context()
UNVERIFIED_TLS.check_hostname = False
UNVERIFIED_TLS.verify_mode = ssl.CERT_NONE


class Postgres:
    """A throwaway PostgreSQL server in `folder` (which must be reachable by the postgres user)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.url = subprocess.run([str(SCRATCH), "start", str(folder)], check=True, capture_output=True, text=True).stdout.strip()

    def restart(self):
        """Stops it at once (`-m immediate`, as a crash) and starts it again on the same port."""
        subprocess.run([str(SCRATCH), "restart", str(self.folder)], check=True, capture_output=True)

    def stop(self):
        subprocess.run([str(SCRATCH), "stop", str(self.folder)], capture_output=True)

    def resume(self):
        """Starts it again after `stop`, on the same port: a database outage ends."""
        subprocess.run([str(SCRATCH), "resume", str(self.folder)], check=True, capture_output=True)

    def query(self, sql: str) -> list:
        """Rows of `sql`, each a list of strings (psql's unaligned output)."""
        result = subprocess.run(["psql", self.url, "-At", "-F", "\t", "-c", sql], check=True, capture_output=True, text=True)
        return [line.split("\t") for line in result.stdout.splitlines() if line]


class Replica:
    """A client's copy of the board, built only from what the server sends."""

    def __init__(self, snapshot):
        self.rev = snapshot["rev"]
        self.sections = {s["id"]: s for s in snapshot["sections"]}
        self.timers = {t["id"]: t for t in snapshot["timers"]}

    def apply(self, message):
        assert message["rev"] == self.rev + 1, f"gap or duplicate: at {self.rev}, got {message['rev']}"
        self.rev = message["rev"]
        for change in message["changes"]:
            action = next(a for a in ("insert", "update", "delete") if a in change)
            table = self.sections if change[action] == "section" else self.timers
            fields = {k: v for k, v in change.items() if k not in ("insert", "update", "delete")}
            if action == "insert":
                table[change["id"]] = fields
            elif action == "update":
                table[change["id"]].update(fields)
            else:
                del table[change["id"]]

    def board(self):
        return {"sections": self.sections, "timers": self.timers}


async def joined(ws_url: str, board, secret: str, client_id: str, name: str):
    """A socket that said hello as `name` and asked to join `board` (not waiting for the answer)."""
    socket = await websockets.connect(ws_url)
    await socket.send(json.dumps({"type": "hello", "protocol": 1, "clientId": client_id, "name": name}))
    await socket.send(json.dumps({"type": "join", "board": str(board), "secret": secret}))
    return socket


async def keep_reading(socket):
    """Reads and drops what `socket` is sent until it closes, as a page reads: a socket that
    never read would fill its queue on a slow run and be cut off as too slow."""
    try:
        async for _ in socket:
            pass
    except websockets.ConnectionClosed:
        pass


def board_of(snapshot) -> dict:
    return {"sections": {s["id"]: s for s in snapshot["sections"]}, "timers": {t["id"]: t for t in snapshot["timers"]}}


class Client:
    """One user: keeps a replica, reconnects (to `urls`, in turn) whenever its socket closes,
    rejoins with `since`, and resends unanswered edits in order. Records every answer."""

    def __init__(self, urls, board, secret, name):
        self.urls = list(urls)
        self.board = str(board)
        self.secret = secret
        self.client_id = f"{name}-{uuid.uuid4().hex}"
        self.replica = None
        self.unanswered = {}  # opId -> edit message, in sending order
        self.answers = {}  # opId -> list of answers (ack or reject messages)
        self.seen = []  # (rev, changes) in the order received
        self.connections = 0
        self.users = set()  # user ids on the board, as presence tells (both nodes' users)
        self.socket = None
        self.joined = asyncio.Event()
        self.task = None
        self.next_op = 0
        # What broke this client's view of the protocol (a gap, a bad resume), for the test to report.
        self.failure = None

    def start(self):
        self.task = asyncio.create_task(self._run())
        return self

    async def stop(self):
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass
        if self.socket:
            await self.socket.close()

    async def _run(self):
        attempt = 0
        while True:
            url = self.urls[attempt % len(self.urls)]
            attempt += 1
            try:
                tls = {"ssl": UNVERIFIED_TLS} if url.startswith("wss:") else {}
                async with websockets.connect(url, max_size=None, open_timeout=5, **tls) as socket:
                    self.socket = socket
                    self.connections += 1
                    await socket.send(json.dumps({"type": "hello", "protocol": 1, "clientId": self.client_id}))
                    join = {"type": "join", "board": self.board, "secret": self.secret}
                    if self.replica:
                        join["since"] = self.replica.rev
                    await socket.send(json.dumps(join))
                    async for raw in socket:
                        try:
                            self._handle(json.loads(raw))
                        except (AssertionError, KeyError, TypeError) as error:
                            self.failure = f"{error} (message {raw[:300]})"
                            self.joined.set()  # wake whoever waits, to see the failure
                            raise
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake, asyncio.TimeoutError):
                pass
            self.socket = None
            self.joined.clear()
            await asyncio.sleep(0.05 + random.random() * 0.2)

    def _handle(self, message):
        kind = message["type"]
        if kind == "snapshot":
            self.replica = Replica(message)
            self._joined()
        elif kind == "resume":
            assert self.replica and message["since"] == self.replica.rev, (message, self.replica and self.replica.rev)
            self._joined()
        elif kind == "changes":
            self.replica.apply(message)
            self.seen.append((message["rev"], message["changes"]))
        elif kind == "presence":
            self.users = {user["userId"] for user in message["users"]}
        elif kind == "presenceChanged":
            self.users |= {user["userId"] for user in message["users"]}
            self.users -= set(message["left"])
        elif kind in ("ack", "reject") and message.get("opId") in self.answers:
            self.answers[message["opId"]].append(message)
            self.unanswered.pop(message["opId"], None)
        elif kind == "error":
            # The board could not be opened (the database is away): close and try again.
            asyncio.create_task(self.socket.close())

    def _joined(self):
        self.joined.set()
        for edit in list(self.unanswered.values()):
            asyncio.create_task(self._send(edit))

    async def _send(self, edit):
        socket = self.socket
        if socket and self.joined.is_set():
            try:
                await socket.send(json.dumps(edit))
            except websockets.ConnectionClosed:
                pass  # resent after the next join

    async def edit(self, *ops) -> str:
        self.next_op += 1
        op_id = str(self.next_op)
        edit = {"type": "edit", "opId": op_id, "ops": list(ops)}
        self.unanswered[op_id] = edit
        self.answers[op_id] = []
        await self._send(edit)
        return op_id

    def check(self):
        assert self.failure is None, f"{self.client_id}: {self.failure}"
        if self.task.done() and not self.task.cancelled():
            raise AssertionError(f"{self.client_id} stopped: {self.task.exception()!r}")

    async def settle(self, timeout=30):
        """Waits until every edit is answered."""
        for _ in range(int(timeout / 0.05)):
            self.check()
            if not self.unanswered:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.client_id}: unanswered after {timeout} s: {list(self.unanswered)}")

    async def see(self, condition, what, timeout=30):
        """Waits until `condition(self)` holds."""
        for _ in range(int(timeout / 0.05)):
            self.check()
            if condition(self):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.client_id}: never saw {what} in {timeout} s")

    async def reach(self, revision, timeout=30):
        """Waits until the replica holds `revision`."""
        for _ in range(int(timeout / 0.05)):
            self.check()
            if self.replica and self.replica.rev >= revision:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.client_id} stuck at {self.replica and self.replica.rev}, expected {revision}")


def random_op(rng: random.Random, replica: Replica, prefix: str, number: int) -> dict:
    """An edit of any kind on what the replica holds now (it may be stale: the server decides)."""
    sections = list(replica.sections) if replica else []
    timers = list(replica.timers) if replica else []
    roll = rng.random()
    if not sections or roll < 0.08:
        return {"op": "addSection", "id": f"s-{prefix}-{number}", "title": f"S {number}", "position": rng.choice(["first", "last"])}
    if roll < 0.1 and len(sections) > 2:
        return {"op": "deleteSection", "id": rng.choice(sections)}
    if roll < 0.3 or not timers:
        return {"op": "addTimer", "id": f"t-{prefix}-{number}", "sectionID": rng.choice(sections), "title": f"T {number}",
                "minutes": 0, "seconds": rng.choice([1, 2, 30]), "position": rng.choice(["first", "last"])}
    timer = rng.choice(timers)
    section = rng.choice(sections)
    return rng.choice([
        {"op": "updateTimer", "id": timer, "title": f"{prefix} {number}"},
        {"op": "updateTimer", "id": timer, "minutes": rng.randint(0, 2), "seconds": rng.randint(1, 59)},
        {"op": "moveTimer", "id": timer, "position": rng.choice(["first", "last"])},
        {"op": "moveTimer", "id": timer, "sectionID": section, "position": "last"},
        {"op": "startTimer", "id": timer},
        {"op": "startTimer", "id": timer},
        {"op": "pauseTimer", "id": timer},
        {"op": "resetTimer", "id": timer},
        {"op": "deleteTimer", "id": timer},
        {"op": "updateSection", "id": section, "title": f"{prefix} {number}"},
        {"op": "updateSection", "id": section, "isExpanded": rng.random() < 0.5},
        {"op": "moveSection", "id": section, "position": rng.choice(["first", "last"])},
        {"op": "startSection", "id": section},
        {"op": "pauseSection", "id": section},
    ])
