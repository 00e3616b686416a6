"""crit serve's page as a game master uses it on a phone, a laptop and a wide screen (issue 30):
headless Chromium from the system's packages, driven by Playwright, against a real server.

* screenshots at 390, 1280 and 1920 px of the home page and of a 'Mech's page, kept in
  ``$CRITCORE_ARTIFACTS`` (default ``build/screenshots``);
* no page scrolls sideways at 390 px;
* no overlapping boxes in the 'Mech diagram: the location cards do not overlap each other, and
  each card's contents stay inside it without overlapping one another;
* the odds link answers 200 with the form's values; the form keeps its values after a resolve;
* axe-core (npm ``axe-core``, injected into the page) finds no serious or critical violation on
  any page. ``CRITCORE_AXE`` names ``axe.min.js``; by default ``build/axe/node_modules/axe-core/axe.min.js``
  (``npm install --prefix build/axe axe-core``); without it the check skips, unless
  ``CRITCORE_REQUIRE_AXE=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

from critcore.campaign.campaign import Campaign  # noqa: E402
from critcore.stages.loader import Registry  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = (390, 1280, 1920)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
FOR_DOCS = {"mech-390.png", "quill-lt-seed-2.png"}  # the pages docs/web.md shows (with test_web_browser.py's)


def _chromium() -> str:
    found = os.environ.get("CRITCORE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("BROWSER TESTS SKIPPED: no Chromium found (apt-get install chromium, or set CRITCORE_CHROMIUM)")
    return found


def _axe_source() -> str:
    path = Path(os.environ.get("CRITCORE_AXE") or ROOT / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js")
    if not path.is_file():
        message = f"no axe-core at {path} (npm install --prefix build/axe axe-core)"
        if os.environ.get("CRITCORE_REQUIRE_AXE") == "1":  # CI sets it once it has installed axe-core
            pytest.fail(message)
        pytest.skip(f"AXE TESTS SKIPPED: {message}")
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = _chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    reg = Registry.installed()
    missing = [s for s in ("battletech", "shadowrun2", "gurps") if s not in reg.systems]
    if missing:
        pytest.skip(f"needs the {' and '.join(missing)} system(s) installed")
    import httpx
    import web_server

    path = str(tmp_path_factory.mktemp("layout") / "table.db")
    Campaign.new(path, registry=reg).close()
    with web_server.serving(path, registry=reg, who="gm") as (base, app):
        for system, name, example in (("battletech", "quill", "quillback.mtf"), ("shadowrun2", "ghost", "runner.toml"),
                                      ("gurps", "bertram", "bertram.json")):
            r = httpx.post(f"{base}/api/targets", json={"system": system, "name": name, "example": example})
            assert r.status_code == 201, r.text
        # something in the log and on the pictures: a deadly wound, a critical, a major wound
        for body in ({"target": "ghost", "procedure": "wound", "params": {"severity": "deadly"}, "seed": 3},
                     {"target": "quill", "procedure": "critical", "params": {"location": "RT"}, "seed": 5},
                     {"target": "bertram", "procedure": "attack", "params": {"skill": 14, "damage": "2d+1 cut"},
                      "seed": 32}):
            assert httpx.post(f"{base}/api/resolve", json=body).status_code == 200
        yield base, app


@pytest.fixture(scope="module")
def shots() -> Any:
    import web_server

    return web_server.screenshooter(str(ROOT / "build" / "screenshots"), str(ROOT / "docs" / "images" / "web"), FOR_DOCS)


def _page(browser: Any, width: int, **kw: Any) -> Any:
    return browser.new_context(viewport={"width": width, "height": 900}, **kw).new_page()


def _sideways(page: Any) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


# each element's box as Playwright's ``bounding_box()`` gives it (its client rectangle: relative to
# the main frame's viewport), for every element a locator finds, in one call to the browser: a
# card's parts one by one were about sixty round trips a width
_BOX = "e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }"
_BOXES = f"els => els.map({_BOX})"
# the same for the parts of each card, with the card's title
_CARD_PARTS = ("(cards, sel) => cards.map(c => ({label: c.querySelector('h3').innerText, "
               f"boxes: Array.from(c.querySelectorAll(sel)).map({_BOX})}}))")


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Two boxes share more than a pixel's sliver of area."""
    return (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
            and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1)


