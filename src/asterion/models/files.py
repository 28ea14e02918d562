"""Reading user files at the door: size limit, JSON syntax, then a pydantic schema.

Every failure becomes an :class:`~asterion.errors.InputError` whose one-line message names the
file, the field and the problem, e.g. ``state.json: stars.2XX: unknown point '2XX'``.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from pydantic import BaseModel, ValidationError

from asterion.errors import InputError, TooLargeError

MAX_FILE_BYTES = 1_000_000
"""Input files larger than this are refused: no position, catalog or tile set needs more."""
SHOWN = 60
"""Characters of a wrong value shown in an error message (a whole object would flood the line)."""

ModelT = TypeVar("ModelT", bound=BaseModel)
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")

_PLAIN_DIGITS = re.compile("[0-9]+")


def plain_digits(text: str) -> bool:
    """Is ``text`` written in the digits 0-9 alone? ``str.isdigit`` also says yes to "²",
    which ``int`` refuses, and to "٤", which it reads; ``int`` also takes "+4", "4_0" and " 4"."""
    return _PLAIN_DIGITS.fullmatch(text) is not None


def read_json_text(text: str, source: str) -> Any:
    """Parse JSON text, naming ``source`` and the position of a syntax error."""
    # The limit is in bytes (UTF-8, as files are read); a character takes 1 to 4, so more
    # characters than the limit are over it without encoding a possibly huge text.
    if len(text) > MAX_FILE_BYTES or len(text.encode()) > MAX_FILE_BYTES:
        raise TooLargeError(f"input is over {MAX_FILE_BYTES} bytes (the limit)", source=source)
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except _DuplicateKeyError as error:
        raise InputError(
            f"key {error.key!r} appears twice in one object (the last would silently win)",
            source=source,
        ) from None
    except json.JSONDecodeError as error:
        raise InputError(
            f"not valid JSON: {error.msg} (line {error.lineno} column {error.colno})",
            source=source,
        ) from None
    except RecursionError:
        raise InputError("not valid JSON: nested too deeply", source=source) from None
    except ValueError as error:  # e.g. an integer longer than Python converts (4300 digits)
        raise InputError(f"not valid JSON: {_json_value_problem(error)}", source=source) from None


def _json_value_problem(error: ValueError) -> str:
    """What a ValueError of the JSON reader says, without Python's advice to programmers."""
    if "digits" in str(error):
        return "a number has too many digits (at most 4300)"
    return str(error)


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """JSON objects with a repeated key are refused: the last value would silently win."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKeyError(key)
        result[key] = value
    return result


def read_json_file(path: Path | str) -> Any:
    """Read and parse a JSON file, refusing files over :data:`MAX_FILE_BYTES`."""
    return read_json_text(read_text_file(path), str(path))


STDIN = "-"
"""The path that reads standard input, as Unix tools do (``cat puzzle.txt | asterion nacht
solve -``)."""


def read_text_file(path: Path | str) -> str:
    """Read a UTF-8 text file (a leading byte-order mark dropped), refusing files over
    :data:`MAX_FILE_BYTES`; ``-`` reads standard input."""
    if str(path) == STDIN:
        return _decoded(_read_capped(sys.stdin.buffer, STDIN), STDIN)
    path = Path(path)
    source = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise TooLargeError(
                f"file is {size} bytes; the limit is {MAX_FILE_BYTES} bytes", source=source
            )
        with path.open("rb") as stream:
            raw = _read_capped(stream, source)
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=source) from None
    except OSError as error:
        raise InputError(f"cannot be read: {error.strerror}", source=source) from None
    return _decoded(raw, source)


def _read_capped(stream: BinaryIO, source: str) -> bytes:
    """At most :data:`MAX_FILE_BYTES` of ``stream`` (a pipe or a device has no size to check
    first: one byte more is read, to tell)."""
    raw = stream.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise TooLargeError(f"input is over {MAX_FILE_BYTES} bytes (the limit)", source=source)
    return raw


def _decoded(raw: bytes, source: str) -> str:
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark (Windows editors) is not content
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", source=source) from None


def validate(model: type[ModelT], data: Any, source: str) -> ModelT:
    """``data`` (parsed JSON) as a ``model``, with the first error as a one-line
    :class:`InputError`. JSON's types are kept to the letter (pydantic's strict mode on JSON):
    a string, a fraction or true is no integer, even "1", 4.0 or true; a whole number is a
    fraction where one is asked."""
    try:
        text = json.dumps(data, allow_nan=False)
    except ValueError:  # (Python's JSON reader lets NaN, infinity and 1e400 through)
        field = ".".join(map(str, _non_finite(data)))
        raise InputError(
            "is not a finite number (NaN, infinity or too large)", source=source, field=field
        ) from None
    try:
        return model.model_validate_json(text, strict=True)
    except ValidationError as error:
        errors = error.errors()
        field, problem = _first_problem(data, errors)
        raise InputError(problem, source=source, field=field or None) from None


def _first_problem(data: Any, errors: list[Any]) -> tuple[str, str]:
    """The first error's field and problem. Where a value may be of several kinds (a union),
    pydantic reports one error per kind, each under a step of its own (``int``,
    ``literal['0/6']``) that names nothing in the file: those steps are left out, and the
    errors of one value are one problem, with every kind the value may be."""
    where = _in_data(data, errors[0])
    kinds = [e for e in errors if _in_data(data, e) == where]
    wants = [_wanted(e) for e in kinds]
    field = ".".join(map(str, where))
    if len(kinds) == 1 or None in wants:
        return field, _describe(errors[0])
    unique = " or ".join(dict.fromkeys(w for w in wants if w is not None))
    return field, f"should be {unique} (got {_shown(errors[0].get('input'))})"


def _wanted(error: Any) -> str | None:
    """What one kind of a union asks for ("a valid integer", "'0/6'"), None if it says
    something else (a check of the value, not of its kind)."""
    kind, message = error.get("type", ""), str(error["msg"])
    if kind in ("model_type", "dict_type"):
        return "a JSON object"
    if message.startswith("Input should be "):
        return message.removeprefix("Input should be ")
    return None


def _non_finite(data: Any) -> tuple[str | int, ...]:
    """Where ``data`` holds a NaN or an infinity."""
    if isinstance(data, dict):
        items: Any = data.items()
    else:
        items = enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        if isinstance(value, float) and not math.isfinite(value):
            return (key,)
        if inner := _non_finite(value):
            return (key, *inner)
    return ()


def _holds(data: Any, part: str | int) -> bool:
    """Whether ``part`` names something in ``data`` (a key of an object, an index of an array)."""
    if isinstance(data, dict):
        return part in data
    return isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)


def _in_data(data: Any, error: Any) -> tuple[str | int, ...]:
    """The error's location less the steps that name nothing in ``data`` (the kind of a union
    pydantic tried); kept: ``[key]`` (the key itself is wrong) and a missing field's name."""
    path: list[str | int] = []
    last = len(error["loc"]) - 1
    for k, part in enumerate(error["loc"]):
        if _holds(data, part):
            data = data[part]
            path.append(part)
        elif part == "[key]" or (k == last and error.get("type") == "missing"):
            path.append(part)
    return tuple(path)


