"""A subscriber that stops reading is cut off once it is too far behind (close code 1008, so it
resumes from its revision), while the editor goes on being acked and a reading subscriber keeps
receiving every changeset."""
import asyncio
import json
import socket

import websockets

from test_metrics import metrics, value

QUEUE_LIMIT = 16
TITLE = "x" * 190


async def open_client(url, client_id, board, **options):
    ws = await websockets.connect(url, max_size=None, compression=None, **options)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": client_id}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    await ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
    access = json.loads(await ws.recv())
    assert access["type"] == "access"
    # Presence names this client by its user id, never by its client id.
    ws.user_id = access["userId"]
    while json.loads(await ws.recv())["type"] != "snapshot":
        pass
    return ws


def big_edit(n):
    """One edit renaming 100 timers: a changeset of about 25 KB, to fill socket buffers fast."""
    return {"type": "edit", "opId": f"e{n}", "ops": [
        {"op": "updateTimer", "id": f"t{i}", "title": f"{TITLE}{n}"} for i in range(100)]}


def test_a_subscriber_that_stops_reading_is_cut_off_and_the_others_go_on(server_factory):
    server = server_factory(["--outbound-queue-limit", str(QUEUE_LIMIT)]).start()
    edits = edits_until_a_slow_subscriber_is_cut_off(server)
    assert edits > QUEUE_LIMIT  # it took more than the queue to cut it off: the kernel's buffers came first
    # /metrics counts it as a queue drop, once.
    assert value(metrics(server), "timerboard_slow_client_drops_total") == 1


def test_a_subscriber_is_cut_off_by_the_bytes_it_holds_back_too(server_factory):
    """Far under the message limit, a client that stops reading (and only pings, to look alive)
    must not hold the server's memory without end: one such client held 1.1 GB of a large board's
    changesets. Here the queue takes 1 MiB, about 40 of these changesets."""
    server = server_factory(["--outbound-queue-limit", "1000000", "--outbound-queue-mib", "1"]).start()
    edits_until_a_slow_subscriber_is_cut_off(server)
    assert value(metrics(server), "timerboard_slow_client_drops_total") == 1


def edits_until_a_slow_subscriber_is_cut_off(server) -> int:
    """Edits large changesets until a subscriber that stopped reading is cut off (1008), checking
    that a reading subscriber got every changeset meanwhile; returns how many edits it took."""
    board = server.create_board("Slow consumer")

    async def scenario():
        editor = await open_client(server.ws, "editor", board)
        ops = [{"op": "addSection", "id": "s", "title": "S"}] + [
            {"op": "addTimer", "id": f"t{i}", "sectionID": "s", "title": "t", "minutes": 1, "seconds": 0} for i in range(99)]
        await editor.send(json.dumps({"type": "edit", "opId": "setup", "ops": ops}))
        await editor.send(json.dumps({"type": "edit", "opId": "setup2", "ops": [
            {"op": "addTimer", "id": "t99", "sectionID": "s", "title": "t", "minutes": 1, "seconds": 0}]}))

        # The slow client's socket takes little, and once its one-message queue is full the
        # library stops reading it: what the server sends piles up on the server's side.
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect(("127.0.0.1", server.port))
        slow = await open_client(server.ws, "slow", board, sock=raw, max_queue=1)
        reader = await open_client(server.ws, "reader", board)
        received = []
        progress = asyncio.Condition()
        slow_dropped = asyncio.Event()

        async def read_all():
            async for text in reader:
                message = json.loads(text)
                if message["type"] == "changes":
                    async with progress:
                        received.append(message["rev"])
                        progress.notify_all()
                # The room tells everyone when it drops a connection: that is the cut-off.
                if message["type"] == "presenceChanged" and slow.user_id in message["left"]:
                    slow_dropped.set()

        reading = asyncio.create_task(read_all())
        last_acked = 0
        n = 0
        while not slow_dropped.is_set():
            n += 1
            assert n < 3_000, "the slow client was never cut off"
            await editor.send(json.dumps(big_edit(n)))
            while True:
                message = json.loads(await editor.recv())
                if message.get("opId") == f"e{n}":
                    assert message["type"] == "ack", message
                    last_acked = message["rev"]
                    break

        # Reading again, the slow client finds what its buffers held, then the server's close.
        try:
            async for _ in slow:
                pass
        except websockets.ConnectionClosed:
            pass
        assert slow.close_code == 1008, slow.close_code

        # Meanwhile the reader got every changeset, in order, with no gap.
        async with progress:
            await progress.wait_for(lambda: received and received[-1] >= last_acked)
        assert received == list(range(received[0], last_acked + 1))
        reading.cancel()
        await editor.close()
        await reader.close()
        return n

    return asyncio.run(scenario())
