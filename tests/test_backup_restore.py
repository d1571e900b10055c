"""Backups while serving: `timerboard backup` copies the database while ten clients edit, and a
server started on the copy has every edit acked before the backup began, none half applied.
`timerboard export` / `import` move one board, links and all, to another data directory."""
import asyncio
import json
import shutil
import subprocess

from conftest import BINARY, ServerProcess

WRITERS = 10
BACKUP_AFTER_ACKS = 150


async def open_joined(url, board, client_id):
    ws = await websockets_connect(url)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": client_id}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    await ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
    assert json.loads(await ws.recv())["type"] == "access"
    assert json.loads(await ws.recv())["type"] == "snapshot"
    return ws


async def websockets_connect(url):
    import websockets
    return await websockets.connect(url, max_size=None)


async def add_main_section(url, board, client_id):
    """The section the writers add their timers to (pair_edit), acked before they start."""
    ws = await open_joined(url, board, client_id)
    await ws.send(json.dumps({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "main", "title": "Main"}]}))
    assert (await outcome(ws, "1"))["type"] == "ack"
    await ws.close()


async def outcome(ws, op_id):
    while True:
        message = json.loads(await ws.recv())
        if message.get("opId") == op_id and message["type"] in ("ack", "reject"):
            return message


def pair_edit(writer, n):
    return {"type": "edit", "opId": f"w{writer}-{n}", "ops": [
        {"op": "addTimer", "id": f"w{writer}-{n}-a", "sectionID": "main", "title": f"{writer}/{n} a", "minutes": 1, "seconds": 0},
        {"op": "addTimer", "id": f"w{writer}-{n}-b", "sectionID": "main", "title": f"{writer}/{n} b", "minutes": 2, "seconds": 0},
    ]}


async def write_until(url, board, writer, acked, enough, stop, stop_at):
    ws = await open_joined(url, board, f"backup-writer-{writer}-0123456789")
    n = 0
    while not stop.is_set():
        n += 1
        edit = pair_edit(writer, n)
        await ws.send(json.dumps(edit))
        answer = await outcome(ws, edit["opId"])
        assert answer["type"] == "ack", answer
        acked.append(edit["opId"])
        if len(acked) >= BACKUP_AFTER_ACKS:
            enough.set()
        # The test names how many acks it wants after the backup; the ack that reaches it stops all.
        if stop_at and len(acked) >= stop_at[0]:
            stop.set()
    await ws.close()


def timerboard(*args):
    return subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=120)


def test_a_backup_taken_while_ten_clients_edit_restores_every_acked_edit(server_factory, tmp_path):
    server = server_factory(["--snapshot-interval", "25"]).start()
    board = server.create_board("Backed up")
    backup = tmp_path / "backups" / "timerboard-backup.sqlite"
    backup.parent.mkdir()
    acked = []

    async def scenario():
        await add_main_section(server.ws, board, "backup-setup-0123456789")

        enough, stop = asyncio.Event(), asyncio.Event()
        stop_at = []
        writers = [asyncio.create_task(write_until(server.ws, board, w, acked, enough, stop, stop_at)) for w in range(WRITERS)]
        await enough.wait()
        # Everything acked up to here must be in the backup; the writers go on meanwhile.
        before = list(acked)
        result = await asyncio.to_thread(timerboard, "backup", str(backup), "--data-directory", str(server.data_dir))
        during = len(acked) - len(before)
        # Keep editing for 50 more acks after it, then stop.
        stop_at.append(len(acked) + 50)
        await asyncio.gather(*writers)
        return before, during, result

    before, during, result = asyncio.run(scenario())
    assert result.returncode == 0, result.stderr
    assert "backed up 1 boards" in result.stdout, result.stdout
    assert len(before) >= BACKUP_AFTER_ACKS
    # The same file again is refused: a backup never overwrites one.
    again = timerboard("backup", str(backup), "--data-directory", str(server.data_dir))
    assert again.returncode != 0 and "exists" in again.stderr

    # Restore: a new data directory with the copy as its database, a new server on it.
    restored_dir = tmp_path / "restored"
    restored_dir.mkdir()
    shutil.copy(backup, restored_dir / "timerboard.sqlite")
    restored = ServerProcess(restored_dir, tmp_path / "restored.log")
    try:
        restored.start()
        snapshot = restored.snapshot(board)
    finally:
        restored.stop()
    timers = {timer["id"] for timer in snapshot["timers"]}
    for op_id in before:
        assert f"{op_id}-a" in timers and f"{op_id}-b" in timers, f"edit {op_id}, acked before the backup, is missing"
    # One transaction at a time: no edit half there, and revisions without a gap.
    for timer in timers:
        op_id = timer.rsplit("-", 1)[0]
        assert f"{op_id}-a" in timers and f"{op_id}-b" in timers, f"edit {op_id} is half in the backup"
    assert snapshot["rev"] == 1 + len(timers) // 2
    # The live server went on: it has everything, the backup at most that.
    assert len(server.snapshot(board)["timers"]) >= len(timers)
    print(f"acks while the backup ran: {during}")


