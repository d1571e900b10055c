"""Two TimerBoard nodes on one real PostgreSQL server, with the deploy kit's nginx in front
(issue 15): clients on both nodes converge, a node killed with SIGKILL loses no acked edit, a
field written from both nodes ends the same everywhere, and a database restart leaves nobody
behind. Clients reconnect, rejoin from their revision and resend what was not answered, as the
browser client does."""
import asyncio
import json
import os
import random
import tempfile
import urllib.request
from pathlib import Path

import pytest
import websockets

from cluster import Client, Postgres, board_of, joined, keep_reading, random_op
from conftest import ADMIN_TOKEN, ServerProcess
from balancers import Nginx


@pytest.fixture
def postgres():
    # Not pytest's tmp_path: its parents are closed to the postgres user the server runs as.
    folder = Path(tempfile.mkdtemp(prefix="timerboard-pg-"))
    os.chmod(folder, 0o755)
    server = Postgres(folder / "data")
    yield server
    server.stop()


@pytest.fixture
def nodes(postgres, tmp_path):
    """Two nodes on the database, each as an operator would start one."""
    started = []

    def start(index):
        node = ServerProcess(tmp_path / f"data-{index}", tmp_path / f"node-{index}.log",
                             ["--store", postgres.url, "--edits-per-second", "1000", "--edit-burst", "1000",
                              "--trusted-proxy", "127.0.0.1"])
        started.append(node)
        return node.start()

    yield [start(1), start(2)]
    for node in started:
        node.stop()


def websocket_connections(node) -> int:
    request = urllib.request.Request(node.http + "/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    with urllib.request.urlopen(request) as response:
        for line in response.read().decode().splitlines():
            if line.startswith("timerboard_websocket_connections "):
                return int(float(line.split()[1]))
    raise AssertionError("no timerboard_websocket_connections in /metrics")


def check_log(postgres, board):
    """Revisions 1..N with no gap or duplicate, and no client edit stored twice."""
    revisions = [int(row[0]) for row in postgres.query(f"SELECT revision FROM changeset WHERE board_id = '{board}' ORDER BY revision")]
    assert revisions == list(range(1, len(revisions) + 1))
    twice = postgres.query(f"""SELECT client_id, op_id FROM changeset WHERE board_id = '{board}' AND op_id IS NOT NULL
                               GROUP BY client_id, op_id HAVING count(*) > 1""")
    assert twice == []
    return revisions[-1] if revisions else 0


async def snapshot(node, board):
    """The board over HTTP. Right after a database restart a node's pool may still hold dead
    connections, and a read on one answers 503 `unavailable` ("try again later"): so it does."""
    for _ in range(50):
        status, body = node.request("GET", f"/api/boards/{board}", secret=board.view)
        if status != 503:
            assert status == 200, body
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"{node.http} answered 503 for 5 s")


async def converge(clients, nodes, board):
    """Waits until both nodes and every client are at one revision (a timer may still finish
    meanwhile: then again), and returns the board as stored."""
    for _ in range(50):
        revision = max([(await snapshot(node, board))["rev"] for node in nodes])
        await asyncio.gather(*(client.reach(revision) for client in clients))
        snapshots = [await snapshot(node, board) for node in nodes]
        if all(snapshot["rev"] == revision for snapshot in snapshots) and all(c.replica.rev == revision for c in clients):
            stored = board_of(snapshots[0])
            assert all(board_of(snapshot) == stored for snapshot in snapshots)
            for client in clients:
                assert client.replica.board() == stored, client.client_id
            return stored
        await asyncio.sleep(0.2)
    raise AssertionError("the nodes and clients never showed one revision")


async def edit_randomly(client, rng, count, prefix):
    for number in range(count):
        await client.joined.wait()
        client.check()
        await client.edit(random_op(rng, client.replica, prefix, number))
        # Pacing only: spreads each client's edits over the time a node is killed or the database restarts.
        await asyncio.sleep(rng.uniform(0.01, 0.08))


async def until_answered(clients, count, timeout=30):
    """Waits until the clients hold `count` answers (acks or rejects) between them: editing is under way."""
    for _ in range(int(timeout / 0.02)):
        if sum(len(answers) for client in clients for answers in client.answers.values()) >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"fewer than {count} edits answered after {timeout} s")


