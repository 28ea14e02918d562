"""The one switch for the compiled loops (the edge-matching search, the Stellar flow check):
numba compiles a decorated function (cached on disk, releasing the interpreter lock); without
numba the same code runs as plain Python, correct and far slower. Numba's compiles are timed
by :data:`.compile_clock.compile_clock`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from asterion.solver.compile_clock import compile_clock

F = TypeVar("F", bound=Callable[..., Any])

prefetch: Callable[[Any, Any], None]
"""``prefetch(array, index)``: ask the processor to fetch ``array[index]`` into its caches
(LLVM's prefetch: for reading, kept in every level), without waiting for it, so that a loop
about to read scattered places of a large table overlaps those waits. No effect on values;
nothing in plain Python."""


def _nothing(array: Any, index: Any) -> None:
    """Plain Python has no cache to warm."""


try:
    from llvmlite import ir  # type: ignore[import-untyped,unused-ignore]
    from numba import config as _config
    from numba import njit as _numba_njit  # type: ignore[import-untyped,unused-ignore]
    from numba import types as _types
    from numba.core import cgutils
    from numba.core import event as _event
    from numba.extending import intrinsic

    HAVE_NUMBA = True

    # Told of each compile (its "numba:compile" event), so that searches can leave it out of
    # their time limits.
    class _CompileListener(_event.Listener):  # type: ignore[misc,unused-ignore]
        def on_start(self, event: Any) -> None:
            compile_clock.started()

        def on_end(self, event: Any) -> None:
            compile_clock.ended()

    _event.register("numba:compile", _CompileListener())  # type: ignore[no-untyped-call]

    def compiled(func: F) -> F:
        return _numba_njit(cache=True, nogil=True)(func)  # type: ignore[return-value]

    def _prefetch(typingctx: Any, array: Any, index: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            kind = signature.args[0]
            table = context.make_array(kind)(context, builder, args[0])
            where = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
                context, builder, kind, table, [args[1]]
            )
            byte_pointer, word = ir.IntType(8).as_pointer(), ir.IntType(32)
            call = ir.FunctionType(ir.VoidType(), [byte_pointer, word, word, word])
            function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
                builder.module, call, "llvm.prefetch.p0i8"
            )
            builder.call(function, [builder.bitcast(where, byte_pointer), *map(word, (0, 3, 1))])
            return context.get_dummy_value()

        return _types.void(array, index), codegen

    # (NUMBA_DISABLE_JIT runs the loops as plain Python, which cannot call an intrinsic)
    jit_off = bool(getattr(_config, "DISABLE_JIT", False))
    prefetch = _nothing if jit_off else intrinsic(_prefetch)  # type: ignore[assignment]

except ImportError:  # pragma: no cover - exercised only where numba is missing
    HAVE_NUMBA = False

    def compiled(func: F) -> F:
        return func

    prefetch = _nothing
