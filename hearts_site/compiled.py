"""The two modules whose loops the searches spend their time in, compiled to C by mypyc.

The rules kernel (``games/engine/kernel.py``: dealing, every card played, random playouts)
and the Medium policy the Hard search plays its worlds out with (``games/bots/policy.py``)
are typed Python that mypyc turns into C extension modules beside them, about twice as fast.
Python imports an extension module before a source file of the same name, so nothing else
changes: the source stays the one definition, the browser's offline table runs it as it is,
and a machine without a C compiler runs it too, slower.

    python -m hearts_site.compiled            # compile them unless current (make does, before run and test)
    python -m hearts_site.compiled --force    # compile them again
    python -m hearts_site.compiled --check    # which are compiled, and whether from today's source
    python -m hearts_site.compiled --remove   # back to the source alone

A build is recorded with the digest of each source it was made from (``build/compiled.json``);
an extension whose source has changed since is *stale*, and the site refuses to start with it
(``games.apps``) rather than run yesterday's rules. ``tests/test_compiled.py`` plays the
compiled modules against their source.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("games/engine/kernel.py", "games/bots/policy.py")
RECORD = ROOT / "build" / "compiled.json"


def digest(source: str) -> str:
    """The SHA-256 of the source file ``source`` (a path from the project's root)."""
    return hashlib.sha256((ROOT / source).read_bytes()).hexdigest()


def extensions(source: str) -> list[Path]:
    """The compiled extension files beside ``source`` (none when it runs as source)."""
    path = ROOT / source
    stem = path.name.removesuffix(".py")
    return [path.with_name(stem + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if path.with_name(stem + suffix).exists()]


def compiled() -> list[str]:
    """The modules of :data:`MODULES` that have an extension beside their source."""
    return [source for source in MODULES if extensions(source)]


def stale() -> list[str]:
    """The compiled modules whose source is not the one their extension was built from."""
    try:
        built = json.loads(RECORD.read_text())
    except (OSError, ValueError):
        built = {}
    return [source for source in compiled() if built.get(source) != digest(source)]


def load_source(source: str) -> ModuleType:
    """The module of ``source`` run from its source file, even where its compiled extension
    is what imports under its name: for its docstring examples, which a compiled module does
    not keep, and to play the source against the compiled module. Not put in ``sys.modules``.
    """
    name = source.removesuffix(".py").replace("/", ".")
    loader = importlib.machinery.SourceFileLoader(name, str(ROOT / source))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _shared_libraries() -> list[Path]:
    # mypyc puts the code of several modules in one library at the top of the tree
    return [path for suffix in importlib.machinery.EXTENSION_SUFFIXES for path in ROOT.glob("*__mypyc" + suffix)]


def remove() -> None:
    """Delete the extensions, so that every module runs as source."""
    for path in [*(p for source in MODULES for p in extensions(source)), *_shared_libraries()]:
        path.unlink()
    RECORD.unlink(missing_ok=True)


def current() -> bool:
    """Every module of :data:`MODULES` is compiled from its source as it is now."""
    return compiled() == list(MODULES) and not stale()


def build() -> int:
    """Compile :data:`MODULES` with mypyc and record what they were built from; returns
    mypyc's exit status (0: built). On failure, nothing compiled is left behind."""
    remove()
    sources = {source: digest(source) for source in MODULES}
    done = subprocess.run([sys.executable, "-m", "mypyc", *MODULES], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0 or len(compiled()) != len(MODULES):
        remove()
        sys.stderr.write(done.stdout[-4000:])
        return done.returncode or 1
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text(json.dumps(sources, indent=1))
    if stale():  # a source was edited while it compiled
        remove()
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        old, built = stale(), compiled()
        for source in MODULES:
            print(f"{source}: {'stale' if source in old else 'compiled' if source in built else 'source'}")
        return 1 if old else 0
    if args == ["--remove"]:
        remove()
        return 0
    if args not in ([], ["--force"]):
        sys.stderr.write("usage: python -m hearts_site.compiled [--force | --check | --remove]\n")
        return 2
    if current() and not args:
        return 0
    status = build()
    if status:
        sys.stderr.write("hearts_site.compiled: mypyc could not compile the modules; they run as source.\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
