"""Dataclasses made cheaply: :func:`record` and :func:`record_field`.

``@dataclass`` compiles the six methods it adds from source text, about 1 ms a class on Python
3.11 at every start-up; the model classes (:mod:`critcore.model`) and the systems' own small
classes use :func:`record` instead, which builds ``__eq__``, ``__hash__``, ``__repr__`` and the
frozen ``__setattr__``/``__delattr__`` from closures and compiles only ``__init__``, the first
time the class is instantiated. It lives apart from the model so the model module holds only
what passes between stages.
"""

from __future__ import annotations

import _thread
import sys
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, TypeVar

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
elif TYPE_CHECKING:  # a type checker for Python 3.10 reads it from the typing_extensions stubs it bundles
    from typing_extensions import dataclass_transform
else:  # pragma: no cover - Python 3.10 at run time: nothing to tell
    def dataclass_transform(**_: Any) -> Callable[[Any], Any]:
        return lambda decorator: decorator

_C = TypeVar("_C", bound=type)


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _Missing()  # dataclasses.MISSING, without importing dataclasses


class _Field:
    """A record's field as its class body declares it (:func:`record_field`, or a default)."""

    __slots__ = ("compare", "convert", "default", "default_factory", "init", "name", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True,
                 repr: bool = True, compare: bool = True, convert: Callable[[Any], Any] | None = None) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare
        self.convert = convert

    def to_dataclasses(self) -> Any:
        """The same field as a ``dataclasses.field``."""
        import dataclasses

        return dataclasses.field(
            default=dataclasses.MISSING if self.default is _MISSING else self.default,
            default_factory=dataclasses.MISSING if self.default_factory is _MISSING else self.default_factory,
            init=self.init, repr=self.repr, compare=self.compare)


def record_field(*, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True,
                 repr: bool = True, compare: bool = True, convert: Callable[[Any], Any] | None = None) -> Any:
    """``dataclasses.field`` for a :func:`record` (the arguments records use), plus ``convert``: a
    function ``__init__`` passes the argument through (``convert=tuple``), as attrs' converters."""
    return _Field(default, default_factory, init, repr, compare, convert)


_F = TypeVar("_F", bound=Callable[..., Any])


def keeps(*classes: type) -> Callable[[_F], _F]:
    """Declare that a ``record_field`` converter hands back unchanged any value whose class is
    one of ``classes`` (``type(None)`` for None): ``__init__`` then tests the class inline and
    calls the converter only for the others (a converter call was a fifth of making an
    ``Applied``). A fast path only: the converter must give the value itself for those classes."""
    def mark(convert: _F) -> _F:
        convert.__record_keeps__ = frozenset(classes)  # type: ignore[attr-defined]
        return convert

    return mark


