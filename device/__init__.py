"""The appliance: the daemon that scores a board, and the ``crokiscore`` command.

Where things are:

- ``core/``: what happens, without threads or I/O: the inputs that reach the main loop and the
  operator's menu.
- ``hardware/``: the parts under and over the board (20-hole beam, buttons, sensor bar, camera,
  OLED), each behind a small base class with a Pi backend and the simulator's.
- ``reading/``: reading the board at a round's end: the watcher that waits for the board to
  settle, and the vision reader it calls.
- ``screen/``: what the OLED shows: the view, its drawing, the menu's page, the text scoreboard.
- ``commands/``: the ``crokiscore`` command and its tools (doctor, history, the simulated match).
- ``club/``: the club network: the box's publisher, the club's hub, its page and CMN exports.
- ``config.py``, ``store.py``, ``errors.py``, ``daemon.py``, ``appliance.py``: the config file,
  the event store, the error tree, and the daemon that wires the parts to the main loop.
"""
