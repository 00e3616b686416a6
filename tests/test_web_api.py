"""crit serve's JSON API and pages, route by route (issue 17), with the fake system.

The rules checked: the API answers the same JSON as ``crit ... --json``; errors are JSON with a
4xx status and the CLI's one-line message; with a token every game-master route needs it and
the players' link never changes anything; forms need their cross-site secret; a request over
the size limit is refused; a roll-by-roll resolution asks for each roll and writes only once
every face is in.
"""

import json
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("multipart")

import warnings  # noqa: E402

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx is what we declare
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from critcore.campaign.campaign import Campaign  # noqa: E402
from critcore.web.app import create_app, with_limits  # noqa: E402

LOOPBACK = "http://127.0.0.1"


def client_for(app, base=LOOPBACK, limit=None):
    return TestClient(with_limits(app, limit) if limit else with_limits(app), base_url=base)


@pytest.fixture
def app(camp_path, registry):
    return create_app(camp_path, registry=registry, players_key="players-key-for-tests")


@pytest.fixture
def client(app):
    return client_for(app)


def cli_line(result):
    """The CLI's error line without click's 'Error: ' prefix."""
    return result.output.strip().splitlines()[-1].removeprefix("Error: ")


def error_of(response, status):
    assert response.status_code == status, response.text
    data = response.json()
    assert data["status"] == status and "\n" not in data["error"]
    return data["error"]


# --- systems, procedures, tables ----------------------------------------------------------------


def test_systems_is_the_cli_list(client, invoke):
    data = client.get("/api/systems").json()
    cli = json.loads(invoke("systems", "--json").output)
    assert [s["name"] for s in data] == [s["name"] for s in cli] == ["fake"]
    assert data[0]["procedures"] == cli[0]["procedures"]


def test_procedures_list_declared_parameters(client):
    data = client.get("/api/systems/fake").json()
    attack = next(p for p in data["procedures"] if p["name"] == "attack")
    ac = next(p for p in attack["params"] if p["name"] == "ac")
    assert (ac["type"], ac["default"], ac["min"], ac["max"]) == ("int", 10, 1, 40)  # as fakesystem declares
    where = next(p for p in attack["params"] if p["name"] == "where")
    assert where["choices"] == ["head", "body"]


def test_unknown_system_is_404_with_the_cli_message(client, invoke):
    message = error_of(client.get("/api/systems/nosuch"), 404)
    assert message == cli_line(invoke("tables", "nosuch"))


def test_tables_json_foundry_csv(client, invoke):
    assert client.get("/api/systems/fake/tables").json() == json.loads(invoke("tables", "fake", "--json").output)
    foundry = client.get("/api/systems/fake/tables/confirm?format=foundry").json()
    assert [r["range"] for r in foundry["results"]] == [[1, 2], [3, 5], [6, 6]]  # the confirm table's rows
    csv = client.get("/api/systems/fake/tables/confirm?format=csv")
    assert csv.text.startswith("table,low,high,") and "attachment" in csv.headers["content-disposition"]
    roll20 = client.get("/api/systems/fake/tables/confirm?format=roll20").json()
    assert [i["weight"] for i in roll20["tableitems"]] == [2, 3, 1]  # 1d6: a weight per face each row covers
    assert "use foundry, roll20, csv or json" in error_of(client.get("/api/systems/fake/tables/confirm?format=pdf"), 400)
    assert "unknown fake table" in error_of(client.get("/api/systems/fake/tables/nosuch"), 404)


# --- targets -------------------------------------------------------------------------------------