@dataclass_transform(frozen_default=True, field_specifiers=(record_field,))
def record(cls: _C | None = None, /, *, frozen: bool = True, kept_hash: bool = False) -> Any:
    """``@dataclass(frozen=True)``, made without compiling code at import.

    ``@dataclass`` compiles every method it adds from source text: about 1 ms a class on
    Python 3.11, paid at each start-up for each class imported (tens of them before one
    ``crit resolve`` prints). This decorator adds ``__eq__``, ``__hash__``, ``__repr__`` and the
    frozen ``__setattr__``/``__delattr__`` built from closures, behaving as ``@dataclass``'s do:
    equal when of the same class with equal compared fields, the hash of those fields (unless
    the class defines ``__hash__``), ``dataclasses.FrozenInstanceError`` on assignment. The
    class becomes a real dataclass (``dataclasses.fields``, ``replace``, ``asdict`` and
    ``is_dataclass`` work, and a frozen dataclass may subclass it) the first time anything asks
    for its ``__dataclass_fields__``: most commands never do, so :mod:`dataclasses` is not even
    imported.

    ``__init__`` is made from the fields, as ``@dataclass`` makes it (defaults, default
    factories, ``init=False`` fields, ``__post_init__``), plus each field's ``convert``; it is
    compiled the first time the class is instantiated, so a class a command never makes costs
    nothing, and it stores the fields straight into the instance dict, which is faster than
    the ``object.__setattr__`` per field of a frozen dataclass's: several of these objects are
    made on every resolution. With ``frozen=False`` the class stays mutable and unhashable, as
    ``@dataclass`` makes it. Fields are declared as for a dataclass, with :func:`record_field`
    in place of ``dataclasses.field``; records do not inherit from each other.

    ``kept_hash=True`` (a frozen record hashed again and again, as exact odds hash stage results)
    works the hash out once and keeps it in the instance; it is this process's (string hashes
    differ between processes), so a pickle or a copy leaves it out.
    """

    def wrap(klass: _C) -> _C:
        cls: type[Any] = klass
        declared = _declared_fields(cls)
        _check_fields(cls, declared)
        key = _field_getter(tuple(f.name for f in declared if f.compare))
        shown = tuple(f.name for f in declared if f.repr)

        def __eq__(self: Any, other: object) -> bool:
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented

        def __repr__(self: Any) -> str:
            return f"{self.__class__.__qualname__}({', '.join([f'{n}={getattr(self, n)!r}' for n in shown])})"

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # the first instance: make the real ones
            with _LOCK:  # another thread may be making them: it has, once the lock is free
                _make_inits()
            cls.__init__(self, *args, **kwargs)

        methods: dict[str, Any] = {"__init__": __init__, "__eq__": __eq__, "__repr__": __repr__}
        if frozen:
            names = frozenset(f.name for f in declared)

            def __setattr__(self: Any, name: str, value: Any) -> None:
                if type(self) is cls or name in names:
                    from dataclasses import FrozenInstanceError

                    raise FrozenInstanceError(f"cannot assign to field {name!r}")
                super(cls, self).__setattr__(name, value)

            def __delattr__(self: Any, name: str) -> None:
                if type(self) is cls or name in names:
                    from dataclasses import FrozenInstanceError

                    raise FrozenInstanceError(f"cannot delete field {name!r}")
                super(cls, self).__delattr__(name)

            def __hash__(self: Any) -> int:
                return hash(key(self))

            def __kept_hash__(self: Any) -> int:
                kept = self.__dict__
                h: int | None = kept.get("_hash")
                if h is None:
                    h = kept["_hash"] = hash(key(self))
                return h

            def __getstate__(self: Any) -> dict[str, Any]:  # the kept hash is this process's
                return {k: v for k, v in self.__dict__.items() if k != "_hash"}

            methods.update(__setattr__=__setattr__, __delattr__=__delattr__)
            if kept_hash:
                __hash__ = __kept_hash__
                methods["__getstate__"] = __getstate__
            if "__hash__" not in cls.__dict__:
                methods["__hash__"] = __hash__
        else:
            methods["__hash__"] = None  # mutable and compared by value: unhashable, as @dataclass does
        for name, fn in methods.items():
            if fn is not None:
                fn.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, fn)
        setattr(cls, "__match_args__", tuple(f.name for f in declared if f.init))  # (mypy refuses "cls.__match_args__ =")
        for name in ("__dataclass_fields__", "__dataclass_params__"):
            setattr(cls, name, _Registers(cls, frozen, name))
        with _LOCK:  # queued once its placeholder __init__ is set, and never while a batch is taken
            _PENDING.append((cls, declared))
        return klass

    return wrap if cls is None else wrap(cls)


def _declared_fields(cls: type) -> list[_Field]:
    """The fields a class body declares, in order."""
    out: list[_Field] = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = str(annotation)
        if "ClassVar" in text or "InitVar" in text or "KW_ONLY" in text:
            raise TypeError(f"@record class {cls.__qualname__}: {name}: ClassVar, InitVar and KW_ONLY are not supported")
        value = cls.__dict__.get(name, _MISSING)
        if not isinstance(value, _Field):
            if type(value).__name__ == "Field":
                raise TypeError(f"@record class {cls.__qualname__}: {name}: use record_field, not dataclasses.field")
            value = _Field(default=value)
        value.name = name
        out.append(value)
    return out


class _Registers:
    """``__dataclass_fields__`` or ``__dataclass_params__`` of a record until first read: then
    the record is registered with :mod:`dataclasses` (which sets both for real) and the real
    value is returned."""

    def __init__(self, owner: type, frozen: bool, name: str) -> None:
        self.owner = owner
        self.frozen = frozen
        self.name = name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        cls = self.owner
        if isinstance(cls.__dict__.get(self.name), _Registers):
            _register(cls, self.frozen)
        return cls.__dict__[self.name]


def _register(cls: type[Any], frozen: bool) -> None:
    """Make a record a dataclass: fields and parameters only (it has its methods already)."""
    from dataclasses import dataclass

    for name in ("__dataclass_fields__", "__dataclass_params__"):
        if isinstance(cls.__dict__.get(name), _Registers):
            delattr(cls, name)
    for name, value in list(cls.__dict__.items()):
        if isinstance(value, _Field):
            setattr(cls, name, value.to_dataclasses())
    dataclass(init=False, repr=False, eq=False)(cls)
    params = cls.__dataclass_params__
    try:  # say what the class behaves as (a frozen dataclass's subclass must be frozen too)
        params.init = params.repr = params.eq = True
        params.frozen = frozen
    except AttributeError:  # pragma: no cover - a Python whose parameters are read-only
        pass