def _inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5)


def _pages(base: str, app: Any) -> list[str]:
    key = app.state.policy.players_key
    return ["/", "/t/quill", "/t/ghost", "/t/bertram", "/t/quill?shown=5#result", "/odds",
            "/odds?system=shadowrun2&procedure=wound&p.severity=serious&p.body=4", "/tables/battletech",
            "/s/gurps", f"/p/{key}"]


@pytest.mark.parametrize("width", WIDTHS)
def test_home_and_mech_pages_at_each_width(browser: Any, server: tuple[str, Any], shots: Any, width: int) -> None:
    base, _ = server
    page = _page(browser, width)
    page.goto(base + "/")
    shots(page, f"home-{width}.png")
    assert _sideways(page) == 0 or width > 390
    page.goto(base + "/t/quill?shown=5#result")
    shots(page, f"mech-{width}.png")
    assert _sideways(page) == 0, f"the 'Mech's page scrolls sideways at {width} px"

    cells = page.locator("#picture .grid .cell")
    assert cells.count() == 8  # the Quillback's eight locations
    boxes = cells.evaluate_all(_BOXES)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not _overlap(a, b), f"two location cards overlap at {width} px"
    view_w = page.evaluate("document.documentElement.clientWidth")
    cards = cells.evaluate_all(_CARD_PARTS, ":scope > h3, .meter .plabel, .meter .bar, .meter .pvalue, .slotlist")
    for outer, card in zip(boxes, cards):
        assert outer["x"] >= 0 and outer["x"] + outer["width"] <= view_w + 0.5  # nothing cut off
        label, inner = card["label"], card["boxes"]
        assert len(inner) >= 2  # the title and the slot list at least
        for box in inner:
            assert _inside(box, outer), f"{label}: something runs out of its card at {width} px"
        for j, a in enumerate(inner):
            for b in inner[j + 1:]:
                assert not _overlap(a, b), f"{label}: a label, a bar or a number overlap at {width} px"
    if width >= 1280:  # the record sheet: the head above the centre torso, the unit's right on the left
        head = page.locator("#picture .cell", has_text="(HD)").bounding_box()
        centre = page.locator("#picture .cell", has_text="(CT)").bounding_box()
        right_arm = page.locator("#picture .cell", has_text="(RA)").bounding_box()
        left_arm = page.locator("#picture .cell", has_text="(LA)").bounding_box()
        assert head["y"] + head["height"] <= centre["y"] and abs(head["x"] - centre["x"]) < 2
        assert right_arm["x"] < centre["x"] < left_arm["x"]
    else:  # a phone: locations stacked, one under another
        xs = {round(b["x"]) for b in boxes}
        assert len(xs) == 1


def test_no_page_scrolls_sideways_on_a_phone(browser: Any, server: tuple[str, Any]) -> None:
    base, app = server
    page = _page(browser, 390)
    for path in _pages(base, app):
        page.goto(base + path)
        assert _sideways(page) == 0, f"{path} scrolls sideways at 390 px"


