"""The speed work keeps behaviour: records act as frozen dataclasses, caches and fast paths give
what the plain code gave (no timing here: speed is measured by bench/bench.py)."""

from __future__ import annotations

import dataclasses
import random
import re
import sys
from typing import Any

import pytest

from critcore._speed import records
from critcore.dice.notation import DiceExpr, SuccessTest, make_test, parse
from critcore.dice.rollers import RandomRoller
from critcore.stages.context import Context
from critcore.engine.runner import Engine
from critcore.engine.params import check_params
from critcore.errors import DiceError, ParamError, TableError
from critcore.model import (
    Applied,
    Data,
    Determination,
    Effect,
    Location,
    Note,
    Option,
    Outcome,
    Param,
    Procedure,
    Roll,
    Step,
    SystemInfo,
    record,
    record_field,
)
from critcore.stages.loader import RuleInfo
from critcore.tables.tableset import Row, Table, _is_header, make_row, row_lines

FROZEN = [Param, Procedure, Option, SystemInfo, Roll, Note, Determination, Location, Effect, Applied, Step,
          Outcome, DiceExpr, SuccessTest, Row, Table, Context, RuleInfo]
MUTABLE: list[type] = []  # PluginSpec, Registry and Config need no value semantics: plain classes (issue 13)

PROC = Procedure("go", "Go.", (Param("n", "int", default=1),))
INFO = SystemInfo("s", "S", (PROC,))


def samples(cls: type) -> list[Any]:
    """Two instances of each class, equal except for the first."""
    made = {
        Param: lambda i: Param(f"p{i}", "int", "help", 1, (), False, 0, 9),
        Procedure: lambda i: Procedure(f"p{i}", "help", (Param("x"),)),
        Option: lambda i: Option(f"o{i}", "choice", "a", "help", ("a", "b")),
        SystemInfo: lambda i: SystemInfo(f"s{i}", "S", (PROC,), effect_codes=frozenset({"x"})),
        Roll: lambda i: Roll(f"r{i}", "3d6", (1, 2, 3), 6, None, ""),
        Note: lambda i: Note(f"n{i}", "rule", "effect"),
        Determination: lambda i: Determination(f"k{i}", True, "s", False, {"a": [1, 2]}),
        Location: lambda i: Location(f"l{i}", "Leg", "the leg", {"x": 1}),
        Effect: lambda i: Effect("t", f"e{i}", "code", "text", 7, {"n": 1}),
        Applied: lambda i: Applied(f"a{i}", ["HP 3 -> 1"], {"hp": 1}, [Effect("t", "e", "c", "x")], {"d": 1}),
        Step: lambda i: Step(f"s{i}", "said", (0, 1)),
        Outcome: lambda i: Outcome("s", f"p{i}", Data(n=1), (Roll("r", "1d6", (4,), 4),), (Step("a", "b"),)),
        DiceExpr: lambda i: DiceExpr(i + 1, 6, 1, 2, 3),
        SuccessTest: lambda i: SuccessTest(i + 3, 5, True),
        Row: lambda i: Row(1, 3, f"r{i}", "code", "text", Data(a=1), 7, "", ()),
        Table: lambda i: Table(f"t{i}", "T", "1d6", 1, 6, (Row(1, 6, "all", "c", "x"),), "src"),
        Context: lambda i: Context(INFO, PROC, Data(n=i), Data(), None, None),  # type: ignore[arg-type]
        RuleInfo: lambda i: RuleInfo(f"r{i}", "s", "summary", ("determine",)),
    }[cls]
    return [made(0), made(1), made(1)]


def reference(cls: type) -> type:
    """The same fields as an ordinary @dataclass (frozen when the record is)."""
    specs = []
    for f in dataclasses.fields(cls):
        kw: dict[str, Any] = {"compare": f.compare, "repr": f.repr}
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        specs.append((f.name, f.type, dataclasses.field(**kw)))
    return dataclasses.make_dataclass(cls.__name__, specs, frozen=cls.__dataclass_params__.frozen)


def as_reference(ref: type, obj: Any) -> Any:
    return ref(**{f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)})