def _describe(error: Any) -> str:
    message = str(error["msg"])
    kind = error.get("type", "")
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "missing":
        return "required field is missing"
    if kind in ("model_type", "dict_type"):  # pydantic names its own classes here
        return f"should be a JSON object, not {_json_type(error.get('input'))}"
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    if kind in ("enum", "literal_error") or "Input should be" in message:
        return f"{message} (got {_shown(error.get('input'))})"
    return message


def _shown(value: Any) -> str:
    """A value as the file wrote it (JSON: ``null``, ``true``, ``"1"``), cut short if long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _json_type(value: Any) -> str:
    """What a parsed JSON value was written as."""
    if isinstance(value, bool):
        return "true or false"
    names = {type(None): "null", str: "a string", int: "a number", float: "a number"}
    names |= {list: "an array", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def replay_words(
    start: StateT,
    words: Sequence[str],
    parse: Callable[[StateT, str], MoveT],
    step: Callable[[StateT, MoveT], StateT],
    source: str,
) -> tuple[list[StateT], list[MoveT]]:
    """A game record's moves in words, each read by ``parse`` in the state before it and
    applied by ``step``: the states before each move, then the state after the last, and
    the moves.

    :raises InputError: naming ``source`` and the move (``moves.i``) ``parse`` refuses.
    """
    states, moves = [start], []
    for i, text in enumerate(words):
        try:
            move = parse(states[-1], text)
        except InputError as error:
            raise InputError(error.problem, source=source, field=f"moves.{i}") from None
        moves.append(move)
        states.append(step(states[-1], move))
    return states, moves
