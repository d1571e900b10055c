"""The deploy kit's balancers, run as an operator would run them, in front of real nodes:
deploy/nginx/ (nginx.conf, timerboard.conf, the form of timerboard-nodes.conf) and
deploy/haproxy/haproxy.cfg. Only what a test must change is replaced (ports, certificate,
paths, the nodes' addresses, and what a test names in `overrides`), and each replacement must
happen, so a test fails when a file drifts from what it expects."""
import os
import re
import resource
import shutil
import socket
import subprocess
import time
from pathlib import Path

from conftest import ROOT

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
NGINX_DIR = ROOT / "deploy" / "nginx"
HAPROXY_CONF = ROOT / "deploy" / "haproxy" / "haproxy.cfg"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def replace_all(text: str, replacements, name: str) -> str:
    for pattern, replacement in replacements:
        text, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
        assert count >= 1, f"{name} no longer has {pattern!r}"
    return text


def self_signed(directory: Path):
    """A throwaway certificate: (fullchain.pem, privkey.pem) in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    chain, key = directory / "fullchain.pem", directory / "privkey.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(key), "-out", str(chain), "-days", "1", "-subj", "/CN=localhost"],
                   check=True, capture_output=True)
    return chain, key


class Balancer:
    """What the tests share of both: a process listening on 127.0.0.1 (HTTP and HTTPS ports)."""
    name = "balancer"

    def __init__(self, directory: Path):
        self.directory = directory
        self.http_port = free_port()
        self.https_port = free_port()
        self.process = None
        directory.mkdir(parents=True, exist_ok=True)

    def command(self) -> list:
        raise NotImplementedError

    def start(self):
        self.process = subprocess.Popen(self.command(), stdout=open(self.directory / "stdout.log", "w"),
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:  # neither says when it listens: try the port, within a bound
            try:
                socket.create_connection(("127.0.0.1", self.https_port), timeout=1).close()
                return self
            except OSError:
                assert self.process.poll() is None, self.logs()
                assert time.monotonic() < deadline, f"{self.name} did not start listening"
                time.sleep(0.05)

    def logs(self) -> str:
        return "".join(path.read_text() for path in sorted(self.directory.glob("*.log")))

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def routes_to(self, port: int, timeout=10):
        """Returns once the balancer would send a node's boards to the node on `port` again."""


class Nginx(Balancer):
    name = "nginx"

    def __init__(self, directory: Path, node_ports, overrides=()):
        super().__init__(directory)
        node_ports = [node_ports] if isinstance(node_ports, int) else list(node_ports)
        self_signed(directory / "certs")
        (directory / "tmp").mkdir()
        self.render_site(overrides)
        self.set_nodes(node_ports)
        temp = directory / "tmp"
        main = replace_all((NGINX_DIR / "nginx.conf").read_text(), [
            (r"^user nginx;", "user root;" if os.geteuid() == 0 else ""),
            (r"^pid /var/run/nginx.pid;", f"pid {directory}/nginx.pid;"),
            (r"^error_log /var/log/nginx/error.log notice;", f"error_log {directory}/error.log notice;"),
            (r"access_log /var/log/nginx/access.log;", f"access_log {directory}/access.log;"),
            (r"include /etc/nginx/conf.d/\*.conf;",
             f"client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy; fastcgi_temp_path {temp}/fastcgi; "
             f"uwsgi_temp_path {temp}/uwsgi; scgi_temp_path {temp}/scgi;\n    include {directory}/timerboard.conf;"),
        ], "deploy/nginx/nginx.conf")
        (directory / "nginx.conf").write_text(main)

    def render_site(self, overrides=()):
        site = replace_all((NGINX_DIR / "timerboard.conf").read_text(), [
            (r"^\s*listen \[::\]:80;\n", ""),
            (r"^\s*listen \[::\]:443 ssl http2;\n", ""),
            (r"listen 80;", f"listen 127.0.0.1:{self.http_port};"),
            (r"listen 443 ssl http2;", f"listen 127.0.0.1:{self.https_port} ssl http2;"),
            (r"/etc/ssl/timerboard/", f"{self.directory}/certs/"),
            (r"access_log /var/log/nginx/timerboard.access.log;", f"access_log {self.directory}/timerboard.access.log;"),
            (r"include timerboard-nodes.conf;", f"include {self.directory}/timerboard-nodes.conf;"),
            *overrides,
        ], "deploy/nginx/timerboard.conf")
        (self.directory / "timerboard.conf").write_text(site)

    def set_nodes(self, node_ports):
        """timerboard-nodes.conf with the deploy file's server parameters, for these nodes."""
        shipped = (NGINX_DIR / "timerboard-nodes.conf").read_text()
        parameters = re.search(r"^server \S+ ?(.*);$", shipped, re.MULTILINE).group(1)
        (self.directory / "timerboard-nodes.conf").write_text(
            "".join(f"server 127.0.0.1:{port} {parameters};\n" for port in node_ports))

    def command(self) -> list:
        return [NGINX, "-p", str(self.directory), "-c", str(self.directory / "nginx.conf"),
                "-e", str(self.directory / "error.log"), "-g", "daemon off;"]

    def check(self):
        return subprocess.run([NGINX, "-p", str(self.directory), "-c", str(self.directory / "nginx.conf"),
                               "-e", str(self.directory / "error.log"), "-t"], capture_output=True, text=True)

    def routes_to(self, port: int, timeout=10):
        # nginx keeps no state about its nodes (max_fails=0): it asks a board's node every time.
        return


