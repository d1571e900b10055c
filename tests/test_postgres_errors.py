"""Store errors an operator can act on (issue 36): PostgreSQL's own message and SQLSTATE, never
"Generic description to prevent accidental leakage", and never the password. A wrong password
or a missing right ends the node at start with that reason (it used to retry for ever at info
level), in the log's own format. A password holding `/` works. The scratch server here asks TCP
clients for a password, as a Debian host does (tests/test_postgres_setup.py)."""
import json
import subprocess

from conftest import BINARY
from test_postgres_setup import as_postgres, scratch_postgres  # noqa: F401  (the fixture)

PASSWORD = "pa/ss@w:rd?#1"


def psql(data, port, sql, database="postgres"):
    subprocess.run(as_postgres(["psql", "-h", str(data), "-p", str(port), "-d", database, "-v", "ON_ERROR_STOP=1", "-c", sql]),
                   check=True, capture_output=True, text=True)


def serve(tmp_path, url, *extra):
    """Runs a node until it ends by itself (it must): its exit code and everything it wrote."""
    result = subprocess.run([str(BINARY), "serve", "--port", "0", "--data-directory", str(tmp_path / "data"), "--store", url, *extra],
                            capture_output=True, text=True, timeout=60)
    return result.returncode, result.stdout + result.stderr


def test_a_wrong_password_ends_the_node_with_postgresqls_reason_and_never_the_password(scratch_postgres, tmp_path):  # noqa: F811
    data, port = scratch_postgres
    psql(data, port, "CREATE ROLE tb LOGIN PASSWORD 'the-right-one'")
    wrong = "wrong/secret@42"
    code, output = serve(tmp_path, f"postgres://tb:{wrong}@127.0.0.1:{port}/postgres")
    assert code != 0
    assert "password authentication failed" in output and "28P01" in output, output
    assert "Generic description" not in output
    assert wrong not in output and "wrong" not in output


def test_a_fatal_start_is_logged_in_the_chosen_format(scratch_postgres, tmp_path):  # noqa: F811
    data, port = scratch_postgres
    psql(data, port, "CREATE ROLE tb LOGIN PASSWORD 'the-right-one'")
    code, output = serve(tmp_path, f"postgres://tb:not-it@127.0.0.1:{port}/postgres", "--log-format", "json")
    assert code != 0
    records = [json.loads(line) for line in output.splitlines() if line.strip()]  # every line is JSON
    last = records[-1]
    assert last["level"] == "critical", last
    assert last["metadata"]["tb.event"] == "server.failed"
    assert "28P01" in last["metadata"]["tb.error"]


def test_a_role_without_the_right_to_create_tables_ends_the_node_saying_so(scratch_postgres, tmp_path):  # noqa: F811
    data, port = scratch_postgres
    # PostgreSQL 15 and later: a database the role does not own gives it no CREATE on public.
    psql(data, port, "CREATE ROLE weak LOGIN PASSWORD 'weak-password'")
    psql(data, port, "CREATE DATABASE notweaks")
    code, output = serve(tmp_path, f"postgres://weak:weak-password@127.0.0.1:{port}/notweaks")
    assert code != 0
    assert "permission denied for schema public" in output and "42501" in output, output
    assert "weak-password" not in output


def test_a_password_with_a_slash_works_and_a_bad_url_is_refused_without_its_password(scratch_postgres, tmp_path):  # noqa: F811
    data, port = scratch_postgres
    psql(data, port, f"CREATE ROLE tb LOGIN PASSWORD '{PASSWORD}'")
    psql(data, port, "CREATE DATABASE tb OWNER tb")
    exported = subprocess.run([str(BINARY), "export", "nothing-here", "--store", f"postgres://tb:{PASSWORD}@127.0.0.1:{port}/tb"],
                              capture_output=True, text=True, timeout=60)
    # It reached the database and asked it: the board is not there (not a URL or login error).
    assert exported.returncode != 0 and "no board nothing-here" in exported.stderr, exported.stderr
    bad = subprocess.run([str(BINARY), "serve", "--store", f"postgres://tb:{PASSWORD}@127.0.0.1:notaport/tb"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--store must be" in bad.stderr
    assert PASSWORD not in bad.stderr and "pa/ss" not in bad.stderr, bad.stderr


def test_a_database_without_the_tls_the_url_requires_ends_the_node_saying_so(scratch_postgres, tmp_path):  # noqa: F811
    # It used to wait for the database for ever, as for one that is not up yet.
    data, port = scratch_postgres
    psql(data, port, "CREATE ROLE tb LOGIN PASSWORD 'the-right-one'")
    code, output = serve(tmp_path, f"postgres://tb:the-right-one@127.0.0.1:{port}/postgres?sslmode=require")
    assert code != 0
    assert "does not offer TLS" in output, output