@pytest.mark.parametrize("cls", FROZEN + MUTABLE, ids=lambda c: c.__name__)
def test_records_compare_print_and_hash_as_dataclasses_do(cls: type) -> None:
    a, b, c = samples(cls)
    ref = reference(cls)
    ra, rb, rc = as_reference(ref, a), as_reference(ref, b), as_reference(ref, c)
    assert (a == b) == (ra == rb) and (b == c) == (rb == rc) and b == c
    assert repr(a) == repr(ra)
    assert a != object() and a.__eq__(object()) is NotImplemented
    assert dataclasses.is_dataclass(a) and [f.name for f in dataclasses.fields(a)] == [f.name for f in dataclasses.fields(ra)]
    assert cls.__match_args__ == type(ra).__match_args__
    assert dataclasses.asdict(b) == dataclasses.asdict(rb)
    if cls in MUTABLE:
        assert cls.__hash__ is None
        first = dataclasses.fields(a)[0].name
        setattr(a, first, "changed")
        assert getattr(a, first) == "changed"
    else:
        assert hash(b) == hash(c)
        if cls is not Table:  # a Table hashes fewer fields than it compares (as it always did)
            assert hash(b) == hash(rb)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(a, dataclasses.fields(a)[0].name, "x")
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(a, dataclasses.fields(a)[0].name)
        assert cls.__dataclass_params__.frozen


def test_replace_and_subclasses_work_on_records() -> None:
    eff = Effect("t", "e", "c", "x", 3, {"a": [1]})
    other = dataclasses.replace(eff, roll=9, text="y")
    assert (other.roll, other.text, other.data) == (9, "y", Data(a=(1,))) and eff.text == "x"
    assert eff == dataclasses.replace(eff, roll=4)  # roll is not compared

    @dataclasses.dataclass(frozen=True)
    class Tagged(Determination):
        tag: str = ""

    t = Tagged("k", True, "s", tag="x")
    assert t.tag == "x" and t.kind == "k" and repr(t).startswith("test_replace_and_subclasses_work_on_records.<locals>.Tagged(")


def test_a_record_becomes_a_dataclass_only_when_asked() -> None:
    @record
    class Point:
        """A point."""

        x: int
        y: int = 0
        label: str = record_field(default="", compare=False)

    assert isinstance(Point.__dict__["__dataclass_fields__"], records._Registers)
    assert Point(1, 2, "a") == Point(1, 2, "b") and hash(Point(1, 2)) == hash((1, 2))
    assert repr(Point(1)) == "test_a_record_becomes_a_dataclass_only_when_asked.<locals>.Point(x=1, y=0, label='')"
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "label"]
    assert isinstance(Point.__dict__["__dataclass_fields__"], dict) and Point.label == ""
    assert dataclasses.replace(Point(1), y=5) == Point(1, 5)


def test_a_record_init_is_made_as_a_dataclass_makes_it() -> None:
    """Positional and keyword arguments, defaults, a default factory (a new list each time, as
    dataclasses give), an init=False field, convert, and __post_init__ after the fields."""

    @record(frozen=False)
    class Bag:
        name: str
        size: int = 3
        items: list[int] = record_field(default_factory=list)
        seen: list[str] = record_field(default_factory=list, init=False)
        tags: tuple[str, ...] = record_field(default=(), convert=tuple)

        def __post_init__(self) -> None:
            self.seen.append(f"{self.name}:{self.size}")

    a, b = Bag("a"), Bag("b", 5, [1], tags=["x"])
    assert (a.size, a.items, a.seen, a.tags) == (3, [], ["a:3"], ())
    assert (b.size, b.items, b.seen, b.tags) == (5, [1], ["b:5"], ("x",))
    assert a.items is not Bag("c").items
    assert Bag(name="k", size=1) == Bag("k", 1) and Bag.__hash__ is None
    with pytest.raises(TypeError):
        Bag()  # name has no default: the same TypeError a dataclass's __init__ gives
    with pytest.raises(TypeError):
        Bag("a", nothing=1)


def test_a_record_refuses_what_a_dataclass_refuses_and_a_hand_written_init() -> None:
    with pytest.raises(TypeError, match="__init__ is made from the fields"):
        @record
        class Written:
            a: int

            def __init__(self, a: int) -> None:
                pass

    with pytest.raises(TypeError, match="without a default follows"):
        @record
        class Order:
            a: int = 1
            b: int

    with pytest.raises(TypeError, match="record_field"):
        @record
        class WrongField:
            a: int = dataclasses.field(default=1)


def test_stage_results_freeze_plain_data() -> None:
    d = Determination("k", True, "s", data={"a": [1, {"b": 2}]})
    assert isinstance(d.data, Data) and d.data["a"] == (1, Data(b=2))
    assert Determination("k", True, "s", data=None).data is None  # as before: None stays None
    a = Applied("s", ["x"], {"hp": [1]}, [Effect("t", "e", "c", "x")])
    assert a.changes == ("x",) and isinstance(a.target, Data) and isinstance(a.effects, tuple)


