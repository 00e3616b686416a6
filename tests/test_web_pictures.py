"""Pictures on crit serve's page (issue 17): what a plugin's ``critcore_web_view`` returns is checked
before a template sees it, every text is escaped on the way out, a broken picture does not take
the page down, and the odds chart is SVG with escaped labels."""

from fractions import Fraction

import pytest

pytest.importorskip("jinja2")

from critcore.web.pictures import chart_rows, clean, odds_svg, picture  # noqa: E402


def test_known_panels_are_kept_and_numbers_bounded():
    out = clean([{"type": "meter", "label": "HP", "value": 15, "max": 10},
                 {"type": "boxes", "label": "Physical", "filled": 12, "total": 10, "marks": {"3": "M"}},
                 {"type": "slots", "slots": [{"text": "Gyro", "destroyed": 1}, "Engine"]}])
    assert out[0]["percent"] == 100  # a bar never runs past its end
    assert out[1]["filled"] == 10 and out[1]["marks"] == {3: "M"}
    assert out[2]["slots"] == [{"text": "Gyro", "destroyed": True, "empty": False},
                               {"text": "Engine", "destroyed": False, "empty": False}]


def test_unknown_or_malformed_panels_become_text():
    out = clean([{"type": "html", "markup": "<b>hi</b>"}, 42, {"type": "grid", "cells": [{"panels": [
        {"type": "grid", "cells": []}]}]}])
    assert out[0]["type"] == "list" and "unknown type 'html'" in out[0]["label"]
    assert out[1] == {"type": "list", "label": "", "items": ["42"], "tone": ""}
    inner = out[2]["cells"][0]["panels"][0]
    assert inner["type"] == "list"  # no grid inside a grid
    assert clean("not a list")[0]["type"] == "alert"


def test_texts_are_escaped_in_the_page():
    import jinja2

    from critcore.web.app import HERE

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True)
    macro = env.get_template("panels.html").module.panel
    html = str(macro(clean([{"type": "list", "label": "<script>x</script>", "items": ["<img src=x onerror=y>"]}])[0]))
    assert "<script>" not in html and "&lt;script&gt;" in html and "<img" not in html


class _Hook:
    def __init__(self, view=None, show=None, fail=False):
        self._view, self._show, self._fail = view, show, fail

    def critcore_web_view(self, ctx):
        if self._fail:
            raise KeyError("armor")
        return self._view

    def critcore_show(self, ctx):
        return self._show


class _Engine:
    def __init__(self, hook):
        from critcore.model import SystemInfo

        self.pm = type("PM", (), {"hook": hook})()
        self.options = {}
        self.info = SystemInfo(name="toy", title="Toy", version="1", package="toy", procedures=())

    def context(self, *args):
        return None


def test_fallbacks_and_a_broken_picture():
    assert picture(_Engine(_Hook(view=[{"type": "alert", "text": "ok"}])), {})[0]["text"] == "ok"
    lines = picture(_Engine(_Hook(show=["hp: 3"])), {})
    assert lines[0]["items"] == ["hp: 3"]
    data = picture(_Engine(_Hook()), {"hp": 3})
    assert data[0]["label"] == "state" and '  "hp": 3' in data[0]["items"]
    broken = picture(_Engine(_Hook(fail=True, show=["hp: 3"])), {})
    assert broken[0]["type"] == "alert" and "could not draw" in broken[0]["text"] and broken[1]["items"] == ["hp: 3"]


def test_odds_chart_is_svg_with_escaped_labels():
    svg = odds_svg("a & b", [("<ammo> explodes", 0.25, "25.00%")], [("hit", 0.75, "75.00%")])
    assert svg.startswith("<svg") and "&lt;ammo&gt; explodes" in svg and "a &amp; b" in svg
    assert 'width="82.5"' in svg  # a quarter of the 330-pixel bar


def test_chart_rows_lead_with_the_named_events(registry):
    from critcore.engine.runner import Engine
    from critcore.chance.exact import exact_odds

    result = exact_odds(Engine("fake", registry=registry), "attack", {})
    events, groups = chart_rows(result)
    assert ("critical hit", float(Fraction(1, 20)), "5.00%") in events  # a natural 20 on 1d20
    assert abs(sum(p for _, p, _ in groups) - 1) < 1e-9
