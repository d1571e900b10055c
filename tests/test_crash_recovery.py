"""SIGKILL the server while ten clients write: every acked edit survives, none is half applied,
revisions go on with no gap, and resent edits are not applied twice."""
import asyncio
import json

import websockets

WRITERS = 10
KILL_AFTER_ACKS = 300


async def open_client(url, client_id):
    ws = await websockets.connect(url, max_size=None)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": client_id}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


async def outcome(ws, op_id):
    """Reads until the ack or reject of op_id, skipping everyone's changesets."""
    while True:
        message = json.loads(await ws.recv())
        if message.get("opId") == op_id and message["type"] in ("ack", "reject"):
            return message


def pair_edit(writer, n, section):
    """One edit of two operations: both or neither must ever be on the board."""
    return {"type": "edit", "opId": f"w{writer}-{n}", "ops": [
        {"op": "addTimer", "id": f"w{writer}-{n}-a", "sectionID": section, "title": f"{writer}/{n} a", "minutes": 1, "seconds": 0},
        {"op": "addTimer", "id": f"w{writer}-{n}-b", "sectionID": section, "title": f"{writer}/{n} b", "minutes": 2, "seconds": 0},
    ]}


async def write_until_killed(url, board, writer, section, acked, sent, enough):
    ws = await open_client(url, f"writer{writer}")
    await ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
    assert json.loads(await ws.recv())["type"] == "access"
    assert json.loads(await ws.recv())["type"] == "snapshot"
    n = 0
    try:
        while True:
            n += 1
            edit = pair_edit(writer, n, section)
            sent[edit["opId"]] = edit
            await ws.send(json.dumps(edit))
            answer = await outcome(ws, edit["opId"])
            assert answer["type"] == "ack", answer
            acked[edit["opId"]] = answer["rev"]
            if len(acked) >= KILL_AFTER_ACKS:
                enough.set()
    except (websockets.ConnectionClosed, OSError):
        return  # the server was killed under us


def test_acked_edits_survive_sigkill(server_factory):
    server = server_factory(["--snapshot-interval", "25"]).start()
    board = server.create_board("Crash test")
    acked, sent = {}, {}

    async def scenario():
        ws = await open_client(server.ws, "setup")
        await ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
        await ws.recv()  # access
        await ws.recv()  # snapshot
        await ws.send(json.dumps({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "main", "title": "Main"}]}))
        assert (await outcome(ws, "1"))["type"] == "ack"
        await ws.close()

        enough = asyncio.Event()
        writers = [asyncio.create_task(write_until_killed(server.ws, board, w, "main", acked, sent, enough)) for w in range(WRITERS)]
        await enough.wait()
        server.kill()  # mid-flight: edits are in every stage of being applied and stored
        await asyncio.gather(*writers)

    asyncio.run(scenario())
    assert len(acked) >= KILL_AFTER_ACKS

    server.start()  # same data folder, same port
    snapshot = server.snapshot(board)
    timers = {timer["id"] for timer in snapshot["timers"]}
    for op_id in acked:
        assert f"{op_id}-a" in timers and f"{op_id}-b" in timers, f"acked edit {op_id} was lost"
    for op_id in sent:
        assert (f"{op_id}-a" in timers) == (f"{op_id}-b" in timers), f"edit {op_id} is half applied"
    pairs = len(timers) // 2
    # Revision 1 added the section; every later revision added exactly one pair: no gap, no loss.
    assert snapshot["rev"] == 1 + pairs
    assert snapshot["rev"] >= max(acked.values())

    async def after_restart():
        # Resume from an acked revision: exactly the changesets after it, in order.
        since = max(acked.values()) - 10
        ws = await open_client(server.ws, "resumer")
        await ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit, "since": since}))
        assert json.loads(await ws.recv())["type"] == "access"
        resume = json.loads(await ws.recv())
        assert resume == {"type": "resume", "board": board, "title": "Crash test", "since": since, "rev": snapshot["rev"]}
        revisions = [json.loads(await ws.recv())["rev"] for _ in range(snapshot["rev"] - since)]
        assert revisions == list(range(since + 1, snapshot["rev"] + 1))
        await ws.close()

        # Each writer resends its last edit, acked or not, as a reconnecting client would.
        applied_again = 0
        for writer in range(WRITERS):
            last = max((op for op in sent if op.startswith(f"w{writer}-")), key=lambda op: int(op.split("-")[1]))
            ws = await open_client(server.ws, f"writer{writer}")
            await ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
            await ws.recv()  # access
            await ws.recv()  # snapshot
            await ws.send(json.dumps(sent[last]))
            answer = await outcome(ws, last)
            assert answer["type"] == "ack", answer  # a second application would be a duplicate_id reject
            if f"{last}-a" in timers:
                assert answer.get("duplicate") is True
            else:
                applied_again += 1
            await ws.close()
        return applied_again

    applied_after_restart = asyncio.run(after_restart())
    final = server.snapshot(board)
    assert final["rev"] == snapshot["rev"] + applied_after_restart
    assert len(final["timers"]) == len(snapshot["timers"]) + 2 * applied_after_restart