def test_targets_add_show_and_mistakes(client):
    assert [t["name"] for t in client.get("/api/targets").json()] == ["ogre"]
    made = client.post("/api/targets", json={"system": "fake", "name": "troll", "state": {"hp": 12}})
    assert made.status_code == 201 and made.json()["name"] == "troll"
    assert client.get("/api/targets/troll").json() == {"name": "troll", "system": "fake", "state": {"hp": 12}}
    from_file = client.post("/api/targets", json={"system": "fake", "name": "imp", "file": "imp.fake", "text": "hp: 5"})
    assert from_file.status_code == 201
    assert client.get("/api/targets/imp").json()["state"] == {"hp": 5}
    assert client.get("/api/log?target=imp").json()[0]["summary"] == "added from imp.fake (sent to crit serve)"
    assert "exists already" in error_of(client.post("/api/targets", json={"system": "fake", "name": "troll",
                                                                           "state": {"hp": 1}}), 409)
    assert "not a usable target name" in error_of(client.post("/api/targets", json={"system": "fake", "name": "../x",
                                                                                      "state": {}}), 400)
    assert "'system' is required" in error_of(client.post("/api/targets", json={"name": "x", "state": {}}), 400)
    broken = error_of(client.post("/api/targets", json={"system": "fake", "name": "bad", "file": "bad.fake",
                                                        "text": "mana: 3"}), 400)
    assert broken.startswith("bad.fake, line 1") and "/tmp" not in broken  # the upload's name, not a temp path
    assert "unknown field 'colour'" in error_of(client.post("/api/targets", json={"colour": 1}), 400)
    assert "no target named 'nobody'" in error_of(client.get("/api/targets/nobody"), 404)


def test_a_body_that_is_not_json(client):
    """A change takes only a JSON body (a foreign page cannot send one without asking first)."""
    assert "as JSON" in error_of(client.post("/api/targets/ogre/undo"), 415)
    bad = client.post("/api/targets", content=b"{not json", headers={"content-type": "application/json"})
    assert "request body" in error_of(bad, 400)
    assert "as JSON" in error_of(client.post("/api/targets", data={"name": "x"}), 415)


# --- resolve, treat, the log, undo -----------------------------------------------------------------


def test_resolve_is_the_cli_json(client, camp_path, invoke, registry, tmp_path):
    """The same faces on the same target give the CLI's JSON (plus the report lines)."""
    twin = str(tmp_path / "twin.db")
    with Campaign.new(twin, registry=registry) as camp:
        camp.add("fake", "ogre", {"hp": 30})
    api = client.post("/api/resolve", json={"target": "ogre", "procedure": "attack", "dice": "20,4,6",
                                            "params": {"damage": "1d8"}}).json()
    cli = json.loads(invoke("resolve", "fake", "attack", "--target", "@ogre", "--campaign", twin,
                            "--dice", "20,4,6", "--damage", "1d8", "--json").output)
    report = api.pop("report")
    assert api.pop("saved").startswith("ogre in ") and cli.pop("saved").startswith("ogre in ")
    assert api == cli
    assert api["target"]["hp"] == 18  # 20: critical; 4: solid, double; 6 x 2 = 12 damage; 30 - 12
    assert report[0] == invoke("resolve", "fake", "attack", "--dice", "20,4,6").output.splitlines()[0]


def test_player_view_has_no_rolls(client):
    data = client.post("/api/resolve", json={"system": "fake", "procedure": "attack", "dice": [20, 4, 6],
                                             "view": "player"}).json()
    assert set(data) == {"system", "procedure", "view", "report"}


def test_resolve_mistakes_are_the_cli_lines(client, invoke):
    bad = client.post("/api/resolve", json={"system": "fake", "procedure": "attack", "params": {"ac": "x"}})
    assert error_of(bad, 400) == cli_line(invoke("resolve", "fake", "attack", "--ac", "x"))
    far = client.post("/api/resolve", json={"system": "fake", "procedure": "attack", "params": {"ac": 99}})
    assert error_of(far, 400) == cli_line(invoke("resolve", "fake", "attack", "--ac", "99"))
    short = client.post("/api/resolve", json={"system": "fake", "procedure": "attack", "dice": "20"})
    assert error_of(short, 400) == cli_line(invoke("resolve", "fake", "attack", "--dice", "20"))
    assert error_of(client.post("/api/resolve", json={"system": "fake", "procedure": "dance"}), 404) == \
        cli_line(invoke("resolve", "fake", "dance"))
    assert "only one of seed and dice" in error_of(
        client.post("/api/resolve", json={"system": "fake", "procedure": "attack", "seed": 1, "dice": "1"}), 400)
    assert "'params' must be a JSON object" in error_of(
        client.post("/api/resolve", json={"system": "fake", "procedure": "attack", "params": [1]}), 400)
    assert "give 'system'" in error_of(client.post("/api/resolve", json={"procedure": "attack"}), 400)
    assert "needs a target" in error_of(client.post("/api/treat", json={"system": "fake", "procedure": "rest"}), 400)


