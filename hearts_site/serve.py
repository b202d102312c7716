"""The site's server: daphne, on uvloop's event loop.

    python -m hearts_site.serve -b 0.0.0.0 -p 8000 hearts_site.asgi:application

It takes every option of the ``daphne`` command and runs it; the one difference is the event
loop under daphne's Twisted reactor: uvloop's (libuv, in C) instead of asyncio's own, which
is written in Python. With thousands of sockets open the loop is about a tenth of a server's
CPU, and on uvloop a move costs about a tenth less (live/LIVE.md, "Performance").

>>> command(8000)[-5:]
['-b', '127.0.0.1', '-p', '8000', 'hearts_site.asgi:application']
"""
import asyncio
import sys

import uvloop

APPLICATION = "hearts_site.asgi:application"


def command(port: int, host: str = "127.0.0.1") -> list[str]:
    """The command that starts the site's server on ``host``:``port`` with this interpreter
    (what the tools and tests that start a server run)."""
    return [sys.executable, "-m", "hearts_site.serve", "-b", host, "-p", str(port), APPLICATION]


def main(argv: "list[str] | None" = None) -> None:
    """Run daphne with ``argv`` (its own options) on uvloop's loop."""
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    # Daphne makes its loop when its server module is first imported: only after the policy.
    # tests/test_server_tuning.py checks that the loop is uvloop's.
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
