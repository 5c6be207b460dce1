"""The load cache's directory: it reads back only files that this user's interp wrote there.

A cache entry holds code objects (interp.dsl.cache), so reading one must never be a way for someone else to run
code as this user. The rules, in the order they are checked:

1. **The directory is the user's alone.** It is opened once and then used only through that descriptor; it must
   be a directory owned by the user and writable by no one else (no group or other write bit: as ssh refuses a
   key file others could change). Otherwise there is no cache: nothing is read, written or pruned there.
2. **Entries are opened without following links, and without blocking**: a symlink (to another file, to
   `/dev/stdin`) is refused by `O_NOFOLLOW`, and a FIFO opens at once (`O_NONBLOCK`) and is then refused, as is
   anything that is not a regular file owned by the user, or larger than `MAX_BYTES`.
3. **Every entry is authenticated.** A file is `MAGIC`, then an HMAC-SHA256 of the entry's name and payload, then
   the payload; the key is 32 random bytes in the file `key` of the directory (mode 0600, the user's, made by the
   first interp that writes there). A file whose MAC does not match — another user's, one copied from
   elsewhere, one renamed to another entry's name, a damaged one — is ignored before a byte of it is decoded.
4. **Pruning removes only interp's own files**: names of the entries' shape whose first bytes are `MAGIC`,
   regular files of the user in this directory (links are never followed, subdirectories never entered).

The cache needs POSIX (`O_NOFOLLOW`, descriptors of directories); elsewhere there is none.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     with opened(Path(d), create=True) as folder:
...         folder.write("g-0123456789abcdef0123.x.load", b"payload")
...         folder.read("g-0123456789abcdef0123.x.load")
b'payload'
"""
from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import stat
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

MAGIC = b"interp load cache 3\n"
MAC_BYTES = 32  # HMAC-SHA256
KEY_NAME = "key"
KEY_BYTES = 32
MAX_FILES = 256  # entries kept in the directory, the most recently used
MAX_BYTES = 64 << 20  # an entry larger than this is not read (the largest shipped spec's is ~0.2 MB)
STALE_TEMP_SECONDS = 600  # a temp file older than this was left by a killed write
# An entry's name: a stem of up to 40 characters, 20 hex digits, a Python's cache tag, `.load` (see cache._file_for);
# a temp file is an entry's name between `.` and `.<12 hex digits>.tmp`.
ENTRY = re.compile(r"(?s).{0,40}-[0-9a-f]{20}\.[a-z0-9_-]+\.load")
TEMP = re.compile(r"(?s)\.(.*)\.[0-9a-f]{12}\.tmp")

_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
SUPPORTED = (hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY") and hasattr(os, "getuid")
             and os.open in os.supports_dir_fd and os.scandir in os.supports_fd)


