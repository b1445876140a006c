import json
import queue
import signal
import subprocess
import sys
import threading

from device.commands.cli import main
from hw_sim.mcu import SimulatedPico

WAIT = 10.0


def lines_of(stream):
    q = queue.Queue()

    def pump():
        for line in stream:
            q.put(line)
        q.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return q


def next_event(q, name):
    while True:
        line = q.get(timeout=WAIT)
        assert line is not None, f"output ended before a {name} line"
        record = json.loads(line)
        if record["event"] == name:
            return record


def test_bridge_prints_events_and_counters_as_json_lines_until_ctrl_c():
    with SimulatedPico(seed=5, heartbeat_ms=100, debounce_ms=5) as pico:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from device.commands.cli import main; raise SystemExit(main())",
             "bridge", "--port", pico.path, "--heartbeat", "0.1", "--timeout", "0.5",
             "--thresholds", "20/10", "--status"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            q = lines_of(proc.stdout)
            assert next_event(q, "link_up")["port"] == pico.path
            assert next_event(q, "mcu_booted")["boot_id"] == pico.boot_id
            pico.touch(1)
            touch = next_event(q, "touch")
            assert (touch["quadrant"], touch["active"], touch["counter"]) == (1, True, 1)
            counters = next_event(q, "counters")
            assert counters["connected"] is True and counters["frames_good"] > 0
            assert counters["bad_crc"] == 0 and "reconnects" in counters
            status = next_event(q, "mcu_status")["status"]
            assert [c["touch_threshold"] for c in status["channels"]] == [20] * 4
            assert pico.sensor.thresholds(3) == (20, 10)
            proc.send_signal(signal.SIGINT)
            assert proc.wait(WAIT) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()


def test_bridge_refuses_bad_settings(capsys):
    assert main(["bridge", "--port", "loop://", "--heartbeat", "2", "--timeout", "1"]) == 2
    assert "mcu_timeout_s" in capsys.readouterr().err
    assert main(["bridge", "--port", "loop://", "--thresholds", "6/12"]) == 2
    assert "--thresholds" in capsys.readouterr().err


def test_bridge_maintenance_restarts_the_bar_with_its_repl_free(capsys):
    with SimulatedPico(seed=6, heartbeat_ms=100) as pico:
        first = pico.boot_id
        assert main(["bridge", "--port", pico.path, "--maintenance"]) == 0
        assert pico.maintenance.wait(WAIT)
        assert pico.boot_id != first
        assert "maintenance" in capsys.readouterr().err


def test_a_port_that_can_never_be_the_sensor_bars_is_refused_at_once(tmp_path):
    """The link tries a missing port again and again (it may be plugged in); a file, a folder,
    a device that is no terminal or a URL pyserial does not know never becomes one."""
    log = tmp_path / "match.jsonl"
    log.write_text("{}\n")
    for port, words in [(str(log), "is a file, not a serial device"),
                        (str(tmp_path), "is a folder, not a serial device"),
                        ("/dev/null", "is a device but not a serial port"),
                        ("bogus://x", "is no port pyserial can open (invalid URL, protocol "
                                      "'bogus' not known)"),
                        ("", "no port named")]:
        done = subprocess.run(
            [sys.executable, "-c", "from device.commands.cli import main; raise SystemExit(main())",
             "bridge", "--port", port], capture_output=True, text=True, timeout=WAIT)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.startswith("crokiscore bridge: --port ") and words in done.stderr
        if port != "bogus://x" and port:
            assert done.stderr.endswith("ls /dev/serial/by-id/ lists the serial devices\n")
