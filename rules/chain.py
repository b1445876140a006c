"""An immutable list that grows and changes only at its end, sharing everything before it.

A match keeps every state it has passed through, so that undo can go back any number of events.
Each state differs from the one before it only in its latest round (crokidarts: its latest leg,
turn and shot), so the states store their rounds as a :class:`Chain`: pushing an item or replacing
the last one makes a new chain of one new node on top of the old chain, in constant time and
memory, and every earlier node is shared with the parent state. Reading from the end is quick;
reading the first items of a long chain walks it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")


class Chain(Sequence[T]):
    """A persistent sequence, newest item last. Compares equal to any sequence with the same
    items; hashes like the tuple of its items."""

    __slots__ = ("_last", "_rest", "_size")

    _last: T
    _rest: Chain[T] | None
    _size: int

    def __init__(self, items: Iterable[T] = ()) -> None:
        node: Chain[T] = object.__new__(Chain)
        object.__setattr__(node, "_rest", None)
        object.__setattr__(node, "_size", 0)
        for item in items:
            node = node.push(item)
        for name in ("_rest", "_size") + (("_last",) if node._rest is not None else ()):
            object.__setattr__(self, name, getattr(node, name))

    @staticmethod
    def _node(last: T, rest: Chain[T], size: int) -> Chain[T]:
        node: Chain[T] = object.__new__(Chain)
        object.__setattr__(node, "_last", last)
        object.__setattr__(node, "_rest", rest)
        object.__setattr__(node, "_size", size)
        return node

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Chain cannot be changed; push() or with_last() make a new one")

    # --- making new chains ---------------------------------------------------------------------

    def push(self, item: T) -> Chain[T]:
        """This chain with ``item`` added at the end."""
        return Chain._node(item, self, self._size + 1)

    def with_last(self, item: T) -> Chain[T]:
        """This chain with its last item replaced by ``item``."""
        return self.rest.push(item)

    @property
    def rest(self) -> Chain[T]:
        """This chain without its last item."""
        if self._rest is None:
            raise IndexError("an empty chain has no last item")
        return self._rest

    @property
    def last(self) -> T:
        if self._rest is None:
            raise IndexError("an empty chain has no last item")
        return self._last

    # --- reading -------------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def __reversed__(self) -> Iterator[T]:
        node = self
        while node._rest is not None:
            yield node._last
            node = node._rest

    def __iter__(self) -> Iterator[T]:
        items = list(reversed(self))
        items.reverse()
        return iter(items)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            wanted = range(*index.indices(self._size))
            if not wanted:
                return ()
            lowest = min(wanted)
            tail = list(self._from_end(self._size - lowest))
            tail.reverse()  # tail[i] is item lowest + i
            return tuple(tail[i - lowest] for i in wanted)
        i = index + self._size if index < 0 else index
        if not 0 <= i < self._size:
            raise IndexError(f"chain index {index} out of range for {self._size} items")
        node = self
        for _ in range(self._size - 1 - i):
            assert node._rest is not None
            node = node._rest
        return node._last

    def _from_end(self, count: int) -> Iterator[T]:
        node = self
        for _ in range(count):
            assert node._rest is not None
            yield node._last
            node = node._rest

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chain):
            return isinstance(other, Sequence) and not isinstance(other, str | bytes) and (
                tuple(self) == tuple(other))
        a, b = self, other
        if a._size != b._size:
            return False
        while a is not b:  # shared nodes end the walk: the rest is the same object
            if a._rest is None or b._rest is None:
                return a._rest is b._rest
            if a._last != b._last:
                return False
            a, b = a._rest, b._rest
        return True

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Chain({list(self)!r})"


EMPTY: Chain[Any] = Chain()
