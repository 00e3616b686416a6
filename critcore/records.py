"""Dataclasses without generated code: :func:`record` and :func:`record_field`.

``@dataclass`` compiles the methods it adds from source text, about 1 ms a class on Python
3.11 at every start-up; the model classes (:mod:`critcore.model`) and the systems' own small
classes use :func:`record` instead. It lives apart from the model so the model module holds
only what passes between stages.
"""

from __future__ import annotations

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

    __slots__ = ("compare", "default", "default_factory", "init", "name", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True,
                 repr: bool = True, compare: bool = True) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare

    def to_dataclasses(self) -> Any:
        """The same field as a ``dataclasses.field``."""
        import dataclasses

        return dataclasses.field(
            default=dataclasses.MISSING if self.default is _MISSING else self.default,
            default_factory=dataclasses.MISSING if self.default_factory is _MISSING else self.default_factory,
            init=self.init, repr=self.repr, compare=self.compare)


def record_field(*, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True,
                 repr: bool = True, compare: bool = True) -> Any:
    """``dataclasses.field`` for a :func:`record` (the same arguments, those records use)."""
    return _Field(default, default_factory, init, repr, compare)


@dataclass_transform(frozen_default=True, field_specifiers=(record_field,))
def record(cls: _C | None = None, /, *, frozen: bool = True) -> Any:
    """``@dataclass(frozen=True)`` for a class that writes its own ``__init__``, made without
    compiling code.

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

    The class's ``__init__`` takes the fields in order, with the same defaults (``None`` for a
    ``default_factory`` field); that is checked here. It stores them straight into the
    instance dict (``v = self.__dict__; v["name"] = name``), which is also faster than the
    ``object.__setattr__`` per field of a frozen dataclass: several of these objects are made
    on every resolution. With ``frozen=False`` the class stays mutable and unhashable, as
    ``@dataclass`` makes it. Fields are declared as for a dataclass, with :func:`record_field`
    in place of ``dataclasses.field``; records do not inherit from each other.
    """

    def wrap(klass: _C) -> _C:
        cls: type[Any] = klass
        declared = _declared_fields(cls)
        _check_init(cls, declared)
        key = _field_getter(tuple(f.name for f in declared if f.compare))
        shown = tuple(f.name for f in declared if f.repr)

        def __eq__(self: Any, other: object) -> bool:
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented

        def __repr__(self: Any) -> str:
            return f"{self.__class__.__qualname__}({', '.join([f'{n}={getattr(self, n)!r}' for n in shown])})"

        methods: dict[str, Any] = {"__eq__": __eq__, "__repr__": __repr__}
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

            methods.update(__setattr__=__setattr__, __delattr__=__delattr__)
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
        return klass

    return wrap if cls is None else wrap(cls)


def _declared_fields(cls: type) -> list[_Field]:
    """The fields a class body declares, in order."""
    out: list[_Field] = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if any(word in str(annotation) for word in ("ClassVar", "InitVar", "KW_ONLY")):
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


def _check_init(cls: type, declared: list[_Field]) -> None:
    """The hand-written ``__init__`` takes the fields in order, with the fields' defaults."""
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    wanted = tuple(f.name for f in declared if f.init)
    if init is None or code is None:
        raise TypeError(f"@record class {cls.__qualname__} must define __init__{wanted}")
    names = code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]
    if names != wanted:
        raise TypeError(f"{cls.__qualname__}.__init__ takes {names}, not the fields {wanted}")
    given = init.__defaults__ or ()
    defaults = dict(zip(names[code.co_argcount - 1 - len(given):], given))
    defaults.update(init.__kwdefaults__ or {})
    for f in declared:
        if not f.init:
            continue
        if f.default_factory is not _MISSING:
            expected: Any = None
        elif f.default is not _MISSING:
            expected = f.default
        elif f.name in defaults:
            raise TypeError(f"{cls.__qualname__}.__init__ gives {f.name} a default the field does not have")
        else:
            continue
        if f.name not in defaults or not (defaults[f.name] is expected or defaults[f.name] == expected):
            raise TypeError(f"{cls.__qualname__}.__init__: the default of {f.name} must be {expected!r}")
