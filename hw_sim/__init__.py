"""The hardware simulator: a crokinole board, its players, sensors and camera, on a PC."""
