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
# The load generator, an executable of its own beside the server's.
BENCH_BINARY = Path(os.environ.get("TIMERBOARD_BENCH_BIN", BINARY.parent / "timerboard-bench"))


# The operator token every test server is started with, for `GET /api/boards`.
ADMIN_TOKEN = "test-operator-token-0123456789"


class BoardRef(str):
    """A board id (use it wherever an id goes) that also holds the board's three secrets, as
    `POST /api/boards` returned them: `board.edit` is what a join or a Bearer header needs."""

    def __new__(cls, created: dict):
        ref = super().__new__(cls, created["id"])
        ref.secrets = created["secrets"]
        ref.links = created["links"]
        return ref

    @property
    def owner(self) -> str:
        return self.secrets["owner"]

    @property
    def edit(self) -> str:
        return self.secrets["edit"]

    @property
    def view(self) -> str:
        return self.secrets["view"]


def join_message(board: BoardRef, role="edit", **fields) -> dict:
    """A `join` for `board` with the secret of `role`."""
    return {"type": "join", "board": str(board), "secret": board.secrets[role], **fields}


# Hummingbird's line once the socket is bound: the server is ready, and says on which port.
LISTENING = re.compile(r"listening on \S*:(\d+)")


class ServerProcess:
    """One `timerboard serve` process; start it again on the same data folder to restart."""

    def __init__(self, data_dir: Path, log_path: Path, extra_args=(), web_root=None, env=None):
        self.data_dir = data_dir
        self.log_path = log_path
        self.extra_args = list(extra_args)
        # The browser client's folder; tests of the static files pass a copy they can change.
        self.web_root = Path(web_root) if web_root else ROOT / "web-static"
        # 0 on the first start: the server picks a free port and says which. Restarts reuse it,
        # so clients reconnect to the same address.
        self.port = 0
        self.process = None
        self.copier = None
        # The process's whole environment when given (tests of TIMERBOARD_ variables).
        self.env = env

    def command(self) -> list:
        return [str(BINARY), "serve", "--port", str(self.port), "--data-directory", str(self.data_dir),
                "--web-root", str(self.web_root), "--admin-token", ADMIN_TOKEN, *self.extra_args]

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self):
        assert BINARY.exists(), f"build first: {BINARY} is missing"
        log = open(self.log_path, "a")
        self.process = subprocess.Popen(self.command(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env=self.env)
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

    def create_board(self, title="Test board") -> BoardRef:
        request = urllib.request.Request(self.http + "/api/boards", data=json.dumps({"title": title}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request) as response:
            return BoardRef(json.load(response))

    def request(self, method: str, path: str, secret=None, body=None, headers=None):
        """Any HTTP request to the server: (status, parsed JSON body or None), also for 4xx and 5xx."""
        all_headers = {**({"Authorization": f"Bearer {secret}"} if secret else {}),
                       **({"Content-Type": "application/json"} if body is not None else {}), **(headers or {})}
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.http + path, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(request) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, json.loads(raw) if raw else None

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
        status, body = self.request("GET", "/api/boards", secret=ADMIN_TOKEN)
        assert status == 200, body
        return len(body["boards"])

    def snapshot(self, board: BoardRef) -> dict:
        status, body = self.request("GET", f"/api/boards/{board}", secret=board.view)
        assert status == 200, body
        return body


@pytest.fixture
def server_factory(tmp_path):
    servers = []

    def make(extra_args=(), web_root=None):
        server = ServerProcess(tmp_path / "data", tmp_path / f"server-{len(servers)}.log", extra_args, web_root)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(server_factory):
    return server_factory().start()
