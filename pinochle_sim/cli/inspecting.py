"""One hand or one position at a time: ``show`` (a simulated hand move by move), ``solve``
(double-dummy play), ``meld`` (a hand's best meld) and ``exact`` (the exact meld distribution).
"""

from __future__ import annotations

import json

import click

import pinochle_sim
from pinochle_sim import (
    MAX_HAND_INDEX,
    MAX_SEED,
    Position,
    RulesError,
    Ruleset,
    decode_hand,
    encode_hand,
    engine_inputs,
    format_deal,
    format_hand,
    format_result,
    hand_record,
    parse_suit,
    position_request,
    score_meld,
    solve,
    solve_deal,
    warm,
)
from pinochle_sim.cli.options import (
    make_policies,
    parse_hand_spec,
    policy_options,
    rules_option,
    seed_option,
    user_errors,
)
from pinochle_sim.cli.progress import Progress


@click.command()
@seed_option
@click.option(
    "--hand",
    "hands",
    multiple=True,
    default=("0",),
    show_default=True,
    help="Hand index, or a range A:B (B excluded); repeatable.",
)
@click.option(
    "--dealer",
    type=click.IntRange(0, 3),
    default=None,
    help="Fix the dealer seat (default: hand index mod the number of players).",
)
@rules_option
@policy_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand, one per line.")
@user_errors
def show(
    seed: int,
    hands: tuple[str, ...],
    dealer: int | None,
    ruleset: Ruleset,
    params: tuple[str, ...],
    as_json: bool,
    **policy_names: str,
) -> None:
    """Show hands move by move: deal, auction, pass, meld, every trick, score.

    \b
    Examples:
      pinochle-sim show --seed 1 --hand 0:5
      pinochle-sim show --seed 7 --hand 42 --rules joedog --json
    """
    policies = make_policies(policy_names, params)
    indices = parse_hand_spec(hands)
    warm(engine_inputs(ruleset, policies), "trace_one", Progress(len(indices), quiet=True))
    for i, h in enumerate(indices):
        rec = hand_record(seed, h, ruleset, policies, dealer)
        if as_json:
            click.echo(json.dumps(rec))
        else:
            if i:
                click.echo()
            click.echo(format_hand(rec))


