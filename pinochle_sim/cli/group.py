"""The ``pinochle-sim`` command group: one-line usage errors and interrupts, and a quiet end when
the reader of our output goes away (the commands are added in :mod:`.commands`, the entry point
is :func:`pinochle_sim.cli.run_cli`)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import click

from pinochle_sim import __version__
from pinochle_sim.cli.interrupts import INTERRUPTED_TEXT

EXIT_BROKEN_PIPE = 141
"""Exit status when the reader of our output goes away (``... | head``): 128 + SIGPIPE, what a
shell reports for a standard tool stopped the same way."""

_COMMAND = "pinochle_sim.command"
"""Where the group notes the command it runs (``ctx.meta``)."""


def _one_line(e: click.UsageError, path: str) -> click.UsageError:
    """The usage error ``e`` as one line that says where the help is (``path --help``, unless
    the error knows its command); click itself prints the usage, a hint and a blank line before
    the error."""
    where = e.ctx.command_path if e.ctx is not None else path
    one = click.UsageError(f"{e.format_message()} (see '{where} --help')")
    one.exit_code = e.exit_code
    return one


class MainGroup(click.Group):
    """The command group. A usage error (an unknown option, a bad value) is one line that says
    where the help is. A reader that goes away (``pinochle-sim show ... | head``) ends any
    command quietly with the status a standard tool gets (141), not an error message. Ctrl-C
    that no command turned into its own line is the line ``Error: interrupted``."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as e:
            raise _one_line(e, self.name or "pinochle-sim") from None
        except KeyboardInterrupt:
            raise click.ClickException(INTERRUPTED_TEXT) from None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:  # for a usage error that does not say its command
            ctx.meta[_COMMAND] = f"{ctx.command_path} {cmd.name}"
        return name, cmd, rest

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise _one_line(e, ctx.meta.get(_COMMAND, ctx.command_path)) from None
        except BrokenPipeError:
            _quiet_broken_pipe()
            ctx.exit(EXIT_BROKEN_PIPE)
        except KeyboardInterrupt:  # a command that says nothing more precise
            raise click.ClickException(INTERRUPTED_TEXT) from None


@click.group(
    cls=MainGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="pinochle-sim")
def main() -> None:
    """Monte Carlo simulation and strategy analysis for Pinochle.

    \b
    Example:
      pinochle-sim meld "AH 10H KH QH JH KH QH 9H 9H" --trump H
    """


def _quiet_broken_pipe() -> None:
    """Point stdout (and a broken stderr) at /dev/null, so the interpreter's last flush is
    silent too."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            with contextlib.suppress(OSError, ValueError):
                os.dup2(devnull, stream.fileno())
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())