def test_data_reads_like_a_mapping() -> None:
    d = Data({"a": 1, "b": [1, 2]}, c={"x": 1})
    assert d.get("a") == 1 and d.get("zz") is None and d.get("zz", 5) == 5
    assert "a" in d and "zz" not in d and list(d.keys()) == ["a", "b", "c"]
    assert list(d.items()) == [("a", 1), ("b", (1, 2)), ("c", Data(x=1))] and next(iter(d.values())) == 1
    assert Data([("a", 1)]) == Data(a=1) == {"a": 1} and Data() == {} and Data(None) == Data()
    assert d.replace(a=[3], z=1) == {"a": (3,), "b": (1, 2), "c": {"x": 1}, "z": 1}
    assert Data({1: "x"}) == {"1": "x"}


def test_data_is_immutable_though_a_dict_underneath() -> None:
    """Data is a dict (its reads are the dict's own C code) whose every mutating method is
    refused, so frozen state stays frozen; copies, pickles and JSON give the same data."""
    import copy
    import json
    import pickle

    d = Data(a=1, b={"c": [1]})
    refused: list[Any] = [lambda: d.__setitem__("a", 2), lambda: d.__delitem__("a"), d.clear, lambda: d.pop("a"),
                          d.popitem, lambda: d.setdefault("z", 1), lambda: d.update(z=1)]
    for attempt in refused:
        with pytest.raises(TypeError, match="immutable"):
            attempt()
    with pytest.raises(TypeError, match="immutable"):
        d |= {"z": 1}
    assert d == {"a": 1, "b": {"c": [1]}} and hash(d) == hash(Data(a=1, b=Data(c=(1,))))
    assert not (d != {"a": 1, "b": {"c": [1]}}) and d != {"a": 2} and d != Data(a=1)
    assert copy.copy(d) is d and copy.deepcopy(d) is d
    again = pickle.loads(pickle.dumps(d))
    assert type(again) is Data and again == d and type(again["b"]) is Data
    assert json.loads(json.dumps(d)) == {"a": 1, "b": {"c": [1]}}
    assert repr(Data(a=1)) == "Data({'a': 1})"


def test_freezing_a_tuple_already_frozen_keeps_it_and_freezes_one_that_is_not() -> None:
    """freeze() hands back a tuple of frozen values as it is (a changed copy of a Data's tuple is
    not copied again), and still freezes a tuple holding a list or dict at any depth."""
    from critcore.model import freeze

    done = (Data(a=1), 2, "x", None)
    assert freeze(done) is done and Data(t=done)["t"] is done
    assert freeze((1, [2, {"b": [3]}])) == (1, (2, Data(b=(3,))))
    assert freeze(((1, [2]),)) == ((1, (2,)),) and type(freeze(((1, [2]),))[0][1]) is tuple
    assert type(freeze((1, {"c": 1}))[1]) is Data


def test_parameters_of_another_type_are_checked_again() -> None:
    proc = Procedure("go", "Go.", (Param("n", "int"), Param("flag", "bool")))
    assert check_params(proc, {"n": 1}) == check_params(proc, {"n": 1})
    with pytest.raises(ParamError):
        check_params(proc, {"n": True})  # equal to 1, but not an int
    with pytest.raises(ParamError):
        check_params(proc, {"flag": 1})
    assert check_params(proc, {"n": 1.0})["n"] == 1


@pytest.mark.parametrize("seed", [0, 1, 7, "abc", -3, 2**70])
def test_random_faces_are_those_of_the_plain_formula(seed: Any) -> None:
    roller, plain = RandomRoller(seed), random.Random(seed)
    for notation in ("1d6", "2d6", "3d6", "4d6", "10d10", "1d2", "3d6+2", "2d6x3", "1d6/2", "d20"):
        expr = parse(notation)
        faces, total = roller.roll_sum(expr, "x")
        expected = tuple(int(plain.random() * expr.sides) + 1 for _ in range(expr.count))
        assert faces == expected and total == expr.value(sum(expected))
    faces, successes, _ = roller.roll_test(make_test(5, 8), "x")
    assert len(faces) >= 5 and 0 <= successes <= 5


def test_success_tests_keep_their_effective_target_number() -> None:
    assert make_test(3, 1).effective_tn == 2 and make_test(3, 9).effective_tn == 9
    assert dataclasses.replace(make_test(3, 1), tn=7).effective_tn == 7
    assert [f.name for f in dataclasses.fields(SuccessTest)] == ["dice", "tn", "rule_of_six"]