class Folder:
    """A trusted cache directory, open: entries read and written by name through its descriptor."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._key: bytes | None = None

    def read(self, name: str) -> bytes | None:
        """The payload of entry `name` if this user's interp wrote it (see the module's rules), else None."""
        data = self._regular_file(name, MAX_BYTES)
        key = self.key(create=False)
        if data is None or key is None or data[:len(MAGIC)] != MAGIC:
            return None
        payload = data[len(MAGIC) + MAC_BYTES:]
        if not hmac.compare_digest(_mac(key, name, payload), data[len(MAGIC):len(MAGIC) + MAC_BYTES]):
            return None
        try:
            os.utime(name, dir_fd=self.fd, follow_symlinks=False)  # used: the last to be pruned
        except OSError:
            pass
        return payload

    def write(self, name: str, payload: bytes) -> None:
        """Entry `name` := payload, authenticated, atomically (temp file, then rename: a reader sees the old file
        or the new one); then prune. Any failure leaves no file and is silent."""
        key = self.key(create=True)
        if key is None:
            return
        if self._replace(name, MAGIC + _mac(key, name, payload) + payload):
            self.prune()

    def key(self, create: bool) -> bytes | None:
        """This directory's HMAC key; made (and a bad one replaced) when `create`."""
        if self._key is None:
            found = self._regular_file(KEY_NAME, KEY_BYTES, private=True)
            if found is not None and len(found) == KEY_BYTES:
                self._key = found
            elif create:
                fresh = secrets.token_bytes(KEY_BYTES)
                if self._replace(KEY_NAME, fresh):
                    self._key = fresh
        return self._key

    def prune(self) -> None:
        """Remove the least recently used entries beyond MAX_FILES and temp files left by killed writes: only
        interp's own files (module rule 4)."""
        uid, now = os.getuid(), time.time()
        entries, stale = [], []
        try:
            with os.scandir(self.fd) as listing:
                for entry in listing:
                    try:  # another process may remove or rename it meanwhile
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if not stat.S_ISREG(info.st_mode) or info.st_uid != uid:
                        continue
                    if ENTRY.fullmatch(entry.name):
                        entries.append((info.st_mtime_ns, entry.name))
                    elif _temp_of_ours(entry.name) and now - info.st_mtime > STALE_TEMP_SECONDS:
                        stale.append(entry.name)
        except OSError:
            return
        entries.sort(reverse=True)
        old = [name for _, name in entries[MAX_FILES:]]
        for name in old + stale:
            head = self._regular_file(name, len(MAGIC), whole=False)
            if head is None or not (head == MAGIC if name in old else _temp_head(name, head)):
                continue
            try:
                os.unlink(name, dir_fd=self.fd)
            except OSError:
                pass

    def _regular_file(self, name: str, limit: int, private: bool = False, whole: bool = True) -> bytes | None:
        """The bytes of `name` in the directory (at most `limit`): None unless it is a regular file of the user's
        (and, if `private`, readable by no one else), not followed if a link, opened without blocking; with
        `whole`, None if it is larger than `limit`."""
        try:
            fd = os.open(name, _READ, dir_fd=self.fd)
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or private and info.st_mode & 0o077:
                return None
            if whole and info.st_size > limit:
                return None
            chunks, left = [], limit
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            return b"".join(chunks)
        except OSError:
            return None
        finally:
            os.close(fd)

    def _replace(self, name: str, data: bytes) -> bool:
        """Write `data` to `name` via a new temp file (mode 0600) renamed over it; False if that failed."""
        temp = f".{name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(temp, _CREATE, 0o600, dir_fd=self.fd)
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
            return True
        except OSError:
            try:
                os.unlink(temp, dir_fd=self.fd)
            except OSError:
                pass
            return False


def _temp_of_ours(name: str) -> bool:
    """Whether `name` is the temp file of an entry or of the key (`_replace`)."""
    match = TEMP.fullmatch(name)
    return match is not None and (match[1] == KEY_NAME or ENTRY.fullmatch(match[1]) is not None)


def _temp_head(name: str, head: bytes) -> bool:
    """Whether `head` begins a temp file of ours named `name`: an entry's starts with MAGIC (as far as it was
    written), the key's is 32 random bytes."""
    match = TEMP.fullmatch(name)
    return match is not None and (match[1] == KEY_NAME or MAGIC.startswith(head))


def _mac(key: bytes, name: str, payload: bytes) -> bytes:
    """The MAC of an entry: its name is part of what is signed, so an entry renamed to another's is refused."""
    return hmac.new(key, name.encode("utf-8", "surrogatepass") + b"\0" + payload, hashlib.sha256).digest()


@contextmanager
def opened(path: Path, create: bool) -> Iterator[Folder | None]:
    """The cache directory at `path` if it is trusted (module rule 1), else None; made (mode 0700) if missing and
    `create`. Closed on leaving."""
    fd = _open_trusted(path, create) if SUPPORTED else None
    try:
        yield Folder(fd) if fd is not None else None
    finally:
        if fd is not None:
            os.close(fd)


def _open_trusted(path: Path, create: bool) -> int | None:
    if create:
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except OSError:
            return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        info = None
    if info is None or info.st_uid != os.getuid() or info.st_mode & 0o022:
        os.close(fd)
        return None
    return fd

