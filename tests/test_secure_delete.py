"""A deleted board leaves nothing readable behind (issue 34): SQLite keeps freed pages as they
were unless `secure_delete` is on, so a deleted board's title stayed in the database file for
anyone with a copy (a backup, a disk image) to read."""
import subprocess
import uuid


def checkpoint(server):
    """Copies the write-ahead log into the database file and empties it (sqlite3, another process)."""
    database = next(server.data_dir.rglob("*.sqlite"))
    result = subprocess.run(["sqlite3", str(database), "PRAGMA wal_checkpoint(TRUNCATE);"], check=True, capture_output=True, text=True)
    assert result.stdout.strip() == "0|0|0", result.stdout


def test_a_deleted_boards_title_is_gone_from_the_database_files(server_factory):
    server = server_factory().start()
    title = f"Secret plans {uuid.uuid4().hex}"
    kept = server.create_board("Kept board")
    board = server.create_board(title)
    # Enough writes that the board has pages of its own: a section and timers titled alike.
    ops = [{"op": "addSection", "id": "s", "title": title}] + [
        {"op": "addTimer", "id": f"t{n}", "sectionID": "s", "title": f"{title} {n}", "minutes": 1, "seconds": 0}
        for n in range(50)]
    status, body = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit, body={"opId": "fill", "ops": ops})
    assert status == 200, body
    # Into the database file itself, as a long-running server's automatic checkpoints put it.
    checkpoint(server)
    status, _ = server.request("DELETE", f"/api/boards/{board}", secret=board.owner)
    assert status in (200, 204), status
    # Once stopped, the write-ahead log is checkpointed into the database file and emptied (as a
    # backup does): the file then holds what a copy of it would.
    server.stop()
    checkpoint(server)
    files = [path for path in server.data_dir.rglob("*") if path.is_file()]
    assert any(path.suffix == ".sqlite" or "sqlite" in path.name or path.suffix == ".db" for path in files), files
    found = [path.name for path in files if title.encode() in path.read_bytes()]
    assert not found, f"the deleted board's title is still in {found}"
    # The kept board is still there after a restart.
    server.start()
    assert server.snapshot(kept)["title"] == "Kept board"
