# Copied to the Pico's root as main.py: MicroPython runs it at every boot.
from firmware import pico

pico.main()
