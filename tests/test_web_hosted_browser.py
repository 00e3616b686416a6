"""A hosted campaign's page in a real browser (issue 26): ``crit serve`` over a PostgreSQL
database serves each campaign's page at ``/c/NAME/``. The game master opens it with the
campaign's token, adds a target, resolves, undoes and opens the players' page, and no link,
form, redirect, script or style sheet on the way leaves ``/c/NAME/``; the cookie of one
campaign opens no other. Headless Chromium driven by Playwright, as tests/test_web_browser.py;
needs the PostgreSQL test database (tests/campaign_stores.py)."""

import os
import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

from campaign_stores import drop, new_location, postgres_dsn  # noqa: E402
from critcore.campaign.campaign import Campaign  # noqa: E402

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# every URL a page names: links, form actions, scripts, style sheets
URLS = """() => [...document.querySelectorAll('a[href]')].map(e => e.href)
  .concat([...document.querySelectorAll('form')].map(e => e.action))
  .concat([...document.querySelectorAll('script[src]')].map(e => e.src))
  .concat([...document.querySelectorAll('link[href]')].map(e => e.href))"""


@pytest.fixture
def hosted(registry):
    dsn = postgres_dsn()
    found = os.environ.get("CRITCORE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("BROWSER TESTS SKIPPED: no Chromium found (apt-get install chromium, or set CRITCORE_CHROMIUM)")
    import web_server

    from critcore.web.hosted import HostedApp

    made = [new_location("postgresql", None, "page_a"), new_location("postgresql", None, "page_b")]
    keys = []
    for location in made:
        camp = Campaign.new(location, registry=registry)
        keys.append(camp.store.secrets)
        camp.close()
    app = HostedApp(dsn, registry=registry, who="gm")
    try:
        with web_server.serving_app(app) as base, sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=found, args=FLAGS, headless=True)
            try:
                yield browser, base, [m.split("#")[1] for m in made], keys
            finally:
                browser.close()
    finally:
        app.close()
        for location in made:
            drop(location)


def test_the_game_masters_page_of_a_hosted_campaign_stays_under_its_path(hosted, tmp_path):
    browser, base, (a, b), ((token_a, key_a), _) = hosted
    home = f"{base}/c/{a}/"
    requested, failed = [], []
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    gm.on("request", lambda r: requested.append(r.url))
    gm.on("response", lambda r: failed.append((r.status, r.url)) if r.status >= 400 else None)
    seen = set()

    def check_links():
        urls = gm.evaluate(URLS)
        assert urls, gm.url
        seen.update(urls)
        outside = [u for u in urls if not u.startswith(home)]
        assert outside == [], (gm.url, outside)

    # without the token: refused, and the page says so under the campaign's path
    assert gm.goto(home).status == 401
    # the token's link signs in (a cookie for /c/NAME/ only) and lands on the campaign's page
    gm.goto(f"{home}login?token={token_a}")
    assert gm.url == home
    assert gm.evaluate("getComputedStyle(document.querySelector('header.top')).display") != "inline"  # style.css
    assert "players-link" not in gm.content()  # the page cannot know the players' key: it says where it is
    assert f"/c/{a}/p/KEY" in gm.inner_text("#players-note")
    check_links()

    # add a target from a file
    (tmp_path / "ogre.json").write_text('{"hp": 10}')
    gm.fill("input[name=name]", "ogre")
    gm.select_option("select[name=system]", "fake")
    gm.set_input_files("input[name=file]", str(tmp_path / "ogre.json"))
    gm.click("#add-form button[type=submit]")
    gm.wait_for_url(f"{home}t/ogre")
    assert gm.locator("#picture .meter").inner_text().count("10") >= 1
    check_links()

    # resolve with typed dice: a natural 20, confirmed "brutal" (6), 1d8 = 2 tripled: hp 10 -> 4
    form = gm.locator("#proc-attack form")
    if not form.is_visible():
        gm.click("#proc-attack summary")
    form.locator("input[name=mode][value=typed]").check()
    form.locator("input[name=dice]").fill("20,6,2")
    form.locator("button[type=submit]").click()
    gm.wait_for_url(f"{home}t/ogre?shown=*")
    assert "4" in gm.locator("#picture .meter").inner_text()
    assert gm.locator("#result").count() == 1
    check_links()
    # the "odds for these values" link (forms.js) keeps to the campaign's odds page
    gm.locator("#proc-attack a.odds-link").click()
    gm.wait_for_url(f"{home}odds?*")
    check_links()

    # undo, from the target's page: back on it, hp 10 again
    gm.goto(f"{home}t/ogre")
    gm.click("#undo")
    gm.wait_for_url(f"{home}t/ogre")
    assert "10" in gm.locator("#picture .meter").inner_text() and "undid #" in gm.inner_text(".logtable")
    # and from the campaign's log (redo first, so there is a change to take back)
    gm.click("#redo")
    gm.wait_for_url(f"{home}t/ogre")
    gm.goto(home)
    gm.locator(".logtable button.undo").first.click()
    gm.wait_for_url(home)
    check_links()
    for path in ("s/fake", "tables/fake", "odds?system=fake"):
        gm.goto(home + path)
        check_links()
    gm.goto(f"{home}t/nobody")
    check_links()  # an error page's links too

    # the players' page, in a browser of their own: no token, the key in the link
    players = browser.new_context().new_page()
    players.on("request", lambda r: requested.append(r.url))
    players.goto(f"{home}p/{key_a}")
    assert "ogre" in players.inner_text("main") and players.locator("form").count() == 0
    assert players.get_attribute("#feed", "data-poll") == f"/c/{a}/p/{key_a}/version"
    before = players.locator("article.event").count()
    with players.expect_response(f"{home}p/{key_a}/version"):  # players.js polls under the campaign's path
        pass
    gm.goto(f"{home}t/ogre")
    gm.locator("#proc-attack input[name=mode][value=typed]").check()
    gm.locator("#proc-attack input[name=dice]").fill("20,6,2")
    gm.locator("#proc-attack button[type=submit]").click()
    gm.wait_for_url(f"{home}t/ogre?shown=*")
    sync_api.expect(players.locator("article.event")).to_have_count(before + 1, timeout=15000)

    # nothing the two browsers asked for left the campaign's path
    assert requested and [u for u in requested if not u.startswith(home)] == []
    assert [f for f in failed if not f[1].endswith("/t/nobody")] == [(401, home)]
    assert any(u.endswith("/static/style.css") for u in seen) and any(u.endswith("/static/forms.js") for u in seen)

    # A's cookie opens no other campaign
    assert gm.goto(f"{base}/c/{b}/").status == 401
    assert gm.goto(f"{base}/c/{b}/api/targets").status == 401
