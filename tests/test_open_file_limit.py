"""Every connection is an open file: the server raises its own soft limit to the hard limit at
start, so an operator does not need a wrapper script for it (issue 19)."""
import resource

import pytest

from raw_websocket import RawClient


def test_the_server_raises_its_open_file_limit_and_holds_more_sockets_than_it_started_with(server_factory):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1024:
        pytest.skip(f"the hard limit here ({hard}) leaves nothing to raise")
    # The server inherits this process's limits: start it with a low soft limit.
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    try:
        server = server_factory().start()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    limits = open(f"/proc/{server.process.pid}/limits").read()
    line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    server_soft, server_hard = line.split()[3:5]
    assert server_soft == server_hard, line

    board = server.create_board("A crowd of screens")
    clients = []
    for i in range(400):  # more than the 256 it was started with
        client = RawClient(server.port, None)
        client.hello_and_join(f"screen-{i}", board)
        client.until("snapshot")
        clients.append(client)
    for client in clients:
        client.close()