PATTERN = re.compile(r"""^\s*(?P<count>\d+)?\s*[dD]\s*(?P<sides>\d+)?
        \s*(?:(?P<sign>[+-])\s*(?P<plus>\d+))?
        \s*(?:[xX*×]\s*(?P<times>\d+))?
        \s*(?:/\s*(?P<divide>\d+))?\s*$""", re.VERBOSE)


@pytest.mark.parametrize("text", ["3d6", "1d2", "03d06", "12d10", "d6", "3d", "3D6", " 3d6", "3d6 ", "3 d 6",
                                  "2d+1", "3d-3", "1d6x10", "1d6/2", "٣d٦", "3d6d", "dd", "3d6+", "x", "0d6",
                                  "3d1", "201d6", "3d1001", "1d6*2", "2d6 + 1"])
def test_plain_dice_are_read_as_the_pattern_reads_them(text: str) -> None:
    m = PATTERN.match(text)
    try:
        got: Any = parse(text)
    except DiceError:
        got = None
    if m is None:
        assert got is None
    elif got is not None:
        assert got.count == (int(m["count"]) if m["count"] else 1)
        assert got.sides == (int(m["sides"]) if m["sides"] else 6)
        plus = int(m["plus"]) if m["plus"] else 0
        assert got.plus == (-plus if m["sign"] == "-" else plus)
        assert (got.times, got.divide) == (int(m["times"] or 1), int(m["divide"] or 1))


def test_table_headers_and_row_ids_are_recognised_as_before() -> None:
    text = "[[row]]\n  [[ row ]]\n[[rows]]\n[[row]]x\n[row]\n[[ row]\n\t[[row  ]] # c\n[[a.b.row]]\n"
    for header in ("row", "a.b.row"):
        pat = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]")
        expected = [i for i, line in enumerate(text.splitlines(), 1) if pat.match(line)]
        assert row_lines(text, header) == expected
    assert _is_header("[[row]]", "row") and not _is_header("[row]", "row")
    for row_id in ("ok", "a-b_c.d", "9x", "-bad", "Bad", "é", "a b", "", "a/b"):
        good = re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", row_id) is not None
        raw = {"roll": 1, "id": row_id, "effect": "x", "text": "t"}
        if good:
            assert make_row(raw, "here").id == row_id
        else:
            with pytest.raises(TableError):
                make_row(raw, "here")


def test_table_rows_are_found_by_id_and_hash_once() -> None:
    rows = (Row(1, 3, "low", "c", "x"), Row(4, 6, "high", "c", "y"))
    table = Table("t", "T", "1d6", 1, 6, rows)
    assert table.row("high") is rows[1] and table.lookup(2) is rows[0]
    with pytest.raises(TableError):
        table.row("none")
    assert hash(rows[0]) == hash((1, 3, "low", "c", "x", Data(), ()))
    assert dataclasses.replace(table, rows=rows[::-1]).lookup(5) is rows[1]


def test_the_cli_pauses_collection_only_until_long_work() -> None:
    import gc

    from critcore.cli.errors import pause_gc, resume_gc

    assert gc.isenabled()
    try:
        pause_gc()
        assert not gc.isenabled()
        resume_gc()
        assert gc.isenabled()
        resume_gc()  # nothing paused: nothing to do
        assert gc.isenabled()
    finally:
        gc.enable()


def test_shadowrun_body_check_follows_each_engine_and_parameters() -> None:
    pytest.importorskip("critcore_shadowrun2")
    gentle = Engine("shadowrun2", options={"tn_set": "gentle"})
    usual = Engine("shadowrun2")
    for seed in range(30):
        for params in ({"body": 4, "severity": "serious"}, {"body": 2, "severity": "light"}):
            for engine in (gentle, usual):  # alternating: the remembered check must not leak across
                got = engine.run("wound", params, seed=seed)
                fresh = Engine("shadowrun2", options=dict(engine.options)).run("wound", dict(params), seed=seed)
                assert got.to_json() == fresh.to_json()


def test_plugins_do_not_import_dataclasses_to_resolve() -> None:
    import subprocess

    code = ("import sys\n"
            "before = 'dataclasses' in sys.modules\n"
            "import critcore.cli.main, critcore.engine.runner\n"
            "from critcore.engine.runner import Engine\n"
            "Engine('shadowrun2').run('wound', {'body': 4, 'severity': 'serious'}, seed=1)\n"
            "print(before, 'dataclasses' in sys.modules)")
    pytest.importorskip("critcore_shadowrun2")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, after = out.split()
    if before == "True":
        pytest.skip("this Python imports dataclasses at start-up anyway")
    assert after == "False"  # the records register with dataclasses only when asked (start-up)


