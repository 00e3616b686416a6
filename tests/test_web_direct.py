"""``POST /api/resolve`` and ``/api/treat`` are answered before Starlette's middleware and router
(issue 25, ``critcore.web.edge.App``). The rule: a direct route answers exactly as the same route
through Starlette does (its ``api`` wrapper: host, token, cross-site and content-type checks
before the body is read, the body's schema, critcore's errors as ``{"error", "status"}``).

Checked on generated requests (hypothesis): headers (host, content type, origin, the fetch
site, a bearer token, a token cookie) and bodies (valid and not, JSON and not), each sent to two
apps over the same campaign, one with its direct routes and one without; the status, the
content type and the JSON answered are the same. The apps run with and without a token."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import warnings  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from runlength import examples  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from critcore.web.app import create_app, with_limits  # noqa: E402

TOKEN = "a-token-for-the-direct-tests"


def _pair(camp_path, registry, host):
    """Two apps over one campaign: one answering its direct routes itself, one through Starlette."""
    token = TOKEN if host != "127.0.0.1" else None
    direct = create_app(camp_path, registry=registry, host=host, token=token, players_key="players-key-for-tests")
    plain = create_app(camp_path, registry=registry, host=host, token=token, players_key="players-key-for-tests")
    assert set(direct.direct) == {"/api/resolve", "/api/treat"}
    plain.direct = {}
    return [TestClient(with_limits(a), base_url="http://127.0.0.1") for a in (direct, plain)]


HEADERS = st.fixed_dictionaries({}, optional={
    "Host": st.sampled_from(["127.0.0.1", "localhost:8000", "evil.example", "[::1]:80", ""]),
    "Content-Type": st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain",
                                     "APPLICATION/JSON", ""]),
    "Origin": st.sampled_from(["http://127.0.0.1", "http://evil.example", "null"]),
    "Sec-Fetch-Site": st.sampled_from(["same-origin", "cross-site", "none"]),
    "Authorization": st.sampled_from([f"Bearer {TOKEN}", "Bearer wrong-token-wrong-token", "Basic x"]),
    "Cookie": st.sampled_from([f"critcore_token={TOKEN}", "critcore_token=nope", "other=1"]),
})
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-5, 40), st.text(max_size=6),
                   st.sampled_from(["fake", "attack", "rest", "ogre", "@ogre", "1,2", "20,6,2", "gm", "player"]))
BODY = st.one_of(
    st.fixed_dictionaries({"seed": st.integers(0, 99)}, optional={
        "system": st.sampled_from(["fake", "nope"]), "procedure": st.sampled_from(["attack", "rest", "x"]),
        "target": st.sampled_from(["ogre", "@ogre", "ghost"]), "preview": st.just(True),
        "params": st.dictionaries(st.sampled_from(["ac", "bonus", "damage", "z"]), SCALAR, max_size=2),
        "view": st.sampled_from(["gm", "player", "x"]), "explain": st.booleans(), "bogus": SCALAR}),
    st.dictionaries(st.text(max_size=6), SCALAR, max_size=3),
    st.lists(SCALAR, max_size=2), SCALAR)


def _answer(response):
    try:
        data = response.json()
    except ValueError:
        data = response.text
    return response.status_code, response.headers.get("content-type"), data


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
@pytest.mark.parametrize("url", ["/api/resolve", "/api/treat"])
def test_a_direct_route_answers_as_the_route_through_starlette(camp_path, registry, host, url):
    clients = _pair(camp_path, registry, host)

    @settings(max_examples=examples(60, 1000), deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(headers=HEADERS, body=BODY, mangle=st.sampled_from(["json", "bad", "empty", "latin1"]))
    def send(headers, body, mangle):
        content = {"json": json.dumps(body).encode(), "bad": b"{not json", "empty": b"",
                   "latin1": json.dumps(body, ensure_ascii=False).encode("utf-8") + b"\xe9"}[mangle]
        answers = [_answer(c.post(url, content=content, headers=headers)) for c in clients]
        assert answers[0] == answers[1], (headers, body, mangle)

    with clients[0], clients[1]:  # one event loop each for all the examples, as a server has
        send()


def test_a_direct_route_leaves_other_methods_and_paths_to_starlette(camp_path, registry):
    direct, plain = _pair(camp_path, registry, "127.0.0.1")
    for method, url in (("GET", "/api/resolve"), ("PUT", "/api/treat"), ("POST", "/api/resolve/"),
                        ("POST", "/api/resolve/step"), ("POST", "/api/RESOLVE")):
        assert _answer(direct.request(method, url, json={})) == _answer(plain.request(method, url, json={}))


def test_an_answer_on_a_target_is_written_once(camp_path, registry):
    """Through the direct route a resolve on a campaign target is applied and logged, as through
    Starlette: each writes one log entry, and the second hit finds the ogre the first left."""
    direct, plain = _pair(camp_path, registry, "127.0.0.1")
    body = {"target": "ogre", "procedure": "attack", "dice": "20,4,6", "params": {"ac": 10}}
    first, second = direct.post("/api/resolve", json=body), plain.post("/api/resolve", json=body)
    assert first.status_code == second.status_code == 200, (first.text, second.text)
    assert second.json()["log"] == first.json()["log"] + 1
    hp = [r.json()["target"]["hp"] for r in (first, second)]
    assert hp[0] < 30 and hp[1] == hp[0] - (30 - hp[0])  # the same blow twice, the same damage
