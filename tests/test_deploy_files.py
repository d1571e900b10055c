"""deploy/ is consistent with the server it deploys: the systemd unit passes `systemd-analyze
verify`, and the compose file, the Dockerfile and the unit name only commands, flags and
TIMERBOARD_ variables that `timerboard serve --help` has. The images' health checks are run for
real against a server. (Docker itself cannot run on this machine; deploy/README.md says how the
Dockerfile's steps were checked by hand.)"""
import ipaddress
import json
import re
import shutil
import socket
import subprocess
import urllib.request
from pathlib import Path

import pytest
import yaml

from conftest import BINARY, LISTENING, ROOT

DEPLOY = ROOT / "deploy"


def serve_flags() -> set:
    help_text = subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, check=True).stdout
    flags = set(re.findall(r"--([a-z0-9-]+)", help_text))
    return flags - {"help"}


def variable_flag(variable: str) -> str:
    assert variable.startswith("TIMERBOARD_"), variable
    return variable[len("TIMERBOARD_"):].lower().replace("_", "-")


# The single node's unit, and the cluster nodes' template (verified as an instance of it).
UNITS = [("timerboard.service", "timerboard.service"), ("timerboard@.service", "timerboard@8081.service")]


@pytest.mark.parametrize("unit_name, verified", UNITS)
def test_the_systemd_units_pass_systemd_analyze_verify(unit_name, verified, tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian package systemd; scripts/install-deps --test installs it)")
    unit = (DEPLOY / "systemd" / unit_name).read_text()
    # verify checks that ExecStart's program exists: point it at the binary under test.
    assert "ExecStart=/usr/local/bin/timerboard serve" in unit
    (tmp_path / unit_name).write_text(unit.replace("/usr/local/bin/timerboard", str(BINARY)))
    result = subprocess.run([analyze, "verify", str(tmp_path / verified)], capture_output=True, text=True)
    # Unknown keys and bad values are only warnings to systemd: any output fails the test.
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stdout + result.stderr


@pytest.mark.parametrize("unit_name", [name for name, _ in UNITS])
def test_the_systemd_units_use_real_settings_and_wait_for_a_graceful_stop(unit_name):
    unit = (DEPLOY / "systemd" / unit_name).read_text()
    flags = serve_flags()
    settings = dict(re.findall(r"^Environment=(TIMERBOARD_[A-Z_]+)=(.*)$", unit, re.MULTILINE))
    assert settings, "the unit sets no TIMERBOARD_ variable"
    for variable in settings:
        assert variable_flag(variable) in flags, f"{variable} is no flag of timerboard serve"
    for directive in ("NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes", "Restart=on-failure",
                      "StateDirectory=timerboard", "EnvironmentFile=", "DynamicUser=yes"):
        assert directive in unit, directive
    stop = int(re.search(r"^TimeoutStopSec=(\d+)s$", unit, re.MULTILINE).group(1))
    drain = int(settings["TIMERBOARD_DRAIN_SECONDS"])
    grace = int(settings["TIMERBOARD_SHUTDOWN_GRACE_SECONDS"])
    assert stop >= drain + grace + 5, "systemd would SIGKILL before the graceful stop can end"


def test_the_cluster_template_gives_each_node_its_port_and_folder_and_drains():
    unit = (DEPLOY / "systemd" / "timerboard@.service").read_text()
    assert "Environment=TIMERBOARD_PORT=%i" in unit
    assert "StateDirectory=timerboard-%i" in unit and "Environment=TIMERBOARD_DATA_DIRECTORY=/var/lib/timerboard-%i" in unit
    # The shared settings are required (the store), each node's own are optional.
    assert "EnvironmentFile=/etc/timerboard/cluster.env" in unit and "EnvironmentFile=-/etc/timerboard/node-%i.env" in unit
    # Longer than HAProxy takes to mark a node out: fall x inter in deploy/haproxy/haproxy.cfg.
    haproxy = (DEPLOY / "haproxy" / "haproxy.cfg").read_text()
    fall, inter = re.search(r"default-server check inter (\d+)s .*fall (\d+)", haproxy).groups()
    drain = int(re.search(r"^Environment=TIMERBOARD_DRAIN_SECONDS=(\d+)$", unit, re.MULTILINE).group(1))
    assert drain > int(fall) * int(inter)


