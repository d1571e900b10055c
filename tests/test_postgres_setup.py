"""deploy/README.md's PostgreSQL steps, run exactly as written (issue 36) on a scratch PostgreSQL
server whose superuser is `postgres` and whose TCP clients must give a password, as on a Debian
host: then a node starts on the database they made, and its tables belong to the nodes' role.
On PostgreSQL 15 and later, a database the role does not own refuses it CREATE on the public
schema, which is what the earlier steps (`createdb timerboard` by the superuser) ran into."""
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from conftest import ROOT, ServerProcess

README = ROOT / "deploy" / "README.md"
PASSWORD = "a-secret-for-the-test-0123"


def postgres_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: int(path.parent.name)) \
        if Path("/usr/lib/postgresql").exists() else []
    if not found:
        pytest.skip("PostgreSQL is not installed (scripts/install-deps --test installs it)")
    return found[-1]


def as_postgres(command: list) -> list:
    """PostgreSQL refuses to run as root: as root, run it as the postgres user."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def readme_setup_commands() -> list:
    """The commands of the README's code block that makes the role and the database."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), re.DOTALL)
    block = next(block for block in blocks if "createuser" in block)
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@pytest.fixture
def scratch_postgres():
    binaries = postgres_bin()
    # Not pytest's tmp_path: its parents are closed to the postgres user.
    folder = Path(tempfile.mkdtemp(prefix="timerboard-pgsetup-"))
    os.chmod(folder, 0o755)
    data = folder / "data"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(data, "postgres")
    subprocess.run(as_postgres([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth-local=trust",
                                "--auth-host=scram-sha-256", "--no-sync"]), check=True, capture_output=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    subprocess.run(as_postgres([str(binaries / "pg_ctl"), "-D", str(data), "-l", str(data / "server.log"), "-w",
                                "-o", f"-p {port} -k {data} -c listen_addresses=127.0.0.1", "start"]),
                   check=True, capture_output=True)
    yield data, port
    subprocess.run(as_postgres([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]), capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def test_the_readmes_postgres_steps_make_a_database_a_node_runs_on(scratch_postgres, tmp_path):
    data, port = scratch_postgres
    commands = readme_setup_commands()
    assert any("createuser" in command for command in commands) and any("createdb" in command for command in commands)
    # The client tools find this server through the environment, as through Debian's defaults.
    environment = {**os.environ, "PGHOST": str(data), "PGPORT": str(port)}
    for command in commands:
        words = shlex.split(command)
        if words[:3] == ["sudo", "-u", "postgres"] and shutil.which("sudo") is None:
            words = ["runuser", "-u", "postgres", "--", *words[3:]]  # the same, where sudo is not installed
        # --pwprompt asks twice; without a terminal (a new session) it reads standard input.
        subprocess.run(words, input=f"{PASSWORD}\n{PASSWORD}\n", env=environment, text=True, check=True,
                       capture_output=True, start_new_session=True, timeout=30)

    node = ServerProcess(tmp_path / "data", tmp_path / "node.log",
                         ["--store", f"postgres://timerboard:{PASSWORD}@127.0.0.1:{port}/timerboard"])
    # A node that cannot use the database may keep trying: give up after a bound.
    starting = threading.Thread(target=node.start, daemon=True)
    starting.start()
    starting.join(timeout=60)
    try:
        assert not starting.is_alive() and node.port, f"the node never listened:\n{node.log_path.read_text()[-3000:]}"
        board = node.create_board("On the README's database")
        assert node.snapshot(board)["rev"] == 0
    finally:
        if node.process and node.process.poll() is None:
            node.stop()
    owners = subprocess.run(as_postgres(["psql", "-h", str(data), "-p", str(port), "-d", "timerboard", "-At", "-c",
                                         "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'"]),
                            capture_output=True, text=True, check=True).stdout.split()
    assert owners == ["timerboard"]
