"""Compile a spec's C module with the machine's C compiler, once, and load it with cffi.

The shared library is cached in the user's cache folder (``$RULESPEC_CACHE`` or
``$XDG_CACHE_HOME/rulespec`` or ``~/.cache/rulespec``) under the SHA-256 of everything
that makes it: the generated source (the spec's rules, every reading of them), the runtime
header and source, the compiler flags and version, and rulespec's version; the next load of
the same spec, in any process, opens the cached file. The runtime (``rulespec_native.c``:
the drivers and the random generator) is one more library, cached the same way.

The compiler is ``$CC`` when set, else the first of ``cc``, ``gcc``, ``clang`` on the
``PATH``. Without one (or when compiling fails) :class:`NativeUnavailable` says why, and
the callers use the Python backend instead.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

#: no -ffast-math: the chance draws need IEEE doubles, as Python's
FLAGS = ("-shared", "-fPIC", "-std=gnu11", "-w")
#: a module up to this many characters of C is compiled with -O2, a larger one with -O1
#: (Hawaii's 800 kB compile in about 5 CPU seconds at -O1, several times that at -O2)
SMALL = 200_000

CDEF = """
typedef int64_t V;
typedef struct rs_game rs_game;
typedef struct rs_rng rs_rng;
typedef struct rs_work rs_work;
typedef struct rs_play_opts {
    int32_t policy; int32_t by_weight; int32_t limit; int32_t until_over; int32_t count;
} rs_play_opts;
typedef struct rs_check_opts {
    int32_t props; const int8_t *inv; const int8_t *cons; int32_t policy; int32_t record;
    int32_t n_every; const int32_t *every;
} rs_check_opts;

const rs_game *rs_game_table(void);

rs_rng *rs_rng_new(void);
void rs_rng_free(rs_rng *r);
void rs_rng_copy(rs_rng *dst, const rs_rng *src);
void rs_rng_seed(rs_rng *r, const uint32_t *key, int32_t n);
void rs_rng_set(rs_rng *r, const uint32_t *state);
void rs_rng_get(const rs_rng *r, uint32_t *state);
uint64_t rs_getrandbits(rs_rng *r, int k);
int64_t rs_randbelow(rs_rng *r, int64_t n);
double rs_random(rs_rng *r);
int64_t rs_tuple_hash(const V *s, int32_t n);
int rs_closure_connected(int32_t size, const int32_t *start, const int32_t *nbr,
                         const unsigned char *m, const int32_t *src, int32_t nsrc,
                         const int32_t *dst, int32_t ndst);
V rs_closure_component(int32_t size, const int32_t *start, const int32_t *nbr,
                       const unsigned char *m, V from);
V rs_closure_largest(int32_t size, const int32_t *start, const int32_t *nbr,
                     const unsigned char *m, const V *labels, V n_labels);

int rs_initial(const rs_game *g, const V *I, V n, V *out);
int rs_terminal(const rs_game *g, const V *I, const V *s);
int rs_current_player(const rs_game *g, const V *I, const V *s, V *out);
int rs_legal(const rs_game *g, const V *I, const V *s, int32_t *k, V *w, int32_t *n);
int rs_chance_weights(const rs_game *g, const V *I, const V *s, int32_t *k, V *w, int32_t *n);
int rs_step(const rs_game *g, const V *I, const V *s, const int32_t *key, V *out);
int rs_apply(const rs_game *g, const V *I, const V *s, const int32_t *key, V *out);
int rs_pre(const rs_game *g, const V *I, int32_t i, int32_t j, const V *s, const int32_t *params);
int rs_scores(const rs_game *g, const V *I, const V *s, V *out);
int rs_tie(const rs_game *g, const V *I, int32_t k, const V *s, V p, V *out);
int rs_inv(const rs_game *g, const V *I, int32_t k, const V *s);
int rs_cons(const rs_game *g, const V *I, int32_t k, const V *s, V *out);
int rs_observe(const rs_game *g, const V *I, const V *s, V p, V *out);

rs_work *rs_work_new(const rs_game *g);
void rs_work_free(rs_work *w);
int rs_work_record(rs_work *w);
int32_t rs_work_steps(const rs_work *w);
int32_t rs_work_truncated(const rs_work *w);
int32_t rs_work_trace_len(const rs_work *w);
const int32_t *rs_work_trace(const rs_work *w);
const V *rs_work_states(const rs_work *w);
const V *rs_work_final(const rs_work *w);
int32_t rs_work_winners(const rs_work *w, int32_t which, int32_t *out);
int64_t rs_work_state_count(const rs_work *w);
void rs_work_set_state_count(rs_work *w, int64_t n);

