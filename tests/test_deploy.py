"""The deployment files agree with the club (issue 20): ``compose.yaml``, ``deploy/Caddyfile``,
the ``Dockerfile`` and docs/deploy.md, checked without Docker or the internet.

- compose.yaml parses, its club services run the installed package with PostgreSQL and
  Redis, one secret, secure cookies and trusted proxies, wait for healthy databases,
  and publish no port of their own (only the proxy does);
- every ``SHESHBESH_*`` variable it or docs/deploy.md names is one the club reads;
- the Caddyfile sends traffic to exactly the club services, health-checked on /healthz;
- the Dockerfile installs the built wheel (not the checkout) and checks /healthz.
Where ``docker compose`` is installed, its own validation runs too.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "src" / "sheshbesh"


def known_variables() -> set[str]:
    """Every environment variable the club's code reads (``settings.py`` and the CLI)."""
    text = (SOURCES / "server" / "settings.py").read_text() + (SOURCES / "cli.py").read_text()
    names = set(re.findall(r"\b(SHESHBESH_[A-Z_]+|DATABASE_URL|REDIS_URL)\b", text))
    # from_env builds some names from the field: f"SHESHBESH_{name.upper()}"
    for block in re.findall(r"for name in \(([^)]*)\)", text):
        names |= {f"SHESHBESH_{n.upper()}" for n in re.findall(r'"(\w+)"', block)}
    floats = re.search(r"floats = \(([^)]*)\)", text)
    assert floats is not None
    names |= {f"SHESHBESH_{n.upper()}" for n in re.findall(r'"(\w+)"', floats.group(1))}
    return names


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def clubs(compose: dict) -> dict[str, dict]:
    return {name: s for name, s in compose["services"].items() if name.startswith("club")}


def test_the_cluster_runs_the_package_on_postgresql_and_redis(compose: dict) -> None:
    services = compose["services"]
    assert {"postgres", "redis", "caddy"} <= set(services)
    found = clubs(compose)
    assert len(found) >= 2
    for name, service in found.items():
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgresql://"), name
        assert env["REDIS_URL"].startswith("redis://redis:"), name
        assert "SHESHBESH_SECRET" in env and env["SHESHBESH_SECURE_COOKIES"] == "1"
        assert env["SHESHBESH_TRUSTED_PROXIES"]
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert "ports" not in service, f"{name} must be reached through the proxy only"
    secrets = {service["environment"]["SHESHBESH_SECRET"] for service in found.values()}
    assert len(secrets) == 1  # one secret for every process
    assert {"80:80", "443:443"} <= set(services["caddy"]["ports"])
    for name in ("postgres", "redis"):
        assert services[name]["healthcheck"]["test"]


def test_every_variable_named_is_one_the_club_reads(compose: dict) -> None:
    known = known_variables()
    named = set()
    for service in clubs(compose).values():
        named |= set(service["environment"])
    named |= set(re.findall(r"\b(SHESHBESH_[A-Z_]+)\b", (ROOT / "docs" / "deploy.md").read_text()))
    named -= {"SHESHBESH_DOMAIN"}  # the proxy's, not the club's
    assert named - known == set()


def test_the_proxy_sends_traffic_to_the_club_services_and_checks_their_health(
    compose: dict,
) -> None:
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    upstreams = re.search(r"reverse_proxy ([^{]+)\{", caddyfile)
    assert upstreams is not None
    assert set(upstreams.group(1).split()) == {f"{name}:8000" for name in clubs(compose)}
    assert "health_uri /healthz" in caddyfile
    mounts = compose["services"]["caddy"]["volumes"]
    assert any(m.startswith("./deploy/Caddyfile:/etc/caddy/Caddyfile") for m in mounts)


def test_the_image_installs_the_wheel_and_checks_its_health() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip wheel" in dockerfile and "pip install --no-cache-dir /wheels/*.whl" in dockerfile
    assert "pip install -e" not in dockerfile
    assert "/healthz" in dockerfile and '"sheshbesh", "serve"' in dockerfile
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".venv" in ignored and ".git" in ignored


def test_docker_compose_validates_the_file_where_it_is_installed() -> None:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("docker is not installed")
    probe = subprocess.run([docker, "compose", "version"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip("docker has no compose plugin here")
    env = {"POSTGRES_PASSWORD": "x", "SHESHBESH_SECRET": "y", "PATH": "/usr/bin:/bin"}
    checked = subprocess.run([docker, "compose", "-f", str(ROOT / "compose.yaml"), "config", "-q"],
                             capture_output=True, text=True, env=env)  # fmt: skip
    assert checked.returncode == 0, checked.stderr