async def closed_with(socket):
    """The code the server closed `socket` with, reading (and dropping) what came before it."""
    try:
        while True:
            await asyncio.wait_for(socket.recv(), 10)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_nodes_start_without_database_driver_warnings(nodes):
    """An operator reads a warning as something to act on: PostgresNIO's "lease before run()",
    logged at most starts by a race the node's own start lost, is gone."""
    for node in nodes:
        warnings = [line for line in node.log_path.read_text().splitlines()
                    if " warning " in line and "[PostgresNIO]" in line]
        assert warnings == [], warnings


def test_clients_on_two_nodes_converge_with_one_outcome_per_edit(nodes, postgres):
    node1, node2 = nodes
    board = node1.create_board("Cluster")

    async def scenario():
        clients = [Client([node.ws], board, board.edit, f"c{index}").start()
                   for index, node in enumerate([node1, node2] * 10)]
        await asyncio.gather(*(asyncio.wait_for(client.joined.wait(), 10) for client in clients))
        await asyncio.gather(*(edit_randomly(client, random.Random(index), 15, f"c{index}")
                               for index, client in enumerate(clients)))
        await asyncio.gather(*(client.settle() for client in clients))
        # A late joiner on each node, from a snapshot; then all must agree. Timers still running
        # finish meanwhile, on whichever node wins the claim: converge waits for one revision.
        late = [Client([node.ws], board, board.view, f"late{index}").start() for index, node in enumerate(nodes)]
        await asyncio.gather(*(asyncio.wait_for(client.joined.wait(), 10) for client in late))
        await converge(clients + late, nodes, board)
        last = check_log(postgres, board)
        for client in clients + late:
            await client.stop()
        return clients, last

    clients, last = asyncio.run(scenario())
    for client in clients:
        # Exactly one answer per edit, whatever reconnections it took.
        assert all(len(answers) == 1 for answers in client.answers.values()), client.answers
    acked = sum(1 for client in clients for answers in client.answers.values() if answers[0]["type"] == "ack")
    assert acked > 0
    # Every timer finished once: no two `finished` changes of one timer without a start between.
    finishes = postgres.query(f"SELECT count(*) FROM changeset WHERE board_id = '{board}' AND client_id IS NULL")
    print(f"revisions {last}, acked {acked}, server changesets {finishes[0][0]}, "
          f"reconnections {sum(client.connections - 1 for client in clients)}")


def test_a_killed_node_loses_no_acked_edit_and_its_clients_resume_on_the_other(nodes, postgres, tmp_path):
    node1, node2 = nodes
    nginx = Nginx(tmp_path / "nginx", [node1.port, node2.port])
    assert nginx.check().returncode == 0
    nginx.start()
    board = node1.create_board("Failover")
    via_nginx = f"wss://127.0.0.1:{nginx.https_port}/ws?board={board}"

    async def scenario():
        # Through nginx, all of the board's sockets land on one node: find which.
        proxied = [Client([via_nginx], board, board.edit, f"p{index}").start() for index in range(6)]
        await asyncio.gather(*(asyncio.wait_for(client.joined.wait(), 10) for client in proxied))
        chosen, other = (node1, node2) if websocket_connections(node1) >= 6 else (node2, node1)
        assert websocket_connections(chosen) >= 6
        direct = [Client([other.ws], board, board.edit, f"d{index}").start() for index in range(4)]
        await asyncio.gather(*(asyncio.wait_for(client.joined.wait(), 10) for client in direct))
        everyone = proxied + direct
        editing = [asyncio.create_task(edit_randomly(client, random.Random(index), 20, f"e{index}"))
                   for index, client in enumerate(everyone)]
        await until_answered(everyone, 20)
        chosen.kill()
        await asyncio.gather(*editing)
        await asyncio.gather(*(client.settle() for client in everyone))
        check_log(postgres, board)
        await converge(everyone, [other], board)
        for client in everyone:
            await client.stop()
        return everyone, proxied

    try:
        everyone, proxied = asyncio.run(scenario())
    finally:
        nginx.stop()
    acked_changes = 0
    for client in everyone:
        for op_id, answers in client.answers.items():
            assert len(answers) == 1, (client.client_id, op_id, answers)
            if answers[0]["type"] == "ack":
                # Acked means stored: the edit's changeset is in the log at the revision the ack
                # names (an edit that changed nothing has none, and is acked at the revision it saw).
                rows = postgres.query(f"SELECT revision FROM changeset WHERE board_id = '{board}' "
                                      f"AND client_id = '{client.client_id}' AND op_id = '{op_id}'")
                assert rows in ([], [[str(answers[0]["rev"])]]), (client.client_id, op_id, answers, rows)
                acked_changes += len(rows)
    assert acked_changes > 0
    # The proxied clients moved: they reconnected at least once, through nginx, to the survivor.
    assert all(client.connections >= 2 for client in proxied)