def test_export_and_import_move_a_board_with_its_links(server_factory, tmp_path):
    server = server_factory().start()
    board = server.create_board("Moving")
    other = server.create_board("Staying")

    async def edit():
        ws = await open_joined(server.ws, board, "export-editor-0123456789")
        await ws.send(json.dumps({"type": "edit", "opId": "1", "ops": [
            {"op": "addSection", "id": "s1", "title": "Prep"},
            {"op": "addTimer", "id": "t1", "sectionID": "s1", "title": "Rice", "minutes": 12, "seconds": 30}]}))
        assert (await outcome(ws, "1"))["type"] == "ack"
        await ws.send(json.dumps({"type": "edit", "opId": "2", "ops": [{"op": "startTimer", "id": "t1"}]}))
        assert (await outcome(ws, "2"))["type"] == "ack", "startTimer"
        await ws.close()

    asyncio.run(edit())
    original = server.snapshot(board)

    # Export while the server runs, to a file and to standard output: the same JSON.
    exported = tmp_path / "moving.json"
    result = timerboard("export", str(board), "--output", str(exported), "--data-directory", str(server.data_dir))
    assert result.returncode == 0, result.stderr
    printed = timerboard("export", str(board), "--data-directory", str(server.data_dir))
    document = json.loads(exported.read_text())
    without_time = lambda d: {key: value for key, value in d.items() if key != "exportedAt"}
    assert without_time(json.loads(printed.stdout)) == without_time(document)
    assert document["format"] == "timerboard.board" and document["id"] == str(board)
    text = exported.read_text()
    for secret in (board.owner, board.edit, board.view):
        assert secret not in text  # hashes only
    missing = timerboard("export", "no-such-board", "--data-directory", str(server.data_dir))
    assert missing.returncode != 0 and "no-such-board" in missing.stderr
    # Not a usage mistake: exit 1 and the reason, no usage text (ArgumentParser's 64 and Usage:).
    assert missing.returncode == 1 and "Usage:" not in missing.stderr, missing.stderr

    # Import into another data directory; a server there has the board, and its links work.
    target = tmp_path / "target"
    result = timerboard("import", str(exported), "--data-directory", str(target))
    assert result.returncode == 0, result.stderr
    assert f"imported board {board}" in result.stdout
    again = timerboard("import", str(exported), "--data-directory", str(target))
    assert again.returncode != 0 and "exists" in again.stderr
    not_an_export = tmp_path / "other.json"
    not_an_export.write_text('{"sections":[]}')
    bad = timerboard("import", str(not_an_export), "--data-directory", str(target))
    assert bad.returncode != 0 and "not a TimerBoard board export" in bad.stderr

    moved = ServerProcess(target, tmp_path / "moved.log")
    try:
        moved.start()
        snapshot = moved.snapshot(board)  # the view secret of the old link
        assert snapshot["title"] == "Moving"
        assert snapshot["sections"] == original["sections"]
        assert snapshot["timers"] == original["timers"]  # running state included
        assert moved.request("GET", f"/api/boards/{other}", secret=other.view)[0] == 404

        async def edit_on_the_new_server():
            ws = await open_joined(moved.ws, board, "export-editor-2-0123456789")
            await ws.send(json.dumps({"type": "edit", "opId": "3", "ops": [{"op": "updateSection", "id": "s1", "title": "Moved"}]}))
            return (await outcome(ws, "3"))["type"]

        assert asyncio.run(edit_on_the_new_server()) == "ack"
    finally:
        moved.stop()


def test_boards_imported_while_ten_clients_edit_cost_no_edit_and_are_served_at_once(server_factory, tmp_path):
    # The import is another process writing the same SQLite file: each side waits for the
    # other's write instead of failing (a failed append closes a room with 1011).
    source = ServerProcess(tmp_path / "source", tmp_path / "source.log",
                           ["--boards-per-minute", "1000", "--board-burst", "1000"]).start()
    exported = []
    try:
        for number in range(25):
            board = source.create_board(f"Imported {number}")
            path = tmp_path / f"board-{number}.json"
            result = timerboard("export", str(board), "--output", str(path), "--data-directory", str(source.data_dir))
            assert result.returncode == 0, result.stderr
            exported.append((board, path))
    finally:
        source.stop()

    server = server_factory().start()
    busy = server.create_board("Busy")
    acked = []

    async def scenario():
        await add_main_section(server.ws, busy, "import-setup-0123456789")
        enough, stop = asyncio.Event(), asyncio.Event()
        writers = [asyncio.create_task(write_until(server.ws, busy, w, acked, enough, stop, [])) for w in range(WRITERS)]
        await enough.wait()
        results = []
        for _, path in exported:
            results.append(await asyncio.to_thread(timerboard, "import", str(path), "--data-directory", str(server.data_dir)))
        stop.set()
        await asyncio.gather(*writers)  # a writer whose socket closed (1011) fails here
        return results

    results = asyncio.run(scenario())
    for result in results:
        assert result.returncode == 0, result.stderr
    for board, _ in exported:
        assert server.snapshot(board)["title"].startswith("Imported")
    assert len(server.snapshot(busy)["timers"]) == 2 * len(acked)


def test_a_stopped_server_leaves_one_whole_database_file(server_factory, tmp_path):
    # deploy/README.md's restore moves timerboard.sqlite aside and deletes its -wal; an operator
    # who stops the server and copies the one file must keep every board too.
    server = server_factory().start()
    board = server.create_board("Kept whole")
    server.stop()
    assert server.process.returncode == 0
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(server.data_dir / "timerboard.sqlite", copy / "timerboard.sqlite")
    restored = ServerProcess(copy, tmp_path / "copy.log").start()
    try:
        assert restored.snapshot(board)["title"] == "Kept whole"
    finally:
        restored.stop()
