"""The serial link to the shooting-line sensor bar: protocol codec, host link and Pico firmware."""
