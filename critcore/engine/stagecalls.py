"""Calling a stage hook's implementations without pluggy's per-call machinery.

A stage is called tens of thousands of times a second through the Python API and millions of
times by ``crit simulate``. Pluggy's ``HookCaller.__call__`` builds a keyword dictionary, fills
in defaults, checks the arguments and copies the implementation list on every call: about two
microseconds, as much as a whole GURPS stage. The set of implementations is fixed once an
engine is built, so the engine asks here once per stage for a plain function taking the hook's
arguments positionally:

* one plain implementation (no house rule touches the stage): that function itself;
* plain implementations and ``wrapper=True`` wrappers (house rules that replace or adjust the
  stage): :func:`_call_chain`, which does what pluggy's ``_multicall`` does for a
  ``firstresult`` hook, in the same order, with the same answer and the same exceptions;
* anything else (an old-style ``hookwrapper=True``, an implementation taking keyword
  arguments, which pluggy versions pass differently): pluggy itself.

``tests/test_core_stagecalls.py`` checks the chain against pluggy's own call, answer by answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generator, Sequence

if TYPE_CHECKING:
    from pluggy import HookCaller

Call = Callable[..., Any]


def _positional(fn: Call, want: Sequence[str], names: Sequence[str]) -> Call:
    """``fn`` called with the hook's arguments given positionally in the order of ``names``
    (an implementation may take fewer of them, in any order)."""
    want = tuple(want)
    if want == tuple(names):
        return fn
    count = len(want)
    if want == tuple(names[:count]):
        return lambda *args: fn(*args[:count])
    index = [names.index(a) for a in want]
    return lambda *args: fn(*[args[i] for i in index])


def stage_caller(caller: HookCaller, names: Sequence[str]) -> Call:
    """A function calling the ``firstresult`` hook ``caller`` with its arguments ``names`` given
    positionally, as pluggy would call it, without pluggy's per-call work where that is safe."""
    impls = caller.get_hookimpls()
    if not impls or any(impl.hookwrapper or set(impl.kwargnames) & set(names) for impl in impls):
        return lambda *args: caller(**dict(zip(names, args)))
    calls = tuple((bool(impl.wrapper), _positional(impl.function, impl.argnames, names))
                  for impl in reversed(impls))  # pluggy's calling order
    if len(calls) == 1 and not calls[0][0]:
        return calls[0][1]
    return lambda *args: _call_chain(calls, args)


def _call_chain(calls: Sequence[tuple[bool, Call]], args: tuple[Any, ...]) -> Any:
    """Pluggy's ``_multicall`` for a ``firstresult`` hook with new-style wrappers: each wrapper
    runs to its ``yield``, the plain implementations run until one answers, then the wrappers
    are resumed, the last entered first, each with the answer (or the exception) so far."""
    result = None
    exception: BaseException | None = None
    teardowns: list[Generator[None, Any, Any]] = []
    try:
        for is_wrapper, fn in calls:
            if is_wrapper:
                gen = fn(*args)
                try:
                    next(gen)
                except StopIteration:
                    _wrapfail(gen, "did not yield")
                teardowns.append(gen)
            else:
                result = fn(*args)
                if result is not None:
                    break
    except BaseException as exc:
        exception = exc
    for gen in reversed(teardowns):
        try:
            if exception is not None:
                try:
                    gen.throw(exception)
                except RuntimeError as err:  # a StopIteration raised inside becomes RuntimeError
                    if isinstance(exception, StopIteration) and err.__cause__ is exception:
                        gen.close()
                        continue
                    raise
            else:
                gen.send(result)
            gen.close()
        except StopIteration as stop:
            result = stop.value
            exception = None
            continue
        except BaseException as exc:
            exception = exc
            continue
        _wrapfail(gen, "has second yield")
    if exception is not None:
        raise exception
    return result


def _wrapfail(gen: Generator[None, Any, Any], msg: str) -> None:
    code = getattr(gen, "gi_code")  # a generator's code object (typing's Generator does not declare it)
    raise RuntimeError(f"wrap_controller at {code.co_name!r} {code.co_filename}:{code.co_firstlineno} {msg}")
