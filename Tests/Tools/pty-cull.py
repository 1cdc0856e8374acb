#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs a command in a pseudo-terminal as a terminal emulator would, and records every
byte it writes: for the tests of `curatorctl cull`'s pixel graphics (kitty, iTerm2),
which tmux would not pass on.

    pty-cull.py OUT_DIR WAIT_FOR_HEX KEYS -- COMMAND...

The pty is 100x30 cells of 10x20 pixels (TIOCSWINSZ with ws_xpixel/ws_ypixel). A shell
in it records `stty -a`, runs COMMAND, records its exit status and `stty -a` again.
Once the output holds the bytes WAIT_FOR_HEX (hex), KEYS are typed one at a time
(0.3 s apart). Writes OUT_DIR/output (every byte), stty-before, stty-after, status.
Exit status: 0, or 3 when WAIT_FOR_HEX never came (within 30 s) or the command did
not end (within 15 s after the keys).
"""
import fcntl
import os
import select
import shlex
import struct
import sys
import termios
import time


def main() -> int:
    out_dir, wait_for, keys = sys.argv[1], bytes.fromhex(sys.argv[2]), sys.argv[3]
    command = sys.argv[sys.argv.index("--") + 1:]
    q = shlex.quote
    script = "stty -a > %s; %s; echo $? > %s; stty -a > %s" % (
        q(os.path.join(out_dir, "stty-before")), " ".join(q(a) for a in command),
        q(os.path.join(out_dir, "status")), q(os.path.join(out_dir, "stty-after")))
    pid, master = os.forkpty()
    if pid == 0:
        os.execv("/bin/sh", ["/bin/sh", "-c", script])
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 600, 1000))
    output = bytearray()
    deadline = time.time() + 30
    typed = None
    status = 0
    while True:
        if typed is None and wait_for in output:
            for key in keys:
                time.sleep(0.3)
                os.write(master, key.encode())
            typed = time.time()
            deadline = typed + 15
        if time.time() > deadline:
            status = 3
            break
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # EIO: the shell ended and the pty closed
                break
            if not chunk:
                break
            output += chunk
    with open(os.path.join(out_dir, "output"), "wb") as f:
        f.write(output)
    if status:
        os.kill(pid, 9)
    os.waitpid(pid, 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
