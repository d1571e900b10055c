"""deploy/prometheus/ and deploy/grafana/ hold together with the server they watch: the alert
rules pass `promtool check rules` and their own cases (alerts.test.yml), the scrape
configuration passes `promtool check config`, every dashboard query is valid PromQL, and every
metric the rules and the dashboard name is one a live server exports on /metrics."""
import json
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest
import yaml

from conftest import ADMIN_TOKEN, ROOT

PROMTOOL = shutil.which("promtool") or "/usr/bin/promtool"
PROMETHEUS = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana" / "timerboard.json"

needs_promtool = pytest.mark.skipif(not Path(PROMTOOL).exists(),
                                    reason="promtool is not installed (Debian package prometheus; scripts/install-deps --test)")


def promtool(*arguments, cwd=None):
    result = subprocess.run([PROMTOOL, *arguments], capture_output=True, text=True, cwd=cwd)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def dashboard_queries() -> list:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel.get("targets", [])]


def rule_queries() -> list:
    groups = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())["groups"]
    return [rule["expr"] for group in groups for rule in group["rules"]]


@needs_promtool
def test_the_alert_rules_pass_promtool_and_their_own_cases():
    assert "SUCCESS" in promtool("check", "rules", str(PROMETHEUS / "alerts.yml"))
    promtool("test", "rules", "alerts.test.yml", cwd=PROMETHEUS)


@needs_promtool
def test_the_scrape_configuration_passes_promtool(tmp_path):
    (tmp_path / "token").write_text(ADMIN_TOKEN)
    config = (PROMETHEUS / "prometheus.yml").read_text()
    assert "credentials_file: /etc/prometheus/timerboard-token" in config
    (tmp_path / "prometheus.yml").write_text(config.replace("/etc/prometheus/timerboard-token", str(tmp_path / "token")))
    shutil.copy(PROMETHEUS / "alerts.yml", tmp_path / "alerts.yml")
    promtool("check", "config", "prometheus.yml", cwd=tmp_path)


@needs_promtool
def test_every_dashboard_query_is_valid_promql(tmp_path):
    # Grafana's variables as Prometheus would see them once Grafana filled them in.
    queries = [query.replace("$__rate_interval", "1m").replace("$instance", ".*") for query in dashboard_queries()]
    assert len(queries) >= 10
    rules = {"groups": [{"name": "dashboard", "rules": [{"record": f"dashboard:query{index}", "expr": query}
                                                         for index, query in enumerate(queries)]}]}
    (tmp_path / "dashboard.yml").write_text(yaml.safe_dump(rules))
    promtool("check", "rules", str(tmp_path / "dashboard.yml"))


def test_every_metric_named_is_one_a_live_server_exports(server):
    request = urllib.request.Request(server.http + "/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    with urllib.request.urlopen(request) as response:
        exported = {line.split("{")[0].split()[0] for line in response.read().decode().splitlines()
                    if line and not line.startswith("#")}
    named = {name for query in rule_queries() + dashboard_queries() for name in re.findall(r"\btimerboard_[a-z0-9_]+", query)}
    assert len(named) >= 10
    assert named - exported == set(), f"named in deploy/ but not on /metrics: {sorted(named - exported)}"
    # Prometheus's own `up` aside, every series the rules and the dashboard select is TimerBoard's.
    selected = {name for query in rule_queries() + dashboard_queries()
                for name in re.findall(r"\b([a-z_:][a-z0-9_:]*)\{", query)}
    assert selected - exported <= {"up"}, sorted(selected - exported)
