"""Frame to discs: board registration, disc detection, sides, zones with uncertainty."""
