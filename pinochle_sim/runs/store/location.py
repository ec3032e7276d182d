"""Where run folders live: a local folder, or any fsspec URL (an object store, a shared store).

:func:`location` turns what a user typed into a path object. A plain path or a ``file://`` URL
gives a :class:`pathlib.Path`; every other URL (``s3://bucket/runs/p0``, ``gs://...``,
``memory://...``) gives a :class:`UrlPath`, the few ``pathlib`` operations a run folder needs
carried out by the URL's fsspec filesystem. The rest of :mod:`~pinochle_sim.runs.dataset` is
written once against that common surface, plus three helpers for what ``pathlib`` spells as a
function: :func:`replace` (the atomic rename that puts a part in place), :func:`rmtree` and
:func:`arrow` (the source and filesystem pyarrow reads or writes a file with).

Atomicity: a part is written under a temporary name and renamed. A local rename is atomic; an
object store's rename is a copy and a delete, and its objects appear whole or not at all, so a
reader never sees half a part either way. What a store cannot give is the local folder's
``rename over an existing file`` in one step: that only matters to two writers of the same
part, which a run never has.

fsspec is imported only when a URL is used (``run`` on local folders does not load it).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

LOCAL_SCHEMES = ("", "file")
"""Schemes that name a local folder (read and written with ``os`` calls)."""


CACHING_LAYERS = ("simplecache", "filecache", "blockcache", "cached")
"""fsspec layers that cache file contents by name: refused for run folders (:func:`location`)."""
EPHEMERAL_SCHEMES = ("memory",)
"""fsspec stores that live only as long as the process that writes them: a run written there
is gone when the command ends (:func:`outlives_the_process`)."""
GLOB_CHARACTERS = ("[", "]", "*", "?")
"""Characters fsspec's ``mv`` and ``rm`` expand as patterns: refused in a store's path."""


class StorageError(ValueError):
    """A URL that cannot be used: fsspec missing, an unknown scheme, its driver not installed."""


def scheme(path: str | os.PathLike[str]) -> str:
    """The URL scheme of ``path`` (``""`` for a plain path): ``s3`` for ``s3://...``,
    ``simplecache::s3`` for fsspec's chained ``simplecache::s3://...``. Only ``name://`` counts,
    so Windows drives and colons in file names stay paths."""
    text = os.fspath(path)
    head, sep, _ = text.partition("://")
    bare = head.replace("+", "").replace("-", "").replace("::", "")
    return head.lower() if sep and bare.isalnum() else ""


def is_url(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a URL that is not a local folder."""
    return scheme(path) not in LOCAL_SCHEMES


def outlives_the_process(path: str | os.PathLike[str]) -> bool:
    """Whether what is written at ``path`` stays once this process ends (not ``memory://``:
    the library may use it, a command must not write its results there)."""
    return not any(s in EPHEMERAL_SCHEMES for s in scheme(path).split("::"))


def location(path: str | os.PathLike[str] | UrlPath) -> Path | UrlPath:
    """A :class:`~pathlib.Path` for a local path or ``file://`` URL, a :class:`UrlPath` for
    any other fsspec URL; a :class:`StorageError` (one line) for a URL that cannot be used."""
    if isinstance(path, UrlPath | Path):
        return path
    text = os.fspath(path)
    kind = scheme(text)
    if kind == "":
        return Path(text)
    if kind == "file":
        return Path(text.partition("://")[2])
    caches = [layer for layer in kind.split("::") if layer in CACHING_LAYERS]
    if caches:
        raise StorageError(
            f"cannot use {text!r}: a {caches[0]}:: layer keeps copies of files that a run "
            "renames into place and would read stale parts; give the store's own URL"
        )
    odd = [c for c in GLOB_CHARACTERS if c in text.partition("://")[2]]
    if odd:
        raise StorageError(
            f"cannot use {text!r}: {odd[0]!r} in a store's path reads as a pattern to fsspec "
            "(a rename or a removal could reach other files); choose a name without [ ] * ?"
        )
    return UrlPath.parse(text)


def beside(run: str | os.PathLike[str], suffix: str) -> str:
    """Where an output made from a run goes by default: ``RUN{suffix}`` beside a local run;
    for a run on a store, ``NAME{suffix}`` in the current folder (reports and exports are local
    files)."""
    text = os.fspath(run)
    if is_url(text):
        return f"{text.rstrip('/').rsplit('/', 1)[-1]}{suffix}"
    return f"{os.path.normpath(location(text))}{suffix}"


def filesystem(url: str) -> tuple[Any, str]:
    """(fsspec filesystem, path inside it) for ``url``; a one-line :class:`StorageError` when
    fsspec or the scheme's driver is missing."""
    try:
        import fsspec
    except ImportError:
        raise StorageError(
            f"{url!r} is a URL: run folders on a store need fsspec "
            '(pip install fsspec, or pip install "pinochle-sim[cluster]")'
        ) from None
    try:
        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError, TypeError, OSError) as e:
        # a driver not installed ("Install s3fs to access S3"), "Protocol not known", a
        # malformed URL, a filesystem that connects as it is made (ftp, sftp, smb) and cannot
        raise StorageError(f"cannot use {url!r}: {first_line(e)}") from None


def first_line(e: BaseException) -> str:
    """An exception as one line for an error message (its type when it says nothing)."""
    text = str(e).strip()
    return text.splitlines()[0][:200] if text else type(e).__name__