def test_treat_preview_log_undo_redo_remove(client):
    before = client.get("/api/targets/ogre").json()["state"]["hp"]
    preview = client.post("/api/treat", json={"target": "@ogre", "procedure": "rest", "dice": "3", "preview": True})
    assert preview.json()["preview"] is True and "log" not in preview.json()
    assert client.get("/api/targets/ogre").json()["state"]["hp"] == before
    done = client.post("/api/treat", json={"target": "ogre", "procedure": "rest", "dice": "3"}).json()
    assert done["target"]["hp"] == before + 3 and done["log"]
    log = client.get("/api/log?target=ogre&limit=1").json()
    assert [e["id"] for e in log] == [done["log"]] and log[0]["kind"] == "treat"
    assert "expected a whole number" in error_of(client.get("/api/log?limit=many"), 400)
    assert client.post("/api/targets/ogre/undo", json={}).json()["kind"] == "undo"
    assert client.get("/api/targets/ogre").json()["state"]["hp"] == before
    assert client.post("/api/targets/ogre/redo", json={}).json()["kind"] == "redo"
    assert client.get("/api/targets/ogre").json()["state"]["hp"] == before + 3
    client.post("/api/targets/ogre/undo", json={})
    assert "nothing to undo" in error_of(client.post("/api/targets/ogre/undo", json={}), 409)
    assert error_of(client.post("/api/targets/ogre/sideways", json={}), 404)
    assert client.delete("/api/targets/ogre").json()["kind"] == "remove"
    assert error_of(client.get("/api/targets/ogre"), 404)


def test_roll_by_roll_asks_each_roll_and_writes_once(client):
    """The server names the roll it needs next; nothing is logged until the last face is in."""
    ask = {"target": "ogre", "procedure": "attack", "params": {"damage": "1d8"}}
    first = client.post("/api/resolve/step", json=ask).json()
    assert first["need"] == {"label": "attack roll", "notation": "1d20", "sides": 20, "count": 1}
    second = client.post("/api/resolve/step", json={**ask, "faces": [20], "head": first["head"]}).json()
    assert second["need"]["label"] == "critical confirmation" and second["need"]["notation"] == "1d6"
    third = client.post("/api/resolve/step", json={**ask, "faces": [20, 6], "head": first["head"]}).json()
    assert third["need"]["label"] == "damage" and third["need"]["sides"] == 8
    assert len(client.get("/api/log?target=ogre").json()) == 1  # still only its adding
    done = client.post("/api/resolve/step", json={**ask, "faces": [20, 6, 5], "head": first["head"]}).json()
    assert done["target"]["hp"] == 15 and done["log"]  # brutal: triple; 5 x 3 = 15 damage; 30 - 15
    stale = client.post("/api/resolve/step", json={**ask, "faces": [20, 6, 5], "head": first["head"]})
    assert "changed while the dice were being entered" in error_of(stale, 409)
    assert "does not fit" in error_of(client.post("/api/resolve/step", json={**ask, "faces": [21]}), 400)


def test_odds_and_simulate(client, invoke):
    odds = client.post("/api/odds", json={"system": "fake", "procedure": "attack"}).json()
    cli = json.loads(invoke("odds", "fake", "attack", "--json").output)
    assert odds == cli
    critical = next(e for e in odds["events"] if e["name"] == "critical")
    assert critical["probability"]["fraction"] == "1/20"  # a natural 20 on 1d20
    sim = client.post("/api/simulate", json={"system": "fake", "procedure": "attack", "runs": 500, "seed": 3}).json()
    assert sim["n"] == 500 and sim["kind"] == "simulation"
    assert "'runs' must be" in error_of(client.post("/api/simulate", json={"system": "fake", "procedure": "attack",
                                                                           "runs": 10**9}), 400)
    assert "'depth'" in error_of(client.post("/api/odds", json={"system": "fake", "procedure": "attack",
                                                               "depth": 9}), 400)


