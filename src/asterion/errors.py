"""Errors shared by every layer.

:class:`InputError` is what a user mistake becomes: bad files, unknown names, impossible
positions. Its message is one line that names where the problem is (file, field) and what
was expected, so the command line can print it as it is and exit with status 2.
"""

from __future__ import annotations


class InputError(ValueError):
    """A user-supplied input is invalid.

    Parameters
    ----------
    problem:
        What is wrong and, where it helps, what was expected.
    source:
        The file (or other origin, such as ``--pattern``) the input came from.
    field:
        The dotted path of the offending field inside the source, if any.
    """

    def __init__(self, problem: str, *, source: str | None = None, field: str | None = None):
        self.problem = problem
        self.source = source
        self.field = field
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """``source: field: problem`` on one line, printable, each part at most
        :data:`MAX_SHOWN` characters (a field name or a value echoed from the input may be
        huge, or hold control characters that a terminal would act on)."""
        parts = [part for part in (self.source, self.field) if part]
        parts.append(self.problem)
        return ": ".join(_shown(part) for part in parts)

    def located(self, source: str) -> InputError:
        """The same error, attributed to ``source`` if it has no source yet."""
        if self.source:
            return self
        return InputError(self.problem, source=source, field=self.field)


MAX_SHOWN = 300


def _shown(text: str) -> str:
    r"""``text`` printable on one line (other characters escaped, as in Python strings) and
    cut in the middle to :data:`MAX_SHOWN` characters.

    >>> print(_shown("a\nb\x1b[31m"))
    a b\x1b[31m
    """
    text = text.replace("\n", " ")
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
    if len(text) <= MAX_SHOWN:
        return text
    half = (MAX_SHOWN - 1) // 2  # both ends kept: a value echoed mid-sentence loses its middle
    return text[:half] + "…" + text[len(text) - (MAX_SHOWN - 1 - half) :]


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the given state (a bug or a user mistake)."""


class TooLargeError(InputError):
    """An input too large to answer within the documented limits; the message names the limit."""
