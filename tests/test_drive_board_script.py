"""The script in docs/protocol.md works against a real server, as a stranger would run it."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_documented_scripts_are_the_ones_in_scripts():
    doc = (ROOT / "docs" / "protocol.md").read_text()
    documented = re.findall(r"```python\n(#!.*?)```", doc, re.S)
    assert len(documented) == 2
    for name in ("drive_board.py", "wait_for_timer.py"):
        assert (ROOT / "scripts" / name).read_text() in documented, f"docs/protocol.md and scripts/{name} differ"


def test_the_script_adds_a_section_and_a_timer_and_renames_the_section(server):
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "drive_board.py"), "--server", server.http, "--no-follow"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "'insert': 'section'" in out and "'title': 'Prep'" in out
    assert "'insert': 'timer'" in out and "'minutes': 7" in out
    assert "{'update': 'section'" in out and "'title': 'Mise en place'" in out
    board, secret = re.search(r"/b/([A-Za-z0-9]+)#edit=([A-Za-z0-9_-]+)", out).groups()
    status, snapshot = server.request("GET", f"/api/boards/{board}", secret=secret)
    assert status == 200
    assert [section["title"] for section in snapshot["sections"]] == ["Mise en place"]
    assert [timer["title"] for timer in snapshot["timers"]] == ["Eggs"]
    assert snapshot["rev"] == 3


def test_the_script_drives_the_board_of_the_link_it_is_given(server):
    board = server.create_board("Given")
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "drive_board.py"), server.http + board.links["edit"], "--no-follow"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "role edit" in result.stdout
    assert [section["title"] for section in server.snapshot(board)["sections"]] == ["Mise en place"]


def test_the_timer_script_starts_a_timer_and_sees_the_server_finish_it(server):
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "wait_for_timer.py"), server.http],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("egg is running at revision 1")
    assert lines[-1].startswith("egg is finished at revision 2")
