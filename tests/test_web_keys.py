"""``crit campaign keys`` and ``crit serve`` (issue 26): a campaign that keeps its own game master
token and players' key is served with them, and new keys take effect at once in every worker
(each checks the campaign's digests at each request): the old token and players' link are
refused from the next request on. On both stores: a campaign file served by two apps (two
workers), and a campaign of a database served by two hosted apps."""

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from critcore.campaign.campaign import Campaign  # noqa: E402
from critcore.errors import InputError  # noqa: E402


def _keys(invoke, location):
    result = invoke("campaign", "--campaign", location, "keys")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    return lines[1].split(": ")[1], lines[2].split(": ")[1]


def _workers(location, registry):
    """Two apps over the campaign, as two worker processes would have, and the path prefix."""
    from critcore.web.app import create_app, with_limits
    from critcore.web.hosted import HostedApp

    if location.startswith("postgresql://"):
        dsn, _, name = location.partition("#")
        apps = [HostedApp(dsn, registry=registry) for _ in range(2)]
        return [TestClient(with_limits(a), base_url="http://club.example") for a in apps], f"/c/{name}", apps
    apps = [create_app(location, registry=registry) for _ in range(2)]
    return [TestClient(with_limits(a)) for a in apps], "", apps


def test_new_keys_refuse_the_old_ones_at_once_in_every_worker(invoke, campaign_at, registry):
    location = campaign_at("keys")
    with Campaign.new(location, registry=registry) as camp:
        camp.add("fake", "ogre", {"hp": 10})
    old_token, old_key = _keys(invoke, location)
    clients, root, apps = _workers(location, registry)
    try:
        def status(client, token=None, key=None):
            if key is not None:
                return client.get(f"{root}/p/{key}").status_code
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            return client.get(f"{root}/api/targets", headers=headers).status_code

        for client in clients:
            assert status(client) == 401  # a campaign with keys of its own always needs its token
            assert status(client, old_token) == 200 and status(client, key=old_key) == 200
        new_token, new_key = _keys(invoke, location)
        for client in clients:
            assert status(client, old_token) == 401 and status(client, key=old_key) == 404
            assert status(client, new_token) == 200 and status(client, key=new_key) == 200
            assert status(client, new_key) == 401 and status(client, key=new_token) == 404  # not each other's
            # the browser's way in: the token's link sets a cookie for this campaign's pages
            client.cookies.clear()
            assert client.get(f"{root}/login?token={old_token}", follow_redirects=False).status_code == 401
            signed = client.get(f"{root}/login?token={new_token}", follow_redirects=False)
            assert signed.status_code == 303 and signed.headers["location"] == f"{root}/"
            assert f"Path={root}/" in signed.headers["set-cookie"]
            page = client.get(f"{root}/")
            assert page.status_code == 200 and f"{root}/p/KEY" in page.text and new_key not in page.text
    finally:
        for client in clients:
            client.close()
        for app in apps:
            (app.close if hasattr(app, "close") else app.state.service.close)()


def test_a_campaign_file_with_keys_refuses_other_keys_given_to_crit_serve(invoke, isolated_config, registry):
    from critcore.web.app import create_app

    location = str(isolated_config / "kept.db")
    Campaign.new(location, registry=registry).close()
    app = create_app(location, registry=registry, token="t" * 16)  # no keys kept yet: the server's own
    assert app.state.policy.token == "t" * 16 and not app.state.policy.keys_kept
    app.state.service.close()
    _keys(invoke, location)
    for given in ({"token": "t" * 16}, {"players_key": "k" * 16}):
        with pytest.raises(InputError, match=r"keeps its own keys \(crit campaign keys\): leave out --token"):
            create_app(location, registry=registry, **given)
    result = invoke("serve", "--campaign", location, "--token", "t" * 16, "--port", "0")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert "keeps its own keys" in result.output