def test_one_field_written_from_both_nodes_ends_the_same_everywhere(nodes, postgres):
    node1, node2 = nodes
    board = node1.create_board("Race")

    async def scenario():
        first = Client([node1.ws], board, board.edit, "first").start()
        second = Client([node2.ws], board, board.edit, "second").start()
        await asyncio.gather(first.joined.wait(), second.joined.wait())
        await first.edit({"op": "addSection", "id": "s", "title": "Start"})
        await first.settle()
        rounds = []
        for round_number in range(12):
            await asyncio.gather(first.joined.wait(), second.joined.wait())
            ids = await asyncio.gather(first.edit({"op": "updateSection", "id": "s", "title": f"first {round_number}"}),
                                       second.edit({"op": "updateSection", "id": "s", "title": f"second {round_number}"}))
            await asyncio.gather(first.settle(), second.settle())
            rounds.append(ids)
        check_log(postgres, board)
        stored = await converge([first, second], nodes, board)
        await first.stop()
        await second.stop()
        return first, second, rounds, stored

    first, second, rounds, stored = asyncio.run(scenario())
    # Last writer in revision order wins, as on one node: the title is that of the later ack.
    final_first = first.answers[rounds[-1][0]][0]
    final_second = second.answers[rounds[-1][1]][0]
    assert final_first["type"] == final_second["type"] == "ack"
    winner = "first" if final_first["rev"] > final_second["rev"] else "second"
    assert stored["sections"]["s"]["title"] == f"{winner} {len(rounds) - 1}"
    # And the earlier writer was told the winning value: a changeset after its own ack set it.
    loser, loser_ack = (second, final_second) if winner == "first" else (first, final_first)
    told = [change for revision, changes in loser.seen if revision > loser_ack["rev"]
            for change in changes if change.get("id") == "s" and "title" in change]
    assert told and told[-1]["title"] == f"{winner} {len(rounds) - 1}"


def test_a_database_restart_under_load_leaves_no_node_behind(nodes, postgres):
    node1, node2 = nodes
    board = node1.create_board("Restart")

    async def scenario():
        clients = [Client([node.ws], board, board.edit, f"r{index}").start() for index, node in enumerate([node1, node2] * 3)]
        await asyncio.gather(*(asyncio.wait_for(client.joined.wait(), 10) for client in clients))
        editing = [asyncio.create_task(edit_randomly(client, random.Random(index), 25, f"r{index}"))
                   for index, client in enumerate(clients)]
        await until_answered(clients, 12)
        postgres.restart()
        await asyncio.gather(*editing)
        await asyncio.gather(*(client.settle(timeout=60) for client in clients))
        check_log(postgres, board)
        await converge(clients, nodes, board)
        for client in clients:
            await client.stop()
        # After the restart, an edit on node 1 must reach a client on node 2 through the renewed
        # LISTEN: on a fresh board with no timers, no reload can carry it there instead.
        quiet = node1.create_board("After the restart")
        watcher = Client([node2.ws], quiet, quiet.view, "watcher").start()
        writer = Client([node1.ws], quiet, quiet.edit, "writer").start()
        await asyncio.gather(watcher.joined.wait(), writer.joined.wait())
        await writer.edit({"op": "addSection", "id": "after-restart", "title": "After"})
        await writer.settle()
        await watcher.reach(1, timeout=15)
        await writer.stop()
        await watcher.stop()
        return clients, watcher

    clients, watcher = asyncio.run(scenario())
    assert "after-restart" in watcher.replica.sections
    assert watcher.connections == 1
    for client in clients:
        assert all(len(answers) == 1 for answers in client.answers.values())


