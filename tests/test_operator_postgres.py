"""The operator's commands on a cluster's store: `export`, `import` and `reset-links` take
`--store postgres://…` as `serve` does, and work while the nodes serve. A board moves out of the
cluster onto a single SQLite node by export and import; a replaced set of links closes the old
links' sockets on every node; `backup` says that PostgreSQL is pg_dump's to copy."""
import asyncio
import json


from conftest import ServerProcess
from test_backup_restore import open_joined, outcome, timerboard
from test_cluster import closed_with, nodes, postgres  # noqa: F401  (fixtures: a real PostgreSQL, two nodes on it)
from test_links import join_answer


def test_export_import_and_reset_links_on_the_cluster_store_while_the_nodes_serve(postgres, nodes, tmp_path):  # noqa: F811
    node1, node2 = nodes
    board = node1.create_board("Cluster board")

    async def scenario():
        editor = await open_joined(node2.ws, board, "operator-editor-0123456789")
        await editor.send(json.dumps({"type": "edit", "opId": "1", "ops": [
            {"op": "addSection", "id": "s1", "title": "Prep"},
            {"op": "addTimer", "id": "t1", "sectionID": "s1", "title": "Rice", "minutes": 12, "seconds": 0}]}))
        assert (await outcome(editor, "1"))["type"] == "ack"

        # Export from the database the nodes share, while they serve.
        exported = tmp_path / "board.json"
        result = timerboard("export", str(board), "--store", postgres.url, "--output", str(exported))
        assert result.returncode == 0, result.stderr
        document = json.loads(exported.read_text())
        assert document["id"] == str(board)
        assert "Rice" in exported.read_text()
        for secret in board.secrets.values():
            assert secret not in exported.read_text()
        missing = timerboard("export", "no-such-board", "--store", postgres.url)
        assert missing.returncode != 0 and "no board no-such-board" in missing.stderr

        # Into a single SQLite node: the board and its links come along.
        single = tmp_path / "single"
        result = timerboard("import", str(exported), "--data-directory", str(single))
        assert result.returncode == 0, result.stderr
        moved = ServerProcess(single, tmp_path / "single.log").start()
        try:
            assert [t["title"] for t in moved.snapshot(board)["timers"]] == ["Rice"]
        finally:
            moved.stop()
        # The same file again into the cluster: the board is there already.
        again = timerboard("import", str(exported), "--store", postgres.url)
        assert again.returncode != 0 and "exists" in again.stderr

        # New links while the nodes serve: node 2's editor, in through the old edit link, is closed.
        result = timerboard("reset-links", str(board), "--store", postgres.url)
        assert result.returncode == 0, result.stderr
        links = dict(line.split(": ", 1) for line in result.stdout.splitlines())
        assert set(links) == {"owner", "edit", "view"}
        assert await closed_with(editor) == 4403
        new_edit = links["edit"].split("#edit=", 1)[1]
        for node in (node1, node2):
            assert join_answer(node, str(board), new_edit)["role"] == "edit"
            assert join_answer(node, str(board), board.edit)["code"] == "board_not_found"

    asyncio.run(scenario())


def test_backup_refuses_the_postgres_store_and_names_pg_dump(postgres, tmp_path):  # noqa: F811
    result = timerboard("backup", str(tmp_path / "copy.sqlite"), "--store", postgres.url)
    assert result.returncode != 0
    assert "pg_dump" in result.stderr
    assert not (tmp_path / "copy.sqlite").exists()


def test_a_store_that_is_not_postgres_is_refused_before_anything_runs(tmp_path):
    result = timerboard("export", "board", "--store", "mysql://somewhere/db")
    assert result.returncode != 0 and "--store must be postgres://" in result.stderr