def _store_call(url: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args)`` on a store: its ``OSError``s (a missing file among them) pass as they are;
    anything else a driver raises (missing credentials, a refused request) becomes a one-line
    :class:`StorageError` naming the URL."""
    try:
        return fn(*args, **kwargs)
    except OSError:
        raise
    except Exception as e:
        why = f"{type(e).__name__}: {first_line(e)}"
        raise StorageError(f"the store refused {url!r}: {why}") from e


class _Stat:
    def __init__(self, size: int) -> None:
        self.st_size = size


class UrlPath:
    """A file or folder at an fsspec URL, with the ``pathlib`` operations run folders use.

    ``str()`` gives the URL back, so messages and provenance name what the user typed."""

    def __init__(self, fs: Any, url: str, path: str) -> None:
        self.fs = fs
        self.url = url.rstrip("/")
        self.path = path.rstrip("/") or "/"

    @classmethod
    def parse(cls, url: str) -> UrlPath:
        fs, path = filesystem(url)
        return cls(fs, url, path)

    def __str__(self) -> str:
        return self.url

    def __repr__(self) -> str:
        return f"UrlPath({self.url!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UrlPath) and self.url == other.url

    def __hash__(self) -> int:
        return hash(self.url)

    def __lt__(self, other: UrlPath) -> bool:
        return self.url < other.url

    def __truediv__(self, name: str) -> UrlPath:
        return UrlPath(self.fs, f"{self.url}/{name}", f"{self.path.rstrip('/')}/{name}")

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def suffix(self) -> str:
        name = self.name
        dot = name.rfind(".")
        return name[dot:] if dot > 0 else ""

    @property
    def parent(self) -> UrlPath:
        """The folder above (never above the URL's bucket or root)."""
        if "/" not in self.path.strip("/") or "/" not in self.url.partition("://")[2]:
            return self
        return UrlPath(self.fs, self.url.rsplit("/", 1)[0], self.path.rsplit("/", 1)[0] or "/")

    def with_name(self, name: str) -> UrlPath:
        return self.parent / name

    def exists(self) -> bool:
        return bool(_store_call(self.url, self.fs.exists, self.path))

    def is_dir(self) -> bool:
        return bool(_store_call(self.url, self.fs.isdir, self.path))

    def iterdir(self) -> Iterator[UrlPath]:
        try:
            try:
                names = _store_call(self.url, self.fs.ls, self.path, detail=False, refresh=True)
            except StorageError as e:  # a filesystem whose ls takes no refresh
                if not isinstance(e.__cause__, TypeError):
                    raise
                names = _store_call(self.url, self.fs.ls, self.path, detail=False)
        except FileNotFoundError:  # an object store has no empty folders: nothing there yet
            return
        for n in sorted(names):
            child = n.rstrip("/").rsplit("/", 1)[-1]
            if child:
                yield self / child

    def glob(self, pattern: str) -> Iterator[UrlPath]:
        import fnmatch

        for child in self.iterdir():
            if fnmatch.fnmatchcase(child.name, pattern):
                yield child

    def mkdir(self, parents: bool = False, exist_ok: bool = False) -> None:
        if self.exists() and not exist_ok:
            raise FileExistsError(str(self))
        _store_call(self.url, self.fs.makedirs, self.path, exist_ok=True)

    def stat(self) -> _Stat:
        return _Stat(int(_store_call(self.url, self.fs.size, self.path)))

    def unlink(self, missing_ok: bool = False) -> None:
        try:
            _store_call(self.url, self.fs.rm_file, self.path)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def absolute(self) -> UrlPath:
        return self

    def read_text(self, encoding: str = "utf-8") -> str:
        return bytes(_store_call(self.url, self.fs.cat_file, self.path)).decode(encoding)

    def write_text(self, text: str, encoding: str = "utf-8") -> None:
        _store_call(self.url, self.fs.pipe_file, self.path, text.encode(encoding))


def replace(src: Path | UrlPath, dst: Path | UrlPath) -> None:
    """Move ``src`` onto ``dst`` (atomic for local folders; see the module text for stores).
    On a store: a copy of the one file and the removal of the other (``cp_file``, ``rm_file``:
    unlike ``mv``, neither reads its path as a pattern)."""
    if isinstance(src, UrlPath) and isinstance(dst, UrlPath):
        _store_call(src.url, src.fs.cp_file, src.path, dst.path)
        _store_call(src.url, src.fs.rm_file, src.path)
    else:
        os.replace(src, dst)  # type: ignore[arg-type]


def rmtree(path: Path | UrlPath) -> None:
    """Remove a folder and everything in it. On a store, the files below it one by one: never
    the bucket or container itself, whatever the URL names."""
    if isinstance(path, UrlPath):
        found = _store_call(path.url, path.fs.find, path.path, withdirs=True, detail=True)
        folders = []
        for name, info in sorted(found.items()):
            if info.get("type") == "directory":
                folders.append(name)
            else:
                _store_call(path.url, path.fs.rm_file, name)
        for name in sorted(folders, key=len, reverse=True):  # what a file system keeps empty
            if name.rstrip("/") != path.path.rstrip("/"):
                with contextlib.suppress(OSError, StorageError):
                    _store_call(path.url, path.fs.rmdir, name)
    else:
        shutil.rmtree(path)


def arrow(path: Path | UrlPath) -> tuple[str, Any]:
    """(source, filesystem) for pyarrow's readers and writers: the local path and None, or the
    path inside the store and its fsspec filesystem (pyarrow wraps it)."""
    if isinstance(path, UrlPath):
        return path.path, path.fs
    return str(path), None
