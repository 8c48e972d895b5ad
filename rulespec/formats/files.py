"""Reading and writing data files: bounded reads, parsers that give a line, atomic writes
that leave no stray temporary file, and output folders checked before any work.

Every file rulespec writes goes through :func:`write_atomically`: a reader sees the old
file or the new one, never half. The temporary file is named after the writing process
(``.NAME.PID.rulespec-tmp``), so that a run killed mid-write leaves a file the next run in
that folder recognises as stale (its process is gone) and removes.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any, Callable

from .errors import FormatError

_TMP = re.compile(r"^\..+\.(\d+)\.rulespec-tmp$")


class OutputError(OSError):
    """An output cannot be written (one line: which path, and why)."""


def why(err: OSError) -> str:
    """An OS error in words: "No space left on device", not "OSError 28"."""
    if err.strerror:
        return err.strerror
    return os.strerror(err.errno) if err.errno else str(err)


# --- reading ---------------------------------------------------------------------------------
def read_text(path: str | os.PathLike, *, what: str, max_bytes: int,
              error: Callable[..., FormatError] = FormatError) -> str:
    """A data file's text: :class:`FormatError` (or ``error``) for a folder, a device, a
    missing, unreadable, huge or binary file. At most ``max_bytes + 1`` bytes are read."""
    shown = os.fspath(path)
    p = Path(path)
    try:
        if p.is_dir():
            raise error(shown, f"is a folder, not a {what}")
        if p.exists() and not p.is_file():
            raise error(shown, "not a regular file (a device or a pipe?)")
        with open(p, "rb") as fh:
            raw = fh.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise error(shown, f"too large for a {what} (more than {max_bytes} bytes)")
        return raw.decode("utf-8")
    except FileNotFoundError:
        raise error(shown, "no such file") from None
    except UnicodeDecodeError:
        raise error(shown, f"not a {what}: not UTF-8 text") from None
    except ValueError as err:   # a NUL byte in the path
        if isinstance(err, FormatError):
            raise
        raise error(shown, f"not a file name: {err}") from None
    except OSError as err:
        raise error(shown, f"cannot read the file: {why(err)}") from None


def parse_json(text: str, path: str, *, what: str,
               error: Callable[..., FormatError] = FormatError) -> Any:
    """The JSON value of ``text``; the error names the line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise error(path, f"not valid JSON ({err.msg})", line=err.lineno) from None
    except RecursionError:
        raise error(path, f"not a {what}: JSON nested too deeply") from None


def parse_toml(text: str, path: str, *,
               error: Callable[..., FormatError] = FormatError) -> dict[str, Any]:
    """The TOML table of ``text``; the error names the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line, problem = _toml_error(str(err), text)
        raise error(path, f"not valid TOML: {problem}", line=line) from None
    except RecursionError:
        raise error(path, "not valid TOML: nested too deeply") from None


def _toml_error(message: str, text: str) -> tuple[int | None, str]:
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)", message)
    if m:
        return int(m.group(1)), message[:m.start()] + f" (column {m.group(2)})"
    m = re.search(r"\s*\(at end of document\)", message)
    if m:
        return max(1, len(text.splitlines())), message[:m.start()] + " (at the end of the file)"
    return None, message


# --- writing ---------------------------------------------------------------------------------
def dump_json(data: Any) -> str:
    """Pretty JSON text with a final newline (the one JSON writer of every file)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def dump_toml(data: dict[str, Any], comments: list[str] = ()) -> str:
    """TOML text of ``data`` (written by tomli-w, never by hand), after ``comments``: each
    comment is cut at every line break and control character, so no text put in a comment
    can become a live key or table."""
    import tomli_w
    head = [f"# {part}".rstrip() for text in comments for part in comment_lines(text)]
    body = tomli_w.dumps(data)
    text = "\n".join(head) + ("\n" if head else "") + body
    assert tomllib.loads(text) == tomllib.loads(body)   # the comments are only comments
    return text


_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def comment_lines(text: str) -> list[str]:
    """``text`` as lines safe after ``#``: split at any line break (``\\r``, U+2028...),
    control characters dropped."""
    return [_CONTROL.sub("", line) for line in str(text).splitlines()] or [""]


def write_atomically(path: str | os.PathLike, text: str, *, mode: int | None = None) -> Path:
    """Write ``text`` to ``path`` so that a reader sees the old file or the new, never half;
    the folder's stale temporary files (of runs that were killed) are removed first.
    Raises ``OSError`` as the system does."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(target.parent)
    tmp = target.parent / f".{target.name}.{os.getpid()}.rulespec-tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if mode is None else mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target


def clean_stale(folder: str | os.PathLike) -> list[Path]:
    """Remove the temporary files in ``folder`` whose writing process is gone."""
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = _TMP.match(entry.name)
        if not m or _alive(int(m.group(1))):
            continue
        try:
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True   # this process's own write, under way
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    except OSError:
        return False
    return True


# --- outputs checked before the work ----------------------------------------------------------
def check_output_dir(path: str | os.PathLike, option: str, *, probe: bool = True) -> Path:
    """``path`` can be a folder rulespec writes into: it is one, or can be made one, and
    (with ``probe``) a file can be written there. Raises :class:`OutputError` (one line
    naming ``option``)."""
    target = Path(path)
    try:
        is_file = target.exists() and not target.is_dir()
    except (OSError, ValueError) as err:
        raise OutputError(f"{option} {path}: not a usable path ({err})") from None
    if is_file:
        raise OutputError(f"{option} {path}: is a file, not a folder")
    folder = _nearest_existing(target, option, path)
    if probe:
        _probe(folder, option, path)
    return target


def check_output_file(path: str | os.PathLike, option: str, *, probe: bool = True) -> Path:
    """``path`` can be written as a file: not a folder, in a folder that is or can be made
    and (with ``probe``) that a file can be written to."""
    target = Path(path)
    try:
        is_dir = target.is_dir()
    except (OSError, ValueError) as err:
        raise OutputError(f"{option} {path}: not a usable path ({err})") from None
    if is_dir:
        raise OutputError(f"{option} {path}: is a folder; give a file name")
    folder = _nearest_existing(target.parent, option, path)
    if probe:
        _probe(folder, option, path)
    return target


def _nearest_existing(folder: Path, option: str, shown: Any) -> Path:
    p = folder if str(folder) else Path(".")
    while True:
        try:
            if p.exists():
                break
        except (OSError, ValueError) as err:
            raise OutputError(f"{option} {shown}: not a usable path ({err})") from None
        if p.parent == p:
            break
        p = p.parent
    if not p.is_dir():
        raise OutputError(f"{option} {shown}: {p} is a file, not a folder")
    return p


def _probe(folder: Path, option: str, shown: Any) -> None:
    """Write one byte in ``folder`` and remove it: the cheapest proof a write can work."""
    probe = folder / f".probe.{os.getpid()}.rulespec-tmp"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as err:
        where = "" if Path(shown) == folder else f" (in {folder})"
        raise OutputError(f"{option} {shown}: cannot write there{where}: {why(err)}") from None
    finally:
        try:
            os.unlink(probe)
        except OSError:
            pass
