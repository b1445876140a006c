"""The club network's errors."""

from __future__ import annotations

from device.errors import DeviceError


class ClubError(DeviceError):
    """Base of the club network's errors (broker, hub store, exports)."""


class MessageError(ClubError, ValueError):
    """A message on the club's topics that is not one of ours, or not well formed; the hub logs
    it and carries on."""


class HubStoreError(ClubError):
    """The hub's store cannot be opened or written."""


class QueryError(ClubError, ValueError):
    """A query to the hub's pages that cannot be answered as asked (the message says why)."""


class HubError(ClubError):
    """The hub cannot serve: its page's address or its TLS files cannot be used."""