def _field_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the tuple of these attributes (what a dataclass compares and hashes)."""
    if len(names) == 1:
        get_one = attrgetter(names[0])
        return lambda obj: (get_one(obj),)
    if not names:
        return lambda obj: ()
    return attrgetter(*names)


def _check_fields(cls: type, declared: list[_Field]) -> None:
    """What ``@dataclass`` refuses when the class is made: a hand-written ``__init__`` (the
    record makes it), and a field without a default after one with a default."""
    if "__init__" in cls.__dict__:
        raise TypeError(f"@record class {cls.__qualname__}: __init__ is made from the fields; convert an argument "
                        "with record_field(convert=...) or work out other attributes in __post_init__")
    seen_default = ""
    for f in declared:
        if f.name in ("self", "_fields", "_FACTORY") or f.name.startswith("_") and f.name[1:2].isdigit():
            raise TypeError(f"@record class {cls.__qualname__}: a field may not be named {f.name!r}")
        if not f.init:
            continue
        if f.default is not _MISSING or f.default_factory is not _MISSING:
            seen_default = f.name
        elif seen_default:
            raise TypeError(f"@record class {cls.__qualname__}: field {f.name} without a default follows "
                            f"{seen_default}, which has one")


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_FACTORY: Any = _Factory()  # the default of an argument whose field has a default_factory (as in dataclasses)


_PENDING: list[tuple[type, list[_Field]]] = []  # records whose __init__ is not made yet
_LOCK = _thread.RLock()


def _make_inits() -> None:
    """Make the ``__init__`` of every record declared so far whose ``__init__`` is not made yet:
    one piece of source for all of them, compiled once and then kept in the cache folder."""
    batch = _PENDING[:]
    del _PENDING[:]
    if not batch:
        return
    env: dict[str, Any] = {"_FACTORY": _FACTORY}
    sources = [_init_source(cls, declared, f"_{n}", env) for n, (cls, declared) in enumerate(batch)]
    namespace: dict[str, Any] = {}
    exec(_compiled("\n".join(sources), batch[0][0]), env, namespace)
    for n, (cls, _) in enumerate(batch):
        init = namespace[f"__init_{n}"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        init.__module__ = cls.__module__
        setattr(cls, "__init__", init)


def _init_source(cls: type, declared: list[_Field], prefix: str, env: dict[str, Any]) -> str:
    """The source of a record's ``__init__``, as ``def __init{prefix}``; the defaults, factories
    and converters it names are put in ``env`` (its globals) under names starting with ``prefix``."""
    args: list[str] = []
    body: list[str] = []
    for f in declared:
        name = f.name
        if f.default_factory is not _MISSING:
            env[f"{prefix}_factory_{name}"] = f.default_factory
            value = (f"{prefix}_factory_{name}()" if not f.init
                     else f"{prefix}_factory_{name}() if {name} is _FACTORY else {name}")
            default = "_FACTORY"
        elif not f.init and f.default is _MISSING:
            continue  # set by __post_init__, as in a dataclass
        else:
            env[f"{prefix}_default_{name}"] = f.default
            value = name if f.init else f"{prefix}_default_{name}"
            default = f"{prefix}_default_{name}" if f.default is not _MISSING else ""
        if f.init:
            args.append(f"{name}={default}" if default else name)
        if f.convert is not None:
            env[f"{prefix}_convert_{name}"] = f.convert
            kept = getattr(f.convert, "__record_keeps__", None)
            if kept is not None and value == name:  # what the converter hands back as it is: not called
                env[f"{prefix}_keeps_{name}"] = kept
                value = f"{name} if {name}.__class__ in {prefix}_keeps_{name} else {prefix}_convert_{name}({name})"
            else:
                value = f"{prefix}_convert_{name}({value})"
        body.append(f"    _fields[{name!r}] = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    return "\n".join([f"def __init{prefix}(self, {', '.join(args)}):", "    _fields = self.__dict__", *body, ""])


def _compiled(source: str, first: type) -> Any:
    """``compile(source)``, kept in the cache folder between commands (:func:`critcore._speed.diskcache.cached`,
    one entry per distinct batch, named and checked by the source's hash)."""
    from critcore._speed.diskcache import cached, digest

    filename = f"<records from {first.__module__}.{first.__qualname__}>"
    key = digest(source.encode("utf-8"))  # the batch differs by command (which modules it imported)
    entry = cached(f"records\0{sys.implementation.cache_tag}\0{key.hex()}", key,
                   lambda: {"code": compile(source, filename, "exec")})
    return entry["code"]
