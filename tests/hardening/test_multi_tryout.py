"""The multi-server tryout (deploy/try-multi-server, ``python -m loadtest.multi``) takes its
ports and database from options and stops everything on SIGTERM as on Ctrl-C. (The whole
tryout — two clusters, redis, two servers, a worker — is a command run by hand: its figures
are in docs/performance.md; here the two promises it rests on.)"""

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from loadtest import multi
from loadtest.parts import free_port
from loadtest.server import ROOT


def test_ports_and_database_are_options():
    args = multi._arguments(["--serve", "--ports", "9101,9102", "--pg-port", "9103",
                             "--standby-port", "9104", "--redis-port", "9105",
                             "--database", "efuda_try"])  # fmt: skip
    assert (args.ports, args.pg_port, args.standby_port, args.redis_port, args.database) == (
        [9101, 9102], 9103, 9104, 9105, "efuda_try")  # fmt: skip


def test_a_port_in_use_is_refused_by_name(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        free = [str(free_port()) for _ in range(4)]
        with pytest.raises(SystemExit) as stopped:
            multi._arguments(["--serve", "--redis-port", str(port), "--ports", ",".join(free[:2]),
                              "--pg-port", free[2], "--standby-port", free[3]])  # fmt: skip
    assert stopped.value.code == 2
    assert f"port(s) {port} in use on 127.0.0.1: choose others" in capsys.readouterr().err


SCRIPT = """
import sys, tempfile, time, pathlib
from loadtest import multi
from loadtest.parts import free_port
multi._stop_on_signals()
scratch = pathlib.Path(tempfile.mkdtemp(prefix="efuda-multi-test-"))
try:
    print(scratch, flush=True)
    while True:
        time.sleep(60)
except multi.Stopped as stopped:
    sys.exit(stopped.code)
finally:
    time.sleep(0.2)  # a second signal now is ignored: the clean-up finishes
    scratch.rmdir()
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_cleans_up_as_ctrl_c_does(signum):
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(SCRIPT)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    scratch = child.stdout.readline().strip()
    child.send_signal(signum)
    time.sleep(0.05)
    child.send_signal(signal.SIGTERM)  # impatient: a second one during the clean-up
    assert child.wait(timeout=30) == 128 + signum
    assert scratch and not os.path.exists(scratch)
