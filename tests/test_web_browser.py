"""crit serve in a real browser (issue 17): headless Chromium from the system's packages, driven by
Playwright, against a real server on loopback.

The game master adds a 'Mech, resolves a critical hit with dice typed in, sees the struck slot
marked destroyed on the diagram, undoes it, and the players' link shows the player view (the
Shadowrun Body check, rolled in secret, is not on it) and updates by itself. A screenshot of
each page is kept in ``$CRITCORE_ARTIFACTS`` (default ``build/screenshots``); with
``CRITCORE_DOC_SCREENSHOTS=1`` they are also written to docs/images/web/ for docs/web.md.
"""

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

from critcore.campaign.campaign import Campaign  # noqa: E402
from critcore.stages.loader import Registry  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FOR_DOCS = {"03-critical-resolved.png", "05-shadowrun-wound.png", "06-players-view.png", "07-odds-chart.png",
            "09-campaign.png", "10-roll-by-roll.png"}  # the pages docs/web.md shows
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path():
    found = os.environ.get("CRITCORE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("BROWSER TESTS SKIPPED: no Chromium found (apt-get install chromium, or set CRITCORE_CHROMIUM)")
    return found


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def shots():
    import web_server

    return web_server.screenshooter(str(ROOT / "build" / "screenshots"), str(ROOT / "docs" / "images" / "web"), FOR_DOCS)


@pytest.fixture
def server(tmp_path):
    reg = Registry.installed()
    missing = [s for s in ("battletech", "shadowrun2") if s not in reg.systems]
    if missing:
        pytest.skip(f"needs the {' and '.join(missing)} system(s) installed")
    import web_server

    path = str(tmp_path / "table.db")
    Campaign.new(path, registry=reg).close()
    with web_server.serving(path, registry=reg, who="gm") as (base, app):
        yield base, app


def _example_or_file(page, system, example, shared_file):
    """Choose the example the system ships, else upload a file from ../shared (skip without it)."""
    values = page.eval_on_selector_all("select[name=example] option", "os => os.map(o => o.value)")
    if f"{system}/{example}" in values:
        page.select_option("select[name=example]", f"{system}/{example}")
        return
    path = ROOT.parent / "shared" / shared_file
    if not path.exists():
        pytest.skip(f"no {system} example shipped and ../shared/{shared_file} is absent")
    page.set_input_files("input[name=file]", str(path))


def _faces_for_one_critical(base, location):
    """Faces for one critical hit in ``location``: 8 on the 2d6 determination (one critical,
    Determining Critical Hits), then 1 on every slot roll the server asks for (preview: nothing
    written), so the test does not depend on which slot that is."""
    import httpx

    faces = [4, 4]
    for _ in range(20):
        answer = httpx.post(f"{base}/api/resolve/step", json={
            "target": "quill", "procedure": "critical", "params": {"location": location}, "faces": faces,
            "preview": True}).json()
        if "need" not in answer:
            return faces, answer
        faces += [1] * answer["need"]["count"]
    raise AssertionError("the critical kept asking for dice")


def test_gm_resolves_a_critical_sees_the_slot_destroyed_undoes_and_players_see_their_view(browser, server, shots):
    base, app = server
    gm = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    gm.goto(base + "/")
    shots(gm, "01-empty-campaign.png")

    # add a unit
    gm.fill("input[name=name]", "quill")
    gm.select_option("select[name=system]", "battletech")
    _example_or_file(gm, "battletech", "quillback.mtf", "mtf-samples/Locust LCT-1V.mtf")
    gm.click("#add-form button[type=submit]")
    gm.wait_for_url(base + "/t/quill")
    right_torso = gm.locator("#picture .cell", has_text="(RT)")
    assert right_torso.locator(".slot.destroyed").count() == 0
    shots(gm, "02-unit-added.png")

    # resolve a critical with typed dice
    faces, preview = _faces_for_one_critical(base, "RT")
    form = gm.locator("#proc-critical form")
    if not form.is_visible():
        gm.click("#proc-critical summary")
    form.locator("select[name='p.location']").select_option("RT")
    form.locator("input[name=mode][value=typed]").check()
    form.locator("input[name=dice]").fill(",".join(map(str, faces)))
    form.locator("button[type=submit]").click()
    gm.wait_for_url("**/t/quill?shown=*")
    struck = [s["name"] for s in preview["target"]["locations"]["RT"]["slots"] if s["destroyed"]]
    assert len(struck) >= 1  # one critical hit destroys the component in the slot it strikes
    marked = right_torso.locator(".slot.destroyed")
    assert marked.count() == len(struck)
    assert [t.replace(" destroyed", "").strip() for t in marked.all_inner_texts()] == struck
    assert gm.locator(".result-card .headline").inner_text().strip()  # the headline leads the card
    assert not gm.locator(".gm-report").is_visible()  # the rolls are folded, one click away
    gm.click("#result details.rolls summary")
    gm_report = gm.inner_text(".gm-report")
    assert "Determining Critical Hits" in gm_report and "4+4 = 8" in gm_report  # every roll explained
    assert gm_report.count("Determining Critical Hits: Right Torso") == 1  # the report appears once
    shots(gm, "03-critical-resolved.png")

    # undo
    gm.click("#undo")
    gm.wait_for_url(base + "/t/quill")
    assert gm.locator("#picture .cell", has_text="(RT)").locator(".slot.destroyed").count() == 0
    assert "undid #" in gm.inner_text(".logtable")
    shots(gm, "04-undone.png")

    # a Shadowrun runner takes a deadly wound: the Body check is the game master's secret
    gm.goto(base + "/")
    gm.fill("input[name=name]", "ghost")
    gm.select_option("select[name=system]", "shadowrun2")
    values = gm.eval_on_selector_all("select[name=example] option", "os => os.map(o => o.value)")
    if "shadowrun2/runner.toml" not in values:
        pytest.skip("the Shadowrun example runner.toml is not shipped")
    gm.select_option("select[name=example]", "shadowrun2/runner.toml")
    gm.click("#add-form button[type=submit]")
    gm.wait_for_url(base + "/t/ghost")
    form = gm.locator("#proc-wound form")
    form.locator("select[name='p.severity']").select_option("deadly")
    form.locator("input[name=seed]").fill("3")
    form.locator("button[type=submit]").click()
    gm.wait_for_url("**/t/ghost?shown=*")
    assert "DEADLY" in gm.inner_text(".result-card .headline")  # a Mortal critical (seed 3), said in words
    gm.click("#result details.rolls summary")
    assert "Body check" in gm.inner_text(".gm-report")
    assert "Body check" not in gm.inner_text(".player-report")
    assert gm.locator("#picture .boxes").count() >= 2  # the condition monitors as boxes
    shots(gm, "05-shadowrun-wound.png")

    # the players' link, in a browser of their own (no cookies of the game master's)
    link = gm.get_attribute("#players-link", "href")
    players = browser.new_context(viewport={"width": 900, "height": 800}).new_page()
    players.goto(base + link)
    text = players.inner_text("main")
    assert "ghost" in text and "Body check" not in text and "4d6" not in text
    assert players.locator("form").count() == 0  # nothing to change anything with
    shots(players, "06-players-view.png")

    # it updates by itself when the game master resolves something
    before = players.locator("article.event").count()
    import httpx

    httpx.post(f"{base}/api/resolve", json={"target": "ghost", "procedure": "wound",
                                            "params": {"severity": "light"}, "seed": 1})
    sync_api.expect(players.locator("article.event")).to_have_count(before + 1, timeout=15000)

    # odds as a chart, and the tables page with the Foundry download
    gm.goto(base + "/odds?system=shadowrun2&procedure=wound&p.severity=serious&p.body=4")
    assert gm.locator("svg.chart").count() == 1
    shots(gm, "07-odds-chart.png")
    gm.goto(base + "/tables/battletech")
    with gm.expect_download() as download:
        gm.click("a[href='/tables/battletech/determining-critical-hits.foundry']")
    assert download.value.suggested_filename.endswith(".json")
    shots(gm, "08-tables.png")
    gm.goto(base + "/")
    shots(gm, "09-campaign.png")
    gm.goto(base + "/s/gurps" if "gurps" in app.state.service.registry.systems else base + "/s/battletech")
    assert gm.locator("details.procedure").count() >= 1  # forms made from the declared parameters
    shots(gm, "11-system-procedures.png")


def test_physical_dice_roll_by_roll(browser, server, shots):
    """Real dice at the table: the page names each roll; a face that does not fit is asked for
    again; the change is written once, when the last face is in."""
    import httpx

    base, app = server
    if "battletech/quillback.mtf" not in [f"{e['system']}/{e['name']}" for e in app.state.service.examples()]:
        pytest.skip("the BattleTech example quillback.mtf is not shipped")
    httpx.post(f"{base}/api/targets", json={"system": "battletech", "name": "quill", "example": "quillback.mtf"})
    gm = browser.new_context(viewport={"width": 1200, "height": 800}).new_page()
    gm.goto(base + "/t/quill")
    form = gm.locator("#proc-critical form")
    if not form.is_visible():
        gm.click("#proc-critical summary")
    form.locator("select[name='p.location']").select_option("RT")
    form.locator("input[name=mode][value=rolls]").check()
    form.locator("button[type=submit]").click()
    assert "Determining Critical Hits" in gm.inner_text(".rollstep .label")
    assert gm.inner_text(".rollstep .notation") == "2d6"
    shots(gm, "10-roll-by-roll.png")
    gm.fill("input[name=face]", "7 7")  # a d6 shows 1 to 6
    gm.click("#roll-form button[type=submit]")
    assert "from 1 to 6" in gm.inner_text("#roll-problem")
    assert "Determining Critical Hits" in gm.inner_text(".rollstep .label")
    gm.fill("input[name=face]", "4 4")  # 8: one critical
    gm.click("#roll-form button[type=submit]")
    for _ in range(10):
        if "shown=" in gm.url:
            break
        assert len(httpx.get(f"{base}/api/log?target=quill").json()) == 1  # nothing written yet
        gm.fill("input[name=face]", "1")
        gm.click("#roll-form button[type=submit]")
        gm.wait_for_load_state()
    assert "shown=" in gm.url
    log = httpx.get(f"{base}/api/log?target=quill").json()
    assert [e["kind"] for e in log] == ["add", "resolve"]
    assert gm.locator("#picture .cell", has_text="(RT)").locator(".slot.destroyed").count() == 1
