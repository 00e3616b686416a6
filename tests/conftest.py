import sys
from pathlib import Path

import pytest

# The fake system and rules live beside the tests; only this folder goes on sys.path, never the
# checkout itself, so the tests run against the installed critcore (as CI installs it).
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture
def registry():
    """A registry holding only the fake system (no installed plugins)."""
    from critcore.stages.loader import Registry
    import fakesystem

    return Registry.installed(extra_systems={"fake": fakesystem}, discover=False)


@pytest.fixture
def camp_path(tmp_path, registry):
    """A campaign file of the fake system holding one target, the ogre (30 HP)."""
    from critcore.campaign.campaign import Campaign

    path = str(tmp_path / "camp.db")
    with Campaign.new(path, registry=registry) as camp:
        camp.add("fake", "ogre", {"hp": 30})
    return path


@pytest.fixture(autouse=True)
def isolated_config(tmp_path, monkeypatch):
    """No user config and no critcore.toml from the machine leak into the core's tests."""
    monkeypatch.setenv("CRITCORE_CONFIG", str(tmp_path / "no-user-config.toml"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.fixture
def writable_cache(tmp_path, monkeypatch):
    """critcore's cache folder in tmp_path, with writes on (as the ``crit`` command has them):
    the folder, or a skip where the platform's cache folder does not follow XDG_CACHE_HOME."""
    from critcore._speed import diskcache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("CRITCORE_CACHE", "1")
    monkeypatch.setattr(diskcache, "_WRITES", [True])
    folder = diskcache.cache_dir()
    if folder is None or not folder.startswith(str(tmp_path)):
        pytest.skip("this platform's cache folder does not follow XDG_CACHE_HOME")
    return folder


@pytest.fixture
def invoke(registry):
    """Run the CLI with the fake system: invoke("resolve", "fake", "attack", ...)."""
    from click.testing import CliRunner

    from critcore.cli.main import cli

    def run(*args, input=None, obj=None):
        return CliRunner().invoke(cli, list(args), obj=obj if obj is not None else registry, input=input)

    return run


@pytest.fixture(params=["sqlite", "postgresql"])
def store_kind(request):
    """Each campaign test runs on both stores (tests/campaign_stores.py)."""
    if request.param == "postgresql":
        from campaign_stores import postgres_dsn

        postgres_dsn()
    return request.param


@pytest.fixture
def campaign_at(store_kind, isolated_config):
    """A function giving the location of a new campaign of the store under test; the PostgreSQL
    ones are dropped when the test ends."""
    from campaign_stores import drop, new_location

    made = []

    def where(stem="c"):
        made.append(new_location(store_kind, isolated_config, stem))
        return made[-1]

    yield where
    for location in made:
        drop(location)


def pytest_terminal_summary(terminalreporter):
    from campaign_stores import SKIPPED

    if SKIPPED:
        line = "!" * 10
        terminalreporter.write_line(f"{line} POSTGRESQL CAMPAIGN TESTS SKIPPED ({len(SKIPPED)}): {SKIPPED[0]} {line}",
                                    red=True, bold=True)