def test_unknown_route_is_json_404(client):
    assert error_of(client.get("/api/nothing"), 404)


# --- pages ---------------------------------------------------------------------------------------------


def csrf(client):
    client.get("/")
    return client.cookies.get("critcore_csrf")


def test_pages_render(client):
    assert "ogre" in client.get("/").text
    page = client.get("/t/ogre").text
    assert 'name="p.ac"' in page and 'max="40"' in page  # the form comes from the declared parameters
    odds = client.get("/odds?system=fake&procedure=attack").text
    assert "<svg" in odds and "critical hit" in odds and "5.00%" in odds  # 1 in 20
    assert "Foundry VTT RollTable" in client.get("/tables/fake").text
    assert client.get("/tables/fake/confirm.foundry").json()["name"] == "Fake critical table"
    assert client.get("/t/nobody").status_code == 404


def test_form_run_typed_dice_then_undo(client):
    token = csrf(client)
    sent = client.post("/t/ogre/run", data={"csrf": token, "procedure": "attack", "verb": "resolve", "mode": "typed",
                                            "dice": "20,6,5", "p.damage": "1d8"}, follow_redirects=False)
    assert sent.status_code == 303 and "?shown=" in sent.headers["location"]
    page = client.get(sent.headers["location"]).text
    assert "hp 30 -&gt; 15" in page or "hp 30 -> 15" in page
    assert client.get("/api/targets/ogre").json()["state"]["hp"] == 15
    client.post("/t/ogre/undo", data={"csrf": token, "back": "/t/ogre"})
    assert client.get("/api/targets/ogre").json()["state"]["hp"] == 30


def test_form_roll_by_roll(client):
    token = csrf(client)
    base = {"csrf": token, "procedure": "attack", "verb": "resolve", "mode": "rolls"}
    page = client.post("/t/ogre/run", data=base)
    assert "attack roll" in page.text and 'name="need_sides" value="20"' in page.text
    wrong = client.post("/t/ogre/run", data={**base, "face": "7 7", "need_count": "1", "need_sides": "20"})
    assert wrong.status_code == 400 and "type 1 face(s) from 1 to 20" in wrong.text
    assert "attack roll" in wrong.text  # the same roll is asked again
    page = client.post("/t/ogre/run", data={**base, "face": "20", "need_count": "1", "need_sides": "20"})
    assert "critical confirmation" in page.text


def test_forms_need_their_cross_site_secret(client):
    token = csrf(client)
    assert client.post("/add", data={"name": "x", "system": "fake"}).status_code == 403
    assert client.post("/add", data={"csrf": "forged", "name": "x", "system": "fake"}).status_code == 403
    other = client.post("/t/ogre/undo", data={"csrf": token}, headers={"sec-fetch-site": "cross-site"})
    assert other.status_code == 403
    api = client.post("/api/targets/ogre/undo", json={}, headers={"origin": "http://evil.example"})
    assert "cross-site" in error_of(api, 403)


