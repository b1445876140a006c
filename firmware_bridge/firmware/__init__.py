# The sensor bar's MicroPython firmware (runs on a Raspberry Pi Pico; see docs/sensor-bar.md).
#
# Everything except pico.py and main.py is plain Python that runs unchanged under CPython, so the
# tests and the hardware simulator run the very logic that the Pico runs.