int rs_play(rs_work *w, const V *I, rs_rng *r, V n, const V *start, const rs_play_opts *o,
            int64_t *branches, int64_t *taken);
int rs_leaf(rs_work *w, const V *I, const V *s, int32_t steps);
int rs_check(rs_work *w, const V *I, rs_rng *r, V n, const rs_check_opts *o);
int rs_lockstep(rs_work *wd, const V *Id, rs_work *ws, const V *Is, rs_rng *rng,
                rs_rng *own, V n, int32_t policy);
"""


class NativeUnavailable(Exception):
    """No C module for this spec: no compiler, or it failed (the message says which)."""


def _package_file(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _runtime_sources() -> tuple[str, str]:
    return _package_file("rulespec_native.h"), _package_file("rulespec_native.c")


def compiler() -> list[str] | None:
    """The C compiler's command: ``$CC`` (if it names a program found), else the first of
    cc, gcc, clang on the PATH; None when there is none."""
    given = os.environ.get("CC")
    if given is not None:
        parts = shlex.split(given)
        return parts if parts and shutil.which(parts[0]) else None
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


@functools.lru_cache(maxsize=8)
def _compiler_identity(command: tuple[str, ...]) -> str:
    try:
        done = subprocess.run([*command, "--version"], capture_output=True, text=True,
                              timeout=30, check=False)
        return done.stdout.splitlines()[0] if done.stdout else command[0]
    except (OSError, subprocess.SubprocessError):
        return command[0]


def cache_dir() -> Path:
    base = os.environ.get("RULESPEC_CACHE")
    if base:
        return Path(base) / "native"
    xdg = os.environ.get("XDG_CACHE_HOME")
    root = Path(xdg) if xdg else Path.home() / ".cache"
    return root / "rulespec" / "native"


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("rulespec")
    except Exception:  # noqa: BLE001 - running from a source tree
        return "source"


def build(source: str, name: str) -> Path:
    """The shared library of C ``source`` (compiled now, or found in the cache)."""
    header, _ = _runtime_sources()
    command = compiler()
    flags = ["-O2" if len(source) <= SMALL else "-O1", *FLAGS]
    key = hashlib.sha256("\0".join([source, header, " ".join(flags), _version(),
                                    _compiler_identity(tuple(command)) if command else ""]
                                   ).encode()).hexdigest()[:32]
    folder = cache_dir()
    path = folder / f"{name}-{key}.so"
    if path.is_file():
        return path
    if command is None:
        given = os.environ.get("CC")
        raise NativeUnavailable(f"no C compiler found (CC={given!r} is not a program)"
                                if given is not None else
                                "no C compiler found (looked for cc, gcc and clang; set CC)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise NativeUnavailable(f"cannot write the cache folder {folder}: {err}") from None
    with tempfile.TemporaryDirectory(prefix="rulespec-c-") as tmp:
        c_file = Path(tmp) / f"{name}.c"
        c_file.write_text(source, encoding="utf-8")
        (Path(tmp) / "rulespec_native.h").write_text(header, encoding="utf-8")
        out = Path(tmp) / "out.so"
        try:
            done = subprocess.run([*command, *flags, "-I", tmp, str(c_file), "-o", str(out)],
                                  capture_output=True, text=True, check=False)
        except OSError as err:
            raise NativeUnavailable(f"the C compiler {command[0]} could not run: {err}") from None
        if done.returncode != 0:
            first = (done.stderr or done.stdout).strip().splitlines()[:3]
            raise NativeUnavailable(f"the C compiler failed on {name}: " + " / ".join(first))
        # staged under a name of its own (another process or thread may be building the
        # same module), then renamed: atomic, so a reader sees no file or a whole one
        fd, staged = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as dst, open(out, "rb") as src:
                shutil.copyfileobj(src, dst)
            os.replace(staged, path)
        except OSError as err:
            Path(staged).unlink(missing_ok=True)
            raise NativeUnavailable(f"cannot write the cache folder {folder}: {err}") from None
    return path


@functools.lru_cache(maxsize=1)
def ffi() -> Any:
    try:
        import cffi
    except ImportError:
        raise NativeUnavailable("the cffi package is not installed") from None
    f = cffi.FFI()
    f.cdef(CDEF)
    return f


@functools.lru_cache(maxsize=1)
def runtime() -> Any:
    """The drivers' library (one per process)."""
    _, text = _runtime_sources()
    return ffi().dlopen(str(build(text, "rulespec_native")))


def load(source: str, name: str) -> tuple[Any, Any]:
    """``(game library, its rs_game table)`` of a game module's source."""
    f = ffi()
    lib = f.dlopen(str(build(source, name)))
    return lib, lib.rs_game_table()