def test_add_from_a_file_upload(client):
    token = csrf(client)
    sent = client.post("/add", data={"csrf": token, "name": "imp", "system": "fake"},
                       files={"file": ("imp.fake", b"hp: 7", "text/plain")}, follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"] == "/t/imp"
    assert client.get("/api/targets/imp").json()["state"] == {"hp": 7}


# --- safety ------------------------------------------------------------------------------------------


def test_loopback_server_refuses_other_host_names(client):
    """Without a token only loopback names are answered (a DNS-rebinding page gets nothing)."""
    assert client.get("/api/targets", headers={"host": "evil.example"}).status_code == 403
    assert client.get("/api/targets", headers={"host": "localhost:8000"}).status_code == 200


def test_other_addresses_need_the_token(camp_path, registry):
    app = create_app(camp_path, host="0.0.0.0", registry=registry, players_key="players-key-for-tests")
    token = app.state.policy.token
    assert token and len(token) >= 16
    c = client_for(app, base="http://192.0.2.1:8000")
    assert "needs its token" in error_of(c.get("/api/targets"), 401)
    assert error_of(c.post("/api/targets/ogre/undo", json={}), 401)
    assert error_of(c.get("/api/targets", headers={"authorization": "Bearer wrong-token-000000"}), 401)
    assert c.get("/").status_code == 401
    ok = c.get("/api/targets", headers={"authorization": f"Bearer {token}"})
    assert ok.status_code == 200
    # the players' link needs no token and changes nothing
    assert c.get("/p/players-key-for-tests").status_code == 200
    assert c.post("/p/players-key-for-tests").status_code == 405
    assert c.get("/p/wrong-key").status_code == 404
    # the start-up link sets the token cookie for the browser
    c.get(f"/login?token={token}")
    assert c.get("/").status_code == 200


def test_a_short_token_is_refused(camp_path, registry):
    from critcore.errors import InputError

    with pytest.raises(InputError, match="at least 16"):
        create_app(camp_path, host="0.0.0.0", token="short", registry=registry)


def test_request_size_limit(app):
    c = client_for(app, limit=2000)
    big = c.post("/api/targets", json={"system": "fake", "name": "big", "state": {"hp": 1, "pad": "x" * 5000}})
    assert "too large" in error_of(big, 413)


def test_players_link_shows_the_player_view_and_polls(client, app):
    client.post("/api/resolve", json={"target": "ogre", "procedure": "attack", "dice": "20,6,5"})
    page = client.get("/p/players-key-for-tests").text
    assert "ogre" in page and "attack roll" not in page  # the player's report: no rolls
    version = client.get("/p/players-key-for-tests/version").json()["version"]
    assert version == client.get("/api/log?limit=1").json()[0]["id"]
    assert client.get("/p/not-the-key/version").status_code == 404


def test_procedures_without_a_target(client):
    """Every procedure of every installed system has a form, a target or not: a new system
    appears with no web code. Without a target nothing is stored."""
    page = client.get("/s/fake").text
    assert 'action="/s/fake/run"' in page and "proc-attack" in page
    assert "proc-rest" not in page  # rest needs a target
    token = csrf(client)
    result = client.post("/s/fake/run", data={"csrf": token, "procedure": "attack", "verb": "resolve",
                                              "mode": "typed", "dice": "20,6,5"})
    assert result.status_code == 200 and "15 damage" in result.text  # 5 x 3 (brutal)
    assert len(client.get("/api/log").json()) == 1  # only the ogre's adding
    rolls = client.post("/s/fake/run", data={"csrf": token, "procedure": "attack", "verb": "resolve", "mode": "rolls"})
    assert 'action="/s/fake/run"' in rolls.text and "attack roll" in rolls.text
    assert client.get("/s/nosuch").status_code == 404


def test_undo_buttons_only_on_each_targets_latest_change_in_force(client):
    """Undo takes back a target's latest change, so only that entry of the log has the button."""
    first = client.post("/api/resolve", json={"target": "ogre", "procedure": "attack", "dice": "20,1,1"}).json()["log"]
    second = client.post("/api/resolve", json={"target": "ogre", "procedure": "attack", "dice": "20,1,2"}).json()["log"]

    def buttons():
        page = client.get("/").text
        return {int(i) for i in re.findall(r'<tr class="kind-\w+[^"]*" id="log-(\d+)">(?:(?!</tr>).)*class="undo"', page, re.S)}

    assert buttons() == {second}
    client.post("/api/targets/ogre/undo", json={})
    assert buttons() == {first}  # the second is taken back: the first is now the latest in force
    client.post("/api/targets/ogre/redo", json={})
    assert buttons() == {second}


def test_the_log_table_links_each_report_without_reading_the_outcomes(client):
    """The index and a target's page list the log without reading its outcomes (issue 25: they
    read what they show), and still link the report of each resolution, and of nothing else."""
    entry = client.post("/api/resolve", json={"target": "ogre", "procedure": "attack", "dice": "20,1,1"}).json()["log"]
    client.post("/api/targets/ogre/undo", json={})
    for page in (client.get("/").text, client.get("/t/ogre").text):
        linked = {int(i) for i in re.findall(r'\?shown=(\d+)#result">report', page)}
        assert linked == {entry}  # the resolution, not the adding nor the undo
