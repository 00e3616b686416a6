"""Configuration: ``critcore.toml`` in the current folder or its nearest parent that has one (or
``--config FILE``) over a user config
file in the platform's config folder (``~/.config/critcore/config.toml`` on Linux).

::

    rules = ["floating-criticals", "house/our-table.toml"]   # enabled house rules

    [systems.gurps]                 # options of one system
    extended_critical_range = true

The project file's ``rules`` replaces the user file's; options merge key by key, the project
file winning. Rule file paths are taken relative to the config file that names them.
Every error names the file and line.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Iterable

from critcore.files import toml as _toml
from critcore.errors import ConfigError

PROJECT_FILE = "critcore.toml"
TOP_KEYS = {"rules", "systems"}


def user_config_path() -> str:
    """The user config file in the platform's config folder (same rules as click.get_app_dir)."""
    if sys.platform.startswith("win"):
        base = os.environ.get("APPDATA") or os.path.expanduser("~")
        return os.path.join(base, "critcore", "config.toml")
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Application Support"), "critcore", "config.toml")
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    return os.path.join(base, "critcore", "config.toml")


class Config:
    """What the config files say: enabled rules and options per system, and where they came from."""

    rules: list[str]
    options: dict[str, dict[str, Any]]
    files: list[str]
    option_source: dict[tuple[str, str], str]  # (system, option) -> "file, line N"

    def __init__(self, rules: list[str] | None = None, options: dict[str, dict[str, Any]] | None = None,
                 files: list[str] | None = None, option_source: dict[tuple[str, str], str] | None = None) -> None:
        self.rules = [] if rules is None else rules
        self.options = {} if options is None else options
        self.files = [] if files is None else files
        self.option_source = {} if option_source is None else option_source

    def system_options(self, system: str) -> dict[str, Any]:
        return dict(self.options.get(system, {}))


def read_config_file(path: str, config: Config) -> None:
    from critcore.files.reading import load_toml, read_text

    text = read_text(path, "config file", ConfigError)  # size-limited; devices and FIFOs refused
    data = load_toml(text, path, ConfigError)

    def at(key: str, section: str | None = None) -> str:
        return _toml.at(path, text, key, section)

    for key in data:
        if key not in TOP_KEYS:
            from critcore.stages.loader import did_you_mean

            raise ConfigError(f"{at(key)}: unknown setting {key!r}{did_you_mean(key, TOP_KEYS)} "
                              f"(expected rules = [...] or [systems.NAME] sections)")
    if "rules" in data:
        rules = data["rules"]
        if not isinstance(rules, list) or not all(isinstance(r, str) and r for r in rules):
            raise ConfigError(f"{at('rules')}: rules must be a list of rule names or .toml files, e.g. rules = [\"my-rules.toml\"]")
        folder = os.path.dirname(os.path.abspath(path))
        from critcore.config.houserules import is_rule_file

        config.rules = [os.path.join(folder, r) if is_rule_file(r) and not os.path.isabs(r) else r for r in rules]
    systems = data.get("systems", {})
    if not isinstance(systems, dict):
        raise ConfigError(f"{at('systems')}: systems must hold one [systems.NAME] section per system")
    for system, opts in systems.items():
        if not isinstance(opts, dict):
            raise ConfigError(f"{at(system, 'systems')}: [systems.{system}] must hold option = value lines")
        merged = config.options.setdefault(system, {})
        for name, value in opts.items():
            merged[name] = value
            config.option_source[(system, name)] = at(name, f"systems.{system}")
    config.files.append(path)


def load_config(path: str | None = None, *, user: bool = True, cwd: str | None = None) -> Config:
    """Read the user config, then ``path`` (or the ``critcore.toml`` of ``cwd`` or its nearest
    parent that has one)."""
    config = Config()
    if user:
        upath = os.environ.get("CRITCORE_CONFIG") or user_config_path()
        if os.path.isfile(upath):
            read_config_file(upath, config)
    if path is not None:
        read_config_file(path, config)
    else:
        local = find_project_file(cwd or os.getcwd())
        if local is not None:
            read_config_file(local, config)
    return config


def find_project_file(start: str, name: str = PROJECT_FILE) -> str | None:
    """``name`` in ``start`` or its nearest parent folder that has one (as git and pytest look
    for theirs), so a campaign's subfolders keep the campaign's rules; None if there is none."""
    folder = os.path.abspath(start)
    while True:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent



def check_systems(config: Config, known: Iterable[str]) -> None:
    """Refuse a ``[systems.NAME]`` section for a system that is not installed (a typo would
    otherwise be ignored silently): one line naming the file and line of the section."""
    known = sorted(known)
    for system in config.options:
        if system in known:
            continue
        from critcore.stages.loader import did_you_mean

        where = _section_line(config.files, system)
        raise ConfigError(f"{where}: [systems.{system}]: no system named {system!r} is installed"
                          f"{did_you_mean(system, known)} (installed: {', '.join(known) or 'none'})")


def _section_line(paths: list[str], system: str) -> str:
    """``FILE, line N`` of the last config file that names ``systems.<system>``."""
    import re

    pattern = re.compile(r"^\s*\[?\s*systems\s*\.\s*[\"']?" + re.escape(system) + r"[\"']?\s*[\].=]")
    for path in reversed(paths):
        try:
            from critcore.files.reading import read_text

            text = read_text(path, "config file", ConfigError)
        except ConfigError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.match(line):
                return f"{path}, line {number}"
    return paths[-1] if paths else "config"
