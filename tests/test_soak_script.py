"""scripts/soak_order_keys.py, the 5-minute random-edit run of issue 12, here for a few seconds:
it must finish with every key canonical and every client equal to the server."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_soak_script_ends_with_valid_keys_and_equal_replicas(server):
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "soak_order_keys.py"), "--server", server.http, "--clients", "5", "--seconds", "8"],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "invalid keys: 0; replicas differing from the server: 0" in result.stdout, result.stdout
