"""Shared fixtures for the end-to-end tests: real TimerBoard server processes on loopback."""
import json
import os
import re
import signal
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# TIMERBOARD_BIN lets a test run use a binary other than the debug build (for example a frozen copy).
BINARY = Path(os.environ.get("TIMERBOARD_BIN", ROOT / ".build" / "debug" / "timerboard"))


# Hummingbird's line once the socket is bound: the server is ready, and says on which port.
LISTENING = re.compile(r"listening on [^\s:]+:(\d+)")


class ServerProcess:
    """One `timerboard serve` process; start it again on the same data folder to restart."""

    def __init__(self, data_dir: Path, log_path: Path, extra_args=()):
        self.data_dir = data_dir
        self.log_path = log_path
        self.extra_args = list(extra_args)
        # 0 on the first start: the server picks a free port and says which. Restarts reuse it,
        # so clients reconnect to the same address.
        self.port = 0
        self.process = None
        self.copier = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self):
        assert BINARY.exists(), f"build first: {BINARY} is missing"
        log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(self.port), "--data-directory", str(self.data_dir),
             "--web-root", str(ROOT / "web-static"), *self.extra_args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # Read the server's own output until it says it listens: no polling, no fixed delay.
        for line in self.process.stdout:
            log.write(line)
            if match := LISTENING.search(line):
                self.port = int(match.group(1))
                break
        else:
            log.close()
            raise RuntimeError(f"server exited before listening; see {self.log_path}")
        log.flush()
        # The rest of its output goes to the log, so the pipe never fills and blocks the server.
        self.copier = threading.Thread(target=self._copy_output, args=(self.process.stdout, log), daemon=True)
        self.copier.start()
        return self

    def output_after_exit(self) -> str:
        """Everything the server wrote, once it has exited and its last lines reached the log."""
        assert self.process.poll() is not None, "the server is still running"
        self.copier.join(timeout=10)
        return self.log_path.read_text()

    @staticmethod
    def _copy_output(stream, log):
        with log:
            for line in stream:
                log.write(line)
                log.flush()

    def kill(self):
        """SIGKILL: no chance to flush or close anything."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def create_board(self, title="Test board") -> str:
        request = urllib.request.Request(self.http + "/api/boards", data=json.dumps({"title": title}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request) as response:
            return json.load(response)["id"]

    def post_board(self, body: bytes, headers=None):
        """`POST /api/boards` as given: (status, parsed body), also for 4xx and 5xx answers."""
        request = urllib.request.Request(self.http + "/api/boards", data=body, method="POST",
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def board_count(self) -> int:
        with urllib.request.urlopen(self.http + "/api/boards") as response:
            return len(json.load(response)["boards"])

    def snapshot(self, board: str) -> dict:
        with urllib.request.urlopen(f"{self.http}/api/boards/{board}") as response:
            return json.load(response)


@pytest.fixture
def server_factory(tmp_path):
    servers = []

    def make(extra_args=()):
        server = ServerProcess(tmp_path / "data", tmp_path / f"server-{len(servers)}.log", extra_args)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(server_factory):
    return server_factory().start()
