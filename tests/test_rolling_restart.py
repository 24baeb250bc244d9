"""deploy/rolling_restart.py on the shipped nginx configuration, without machines: it finds the
upstream's servers, marks one `down` and back leaving the file as it was, and never drains a
machine while no other one is ready. tests/test_machines.py runs it on two real machines."""

from __future__ import annotations

import sys

from servers import ROOT, free_port

sys.path.insert(0, str(ROOT / "deploy"))
import rolling_restart

SHIPPED = (ROOT / "deploy" / "nginx" / "nereo.conf").read_text()


def test_the_shipped_upstream_servers_are_found_and_marked_down_and_back():
    servers = rolling_restart.upstream_servers(SHIPPED)
    assert servers == ["10.0.0.11:8000", "10.0.0.12:8000"]
    down = rolling_restart.set_down(SHIPPED, servers[0], down=True)
    assert "server 10.0.0.11:8000 max_fails=3 fail_timeout=10s down;" in down
    assert "server 10.0.0.12:8000 max_fails=3 fail_timeout=10s;" in down
    assert rolling_restart.set_down(down, servers[0], down=True) == down  # once only
    assert rolling_restart.set_down(down, servers[0], down=False) == SHIPPED


def test_no_machine_is_drained_while_no_other_one_is_ready(tmp_path, capsys):
    conf = tmp_path / "nereo.conf"
    closed = [f"127.0.0.1:{free_port()}" for _ in range(2)]  # nobody listens there
    text = SHIPPED.replace("10.0.0.11:8000", closed[0]).replace("10.0.0.12:8000", closed[1])
    conf.write_text(text)
    marker = tmp_path / "ran"
    code = rolling_restart.main(
        ["--conf", str(conf), "--reload", f"touch {marker}", "--restart", f"touch {marker}", "--drain-seconds", "0"]
    )
    assert code == 1
    assert "no other machine is ready" in capsys.readouterr().out
    assert conf.read_text() == text and not marker.exists()


def test_one_machine_alone_is_not_restarted(tmp_path, capsys):
    conf = tmp_path / "nereo.conf"
    conf.write_text(SHIPPED.replace("    server 10.0.0.12:8000 max_fails=3 fail_timeout=10s;\n", ""))
    assert rolling_restart.main(["--conf", str(conf), "--restart", "false"]) == 2
    assert "one machine only" in capsys.readouterr().out