def test_generated_inits_are_compiled_once_and_read_back_from_the_cache(monkeypatch, writable_cache) -> None:
    """The source of a batch of __init__s is compiled once; with the cache writable the next
    process reads the code back (same source) instead of compiling; other source compiles anew."""
    compiled: list[str] = []
    real = compile

    def counting(source: str, filename: str, mode: str) -> Any:
        compiled.append(source)
        return real(source, filename, mode)

    monkeypatch.setattr(records, "compile", counting, raising=False)  # records' globals shadow the builtin
    source = "def __init_0(self, a):\n    _fields = self.__dict__\n    _fields['a'] = a\n"
    first = records._compiled(source, Note)
    second = records._compiled(source, Note)  # as the next command would: from the cache entry
    assert len(compiled) == 1 and first.co_code == second.co_code
    records._compiled(source.replace("'a'", "'b'"), Note)
    assert len(compiled) == 2


def test_records_first_made_in_two_threads_at_once_both_work() -> None:
    """The first instances of new records, made by several threads at once (a web server's
    workers), each get the real __init__ (one thread makes them, the others wait for it)."""
    import threading

    @record
    class First:
        a: int
        b: str = "x"

    @record
    class Second:
        c: int = 2

    results: list[Any] = []
    barrier = threading.Barrier(4)

    def make(n: int) -> None:
        barrier.wait()
        results.append((First(n), Second()))

    threads = [threading.Thread(target=make, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(f.a for f, _ in results) == [0, 1, 2, 3] and all(s.c == 2 and f.b == "x" for f, s in results)


def test_a_kept_hash_is_the_hash_of_the_compared_fields_and_never_leaves_the_process() -> None:
    """``record(kept_hash=True)`` (the stage results): the hash a frozen dataclass would give
    (its compared fields), worked out once and kept; a pickle or a copy carries no hash over,
    since string hashes differ from one process to the next."""
    import copy
    import dataclasses
    import pickle

    from critcore.model import Applied, Determination, Effect, Location

    values = [Determination("serious", True, "A serious wound.", data={"boxes": 3}, tags={"bleeding"}),
              Location("LA", "Left Arm", "the left arm", data={"list": "limbs"}),
              Effect("critical-hit", "blow", "double-damage", "Double damage.", roll=7, data={"x": 2}),
              Applied("Knocked down.", ("fell",), data={"turns": 1})]
    for value in values:
        compared = tuple(getattr(value, f.name) for f in dataclasses.fields(value) if f.compare)
        assert hash(value) == hash(compared) == hash(value)  # the second call reads the kept one
        assert "_hash" in value.__dict__
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert "_hash" not in again.__dict__ and again == value and hash(again) == hash(value)
    assert hash(Effect("t", "r", "c", "x", roll=3)) == hash(Effect("t", "r", "c", "x", roll=9))  # roll is not compared


def test_a_converter_that_keeps_some_classes_gives_the_same_fields_with_or_without_being_called() -> None:
    """``keeps(...)`` lets ``__init__`` skip a converter for values of the classes it hands back
    unchanged; every field is what calling the converter gives (the model's own converters, for
    values they keep and values they change)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from critcore.model import Applied, Data, _data, _tags, _tuple

    lines = st.one_of(st.lists(st.text(max_size=3), max_size=3), st.lists(st.text(max_size=3), max_size=3).map(tuple))
    datas = st.one_of(st.none(), st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
                      st.dictionaries(st.text(max_size=3), st.integers(), max_size=3).map(Data))
    tags = st.one_of(st.lists(st.text(max_size=3), max_size=3), st.frozensets(st.text(max_size=3), max_size=3))

    @settings(max_examples=50, deadline=None)
    @given(changes=lines, target=datas, data=datas, tag=tags)
    def check(changes: Any, target: Any, data: Any, tag: Any) -> None:
        made = Applied("s", changes, target, (), data if data is not None else {}, tag)
        assert made.changes == _tuple(changes) and type(made.changes) is tuple
        assert made.target == _data(target) and type(made.target) is type(_data(target))
        assert made.data == _data(data if data is not None else {}) and type(made.data) is Data
        assert made.tags == _tags(tag) and type(made.tags) is frozenset
        if type(changes) is tuple:
            assert made.changes is changes  # kept: the converter not called
        if type(target) is Data:
            assert made.target is target

    check()
