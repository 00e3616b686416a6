"""``crit serve``: the game master's screen in a browser and an HTTP API over a campaign.

An optional part of critcore (``pip install "critcore[web]"``): Starlette on uvicorn, Jinja2
templates, no JavaScript build step. Nothing here is imported unless ``crit serve`` runs (or a
program imports :func:`critcore.web.app.create_app` itself).

- :mod:`critcore.web.service`: what the page and the API do, with no web framework in it: the
  campaign opened once per worker thread, the same JSON as ``crit ... --json``, dice typed in
  one roll at a time.
- :mod:`critcore.web.pictures`: a target's picture (the system's ``critcore_web_view`` panels,
  else its ``critcore_show`` lines, else the state as data) and the odds chart as SVG.
- :mod:`critcore.web.security`: the token, the players' link, cross-site form protection,
  request size limits and allowed hosts.
- :mod:`critcore.web.longwork`: odds and simulations one at a time, each with a time limit, one
  more refused with 503 (issue 25).
- :mod:`critcore.web.edge`: what every route shares: the JSON answer, the refusals at the edge
  (host, token, cross-site, content type), the body read and checked, the direct routes' app.
- :mod:`critcore.web.app`: the routes.

May import: ``critcore.errors``, ``critcore._speed``, ``critcore.model``, ``critcore.files``,
``critcore.dice``, ``critcore.targets``, ``critcore.report``, ``critcore.stages``,
``critcore.engine``, ``critcore.chance``, ``critcore.campaign``, ``critcore.api``.
"""