def compose():
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_the_cluster_nodes_trust_nginx_alone_not_a_range():
    # A range (all private ones, say) would let any container in it choose its address with
    # X-Forwarded-For and step around every per-address limit (issue 34).
    services = compose()["services"]
    nginx_address = services["nginx"]["networks"]["default"]["ipv4_address"]
    subnet = compose()["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(nginx_address) in ipaddress.ip_network(subnet)
    for name in ("node1", "node2"):
        trusted = services[name]["environment"]["TIMERBOARD_TRUSTED_PROXY"].split(",")
        assert trusted == [nginx_address], (name, trusted)


def test_compose_names_only_real_commands_flags_and_variables():
    flags = serve_flags()
    services = compose()["services"]
    timerboard_services = [name for name, service in services.items() if service.get("image") == "timerboard:latest"]
    assert set(timerboard_services) == {"timerboard", "node1", "node2"}
    for name in timerboard_services:
        service = services[name]
        command = service["command"]
        assert command[0] == "serve", (name, command)
        for argument in command[1:]:
            if argument.startswith("--"):
                assert argument[2:].split("=")[0] in flags, (name, argument)
        for variable in service["environment"]:
            assert variable_flag(variable) in flags, f"{name}: {variable} is no flag of timerboard serve"
        environment = service["environment"]
        grace = int(environment.get("TIMERBOARD_SHUTDOWN_GRACE_SECONDS", 10)) + int(environment.get("TIMERBOARD_DRAIN_SECONDS", 0))
        assert int(service["stop_grace_period"].rstrip("s")) > grace, name
        assert service["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    assert services["timerboard"]["profiles"] == ["single"]
    for name in ("postgres", "node1", "node2", "nginx"):
        assert services[name]["profiles"] == ["cluster"], name
    # The cluster's nginx runs the tested configuration file.
    mounts = [volume.split(":")[0] for volume in services["nginx"]["volumes"]]
    assert "./nginx/timerboard.conf" in mounts
    for mount in mounts:
        if mount.startswith("./nginx/"):
            assert (DEPLOY / mount).exists(), mount


def test_the_dockerfile_names_only_real_flags_and_variables():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    flags = serve_flags()
    env_block = re.search(r"^ENV (.*?)(?=^\S)", dockerfile, re.MULTILINE | re.DOTALL).group(1)
    variables = re.findall(r"(TIMERBOARD_[A-Z_]+)=", env_block)
    assert "TIMERBOARD_DATA_DIRECTORY" in variables and "TIMERBOARD_WEB_ROOT" in variables
    for variable in variables:
        assert variable_flag(variable) in flags, variable
    assert 'CMD ["serve"]' in dockerfile and "STOPSIGNAL SIGTERM" in dockerfile
    assert re.search(r"^VOLUME /data$", dockerfile, re.MULTILINE)
    # The build command the Dockerfile runs is the one this project builds with.
    assert "swift build -c release --product timerboard --static-swift-stdlib" in dockerfile
    assert (ROOT / ".dockerignore").exists()


def test_the_image_runs_as_a_numeric_user_without_privileges():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    run_stage = dockerfile[dockerfile.index("# ---- run ----"):]
    user, group = re.search(r"^USER (\d+):(\d+)$", run_stage, re.MULTILINE).groups()
    assert int(user) >= 1000 and int(group) >= 1000
    # The account made for it has that uid, and owns the data volume.
    assert re.search(rf"useradd .*--uid {user} ", run_stage)
    assert "install -d -o timerboard -g timerboard -m 700 /data" in run_stage


def test_the_image_resolves_before_copying_sources_and_strips_the_binary():
    steps = [line for line in (DEPLOY / "Dockerfile").read_text().splitlines() if re.match(r"(COPY|RUN|FROM) ", line)]
    build = steps[:[i for i, step in enumerate(steps) if step.startswith("FROM ")][1]]
    order = [next(i for i, step in enumerate(build) if needle in step) for needle in (
        "COPY Package.swift ./", "COPY deploy/PackagePins.swift ./", "swift package resolve", "COPY Sources", "swift build")]
    # The resolved dependencies are a layer that a change of our sources does not rebuild.
    assert order == sorted(order), build
    assert "cat PackagePins.swift >> Package.swift" in build[order[2]]
    assert re.search(r"install -D -s -m 755 .*timerboard", (DEPLOY / "Dockerfile").read_text())
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ignored.index("!deploy/PackagePins.swift") > ignored.index("deploy")


def exact_dependencies(manifest: str) -> dict:
    """identity -> version of every `.package(url: ..., exact: ...)` in a manifest's text."""
    return {url.rstrip("/").rsplit("/", 1)[1].removesuffix(".git").lower(): version
            for url, version in re.findall(r'\.package\(url: "([^"]+)", exact: "([^"]+)"\)', manifest)}


def test_the_image_build_pins_every_package_the_build_resolves():
    manifest = (ROOT / "Package.swift").read_text()
    pins = (DEPLOY / "PackagePins.swift").read_text()
    own, appended = exact_dependencies(manifest), exact_dependencies(pins)
    # Every dependency of Package.swift is exact, and the appended ones are not named twice.
    assert len(own) == len(re.findall(r"\.package\(", manifest)), "a dependency of Package.swift is not exact"
    assert not set(own) & set(appended)
    resolved_file = ROOT / "Package.resolved"
    if not resolved_file.exists():
        pytest.skip("no Package.resolved: `swift build` (or `swift package resolve`) writes it")
    resolved = {pin["identity"]: pin["state"].get("version") for pin in json.loads(resolved_file.read_text())["pins"]}
    assert {**own, **appended} == resolved, "deploy/PackagePins.swift differs from Package.resolved"


def test_a_stripped_binary_serves(tmp_path):
    strip = shutil.which("strip")
    if strip is None:
        pytest.skip("strip is not installed (Debian package binutils)")
    stripped = tmp_path / "timerboard"
    subprocess.run([strip, "-o", str(stripped), str(BINARY)], check=True)
    assert stripped.stat().st_size < BINARY.stat().st_size
    process = subprocess.Popen([str(stripped), "serve", "--port", "0", "--data-directory", str(tmp_path / "data"),
                                "--web-root", str(ROOT / "web-static")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = next(int(match.group(1)) for line in process.stdout if (match := LISTENING.search(line)))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as response:
            assert response.status == 200
    finally:
        process.terminate()
        process.wait(timeout=15)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_check(command, port, env_port=True):
    env = {"PATH": "/usr/bin:/bin", **({"TIMERBOARD_PORT": str(port)} if env_port else {})}
    return subprocess.run(command, env=env, capture_output=True, timeout=10).returncode


def test_the_image_health_checks_work_against_a_real_server(server):
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    healthcheck = re.search(r"^\s*CMD (\[.*\])$", dockerfile[dockerfile.index("HEALTHCHECK"):], re.MULTILINE).group(1)
    command = json.loads(healthcheck)
    assert run_check(command, server.port) == 0
    assert run_check(command, closed_port()) != 0

    # compose's check asks /ready on the port compose sets (8080): run it on the test server's.
    test = compose()["x-timerboard"]["healthcheck"]["test"]
    assert test[0] == "CMD" and "/ready" in test[-1]
    command = [part.replace("/8080", f"/{server.port}") for part in test[1:]]
    assert run_check(command, server.port, env_port=False) == 0
    command = [part.replace("/8080", f"/{closed_port()}") for part in test[1:]]
    assert run_check(command, 0, env_port=False) != 0
