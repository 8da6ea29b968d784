"""What the engine's source tells the mypyc build (README, "The compiled engine").

The install compiles the hot modules of the engine with mypyc when it can (the list is
``[tool.hatch.build.hooks.custom]`` in pyproject.toml); the same source also runs as
plain Python. mypyc turns each class of a compiled module into a *native* class whose
attributes check their types on every assignment, before any of the class's own code
runs. A value class whose constructor promises to refuse badly typed fields with an
engine error (``Action``'s ``malformed_action``, ``Result`` reading its reason from
text) would then raise a bare TypeError instead: :func:`python_class` keeps such a
class an ordinary Python class, and reads the fields it checks through :func:`given`,
so both engines answer bad input alike.

A native class that stays frozen cannot be pickled or copied by mypyc's default means
(they assign each field after building the object); :func:`by_fields`, registered with
``copyreg`` for the engine's other frozen records, rebuilds one from its fields instead.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["by_fields", "given", "python_class"]

_Class = TypeVar("_Class", bound=type)


def python_class(cls: _Class) -> _Class:
    """Keep ``cls`` a Python class when mypyc compiles its module; a no-op at run time.

    mypyc compiles a class with any decorator other than the dataclass one as an
    ordinary Python class (its methods are still compiled).
    """
    return cls


def given(record: object, name: str) -> object:
    """Return the attribute ``name`` of ``record`` as it was set, whatever its type.

    For a constructor's own checks: compiled code reading an attribute with a declared
    type checks the value against that type first, and raises TypeError if it differs.
    """
    return getattr(record, name)


def by_fields(record: Any) -> tuple[type[Any], tuple[object, ...]]:
    """Reduce a frozen dataclass to its class and its field values in order: how
    ``pickle`` and ``copy`` rebuild it (a ``copyreg`` reducer)."""
    values = tuple(getattr(record, field.name) for field in dataclasses.fields(record))
    return type(record), values