def test_presence_spans_nodes_and_is_never_stored(nodes, postgres):
    node1, node2 = nodes
    board = node1.create_board("Presence")

    async def scenario():
        async def connect(node, name):
            socket = await websockets.connect(node.ws)
            await socket.send(json.dumps({"type": "hello", "protocol": 1, "clientId": f"{name}-client-0123456789", "name": name}))
            await socket.send(json.dumps({"type": "join", "board": str(board), "secret": board.edit}))
            return socket

        async def users_seen(socket, until):
            """Reads presence messages until `until(users)` holds; returns the user names present."""
            present = {}
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 15))
                if message["type"] == "presence":
                    present = {user["userId"]: user for user in message["users"]}
                elif message["type"] == "presenceChanged":
                    for user in message["users"]:
                        present[user["userId"]] = user
                    for user_id in message["left"]:
                        present.pop(user_id, None)
                else:
                    continue
                names = {user["name"]: user for user in present.values()}
                if until(names):
                    return names

        ada = await connect(node1, "Ada")
        await users_seen(ada, lambda names: "Ada" in names)
        bob = await connect(node2, "Bob")
        # Bob (node 2) sees Ada (node 1) from the list he gets on joining, or soon after.
        await users_seen(bob, lambda names: {"Ada", "Bob"} <= set(names))
        # Ada sees Bob arrive, then what he edits, then him leave.
        await users_seen(ada, lambda names: "Bob" in names)
        await bob.send(json.dumps({"type": "presence", "editing": None, "clockError": 12}))
        seen = await users_seen(ada, lambda names: names.get("Bob", {}).get("clockError") == 12)
        assert seen["Bob"]["clockError"] == 12
        await bob.close()
        await users_seen(ada, lambda names: "Bob" not in names)
        await ada.close()

    asyncio.run(scenario())
    # Presence travels as notifications only: nothing of it is in the database.
    tables = {row[0] for row in postgres.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert tables == {"board", "changeset", "snapshot", "timerboard_migration",
                      "webhook", "webhook_attempt", "webhook_delivery", "webhook_once"}


def test_a_crowd_on_one_node_is_named_and_counted_on_the_other(nodes):
    """110 phones on node 1, Bob on node 2: node 1 names only its first 100 to node 2 and counts
    the rest (docs/architecture.md), and Bob's list names 100 of the 111 and counts 11, then
    follows as phones leave."""
    node1, node2 = nodes
    board = node1.create_board("Crowd")

    async def scenario():
        phones = [await joined(node1.ws, board, board.secrets["view"], f"phone-{n:03d}-0123456789", f"Phone {n:03d}")
                  for n in range(110)]
        readers = [asyncio.create_task(keep_reading(phone)) for phone in phones]
        bob = await joined(node2.ws, board, board.edit, "bob-client-0123456789", "Bob")
        present, more = {}, 0

        async def until(condition):
            await asyncio.wait_for(reading(condition), 30)

        async def reading(condition):
            nonlocal present, more
            while not condition():
                message = json.loads(await asyncio.wait_for(bob.recv(), 15))
                if message["type"] == "presence":
                    present = {user["userId"]: user["name"] for user in message["users"]}
                elif message["type"] == "presenceChanged":
                    for user_id in message["left"]:
                        present.pop(user_id, None)
                    present.update({user["userId"]: user["name"] for user in message["users"]})
                else:
                    continue
                more = message.get("more", more)

        await until(lambda: len(present) == 100 and more == 11)
        assert "Bob" in present.values() and "Phone 098" in present.values()
        # Eleven of the named leave: those counted on node 1 are named in their place.
        for phone in phones[:11]:
            await phone.close()
        await until(lambda: more == 0 and len(present) == 100)
        assert "Phone 109" in present.values() and "Phone 000" not in present.values()
        for phone in phones[11:] + [bob]:
            await phone.close()
        await asyncio.gather(*readers)

    asyncio.run(scenario())


def test_a_rename_a_replaced_link_and_a_delete_on_one_node_reach_sockets_on_the_other(nodes):
    node1, node2 = nodes
    board = node1.create_board("Links")

    async def scenario():
        async def joined(secret, name):
            socket = await websockets.connect(node2.ws)
            await socket.send(json.dumps({"type": "hello", "protocol": 1, "clientId": f"{name}-client-0123456789"}))
            await socket.send(json.dumps({"type": "join", "board": str(board), "secret": secret}))
            while json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] != "snapshot":
                pass
            return socket

        async def next_of(socket, kind):
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if message["type"] == kind:
                    return message

        editor = await joined(board.edit, "editor")
        viewer = await joined(board.view, "viewer")
        # Through node 1's HTTP API; the sockets are on node 2.
        status, _ = node1.request("PATCH", f"/api/boards/{board}", secret=board.owner, body={"title": "Renamed"})
        assert status == 200
        assert (await next_of(viewer, "renamed"))["title"] == "Renamed"
        status, _ = node1.request("POST", f"/api/boards/{board}/links/edit", secret=board.owner)
        assert status == 200
        assert await closed_with(editor) == 4403
        status, _ = node1.request("DELETE", f"/api/boards/{board}", secret=board.owner)
        assert status == 204
        assert await closed_with(viewer) == 4410

    asyncio.run(scenario())


