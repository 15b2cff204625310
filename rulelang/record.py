"""Records: the part of `dataclasses` the language uses, without importing it.

`rulelang check one.rules` must start fast (issue 12): importing `dataclasses`
(which imports `inspect`) and building each dataclass cost a fifth of the whole
check. `@record` makes the same class `@dataclass(frozen=True)` makes (and
`@record(frozen=False)` the same as `@dataclass`): the fields are the class's
annotations in order, with their defaults or `field(default=...,
default_factory=..., compare=..., repr=...)`; it adds `__init__`, `__repr__`,
`__eq__`, `__hash__` (frozen: of the compared fields; else none) and, frozen,
a `__setattr__`/`__delattr__` that raise `dataclasses.FrozenInstanceError`
(imported only then), as dataclasses does, and `__match_args__`. `replace`
is `dataclasses.replace` for records, without importing it; the dataclasses
functions (`replace`, `fields`, `asdict`) work on records too, importing
dataclasses when they are called. No inheritance between records, no
`__post_init__`, no ClassVar: the language's records need none.

`NamedTuple` is `typing.NamedTuple` without its check of every field's
annotation (which, for postponed annotations, compiles each one): the same
`collections.namedtuple` class. Modules import it in place of typing's at run
time only (`if TYPE_CHECKING: from typing import NamedTuple`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

__all__ = ["record", "field", "replace", "fields_of", "NamedTuple"]

T = TypeVar("T")
_MISSING: Any = object()


class _Field:
    __slots__ = ("name", "default", "default_factory", "compare", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING, compare: bool = True,
                 repr: bool = True) -> None:
        self.name = ""
        self.default, self.default_factory, self.compare, self.repr = default, default_factory, compare, repr


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | Any = _MISSING, compare: bool = True,
          repr: bool = True) -> Any:
    """A field with a default (or a factory of defaults), left out of comparisons or of the repr."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return _Field(default, default_factory, compare, repr)


def fields_of(cls: type) -> tuple[_Field, ...]:
    """The fields of a record class, in order."""
    found: tuple[_Field, ...] = cls.__dict__["__record_fields__"]
    return found


def _frozen_error(message: str) -> Exception:
    import dataclasses  # only when a frozen record is written to: a bug of the caller

    return dataclasses.FrozenInstanceError(message)


def _make(cls: Any, frozen: bool) -> Any:
    specs: list[_Field] = []
    for name in cls.__dict__.get("__annotations__", {}):
        value = cls.__dict__.get(name, _MISSING)
        spec = value if isinstance(value, _Field) else _Field(default=value)
        spec.name = name
        specs.append(spec)
        if isinstance(value, _Field):
            if spec.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
    seen_default = False
    for spec in specs:
        has_default = spec.default is not _MISSING or spec.default_factory is not _MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {spec.name!r} follows default argument")
        seen_default = seen_default or has_default
    fields = tuple(specs)
    names = tuple(f.name for f in fields)
    compared = tuple(f.name for f in fields if f.compare)
    shown = tuple(f.name for f in fields if f.repr)

    # __init__ is generated (one small function per class, as fast to call as the dataclass one)
    scope: dict[str, Any] = {"_set": object.__setattr__, "_HAS_FACTORY": _MISSING}
    params, body = [], []
    for f in fields:
        if f.default_factory is not _MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_HAS_FACTORY")
            value = f"_factory_{f.name}() if {f.name} is _HAS_FACTORY else {f.name}"
        elif f.default is not _MISSING:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
            value = f.name
        else:
            params.append(f.name)
            value = f.name
        body.append(f"  _set(self, {f.name!r}, {value})" if frozen else f"  self.{f.name} = {value}")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "  pass") + "\n"
    exec(source, scope)  # noqa: S102 - text made here from the class's own field names
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"

    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in shown) + ")"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return tuple(getattr(self, n) for n in compared) == tuple(getattr(other, n) for n in compared)
        return NotImplemented

    methods: dict[str, Any] = {"__init__": init, "__repr__": __repr__, "__eq__": __eq__}
    if frozen:
        def __hash__(self: Any) -> int:
            return hash(tuple(getattr(self, n) for n in compared))

        def __setattr__(self: Any, name: str, value: Any) -> None:
            if type(self) is cls or name in names:
                raise _frozen_error(f"cannot assign to field {name!r}")
            super(cls, self).__setattr__(name, value)

        def __delattr__(self: Any, name: str) -> None:
            if type(self) is cls or name in names:
                raise _frozen_error(f"cannot delete field {name!r}")
            super(cls, self).__delattr__(name)

        methods.update(__hash__=__hash__, __setattr__=__setattr__, __delattr__=__delattr__)
    else:
        methods["__hash__"] = None
    for name, method in methods.items():
        if name not in cls.__dict__ or (name == "__hash__" and cls.__dict__[name] is None):
            if method is not None:
                method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    cls.__match_args__ = names  # type: ignore[misc]
    cls.__record_fields__ = fields
    cls.__dataclass_fields__ = _DataclassFields()
    return cls


