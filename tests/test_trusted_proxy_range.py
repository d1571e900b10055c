"""A `--trusted-proxy` range wider than one host (issue 34): every client inside it may choose its
address with X-Forwarded-For, so the server warns at start, naming the range; one address per
proxy, as deploy/compose.yaml now trusts, gets no warning."""


def test_a_trusted_range_wider_than_one_host_is_warned_of_at_start(server_factory):
    wide = server_factory(["--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "127.0.0.1"]).start()
    wide.stop()
    output = wide.output_after_exit()
    warnings = [line for line in output.splitlines() if "wider than one host" in line]
    assert len(warnings) == 1 and "warning" in warnings[0] and "10.0.0.0/8" in warnings[0], warnings


def test_one_address_per_proxy_is_not_warned_of(server_factory):
    narrow = server_factory(["--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"]).start()
    narrow.stop()
    assert "wider than one host" not in narrow.output_after_exit()
