"""Settings values that check themselves: one validator per value, wherever the value comes from.

A component's settings are a frozen dataclass whose fields are declared with :func:`setting`
(type, range, choices). Making one checks every field against its declaration, so a value is
refused the same way whether it came from the config file or from code, and the config
(:mod:`device.config`) builds each section by keyword from the file's keys, naming the section and
key of whatever is refused (Klipper's config getters do the same).
"""

from __future__ import annotations

import dataclasses
import math
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar

from device.errors import BadSetting, ConfigError
from rules.errors import shown

_NAMES = {int: "whole number", float: "number", bool: "true or false", str: "text in quotes"}
_PLURALS = {int: "whole numbers", float: "numbers", bool: "trues or falses",
            str: "texts in quotes"}


@dataclass(frozen=True)
class Spec:
    kind: type
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] | None = None
    optional: bool = False
    item: type | None = None
    length: int | None = None
    hint: str = ""

    def check(self, key: str, value: Any) -> Any:
        """The value, converted (an int where a float is wanted, a list as a tuple), or a
        :class:`BadSetting` naming the key and what it takes."""
        if value is None and self.optional:
            return None
        if self.kind is tuple:
            return self._sequence(key, value)
        return _one(key, value, self.kind, self.low, self.high, self.choices, self.hint)

    def _sequence(self, key: str, value: Any) -> tuple[Any, ...]:
        item = self.item or int
        ok = isinstance(value, list | tuple) and (self.length is None or len(value) == self.length)
        if ok and any(isinstance(v, str) and "\x00" in v for v in value):
            raise BadSetting(f"{key} must not hold a NUL character (\\u0000), got "
                             f"{shown(value)}", key)
        if ok:
            try:
                return tuple(_one(key, v, item, self.low, self.high, None, "") for v in value)
            except BadSetting:
                pass
        size = f"{self.length} " if self.length is not None else ""
        span = f" from {self.low} to {self.high}" if self.low is not None else ""
        raise BadSetting(f"{key} must be a list of {size}{_PLURALS.get(item, str(item))}{span}"
                         f"{self.hint}, got {shown(value)}", key)


def _one(key: str, value: Any, kind: type, low: float | None, high: float | None,
         choices: tuple[Any, ...] | None, hint: str) -> Any:
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    good = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
    if good and kind is float:
        good = math.isfinite(value)
    if good and kind is str:
        good = bool(value.strip())
    if not good:
        raise BadSetting(f"{key} must be a {_NAMES.get(kind, str(kind))}{hint}, "
                         f"got {shown(value)}", key)
    if kind is str and "\x00" in value:
        raise BadSetting(f"{key} must not hold a NUL character (\\u0000), got {shown(value)}",
                         key)
    if choices is not None and value not in choices:
        raise BadSetting(f"{key} must be one of {', '.join(str(c) for c in choices)}, "
                         f"got {shown(value)}", key)
    if (low is not None and value < low) or (high is not None and value > high):
        what = "a whole number" if kind is int else "a number"
        raise BadSetting(f"{key} must be {what} from {low} to {high}{hint}, got {shown(value)}",
                         key)
    return value


def setting(default: Any, kind: type, *, low: float | None = None, high: float | None = None,
            choices: tuple[Any, ...] | None = None, optional: bool = False,
            item: type | None = None, length: int | None = None, hint: str = "") -> Any:
    """A settings field: its default and what it takes."""
    spec = Spec(kind, low, high, choices, optional, item, length, hint)
    return field(default=default, metadata={"spec": spec})


class Checked:
    """Base of settings dataclasses: every declared field is checked on creation;
    :meth:`_check` is for what only the fields together can tell. ``error`` is the
    :class:`BadSetting` subclass a component raises for its own settings."""

    error: ClassVar[type[BadSetting]] = BadSetting

    def __post_init__(self) -> None:
        try:
            for f in fields(self):  # type: ignore[arg-type]
                spec = f.metadata.get("spec")
                if spec is not None:
                    object.__setattr__(self, f.name, spec.check(f.name, getattr(self, f.name)))
            self._check()
        except BadSetting as exc:
            if type(exc) is not self.error:
                raise self.error(str(exc), exc.key) from None
            raise

    def _check(self) -> None:
        """Cross-field checks; raise :class:`BadSetting` naming the key to blame."""


def keys(cls: type) -> tuple[str, ...]:
    """The config keys a settings class reads: its declared fields."""
    return tuple(f.name for f in fields(cls) if "spec" in f.metadata)


def build(cls: type[Any], section: str, table: Mapping[str, Any], **fixed: Any) -> Any:
    """``cls`` made from the config table ``[section]``: every key a declared field, unknown
    keys refused, every refusal naming ``[section] key``. ``fixed`` are values the file does not
    set (they are not config keys)."""
    from device.errors import ConfigError

    where = f"[{section}]" if section else "the top level"
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where} must be a table (a section), got {shown(table)}")
    known = keys(cls)
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise ConfigError(f"unknown key {', '.join(repr(k) for k in unknown)} in {where}; "
                          f"the keys there are: {', '.join(known)}")
    try:
        return cls(**{k: table[k] for k in known if k in table}, **fixed)
    except BadSetting as exc:
        prefix = f"[{section}] " if section else ""
        raise type(exc)(f"{prefix}{exc}", exc.key) from None


def replace(settings: Any, **changes: Any) -> Any:
    """A copy with ``changes``, checked again."""
    return dataclasses.replace(settings, **changes)


MAX_CONFIG_BYTES = 1_000_000
"""A config file is a few kilobytes: a bigger one is the wrong file, and is not read whole."""


def read_config(path: Path, name: str, missing: str) -> str:
    """The text of the config file at ``path``; a :class:`ConfigError` naming it (as ``name``,
    "config file" or "the hub's config") and the fix, ``missing`` saying what to do when there
    is none. Only a file is read: a device (/dev/zero) or a pipe would never end."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise ConfigError(f"{name} {path} is not found; {missing}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {name} {path}: {exc.strerror}") from None
    except ValueError:  # a NUL byte in the name, given from code
        raise ConfigError(f"{name} {path!r} cannot be a file name: it holds a NUL byte") from None
    if stat.S_ISDIR(info.st_mode):
        raise ConfigError(f"{name} {path} is a folder: give the file in it")
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError(f"{name} {path} is not a file (a device, a pipe or a socket): give the "
                          "config file itself")
    if info.st_size > MAX_CONFIG_BYTES:
        raise ConfigError(f"{name} {path} holds {info.st_size:,} bytes, far more than any config:"
                          " is it the right file?")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {name} {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_CONFIG_BYTES:  # a file under /proc says 0 bytes and holds more
        raise ConfigError(f"{name} {path} holds more than {MAX_CONFIG_BYTES:,} bytes, far more "
                          "than any config: is it the right file?")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{name} {path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                          f"offset {exc.start})") from None


def toml_number_trouble(exc: ValueError) -> str:
    """tomllib lets Python's own ValueError through for an integer of thousands of digits."""
    return "a number of more than 4300 digits" if "digits" in str(exc) else str(exc)
