"""The server module's shape, as docs/architecture.md draws it: folders on floors that use only
the floors below them, no file over 350 lines and a room actor that fits one screen."""
import subprocess
from pathlib import Path

from conftest import ROOT

SERVER = ROOT / "Sources" / "TimerBoardServer"


def test_every_folder_uses_only_folders_on_lower_floors():
    result = subprocess.run([str(ROOT / "scripts" / "server-folders"), "--quiet"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_no_server_file_is_over_350_lines_and_the_room_actor_fits_one_screen():
    lengths = {path.relative_to(SERVER): len(path.read_text().splitlines()) for path in SERVER.rglob("*.swift")}
    assert {str(path): n for path, n in lengths.items() if n > 350} == {}
    assert lengths[Path("Rooms/BoardRoom.swift")] <= 300
