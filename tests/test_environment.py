"""Every flag of `timerboard serve` can come from a TIMERBOARD_ environment variable instead, the
command line wins over the environment, and a bad value names the variable it came from."""
import os
import re
import socket
import subprocess
import urllib.request

import pytest

from conftest import ADMIN_TOKEN, BINARY, ROOT, ServerProcess


class EnvServer(ServerProcess):
    """A server started with only the arguments given: everything else from `env`."""

    def __init__(self, tmp_path, env, args=(), name="env"):
        super().__init__(tmp_path / "unused-data", tmp_path / f"{name}.log", env=env)
        self.args = list(args)

    def command(self):
        return [str(BINARY), "serve", *self.args]


def clean_environment(**variables):
    """The test process's environment without any TIMERBOARD_ variable, plus `variables`."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("TIMERBOARD_")}
    env.update({key: str(value) for key, value in variables.items()})
    return env


def serve_help() -> str:
    return subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, check=True).stdout


def long_options(help_text: str) -> list:
    """Every `--name` that `serve --help` lists (of `--x/--no-x`, the first)."""
    names = []
    for match in re.finditer(r"^\s+--([a-z0-9-]+)", help_text, re.MULTILINE):
        if match.group(1) not in ("help", "version") and match.group(1) not in names:
            names.append(match.group(1))
    return names


@pytest.fixture
def servers():
    started = []
    yield started
    for server in started:
        server.stop()


def start(servers, server):
    servers.append(server)
    return server.start()


def test_port_data_directory_and_web_root_come_from_the_environment(tmp_path, servers):
    # A port picked here and let go, so the server can only be listening on it if it read it.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = tmp_path / "from-env"
    server = start(servers, EnvServer(tmp_path, clean_environment(
        TIMERBOARD_PORT=port, TIMERBOARD_DATA_DIRECTORY=data, TIMERBOARD_WEB_ROOT=ROOT / "web-static",
        TIMERBOARD_ADMIN_TOKEN=ADMIN_TOKEN)))
    assert server.port == port
    board = server.create_board("From the environment")
    assert (data / "timerboard.sqlite").exists()
    # The operator token from the environment lists the board.
    assert server.board_count() == 1
    with urllib.request.urlopen(server.http + "/") as response:
        assert response.status == 200 and b"<html" in response.read()
    assert server.snapshot(board)["title"] == "From the environment"


def test_the_command_line_wins_over_the_environment(tmp_path, servers):
    long_title = "x" * 10
    env = clean_environment(TIMERBOARD_PORT=0, TIMERBOARD_DATA_DIRECTORY=tmp_path / "d1", TIMERBOARD_MAX_TITLE_LENGTH=5)
    only_env = start(servers, EnvServer(tmp_path, env, name="only-env"))
    status, body = only_env.post_board(b'{"title":"%s"}' % long_title.encode())
    assert status == 400, body

    env["TIMERBOARD_DATA_DIRECTORY"] = str(tmp_path / "d2")
    flag_too = start(servers, EnvServer(tmp_path, env, args=["--max-title-length", "50"], name="flag-too"))
    status, body = flag_too.post_board(b'{"title":"%s"}' % long_title.encode())
    assert status == 201, body
    # `--name=value` counts as given too.
    env["TIMERBOARD_DATA_DIRECTORY"] = str(tmp_path / "d3")
    equals = start(servers, EnvServer(tmp_path, env, args=["--max-title-length=50"], name="equals"))
    assert equals.post_board(b'{"title":"%s"}' % long_title.encode())[0] == 201


def test_a_repeatable_option_takes_a_comma_separated_list(tmp_path, servers):
    server = start(servers, EnvServer(tmp_path, clean_environment(
        TIMERBOARD_PORT=0, TIMERBOARD_DATA_DIRECTORY=tmp_path / "data",
        TIMERBOARD_ALLOWED_ORIGIN="https://a.example, https://b.example")))
    assert server.post_board(b"{}", headers={"Origin": "https://b.example"})[0] == 201
    assert server.post_board(b"{}", headers={"Origin": "https://a.example"})[0] == 201
    assert server.post_board(b"{}", headers={"Origin": "https://c.example"})[0] == 403


def run_serve(env, *args):
    """`timerboard serve` that is expected to refuse to start: (exit code, output)."""
    result = subprocess.run([str(BINARY), "serve", *args], env=env, capture_output=True, text=True, timeout=30)
    return result.returncode, result.stdout + result.stderr


def test_a_bad_value_names_its_variable(tmp_path):
    base = clean_environment(TIMERBOARD_DATA_DIRECTORY=tmp_path / "data")
    code, output = run_serve({**base, "TIMERBOARD_PORT": "eighty"})
    assert code != 0
    assert "eighty" in output and "--port" in output and "TIMERBOARD_PORT" in output, output

    code, output = run_serve({**base, "TIMERBOARD_PERMESSAGE_DEFLATE": "maybe"})
    assert code != 0
    assert "TIMERBOARD_PERMESSAGE_DEFLATE" in output and "maybe" in output, output

    code, output = run_serve({**base, "TIMERBOARD_TRUSTED_PROXY": "10.0.0.0/33"})
    assert code != 0
    assert "10.0.0.0/33" in output and "TIMERBOARD_TRUSTED_PROXY" in output, output

    code, output = run_serve({**base, "TIMERBOARD_ADMIN_TOKEN": "short"})
    assert code != 0 and "16 characters" in output, output
    # The secret itself is never echoed.
    assert "short" not in output.replace("16 characters", ""), output

    # A node's PostgreSQL pool needs one connection to listen on and one to serve.
    code, output = run_serve({**base, "TIMERBOARD_STORE_CONNECTIONS": "1"})
    assert code != 0 and "--store-connections must be at least 2" in output, output


def test_every_flag_of_serve_has_a_working_variable(tmp_path, servers):
    """Each `--name` of `serve --help` set through TIMERBOARD_NAME at once: the server starts, and
    says of none of them that it names no option."""
    help_text = serve_help()
    names = long_options(help_text)
    assert len(names) >= 30, names
    valid = {
        "host": "127.0.0.1", "port": "0", "data-directory": str(tmp_path / "data"),
        "web-root": str(ROOT / "web-static"), "admin-token": ADMIN_TOKEN,
        "allowed-origin": "https://a.example", "trusted-proxy": "127.0.0.1,10.0.0.0/8",
        "permessage-deflate": "false", "log-level": "info", "log-format": "text", "allow-private-webhooks": "true",
    }
    env = clean_environment()
    for name in names:
        if name == "store":
            continue  # a database to point at: test_the_store_variable_is_the_store_flag
        if name in valid:
            value = valid[name]
        else:
            # Every other option shows its default, which is a valid value.
            # The help may wrap between "default:" and the value.
            default = re.search(r"--%s <[^>]+>.*?\(default:\s+([^)\s]+)\)" % re.escape(name), help_text, re.DOTALL)
            assert default, f"--{name} has no default in --help; give the test a value for it"
            value = default.group(1)
        env["TIMERBOARD_" + name.upper().replace("-", "_")] = value
    env["TIMERBOARD_NO_SUCH_SETTING"] = "1"
    server = start(servers, EnvServer(tmp_path, env))
    assert server.board_count() == 0  # the admin token from the environment works
    server.stop()
    output = server.output_after_exit()
    ignored = [line for line in output.splitlines() if "names no option" in line]
    # Only the made-up variable is reported: every real flag's variable was taken.
    assert len(ignored) == 1 and "TIMERBOARD_NO_SUCH_SETTING" in ignored[0], ignored


def test_the_store_variable_is_the_store_flag(tmp_path):
    """TIMERBOARD_STORE reaches --store: a value that is no PostgreSQL URL is refused by name.
    (tests/test_cluster.py runs nodes on a real database through the flag.)"""
    env = clean_environment()
    env["TIMERBOARD_STORE"] = "mysql://somewhere/db"
    result = subprocess.run([str(BINARY), "serve", "--port", "0", "--data-directory", str(tmp_path / "data")],
                            env=env, capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "--store must be postgres://" in result.stderr and "mysql://somewhere/db" in result.stderr
    assert "TIMERBOARD_STORE (--store)" in result.stderr


def test_no_permessage_deflate_from_the_environment(tmp_path, servers):
    """An on/off flag: TIMERBOARD_PERMESSAGE_DEFLATE=false is --no-permessage-deflate."""
    import http.client

    def offers_deflate(env):
        server = start(servers, EnvServer(tmp_path, env, name=f"deflate-{len(servers)}"))
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/ws", headers={
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Extensions": "permessage-deflate"})
        response = connection.getresponse()
        assert response.status == 101
        extensions = response.getheader("Sec-WebSocket-Extensions") or ""
        connection.close()
        return "permessage-deflate" in extensions

    assert offers_deflate(clean_environment(TIMERBOARD_PORT=0, TIMERBOARD_DATA_DIRECTORY=tmp_path / "a"))
    assert not offers_deflate(clean_environment(TIMERBOARD_PORT=0, TIMERBOARD_DATA_DIRECTORY=tmp_path / "b",
                                                TIMERBOARD_PERMESSAGE_DEFLATE="false"))


@pytest.mark.parametrize("option, value, says", [
    ("--port", "70000", "--port must be 0 to 65535"),
    ("--heartbeat-interval-ms", "0", "--heartbeat-interval-ms must be at least 100"),
    ("--max-message-bytes", "0", "--max-message-bytes must be at least 1024"),
    ("--allowed-origin", "notanorigin", "--allowed-origin must be an origin"),
    ("--allowed-origin", "https://kitchen.example/", "--allowed-origin must be an origin"),
])
def test_a_value_that_would_start_a_broken_server_is_refused(tmp_path, option, value, says):
    # Each of these used to start: on another port, closing every socket at once, refusing
    # every hello, or refusing every page of the origin meant.
    result = subprocess.run([str(BINARY), "serve", "--port=0", "--data-directory", str(tmp_path), f"{option}={value}"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and says in result.stderr, result.stderr