@click.command("solve")
@rules_option
@click.option("--trump", help="Trump suit: S, H, D or C.")
@click.option("--leader", type=int, help="Seat that led (or leads) the current trick.")
@click.option(
    "--hands",
    "hands_text",
    help="The cards each seat still holds, seats 0..N-1 separated by ';' (meld's notation).",
)
@click.option(
    "--trick", default="", help="Cards already played to the current trick, in order from --leader."
)
@click.option(
    "--side",
    type=int,
    default=None,
    help="Maximising seat: its partnership in four-hand, else that seat alone against the "
    "others together [default: 0; with --seed the bidder].",
)
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None, help="Seed of a deal.")
@click.option(
    "--hand", "hand_index", type=click.IntRange(0, MAX_HAND_INDEX), default=None, help="Hand index."
)
@click.option(
    "--positions",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="JSON lines, one position each (fields rules, trump, leader, hands, trick, side, "
    "time_limit); prints one JSON result per line, with its input_line.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Stop after about this many seconds; the output then gives proven bounds.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@user_errors
def solve_command(
    ruleset: Ruleset,
    trump: str | None,
    leader: int | None,
    hands_text: str | None,
    trick: str,
    side: int | None,
    seed: int | None,
    hand_index: int | None,
    positions: str | None,
    time_limit: float | None,
    as_json: bool,
) -> None:
    """Solve trick play double dummy: the trick points a side takes when every seat plays
    perfectly and sees all cards, the value of each legal card, and an optimal line.

    Give a position (--trump, --leader, --hands, maybe --trick), a simulated hand (--seed
    and --hand: its trick play after the pass, the discard or, in two-hand, the play-out,
    for the bidder's side), or a file of positions (--positions). Values are raw trick
    points from the current trick on, last-trick bonus included.

    \b
    Examples:
      pinochle-sim solve --trump S --leader 0 --hands "AS KS; 10S QS; JS 9S; AH 9H"
      pinochle-sim solve --rules 3 --trump H --leader 1 --hands "AS KS; KH; 9H QS" --trick 9S
      pinochle-sim solve --seed 0 --hand 3 --json
      pinochle-sim solve --positions positions.jsonl
    """
    position_args = hands_text is not None or trump is not None or leader is not None or trick
    seeded = seed is not None or hand_index is not None
    if sum([bool(position_args), seeded, positions is not None]) != 1:
        raise click.UsageError(
            "give a position (--trump, --leader, --hands), or --seed and --hand, "
            "or --positions FILE"
        )
    if positions is not None:
        _solve_file(positions, ruleset, time_limit)
        return
    if seeded:
        if seed is None or hand_index is None:
            raise click.UsageError("--seed and --hand go together")
        res, extra = solve_deal(seed, hand_index, ruleset, side, time_limit)
        click.echo(json.dumps({**res.to_dict(), **extra}) if as_json else format_deal(res, extra))
        return
    if hands_text is None or trump is None or leader is None:
        raise click.UsageError("a position needs --trump, --leader and --hands")
    pos = Position.parse(ruleset, trump, leader, hands_text, trick)
    res = solve(pos, side=0 if side is None else side, time_limit=time_limit)
    click.echo(json.dumps(res.to_dict()) if as_json else format_result(res))


def _solve_file(path: str, ruleset: Ruleset, time_limit: float | None) -> None:
    """``solve --positions``: every line is checked before any is solved."""
    todo = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(f"not JSON ({e.msg})") from None
                todo.append((number, *position_request(item, ruleset, time_limit)))
            except (ValueError, RulesError) as e:
                raise click.ClickException(f"{path} line {number}: {e}") from None
    for number, pos, pos_side, limit in todo:
        res = solve(pos, side=pos_side, time_limit=limit)
        click.echo(json.dumps({"input_line": number, **res.to_dict()}))


@click.command()
@click.argument("hand", nargs=-1, required=True)
@click.option("--trump", "-t", required=True, help="Trump suit S, H, D, C, or 'all'.")
@rules_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@user_errors
def meld(hand: tuple[str, ...], trump: str, ruleset: Ruleset, as_json: bool) -> None:
    """Score the best meld of HAND for a trump suit.

    HAND is card notation, rank then suit: AS 10H KD QC JS 9H (T for 10, any case, commas or
    spaces, suit symbols allowed). Quote it or give cards as separate arguments.

    \b
    Examples:
      pinochle-sim meld "AH 10H KH QH JH KH QH 9H 9H" --trump H
      pinochle-sim meld AS AH AD AC QS JD --trump all --rules partnership-classic --json
    """
    text = " ".join(hand)
    hand_cards = decode_hand(encode_hand(text))
    if not hand_cards:
        raise click.BadParameter(
            f'{text!r} holds no cards: give cards such as "AH 10H KH QH JH"', param_hint="HAND"
        )
    suits = list(range(4)) if trump.strip().lower() == "all" else [parse_suit(trump)]
    results = [score_meld(text, s, ruleset) for s in suits]
    best = max(r.total for r in results)
    if as_json:
        doc = {"rules": ruleset.name, "hand": hand_cards, "results": [r.to_dict() for r in results]}
        if len(results) > 1:
            doc["best"] = [r.trump for r in results if r.total == best]
        click.echo(json.dumps(doc))
        return
    click.echo(f"hand ({len(hand_cards)} cards): {' '.join(hand_cards)}   rules: {ruleset.name}")
    for r in results:
        mark = "  <- best" if len(results) > 1 and r.total == best else ""
        click.echo(f"\ntrump {r.trump}: {r.total}{mark}")
        for m in r.melds:
            click.echo(f"  {m.points:>5}  {m.name:<26} {' '.join(m.cards)}")
        if not r.melds:
            click.echo("      0  (no meld)")


@click.command("exact")
@rules_option
@click.option(
    "--trump",
    "-t",
    default="S",
    show_default=True,
    help="Trump suit S, H, D or C (H and C give identical results; S and D hold the pinochle "
    "cards and differ slightly; the mean is the same for every suit).",
)
@click.option(
    "--hand-size",
    type=click.IntRange(1, 48),
    default=None,
    help="Cards in the hand [default: the rules' hand size, 12; three-hand 15].",
)
@click.option(
    "--length",
    "length",
    type=click.IntRange(0, 12),
    default=None,
    help="Print the whole distribution given this many trumps instead of the overall one.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (every length).")
@user_errors
def exact_command(
    ruleset: Ruleset, trump: str, hand_size: int | None, length: int | None, as_json: bool
) -> None:
    """Exact distribution of a dealt hand's best meld, computed over every hand, not sampled.

    Counts are exact out of C(48, H) hands (H = 12; three-hand 15, the hand before the widow;
    two-hand: its 12 dealt cards under table D, melded all at once). Prints the mean and SD,
    the same by trump length with P(meld >= x | length), the chance of holding each meld kind
    (its cards are in the hand, whether or not the best meld uses them) and the distribution.
    Values are in the rules' points (joedog: /10). docs/exact.md explains the method.

    \b
    Examples:
      pinochle-sim exact
      pinochle-sim exact --rules joedog --trump H --json
      pinochle-sim exact --rules three-hand --length 7
    """
    if as_json and length is not None:
        raise click.UsageError("--length is for the text output; --json holds every length")
    # The analysis layer (pandas) loads only for the commands that use it: the name is read
    # from the package top when the command runs.
    e = pinochle_sim.exact_meld_distribution(ruleset, parse_suit(trump), hand_size)
    if as_json:
        click.echo(json.dumps(e.to_dict()))
        return
    for line in e.lines(ruleset.scale, length):
        click.echo(line)


COMMANDS = (show, solve_command, meld, exact_command)