def test_the_form_keeps_its_values_and_the_odds_link_carries_them(browser: Any, server: tuple[str, Any],
                                                                    shots: Any) -> None:
    """Quillback, left torso, seed 2: the headline names the ammunition explosion; the form comes
    back with LT and the turn; the odds link opens odds for LT (and answers 200)."""
    base, _ = server
    import httpx

    httpx.post(f"{base}/api/targets", json={"system": "battletech", "name": "quill2", "example": "quillback.mtf"})
    page = _page(browser, 1280)
    page.goto(base + "/t/quill2")
    form = page.locator("#proc-critical form")
    if not form.is_visible():
        page.click("#proc-critical summary")
    form.locator("select[name='p.location']").select_option("LT")
    form.locator("input[name='p.turn']").fill("3")
    form.locator("input[name=seed]").fill("2")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/t/quill2?shown=*")
    headline = page.inner_text(".result-card .headline")
    assert "explodes" in headline and "SRM-4" in headline and "GRAVE" in headline
    shots(page, "quill-lt-seed-2.png")
    form = page.locator("#proc-critical form")
    assert form.is_visible()  # the procedure just run is the open one
    assert form.locator("select[name='p.location']").input_value() == "LT"
    assert form.locator("input[name='p.turn']").input_value() == "3"

    with page.expect_response(lambda r: r.url.startswith(base + "/odds?")) as answer:
        form.locator("a.odds-link").click()
    assert answer.value.status == 200
    assert "p.location=LT" in page.url and "target=quill2" in page.url
    assert page.locator("svg.chart").count() == 1
    assert "LT" in page.locator("form select[name='p.location']").first.input_value()


def test_odds_page_without_the_values_asks_for_them(browser: Any, server: tuple[str, Any]) -> None:
    """Without JavaScript's help the link names only the procedure: the page asks for the
    location on its form instead of failing with a CLI flag."""
    base, _ = server
    page = _page(browser, 1280)
    response = page.goto(base + "/odds?system=battletech&procedure=critical&target=quill")
    assert response.status == 200
    assert page.locator("[role=alert]").count() == 1 and page.locator("details.procedure[open] form").count() == 1


def test_axe_finds_no_serious_or_critical_violation(browser: Any, server: tuple[str, Any]) -> None:
    base, app = server
    source = _axe_source()
    found: dict[str, list[str]] = {}
    for width in (390, 1280):
        page = _page(browser, width, bypass_csp=True)  # the page's policy runs only its own scripts: axe is injected
        for path in _pages(base, app):
            page.goto(base + path)
            page.add_script_tag(content=source)
            result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            bad = [f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}" for v in result["violations"]
                   if v["impact"] in ("serious", "critical")]
            if bad:
                found[f"{path} at {width} px"] = bad
    assert found == {}


def test_the_page_works_from_the_keyboard(browser: Any, server: tuple[str, Any]) -> None:
    """Tab reaches the procedure form's fields and its button; Enter on the button resolves."""
    base, _ = server
    page = _page(browser, 1280)
    page.goto(base + "/t/bertram")
    page.focus("#proc-attack form input[name='p.skill']")
    page.keyboard.type("12")
    page.focus("#proc-attack form input[name='p.damage']")
    page.keyboard.type("1d cr")
    reached = []
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.textContent.trim() || document.activeElement.name"))
        if reached[-1] == "Resolve":
            break
    assert reached[-1] == "Resolve"
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/bertram?shown=*")
    assert page.locator(".result-card .headline").count() == 1


def test_players_see_each_targets_public_state_and_no_secret(browser: Any, server: tuple[str, Any], shots: Any) -> None:
    """The players' link shows each target beside the events: the 'Mech's damage by location,
    the runner's Physical and Stun monitors, the knight's injuries; never the Shadowrun critical
    (the Body check is secret, the critical undiagnosed) or its death clock."""
    base, app = server
    page = _page(browser, 1280)
    page.goto(f"{base}/p/{app.state.policy.players_key}")
    shots(page, "players-1280.png")
    state = page.locator("#state")
    assert state.locator("#state-quill .grid .cell").count() == 8
    ghost = state.locator("#state-ghost").inner_text()
    assert "Physical" in ghost and "Stun" in ghost
    assert "critical" not in ghost.lower() and "death" not in ghost.lower() and "Body" not in ghost
    assert "injuries" in state.locator("#state-bertram").inner_text()
    assert "HT rolls owed" not in state.inner_text()