class HAProxy(Balancer):
    name = "haproxy"

    def __init__(self, directory: Path, node_ports, overrides=()):
        super().__init__(directory)
        node_ports = [node_ports] if isinstance(node_ports, int) else list(node_ports)
        chain, key = self_signed(directory / "certs")
        (directory / "certs" / "timerboard.pem").write_text(chain.read_text() + key.read_text())
        self.admin_socket = directory / "admin.sock"
        servers = "".join(f"    server node{index} 127.0.0.1:{port}\n" for index, port in enumerate(node_ports, 1))
        conf = replace_all(HAPROXY_CONF.read_text(), [
            # Run by the test's own user, logging to its standard output (stdout.log).
            (r"^    log /dev/log local0$", "    log stdout format raw local0"),
            (r"^    user haproxy\n", ""),
            (r"^    group haproxy\n", ""),
            (r"^    chroot /var/lib/haproxy\n", ""),
            (r"stats socket /run/haproxy/admin.sock", f"stats socket {self.admin_socket}"),
            (r"^    bind :::80 v6only\n", ""),
            (r"^    bind :::443 v6only .*\n", ""),
            (r"bind :80$", f"bind 127.0.0.1:{self.http_port}"),
            (r"bind :443 ssl crt /etc/haproxy/certs/timerboard.pem", f"bind 127.0.0.1:{self.https_port} ssl crt {directory}/certs/timerboard.pem"),
            (r"(^    server node\d+ \S+\n)+", servers),
            *self.fitting_maxconn(),
            *overrides,
        ], "deploy/haproxy/haproxy.cfg")
        (directory / "haproxy.cfg").write_text(conf)

    @staticmethod
    def fitting_maxconn():
        """HAProxy refuses to start when it cannot raise its file limit to two per connection
        (maxconn): on a machine whose hard limit is lower than that, a maxconn that fits it."""
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        shipped = int(re.search(r"^    maxconn (\d+)$", HAPROXY_CONF.read_text(), re.MULTILINE).group(1))
        if hard == resource.RLIM_INFINITY or hard > 2 * shipped + 1000:
            return []
        return [(rf"^    maxconn {shipped}$", f"    maxconn {(hard - 1000) // 2}")]

    def command(self) -> list:
        return [HAPROXY, "-db", "-f", str(self.directory / "haproxy.cfg")]

    def check(self):
        return subprocess.run([HAPROXY, "-c", "-f", str(self.directory / "haproxy.cfg")], capture_output=True, text=True)

    def admin(self, command: str) -> str:
        """One command of HAProxy's runtime API, over its stats socket."""
        with socket.socket(socket.AF_UNIX) as connection:
            connection.settimeout(5)
            connection.connect(str(self.admin_socket))
            connection.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def server_states(self) -> dict:
        """Node port -> HAProxy's operational state of it (2: up and taking traffic)."""
        lines = self.admin("show servers state timerboard").splitlines()
        header = lines[1].lstrip("# ").split()
        states = {}
        for line in lines[2:]:
            if line.strip():
                fields = dict(zip(header, line.split()))
                states[int(fields["srv_port"])] = int(fields["srv_op_state"])
        return states

    def routes_to(self, port: int, timeout=10):
        # HAProxy marks a node up again after its first good /ready check: wait for that.
        deadline = time.monotonic() + timeout
        while self.server_states().get(port) != 2:
            assert time.monotonic() < deadline, f"HAProxy never marked the node on {port} up: {self.server_states()}"
            time.sleep(0.05)


BALANCERS = {"nginx": Nginx, "haproxy": HAProxy}


def installed(name: str) -> bool:
    return Path(NGINX if name == "nginx" else HAPROXY).exists()
