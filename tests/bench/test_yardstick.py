"""The minimal engine (:mod:`pinochle_sim.bench.yardstick`), the benchmark's speed yardstick.

Expectations come from hand-worked meld values and from a slow plain-Python replay of the same
rules on card lists (deal decoded from the packed hands), never from the kernels themselves.
Speed is never asserted here.
"""

from __future__ import annotations

import ast
import hashlib
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pyarrow.parquet as pq
import pytest

from pinochle_sim.bench import yardstick as ys
from pinochle_sim.runs.store.schema import FIELDS

HANDS = 2000
COL = {name: i for i, (name, _) in enumerate(ys.COLUMNS)}
SUITS = "SHDC"
RANKS = ("9", "J", "Q", "K", "10", "A")
COUNTERS = {"A", "10", "K"}


@pytest.fixture(scope="module")
def records() -> np.ndarray:
    return ys.play(HANDS, 7)


def encode(text: str) -> int:
    """A packed hand from card names (``"AS 10S KS"``; a name twice = both copies)."""
    one = two = 0
    for card in text.split():
        f = SUITS.index(card[-1]) * 6 + RANKS.index(card[:-1])
        if one >> f & 1:
            two |= 1 << f
        one |= 1 << f
    return one | two << 24


def decode(hand: int) -> list[tuple[int, int]]:
    """(suit, rank) of every card of a packed hand, each copy once."""
    cards = []
    for f in range(24):
        cards += [(f // 6, f % 6)] * ((hand >> f & 1) + (hand >> (24 + f) & 1))
    return cards


def ref_meld(cards: list[tuple[int, int]], trump: int) -> int:
    """Single-deck partnership meld of a card list, counted the slow way."""

    def n(suit: int, rank: str) -> int:
        return cards.count((suit, RANKS.index(rank)))

    total = 0
    for suit in range(4):
        marriages = min(n(suit, "K"), n(suit, "Q"))
        if suit != trump:
            total += 20 * marriages
            continue
        runs = min(n(suit, r) for r in ("A", "10", "K", "Q", "J"))
        total += [0, 150, 1500][runs] + 40 * (marriages - runs) + 10 * n(suit, "9")
    total += [0, 40, 300][min(n(0, "Q"), n(2, "J"))]
    for rank, single in (("A", 100), ("K", 80), ("Q", 60), ("J", 40)):
        total += [0, single, 10 * single][min(n(s, rank) for s in range(4))]
    return total


def ref_hand(dealt: list[int], dealer: int) -> dict[str, int]:
    """One hand replayed by the minimal engine's rules on card lists."""
    hands = [decode(h) for h in dealt]
    melds = [[ref_meld(c, t) for t in range(4)] for c in hands]
    bidder, best = -1, -1
    for k in range(1, 5):
        p = (dealer + k) % 4
        est = max(melds[p]) + 20 * sum(r == 5 for _, r in hands[p])
        if est > best:
            bidder, best = p, est
    trump = melds[bidder].index(max(melds[bidder]))
    bid = max(250, best // 10 * 10)
    points, counters, tricks = [0, 0], [0, 0], [0, 0]
    leader = bidder

    def beats(card: tuple[int, int], winner: tuple[int, int]) -> bool:
        if card[0] == winner[0]:
            return card[1] > winner[1]
        return card[0] == trump

    for trick in range(12):
        held = hands[leader]
        lengths = {s: sum(c[0] == s for c in held) for s in range(4) if s != trump}
        longest = max(lengths, key=lambda s: (lengths[s], -s))
        suit = longest if lengths[longest] else trump
        played = [max(c for c in held if c[0] == suit)]
        held.remove(played[0])
        winner, seat = played[0], leader
        for k in range(1, 4):
            p = (leader + k) % 4
            held = hands[p]
            legal = [c for c in held if c[0] == played[0][0]] or [c for c in held if c[0] == trump]
            legal = legal or list(held)
            legal = [c for c in legal if beats(c, winner)] or legal
            card = min(legal, key=lambda c: (c[1], c[0]))
            held.remove(card)
            played.append(card)
            if beats(card, winner):
                winner, seat = card, p
        won = sum(RANKS[r] in COUNTERS for _, r in played)
        points[seat % 2] += 10 * won + (10 if trick == 11 else 0)
        counters[seat % 2] += won
        tricks[seat % 2] += 1
        leader = seat
    side = bidder % 2
    team_meld = [melds[0][trump] + melds[2][trump], melds[1][trump] + melds[3][trump]]
    made = team_meld[side] + points[side] >= bid
    score = [team_meld[q] + points[q] for q in range(2)]
    if not made:
        score[side] = -bid
    rec = {"bidder": bidder, "bid": bid, "trump": trump, "made": int(made)}
    for q in range(2):
        rec |= {f"team_meld_{q}": team_meld[q], f"team_tricks_{q}": points[q]}
        rec |= {f"counters_{q}": counters[q], f"tricks_won_{q}": tricks[q], f"score_{q}": score[q]}
        rec[f"high_bid_{q}"] = bid if q == side else 0
    for p in range(4):
        rec[f"meld_{p}"] = melds[p][trump]
        rec[f"aces_{p}"] = sum(r == 5 for _, r in decode(dealt[p]))
        for s in range(4):
            rec[f"meld_{p}_{'shdc'[s]}"] = melds[p][s]
            rec[f"len_{p}_{'shdc'[s]}"] = sum(c[0] == s for c in decode(dealt[p]))
    return rec


def test_columns_are_the_real_partnership_schema():
    assert [(n, str(t)) for n, t, _ in FIELDS] == list(ys.COLUMNS)


def test_the_module_imports_nothing_from_the_package():
    tree = ast.parse(Path(ys.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("pinochle_sim") for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("pinochle_sim")


def test_every_deal_is_the_whole_deck(records):
    dealt = records[COL["dealt_0"] : COL["dealt_0"] + 4]
    assert (dealt >> 48 == 0).all()
    for h in range(HANDS):
        hands = [decode(int(x)) for x in dealt[:, h]]
        assert [len(c) for c in hands] == [12] * 4
        cards = sorted(c for hand in hands for c in hand)
        assert cards == sorted([(f // 6, f % 6) for f in range(24)] * 2)
    assert len({tuple(dealt[:, h]) for h in range(HANDS)}) == HANDS


def test_same_seed_same_records_other_seed_other_deals(records):
    again = ys.play(HANDS, 7)
    assert np.array_equal(again, records)
    other = ys.play(HANDS, 8)
    assert not np.array_equal(other[COL["dealt_0"]], records[COL["dealt_0"]])
    # a hand's deal depends on its seed and index only, not on the batch it is played in
    tail = np.empty((len(ys.COLUMNS), 100), np.int64)
    ys.play_kernel(7, 1234, ys.SUIT_TABLES, ys.CROSS, tail)
    assert np.array_equal(tail, records[:, 1234:1334])


def test_records_do_not_depend_on_the_thread_count(records):
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = ys.play(HANDS, 7)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = ys.play(HANDS, 7)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, records) and np.array_equal(two, records)


@pytest.mark.parametrize(
    ("cards", "trump", "points"),
    [
        ("AS 10S KS QS JS", 0, 150),  # run
        ("AS 10S KS QS JS", 1, 20),  # the same cards, spades plain: a marriage
        ("AS 10S KS KS QS QS JS 9S", 0, 150 + 40 + 10),  # run, royal marriage, dix
        ("AS AS 10S 10S KS KS QS QS JS JS", 0, 1500),  # double run
        ("AS AS 10S 10S KS KS QS QS JS JS", 3, 40),  # two plain marriages
        ("QS QS JD JD", 2, 300),  # double pinochle
        ("QS QS JD", 1, 40),  # pinochle (a single one)
        ("AS AH AD AC", 0, 100),  # aces around
        ("AS AS AH AD AC", 0, 100),
        ("AS AS AH AH AD AD AC AC", 1, 1000),  # double aces
        ("KS KH KD KC QS QH QD QC", 1, 80 + 60 + 40 + 3 * 20),  # kings, queens, marriages
        ("JS JH JD JC QS", 2, 40 + 40),  # jacks around and pinochle
        ("KH QH", 0, 20),  # marriage
        ("KH QH", 1, 40),  # royal marriage
        ("9D 9D", 2, 20),  # two dix
        ("9D 9D AC", 0, 0),
    ],
)
def test_meld_of_hand_written_hands(cards, trump, points):
    assert ys.meld(encode(cards), trump) == points
    assert ref_meld(decode(encode(cards)), trump) == points


def test_trick_invariants(records):
    r = {name: records[i] for name, i in COL.items()}
    assert (r["tricks_won_0"] + r["tricks_won_1"] == 12).all()
    assert (r["team_tricks_0"] + r["team_tricks_1"] == 250).all()
    assert (r["counters_0"] + r["counters_1"] == 24).all()
    last = [r[f"team_tricks_{q}"] - 10 * r[f"counters_{q}"] for q in range(2)]
    assert (last[0] + last[1] == 10).all() and (last[0] * last[1] == 0).all()
    assert (r["hand"] == np.arange(HANDS)).all() and (r["dealer"] == np.arange(HANDS) % 4).all()
    assert (r["bid"] >= 250).all() and (r["bid"] % 10 == 0).all()
    assert (r["n_calls"] == 1).all() and not r["stuck"].any() and not r["conceded"].any()
    assert not r["passed_to_bidder"].any() and not r["passed_to_partner"].any()
    assert 0 < r["made"].mean() < 1


def test_records_match_a_plain_python_replay(records):
    for h in range(0, HANDS, 7):
        dealt = [int(records[COL[f"dealt_{p}"], h]) for p in range(4)]
        want = ref_hand(dealt, h % 4)
        got = {name: int(records[COL[name], h]) for name in want}
        assert got == want, f"hand {h}"


def test_run_writes_one_parquet_file(tmp_path, records):
    out = tmp_path / "new" / "folder"
    path = ys.run(HANDS, 7, out, threads=1)
    assert path == out / "hands.parquet"
    assert sorted(p.name for p in out.iterdir()) == ["hands.parquet"]
    table = pq.read_table(path)
    assert [(f.name, str(f.type)) for f in table.schema] == list(ys.COLUMNS)
    assert table.num_rows == HANDS
    meta = pq.ParquetFile(path).metadata
    assert meta.row_group(0).column(0).compression == "ZSTD"
    for name, i in COL.items():
        assert np.array_equal(table.column(name).to_numpy().astype(np.int64), records[i]), name


def test_run_writes_row_groups_of_131072(tmp_path):
    path = ys.run(ys.ROW_GROUP + 5, 1, tmp_path)
    meta = pq.ParquetFile(path).metadata
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [ys.ROW_GROUP, 5]
    first = pq.read_table(path, columns=["hand", "dealt_0"]).slice(ys.ROW_GROUP - 2, 4)
    assert first.column("hand").to_pylist() == list(range(ys.ROW_GROUP - 2, ys.ROW_GROUP + 2))
    assert first.column("dealt_0").to_pylist() == [
        int(x) for x in ys.play(ys.ROW_GROUP + 2, 1)[COL["dealt_0"], -4:]
    ]


def test_cache_folder_is_keyed_by_the_source(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    digest = hashlib.sha256(Path(ys.__file__).read_bytes()).hexdigest()[:16]
    assert ys.cache_dir() == tmp_path / "pinochle-sim" / f"yardstick-{digest}"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert ys.cache_dir() == tmp_path / "mine"


@pytest.mark.parametrize(
    ("text", "hands"), [("1e6", 10**6), ("1000000", 10**6), ("2.5e3", 2500), ("1_000", 1000)]
)
def test_hand_counts_in_any_usual_form(text, hands):
    assert ys._count(text) == hands


@pytest.mark.parametrize("bad", ["abc", "-5", "0", "1.5", "1.25e1", "", "1e"])
def test_a_bad_hand_count_is_one_line_and_exit_2(bad, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        ys.main(["--hands", bad, "--out", str(tmp_path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_command_line(tmp_path):
    cmd = [sys.executable, "-m", "pinochle_sim.bench.yardstick", "--hands", "abc"]
    bad = subprocess.run(
        [*cmd, "--out", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "--hands" in bad.stderr


def test_main_is_silent_unless_verbose(tmp_path, capsys):
    assert ys.main(["--hands", "3e3", "--seed", "4", "--out", str(tmp_path / "a")]) == 0
    assert capsys.readouterr().out == ""
    assert pq.read_metadata(tmp_path / "a" / "hands.parquet").num_rows == 3000
    assert ys.main(["--hands", "100", "--out", str(tmp_path / "b"), "--verbose"]) == 0
    assert "100 hands" in capsys.readouterr().out


def test_an_out_that_is_a_file_is_one_line_and_exit_1(capsys, tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("keep me", encoding="utf-8")
    assert ys.main(["--hands", "100", "--out", str(taken)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write the run to" in err and "Traceback" not in err
    assert taken.read_text(encoding="utf-8") == "keep me"
