"""Mutation testing: would the tests notice if this line were wrong?

    git worktree add /tmp/wt HEAD --detach
    .venv/bin/python tools/mutate.py /tmp/wt src/asterion/models/aster.py \
        --tests tests/models/test_aster_rules.py [--functions f,g] [--max N --seed S] [--list]

Each mutant (a comparison turned round, ``and`` for ``or``, a constant off by one, an ``if``
negated, ...) is written into the worktree's copy of the file, the given tests run there
(``PYTHONPATH=WORKTREE/src``, so the worktree's code is the one imported) and the file is
restored. A mutant whose tests still pass SURVIVED: that change would go unnoticed. It is
then either equivalent (it cannot change behaviour), or a test is missing. One line a mutant:

    K  KILLED|SURVIVED|TIMEOUT  line L in FUNC: WHAT  (seconds)  | the original line

Mutant ids K depend only on the file, so ``--only K,K`` re-runs chosen ones. Use a worktree
(not your checkout) so that nothing else imports a mutated file while the tests run.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SWAP_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
SWAP_BIN: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}


@dataclass(frozen=True)
class Mutant:
    """One change: the node it changes (in one parse of the file), how, and which variant."""

    key: int
    node: ast.AST
    what: str
    variant: int
    function: str

    def describe(self, lines: list[str]) -> str:
        line = getattr(self.node, "lineno", 1)
        return f"line {line} in {self.function}: {self.what}  | {lines[line - 1].strip()}"


def enclosing_functions(tree: ast.AST) -> dict[int, str]:
    """id(node) -> the name of the innermost function holding it."""
    owner: dict[int, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = name
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            owner[id(child)] = inner
            visit(child, inner)

    visit(tree, "<module>")
    return owner


def mutation_points(tree: ast.AST) -> Iterator[tuple[ast.AST, str, int]]:
    """(node, description, variant) for every change the tool makes, in a fixed order."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in SWAP_CMP:
                    yield node, f"{type(op).__name__} -> {SWAP_CMP[type(op)].__name__}", i
        elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in SWAP_BIN:
            yield node, f"{type(node.op).__name__} -> {SWAP_BIN[type(node.op)].__name__}", 0
        elif isinstance(node, ast.BoolOp):
            yield node, "and <-> or", 0
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop not", 0
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, f"{node.value} -> {not node.value}", 0
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, f"{node.value} -> {node.value + 1}", 0
            yield node, f"{node.value} -> {node.value - 1}", 1
        elif isinstance(node, ast.If):
            yield node, "negate if", 0
        elif isinstance(node, ast.Break | ast.Continue):
            yield node, "break <-> continue", 0


def apply_mutation(node: ast.AST, variant: int) -> None:
    """Change ``node`` in place."""
    if isinstance(node, ast.Compare):
        node.ops[variant] = SWAP_CMP[type(node.ops[variant])]()
    elif isinstance(node, ast.BinOp | ast.AugAssign):
        node.op = SWAP_BIN[type(node.op)]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.UnaryOp):
        node.op = ast.UAdd()  # +x keeps x's truth: the 'not' is gone
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        node.value = not node.value
    elif isinstance(node, ast.Constant) and isinstance(node.value, int):
        node.value = node.value + (1 if variant == 0 else -1)
    elif isinstance(node, ast.If):
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    elif isinstance(node, ast.Break | ast.Continue):
        node.__class__ = ast.Continue if isinstance(node, ast.Break) else ast.Break


def annotation_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes inside type annotations: changing them changes nothing at run time."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        annotations: list[ast.expr | None] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            annotations = [a.annotation for a in arguments] + [node.returns]
        elif isinstance(node, ast.AnnAssign):
            annotations = [node.annotation]
        for annotation in annotations:
            if annotation is not None:
                skip.update(id(n) for n in ast.walk(annotation))
    return skip


def mutants(source: str, functions: set[str]) -> list[Mutant]:
    """Every mutant of ``source`` (of ``functions`` only, when given)."""
    tree = ast.parse(source)
    owner, skip = enclosing_functions(tree), annotation_nodes(tree)
    found = []
    for key, (node, what, variant) in enumerate(mutation_points(tree)):
        function = owner.get(id(node), "<module>")
        if id(node) not in skip and (not functions or function in functions):
            found.append(Mutant(key, node, what, variant, function))
    return found


def mutated_source(source: str, key: int) -> str:
    """``source`` with mutant ``key`` applied (on a fresh parse, so mutants never stack)."""
    tree = ast.parse(source)
    node, _, variant = list(mutation_points(tree))[key]
    apply_mutation(node, variant)
    return ast.unparse(ast.fix_missing_locations(tree))


def run_tests(worktree: Path, tests: list[str], timeout: float) -> str:
    """KILLED when the tests fail, SURVIVED when they pass, TIMEOUT when they hang."""
    env = dict(os.environ, PYTHONPATH=str(worktree / "src"), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    try:
        done = subprocess.run(command, cwd=worktree, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "TIMEOUT"
    return "SURVIVED" if done.returncode == 0 else "KILLED"


def choose(found: list[Mutant], only: str, most: int, seed: int) -> list[Mutant]:
    if only:
        keys = {int(k) for k in only.split(",")}
        found = [m for m in found if m.key in keys]
    if most and len(found) > most:
        found = sorted(random.Random(seed).sample(found, most), key=lambda m: m.key)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("worktree", type=Path, help="a git worktree of the repository")
    parser.add_argument("srcfile", help="the file to mutate, relative to the worktree")
    parser.add_argument("--tests", nargs="+", default=[], help="pytest files to run")
    parser.add_argument("--functions", default="", help="only these functions (f,g)")
    parser.add_argument("--max", type=int, default=0, help="a random sample of this many")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed")
    parser.add_argument("--timeout", type=float, default=300, help="seconds a test run may take")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--only", default="", help="only these mutant ids (K,K)")
    args = parser.parse_args()

    path = args.worktree / args.srcfile
    original = path.read_text()
    lines = original.splitlines()
    functions = {f for f in args.functions.split(",") if f}
    chosen = choose(mutants(original, functions), args.only, args.max, args.seed)
    if args.list:
        for mutant in chosen:
            print(f"{mutant.key}  {mutant.describe(lines)}", flush=True)
        return
    survived = 0
    try:
        for mutant in chosen:
            path.write_text(mutated_source(original, mutant.key))
            start = time.monotonic()
            verdict = run_tests(args.worktree, args.tests, args.timeout)
            survived += verdict == "SURVIVED"
            seconds = time.monotonic() - start
            print(
                f"{mutant.key}  {verdict}  ({seconds:.0f} s)  {mutant.describe(lines)}", flush=True
            )
    finally:
        path.write_text(original)
    print(f"# {len(chosen)} mutants, {survived} survived")


if __name__ == "__main__":
    main()
