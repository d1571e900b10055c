"""The SQLite database is the server's alone (issue 36): outside systemd it was created readable
by everyone (0644). The data directory is made 0700 and the database with its -wal and -shm
0600, whatever the umask. A database the server cannot write (a restore done as root under
systemd's DynamicUser) stops the start with a message that says how to give it back, and the
operator's commands run as root hand the files they made back to the directory's owner."""
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import BINARY, ROOT, ServerProcess

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as two users")


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_data_directory_and_its_database_are_private_whatever_the_umask(tmp_path):
    data = tmp_path / "data"
    server = ServerProcess(data, tmp_path / "server.log")
    previous = os.umask(0o022)
    try:
        server.start()
    finally:
        os.umask(previous)
    try:
        server.create_board("Private")  # a write: the -wal and -shm files exist now
        files = [data / "timerboard.sqlite", data / "timerboard.sqlite-wal", data / "timerboard.sqlite-shm"]
        assert all(file.exists() for file in files)
        assert mode(data) == 0o700
        assert {file.name: mode(file) for file in files} == {file.name: 0o600 for file in files}
    finally:
        server.stop()


def nobody_can_run_the_binary() -> bool:
    return subprocess.run(["runuser", "-u", "nobody", "--", str(BINARY), "--version"], capture_output=True).returncode == 0


@pytest.fixture
def open_folder():
    """A folder the user nobody can reach (pytest's tmp_path has closed parents)."""
    folder = Path(tempfile.mkdtemp(prefix="timerboard-modes-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@as_root
def test_a_database_restored_as_root_stops_the_start_until_given_back_as_the_runbook_says(open_folder):
    if not nobody_can_run_the_binary():
        pytest.skip("the build folder is not readable by the user nobody")
    tmp_path = open_folder
    # The service's folder, its user's; a backup copied in by root, as the runbook's restore does.
    data = tmp_path / "state"
    data.mkdir(mode=0o700)
    nobody = pwd.getpwnam("nobody")
    os.chown(data, nobody.pw_uid, nobody.pw_gid)
    source = ServerProcess(tmp_path / "source", tmp_path / "source.log").start()
    board = source.create_board("Restored")
    source.stop()
    backup = tmp_path / "backup.sqlite"
    assert subprocess.run([str(BINARY), "backup", str(backup), "--data-directory", str(tmp_path / "source")]).returncode == 0
    shutil.copy(backup, data / "timerboard.sqlite")  # root's, 0644

    command = ["runuser", "-u", "nobody", "--", str(BINARY), "serve", "--port", "0", "--data-directory", str(data),
               "--web-root", str(ROOT / "web-static")]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    output = refused.stdout + refused.stderr
    assert "is not writable by this process" in output and "owned by uid 0" in output, output
    assert "chown -R --reference=" in output

    # deploy/README.md's restore step, then the same start works and has the board.
    subprocess.run(["chown", "-R", f"--reference={data}/.", f"{data}/"], check=True)

    class AsNobody(ServerProcess):
        def command(self):
            return ["runuser", "-u", "nobody", "--", *super().command()]

    server = AsNobody(data, tmp_path / "restored.log").start()
    try:
        assert server.snapshot(board)["title"] == "Restored"
        server.create_board("Written after the restore")
    finally:
        server.stop()


@as_root
def test_an_import_run_as_root_leaves_files_the_servers_user_owns(tmp_path):
    source = ServerProcess(tmp_path / "source", tmp_path / "source.log").start()
    board = source.create_board("Moved")
    exported = subprocess.run([str(BINARY), "export", str(board), "--data-directory", str(tmp_path / "source")],
                              capture_output=True, text=True, timeout=60)
    source.stop()
    assert exported.returncode == 0, exported.stderr
    (tmp_path / "board.json").write_text(exported.stdout)
    data = tmp_path / "state"
    data.mkdir(mode=0o700)
    nobody = pwd.getpwnam("nobody")
    os.chown(data, nobody.pw_uid, nobody.pw_gid)
    result = subprocess.run([str(BINARY), "import", str(tmp_path / "board.json"), "--data-directory", str(data)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    owners = {path.name: (os.stat(path).st_uid, mode(path)) for path in data.iterdir() if path.name.startswith("timerboard.sqlite")}
    assert owners and all(owner == (nobody.pw_uid, 0o600) for owner in owners.values()), owners


def test_a_backup_and_an_export_are_private_whatever_the_umask(tmp_path):
    # They hold every board's content (and the links' hashes): 0600, as the database is.
    server = ServerProcess(tmp_path / "data", tmp_path / "server.log").start()
    board = server.create_board("Private copy")
    previous = os.umask(0o022)
    try:
        for command in (["backup", str(tmp_path / "backup.sqlite")], ["export", str(board), "--output", str(tmp_path / "board.json")]):
            result = subprocess.run([str(BINARY), *command, "--data-directory", str(server.data_dir)], capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, result.stderr
    finally:
        os.umask(previous)
        server.stop()
    assert mode(tmp_path / "backup.sqlite") == 0o600
    assert mode(tmp_path / "board.json") == 0o600
