"""The organiser's password, kept as a scrypt hash: the hub's config never holds it in clear."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

N, R, P = 2**14, 8, 1


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def make_hash(password: str, salt: bytes | None = None) -> str:
    """``scrypt$N$r$p$salt$hash``, for ``[hub] password_hash``."""
    salt = salt if salt is not None else os.urandom(16)
    key = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=N, r=R, p=P, dklen=32)
    return f"scrypt${N}${R}${P}${_b64(salt)}${_b64(key)}"


def _parts(text: str) -> tuple[int, int, int, bytes, bytes] | None:
    fields = text.split("$")
    if len(fields) != 6 or fields[0] != "scrypt":
        return None
    try:
        n, r, p = (int(f) for f in fields[1:4])
        salt, key = base64.b64decode(fields[4], validate=True), base64.b64decode(
            fields[5], validate=True)
    except ValueError:
        return None
    if n < 2 or n & (n - 1) or not 0 < r <= 64 or not 0 < p <= 16 or not salt or not key:
        return None
    return n, r, p, salt, key


def well_formed(text: str) -> bool:
    return _parts(text) is not None


def matches(password: str, stored: str) -> bool:
    parts = _parts(stored)
    if parts is None:
        return False
    n, r, p, salt, key = parts
    got = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=len(key),
                         maxmem=256 * 1024 * 1024)
    return hmac.compare_digest(got, key)
