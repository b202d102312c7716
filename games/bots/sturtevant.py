"""Nathan Sturtevant's Hearts program as a seat in the arena: benchmark only.

His program (github.com/nathansttt/hearts, GPL-3.0; OpenSpiel's "xinxin" bot) is the
strongest open Hearts player: perfect-information Monte Carlo over worlds it samples with
opponent modelling, UCT search in each. It is not part of the project: build it from a
checkout of that repository with

    python -m games.bots.sturtevant build PATH_TO_CHECKOUT

which compiles its sources with g++ beside ``sturtevant_seat.cpp`` (the seat: one decision per
line) into ``STURTEVANT_SEAT`` (default ``build/sturtevant-seat``). One change is made to a
copy of its sources: its random numbers are seeded from the decision's seed instead of the
clock, so that a decision is a function of what the seat is told.

The seat is told only what its player knows: its own cards, its passes and the public play.
The program replays a deal from its start, so it needs four hands as dealt; the other three
are placeholders from a world the seat believes possible (:mod:`games.bots.placeholders`), and
``tests/bots/test_sturtevant.py`` checks that its choices do not depend on them.

    python -m games.bots.outside_arena --players hard,sturtevant,hard,sturtevant --hands 500

seats it against our computers (the arena's options, :func:`games.bots.arena.main`); so does
``python -m games.bots.sturtevant match ...`` where OpenSpiel is not installed. Its effort is
that of OpenSpiel's xinxin defaults and the program's own: 10,000 playouts over 30 worlds,
ε 0.1.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from games.engine import Card, PassDirection, Rules, kernel

from . import arena
from .placeholders import replay_of
from .sampling import sample
from .state import Knowledge

__all__ = ["SturtevantPlayer", "build", "seat_program", "main"]

SEAT_SOURCE = Path(__file__).with_name("sturtevant_seat.cpp")
SIMULATIONS = 10_000
WORLDS = 30
EPSILON = 0.1

# The program's rule flags (Hearts.h) for Rules(): the queen is 13, passing, no points on the
# first trick, hearts must be broken (the queen does not break them), the 2♣ leads.
_QUEEN_PENALTY, _LEAD_2_CLUBS, _NO_HEARTS_FIRST, _NO_QUEEN_FIRST = 0x0001, 0x0020, 0x0080, 0x0100
_DO_PASS, _MUST_BREAK_HEARTS = 0x0400, 0x0800
DEFAULT_RULES = _QUEEN_PENALTY | _LEAD_2_CLUBS | _NO_HEARTS_FIRST | _NO_QUEEN_FIRST | _DO_PASS | _MUST_BREAK_HEARTS
_DIRECTION = {PassDirection.HOLD: 0, PassDirection.LEFT: 1, PassDirection.ACROSS: 2, PassDirection.RIGHT: -1}


def seat_program() -> Path:
    """Where the built seat program is (``STURTEVANT_SEAT``, else ``build/sturtevant-seat``)."""
    default = Path(__file__).resolve().parents[2] / "build" / "sturtevant-seat"
    return Path(os.environ.get("STURTEVANT_SEAT", default))


def build(source: Path, target: Path | None = None) -> Path:
    """Compile the program in the checkout ``source`` with the seat into ``target``."""
    target = target or seat_program()
    if not (source / "Hearts.cpp").is_file() or not (source / "UCT.cpp").is_file():
        raise SystemExit(f"{source} is not a checkout of nathansttt/hearts (no Hearts.cpp and UCT.cpp).")
    compiler = shutil.which("g++")
    if compiler is None:
        raise SystemExit("g++ is needed to build the program.")
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work)
        for path in source.iterdir():
            if path.suffix in (".cpp", ".h") and path.name != "main.cpp":
                shutil.copy(path, copy / path.name)
        _seed_from_the_decision(copy)
        shutil.copy(SEAT_SOURCE, copy / SEAT_SOURCE.name)
        sources = sorted(str(p) for p in copy.glob("*.cpp"))
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([compiler, "-std=c++11", "-O3", "-w", "-I", str(copy), *sources, "-o", str(target), "-lpthread"],
                       check=True)
    return target


_CLOCK_SEED = re.compile(r"srand\(\s*time\(\s*(?:0|NULL|\(time_t\s*\*\)\s*0)\s*\)\s*\)")


def _seed_from_the_decision(copy: Path) -> None:
    """Make the program's random number generators that are seeded from the clock (the search,
    the algorithms, the shuffles) seeded from the decision's seed (``sturtevant_seat_seed``)."""
    patched = 0
    for path in sorted(copy.iterdir()):
        text = path.read_text(errors="replace")
        if path.name == SEAT_SOURCE.name or not _CLOCK_SEED.search(text):
            continue
        text, count = _CLOCK_SEED.subn("srand(sturtevant_seat_seed)", text)
        path.write_text("extern unsigned int sturtevant_seat_seed;\n" + text)
        patched += count
    if patched < 2:
        raise SystemExit("The program no longer seeds its random numbers from the clock as it did: look at the seat again.")


