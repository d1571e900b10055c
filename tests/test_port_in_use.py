"""A server whose port is taken says so and exits. It used to stay up without listening: the
webhook dispatcher, cancelled with the other services, spun on CancellationError and wrote its
warning thousands of times a second, and neither the failed bind nor SIGTERM ended the process.
The subprocess timeout only bounds a hang; it measures nothing."""
import socket
import subprocess

from conftest import BINARY, ROOT


def test_a_taken_port_ends_the_server_with_a_clear_error(tmp_path):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        run = subprocess.run([str(BINARY), "serve", "--port", str(port), "--data-directory", str(tmp_path / "data"),
                              "--web-root", str(ROOT / "web-static")], capture_output=True, text=True, timeout=60)
    finally:
        holder.close()
    output = run.stdout + run.stderr
    assert run.returncode != 0, output[-2000:]
    assert "Address already in use" in output or "address already in use" in output.lower(), output[-2000:]
    assert f"another process listens on 127.0.0.1 port {port}" in output, "the message names the address"
    assert "closing the store failed" not in output, "a start that failed still closes its store"
    # Nothing was serving: no drain to announce, no boards to have failed to load.
    assert "draining" not in output and "could not load the boards" not in output, output[-2000:]
    assert output.count("could not read the webhook outbox") <= 1, output[-2000:]