def test_an_edit_made_on_one_node_is_undone_on_the_other(nodes):
    """A client whose node went away reconnects to the other and undoes its last edit there: the
    other node learnt the edit from the database with what it replaced, as its author's."""
    node1, node2 = nodes
    board = node1.create_board("Undo")

    async def answer(socket, op_id):
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 10))
            if message.get("opId") == op_id:
                return message

    async def scenario():
        watcher = await joined(node2.ws, board, board.view, "watcher-client-0123456789", "Watcher")
        while json.loads(await asyncio.wait_for(watcher.recv(), 10))["type"] != "snapshot":
            pass
        editor = await joined(node1.ws, board, board.edit, "editor-client-0123456789", "Ed")
        add = {"op": "addSection", "id": "sec-a", "title": "Prep", "isExpanded": True}
        await editor.send(json.dumps({"type": "edit", "opId": "add-1", "ops": [add]}))
        added = await answer(editor, "add-1")
        assert added["type"] == "ack", added
        while True:  # node 2 has the edit: its viewer saw it
            message = json.loads(await asyncio.wait_for(watcher.recv(), 10))
            if message["type"] == "changes" and message["rev"] == added["rev"]:
                break
        await editor.close()
        moved = await joined(node2.ws, board, board.edit, "editor-client-0123456789", "Ed")
        await moved.send(json.dumps({"type": "edit", "opId": "undo-1", "ops": [{"op": "undo", "opId": "add-1"}]}))
        undone = await answer(moved, "undo-1")
        assert undone["type"] == "ack" and undone["rev"] == added["rev"] + 1, undone
        assert "unchanged" not in undone
        assert (await snapshot(node2, board))["sections"] == []
        await moved.close()
        await watcher.close()

    asyncio.run(scenario())


def claims_lost(node) -> float:
    request = urllib.request.Request(node.http + "/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    with urllib.request.urlopen(request) as response:
        for line in response.read().decode().splitlines():
            if line.startswith("timerboard_revision_claims_lost_total"):
                return float(line.split()[-1])
    return 0.0


def test_timers_finishing_on_a_board_both_nodes_serve_make_nobody_reconnect(nodes):
    # Both nodes would write each finish at the same instant and race for the revision; the
    # loser would close its room. The timekeeper (smallest node id with users) writes them.
    node1, node2 = nodes
    board = node1.create_board("Timekeeper")

    async def scenario():
        clients = [Client([node.ws], board, board.edit, f"keeper-{index}").start()
                   for index, node in enumerate([node1, node1, node2, node2])]
        for client in clients:
            await asyncio.wait_for(client.joined.wait(), 10)
        first = clients[0]
        steps = [{"op": "addTimer", "id": f"t{i}", "sectionID": "loop", "title": f"Step {i}", "minutes": 0, "seconds": 1}
                 for i in range(3)]
        await first.edit({"op": "addSection", "id": "loop", "title": "Loop", "sequence": True, "loop": True}, *steps)
        await first.settle()
        # Every node knows of the other's users: the timekeeper is decided the same way on both.
        for client in clients:
            await client.see(lambda c: len(c.users) == len(clients), "every user on both nodes")
        await first.edit({"op": "startSection", "id": "loop"})
        await first.settle()

        def finishes(client):
            return [rev for rev, changes in client.seen
                    if any(c.get("update") == "timer" and c.get("run", {}).get("status") == "finished" for c in changes)]

        # Eight finishes and hand-overs, seen on node 2.
        await clients[3].see(lambda c: len(finishes(c)) >= 8, "eight finishes")
        stored = await converge(clients, [node1, node2], board)
        assert [client.connections for client in clients] == [1, 1, 1, 1]
        assert claims_lost(node1) + claims_lost(node2) == 0
        assert sum(t["run"]["status"] == "running" for t in stored["timers"].values()) == 1
        for client in clients:
            await client.stop()

    asyncio.run(scenario())