def decision_line(view, hands: list[int], rng: random.Random, seed: int, passing_now: list[int],
                  simulations: int = SIMULATIONS, worlds: int = WORLDS, epsilon: float = EPSILON) -> str:
    """The line the seat program reads for a decision of ``view``'s seat, the other hands taken
    from ``hands`` (a world; see :func:`games.bots.placeholders.replay_of`)."""
    me = view.seat
    cfg = kernel.config(view.rules)
    replay = replay_of(view, hands, rng)
    in_play = view.phase != "pass"
    passes = replay.passes_before(4 if in_play else me, cfg) if view.pass_direction.offset(4) else []
    passes += passing_now
    plays = [c.index for t in view.tricks for _, c in t.plays] + [c.index for _, c in view.current_trick]
    dealt = [c for s in range(4) for c in sorted(kernel.iter_bits(replay.dealt[s]))]
    numbers = [seed % 2**31, me, _DIRECTION[view.pass_direction], DEFAULT_RULES, simulations, worlds,
               round(epsilon * 1000), *dealt, len(passes), *passes, len(plays), *plays]
    return " ".join(map(str, numbers))


class SturtevantPlayer:
    """``act(view, seed)`` for the arena: Sturtevant's program in the seat of ``view``."""

    name = "sturtevant"

    def __init__(self, simulations: int = SIMULATIONS, worlds: int = WORLDS, epsilon: float = EPSILON,
                 program: Path | None = None) -> None:
        self.simulations, self.worlds, self.epsilon = simulations, worlds, epsilon
        self.program = program
        self.cpu_elsewhere = 0.0  # CPU seconds the program spent on the last decision (see arena)

    def __call__(self, view, seed: int):
        if view.rules != Rules():
            raise ValueError("Sturtevant's program is seated for the default rules with four players only.")
        rng = random.Random(seed)
        knowledge = Knowledge.from_view(view)
        hands, _ = sample(knowledge, rng)
        self.cpu_elsewhere = 0.0
        if view.phase == "pass":
            chosen: list[int] = []
            for _ in range(3):
                chosen.append(self.choose(view, knowledge, hands, rng, seed, chosen))
            return [Card.from_index(c) for c in chosen]
        return Card.from_index(self.choose(view, knowledge, hands, rng, seed, []))

    def choose(self, view, knowledge: Knowledge, hands: list[int], rng: random.Random, seed: int,
               passing_now: list[int]) -> int:
        """One card: to play, or the next of the three to pass (``passing_now``: those chosen)."""
        ours = knowledge.legal if view.phase == "play" else knowledge.hand & ~sum(1 << c for c in passing_now)
        if ours.bit_count() == 1:
            return kernel.lowest(ours)
        card, cpu = self.ask(decision_line(view, hands, rng, seed, passing_now, self.simulations, self.worlds,
                                            self.epsilon))
        self.cpu_elsewhere += cpu
        if not ours >> card & 1:
            raise RuntimeError(f"Sturtevant's program chose {Card.from_index(card)}, which the rules refuse here.")
        return card

    def ask(self, line: str) -> tuple[int, float]:
        """The program's card for a decision ``line`` and the CPU seconds it took."""
        process = _running(self.program or seat_program())
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()
        answer = process.stdout.readline().split()
        if len(answer) != 2 or answer[0] == "error":
            raise RuntimeError(f"Sturtevant's seat program refused a decision: {' '.join(answer) or 'it stopped'}")
        return int(answer[0]), int(answer[1]) / 1e6


_programs: dict[tuple[Path, int], subprocess.Popen] = {}


def _running(program: Path) -> subprocess.Popen:
    """The seat program at ``program`` running for this process (one for every player here:
    its decisions keep nothing from one to the next)."""
    key = (program, os.getpid())
    process = _programs.get(key)
    if process is None or process.poll() is not None:
        if not program.is_file():
            raise SystemExit(f"No seat program at {program}: build it with python -m games.bots.sturtevant build PATH.")
        process = _programs[key] = subprocess.Popen([str(program)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                    text=True, bufsize=1)
    return process


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["build"] and len(argv) == 2:
        print(build(Path(argv[1])))
        return 0
    if argv[:1] == ["match"]:
        return arena.main(argv[1:], outside={"sturtevant": SturtevantPlayer()},
                          prog="python -m games.bots.sturtevant match")
    print("usage: python -m games.bots.sturtevant build PATH_TO_CHECKOUT | match ARENA_OPTIONS", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