class _DataclassFields:
    """`__dataclass_fields__` of a record, made when first asked for (importing dataclasses only then), so
    that `dataclasses.replace`, `fields`, `asdict` and `is_dataclass` treat a record as the dataclass it
    stands for."""

    def __get__(self, obj: Any, cls: Any) -> dict[str, Any]:
        import dataclasses

        made: dict[str, Any] = {}
        for spec in cls.__dict__["__record_fields__"]:
            f: Any = dataclasses.field(
                default=dataclasses.MISSING if spec.default is _MISSING else spec.default,
                default_factory=dataclasses.MISSING if spec.default_factory is _MISSING else spec.default_factory,
                compare=spec.compare, repr=spec.repr)
            f.name = spec.name
            f.type = cls.__dict__.get("__annotations__", {}).get(spec.name, Any)
            f._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # as dataclass() sets it
            made[spec.name] = f
        type.__setattr__(cls, "__dataclass_fields__", made)  # once per class
        return made


@overload
def record(cls: type[T], /) -> type[T]: ...
@overload
def record(*, frozen: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field,), frozen_default=True)
def record(cls: Any = None, /, *, frozen: bool = True) -> Any:
    """`@record` (frozen) or `@record(frozen=False)`: the class's fields made into a record."""
    if cls is None:
        return lambda c: _make(c, frozen)
    return _make(cls, frozen)


def replace(obj: T, **changes: Any) -> T:
    """A copy of a record with some fields changed (as `dataclasses.replace`)."""
    fields = fields_of(type(obj))
    for name in changes:
        if name not in {f.name for f in fields}:
            raise TypeError(f"{type(obj).__qualname__}.__init__() got an unexpected keyword argument {name!r}")
    values = {f.name: changes[f.name] if f.name in changes else getattr(obj, f.name) for f in fields}
    return type(obj)(**values)


# NamedTuple: typing's class syntax, made by collections.namedtuple as typing makes it
_NT_SPECIAL = frozenset({"__module__", "__name__", "__annotations__", "__qualname__", "__doc__"})
_NT_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                            "_make", "_replace", "_asdict", "_source"})


class _NamedTupleMeta(type):
    def __new__(mcls, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        from collections import namedtuple

        if bases != (NamedTuple,):
            raise TypeError("a NamedTuple derives from NamedTuple alone")
        annotations = ns.get("__annotations__", {})
        defaults = []
        for name in annotations:
            if name in ns:
                defaults.append(name)
            elif defaults:
                raise TypeError(f"Non-default namedtuple field {name} cannot follow default field"
                                f"{'s' if len(defaults) > 1 else ''} {', '.join(defaults)}")
        names, values = list(annotations), [ns[n] for n in defaults]  # made here: not literals mypy could check
        made: Any = namedtuple(typename, names, defaults=values, module=ns["__module__"])  # type: ignore[misc]
        made.__annotations__ = made.__new__.__annotations__ = dict(annotations)
        for key, value in ns.items():
            if key in _NT_PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _NT_SPECIAL and key not in made._fields:
                setattr(made, key, value)
        if "__doc__" in ns:
            made.__doc__ = ns["__doc__"]
        return made


NamedTuple: Any = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})
