"""``crit serve`` as a command (issue 17): it prints where it serves and the players' link, serves,
and stops on Ctrl-C; off loopback it makes and prints a token; mistakes are one line, exit 2;
nothing of the web part is imported by ``crit`` itself."""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")


def start(args, cwd, **more_env):
    env = dict(os.environ, PYTHONUNBUFFERED="1", **more_env)
    proc = subprocess.Popen([sys.executable, "-m", "critcore", "serve", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("Ctrl-C"):
            return proc, "".join(lines)
    proc.kill()
    raise AssertionError("crit serve did not start: " + "".join(lines) + proc.stderr.read())


def stop(proc):
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(15)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_serve_prints_its_links_serves_and_stops(tmp_path):
    subprocess.run([sys.executable, "-m", "critcore", "campaign", "new"], cwd=tmp_path, check=True,
                   capture_output=True)
    proc, said = start(["--port", "0"], tmp_path)
    try:
        base = re.search(r"serving critcore\.db at (http://127\.0\.0\.1:\d+)/", said).group(1)
        key = re.search(r"players' link \(read only\): \S+/p/(\S+)", said).group(1)
        assert httpx.get(base + "/health").json() == {"ok": True}
        assert httpx.get(f"{base}/p/{key}").status_code == 200
        assert httpx.get(base + "/api/targets").json() == []
        assert "token" not in said.lower()  # loopback: none needed
    finally:
        assert stop(proc) == 0


def test_serve_writes_no_cache_entries(tmp_path):
    """A server keeps what it parsed in memory: uploads (each read from a temporary file of its
    own) would otherwise leave a cache entry each, without end. (A plain `crit resolve` writes
    its parsed tables there, so the folder staying empty is no accident.)"""
    pytest.importorskip("critcore_gurps")
    cache = tmp_path / "cache"
    subprocess.run([sys.executable, "-m", "critcore", "campaign", "new"], cwd=tmp_path, check=True,
                   capture_output=True)
    proc, said = start(["--port", "0"], tmp_path, XDG_CACHE_HOME=str(cache), CRITCORE_CACHE="1")
    try:
        base = re.search(r"serving critcore\.db at (http://127\.0\.0\.1:\d+)/", said).group(1)
        for n in range(3):
            sent = httpx.post(base + "/api/targets", json={"system": "gurps", "name": f"f{n}", "file": "f.json",
                                                           "text": '{"name": "F", "hp": 10, "ht": 10}'})
            assert sent.status_code < 300, sent.text
    finally:
        assert stop(proc) == 0
    assert not cache.exists() or not any(cache.rglob("*"))


def test_off_loopback_a_token_is_made_and_needed(tmp_path):
    subprocess.run([sys.executable, "-m", "critcore", "campaign", "new"], cwd=tmp_path, check=True,
                   capture_output=True)
    proc, said = start(["--host", "0.0.0.0", "--port", "0"], tmp_path)
    try:
        port = re.search(r"at http://0\.0\.0\.0:(\d+)/login\?token=", said).group(1)
        token = re.search(r"API token: (\S+)", said).group(1)
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/api/targets").status_code == 401
        assert httpx.get(base + "/api/targets", headers={"authorization": f"Bearer {token}"}).status_code == 200
    finally:
        stop(proc)


def test_serve_mistakes_are_one_line(tmp_path):
    no_campaign = subprocess.run([sys.executable, "-m", "critcore", "serve"], cwd=tmp_path, capture_output=True,
                                 text=True, env=dict(os.environ, CRITCORE_CAMPAIGN=""))
    assert no_campaign.returncode == 2 and len(no_campaign.stderr.strip().splitlines()) == 1
    assert "crit campaign new" in no_campaign.stderr
    missing = subprocess.run([sys.executable, "-m", "critcore", "serve", "--campaign", "nope.db"], cwd=tmp_path,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "no campaign there" in missing.stderr


def test_crit_imports_no_web_part():
    """Start-up: `crit --help` lists serve without importing Starlette, uvicorn or Jinja2."""
    code = ("import sys; from click.testing import CliRunner; from critcore.cli.main import cli; "
            "r = CliRunner().invoke(cli, ['--help']); assert 'serve' in r.output, r.output; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'jinja2') "
            "or m.startswith('critcore.web')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
