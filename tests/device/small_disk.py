"""Real storage faults for the tests: a small tmpfs that fills up and goes read-only.

The scenario runs in a child process inside its own user and mount namespace (``unshare``), so
mounting needs no privileges and nothing outside the child ever sees the mount. The store, the
scorekeeper and its shell are the real ones; only the disk is small. Run as
``python -m tests.device.small_disk SCENARIO``: it prints one JSON object of what it saw.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from device.core.inputs import Operator, Tick
from device.core.state import Settings
from device.screen.text import TextScreen
from device.shell import Shell, StoreHandle
from device.store import EventStore
from rules import NewMatch, Shot, Undo

START = NewMatch("casual-100", ("Ann", "Bob"))


def mount(folder: Path, size: str) -> None:
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                   check=True)


def remount(folder: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(folder)], check=True)


def fill(folder: Path, leave: int = 0) -> Path:
    """Fills the disk, leaving about ``leave`` bytes."""
    filler = folder / "filler"
    with open(filler, "wb") as f:
        chunk = b"\0" * 65536
        try:
            while shutil.disk_usage(folder).free > leave + len(chunk):
                f.write(chunk)
                f.flush()
            while shutil.disk_usage(folder).free > leave:
                f.write(b"\0" * 4096)
                f.flush()
        except OSError:
            pass
    return filler


class Box:
    def __init__(self, path: Path) -> None:
        self.t = 1000.0
        self.frames: list[str] = []
        self.shell = Shell(Settings(START, camera=False), StoreHandle(str(path)),
                           TextScreen(self.frames.append), clock=lambda: self.t,
                           wall=lambda: self.t)
        self.shell.start()

    def shoot(self, n: int) -> None:
        for _ in range(n):
            self.t += 1
            m = self.shell.match
            assert m is not None
            seat = m.expect().seat
            assert seat is not None
            self.shell.step(Operator(Shot(seat), self.t))

    def later(self, seconds: float = 10.0) -> None:
        self.t += seconds
        self.shell.step(Tick(self.t))

    def seen(self) -> dict[str, object]:
        return {"faults": self.shell.faults, "depth": self.shell.match.depth
                if self.shell.match else None, "waiting": self.shell.waiting,
                "frame": self.frames[-1] if self.frames else ""}


def stored(path: Path) -> list[dict]:
    with EventStore(path, read_only=True) as store:
        out = []
        for m in store.matches():
            out.append({"id": m.id, "outcome": m.outcome,
                        "events": [{k: v for k, v in b.items() if k != "ts"}
                                   for b in store.bodies(m.id)]})
        return out


def _full_then_freed(disk: Path, path: Path, shots: int, out: dict[str, object],
                     resumed: bool = False) -> Box:
    """The box started on a full disk (what it shows on starting, if ``resumed``) plays
    ``shots``, then the space comes back: what it showed while full and once freed."""
    filler = fill(disk)
    box = Box(path)
    if resumed:
        out["resumed"] = box.seen()
    box.shoot(shots)
    out["while_full"] = box.seen()
    filler.unlink()
    box.later()
    out["after"] = box.seen()
    return box


def scenario(name: str, disk: Path) -> dict[str, object]:
    path = disk / "lib" / "events.db"
    out: dict[str, object] = {}
    if name == "start-full-no-store":
        box = _full_then_freed(disk, path, 3, out)
    elif name == "start-full-finished":
        box = Box(path)
        store = box.shell.store.open()
        store.finish(box.shell.match_id, {"finished": True}, box.t)
        box.shell.close()
        box = _full_then_freed(disk, path, 2, out)
    elif name == "start-full-in-play":
        box = Box(path)
        box.shoot(2)
        box.shell.close()
        box = _full_then_freed(disk, path, 3, out, resumed=True)
    elif name == "read-only":
        # A card that went read-only under a match: the box restarts on it (a remount needs the
        # store closed; the kernel's own remount after a card error would not wait for that).
        box = Box(path)
        box.shoot(2)
        box.shell.close()
        remount(disk, "ro")
        box = Box(path)
        out["resumed"] = box.seen()
        box.shoot(2)
        out["while_read_only"] = box.seen()
        box.shell.store.close()
        remount(disk, "rw")
        box.later()
        out["after"] = box.seen()
    elif name == "nearly-full":
        box = Box(path)
        box.shoot(1)
        fill(disk, leave=2 * 1024 * 1024)
        troubles = 0
        for _ in range(400):
            box.shoot(1)
            if "store" in box.shell.faults:
                troubles += 1
            if box.shell.match is not None and box.shell.match.expect().what != "shot":
                box.shell.step(Operator(Undo(), box.t))
        out["troubles"] = troubles
        out["taken"] = sum(box.shell.taken.values())
        out["after"] = box.seen()
        wal = Path(str(path) + "-wal")
        out["wal_bytes"] = wal.stat().st_size if wal.exists() else 0
    elif name == "doctor-read-only":
        from device.commands.doctor import examine

        box = Box(path)
        box.shell.close()
        config = disk / "c.toml"
        config.write_text(f'backend = "sim"\nstore = "{path}"\n[camera]\nkind = "none"\n')
        remount(disk, "ro")
        found = {f.part: f for f in examine(config)}["store"]
        return {"ok": found.ok, "detail": found.detail}
    else:
        raise SystemExit(f"no scenario {name!r}")
    box.shell.close()
    out["stored"] = stored(path)
    return out


def run(name: str, size: str = "1m") -> dict[str, object]:
    """Runs ``name`` in a child with its own small disk; what it saw."""
    code = (f"import json, sys; from pathlib import Path; from tests.device.small_disk import "
            f"mount, scenario; d = Path(sys.argv[1]); mount(d, {size!r}); "
            f"print(json.dumps(scenario({name!r}, d)))")
    root = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", sys.executable,
                               "-c", code, folder], capture_output=True, text=True, cwd=root,
                              env={**os.environ, "PYTHONPATH": str(root)}, timeout=120)
    if done.returncode != 0:
        raise AssertionError(f"scenario {name} failed:\n{done.stderr[-3000:]}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1], *sys.argv[2:]), indent=1))
