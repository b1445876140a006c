"""The daemon's screen: the scoreboard (or the open menu) drawn for a display and shown on it."""

from __future__ import annotations

from PIL import Image

from device.core.status import Status as BoxStatus
from device.hardware.display import Display
from device.screen.draw import render
from device.screen.menu_page import render_menu
from device.screen.view import Status, build
from rules import Match


class OledScreen:
    """Draws for ``display``'s size and mode; a display error reaches the caller, which retries."""

    def __init__(self, display: Display) -> None:
        self.display = display
        self.last: Image.Image | None = None

    def draw(self, match: Match | None, status: BoxStatus) -> Image.Image:
        w, h = self.display.width, self.display.height
        mode = self.display.mode
        if status.menu.open or match is None:
            return render_menu(status.menu, match, w, h, mode)
        return render(build(match, Status(status.twenty, status.errors, status.message)),
                      w, h, mode)

    def show(self, match: Match | None, status: BoxStatus) -> None:
        image = self.draw(match, status)
        self.display.show(image)
        self.last = image
