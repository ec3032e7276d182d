"""``export`` at the command line: ``--decoded`` CSV of a partnership run, checked against the
deck itself and the package's own decoder; the refusal to overwrite; a raw export's columns.

The library export (three-hand Parquet with provenance, two-hand stock, games, seat names) and
the recipes of docs/runs.md are tested in tests/runs/test_export.py, whose ``runs`` fixture
(module-scoped: this module makes its own) and card helpers are imported here."""

from __future__ import annotations

from collections import Counter

import pandas as pd
from click.testing import CliRunner

from pinochle_sim import decode_hand
from pinochle_sim.cli.commands import main
from pinochle_sim.runs.store.export import SEAT_NAMES, export_run
from tests.runs.test_export import FACES, cards

# Fixtures, imported by name for pytest (module-scoped: this module gets its own instance);
# `name as name` marks a re-export, so ruff keeps the import and the parameters using it.
from tests.runs.test_export import runs as runs


def test_partnership_decoded_csv(runs, tmp_path):
    out = tmp_path / "p.csv"
    args = ["export", str(runs["partnership"]), "--decoded", "--out", str(out)]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert "700 rows written" in r.output and "(csv)" in r.output
    raw = pd.read_parquet(runs["partnership"]).sort_values("hand").reset_index(drop=True)
    dec = pd.read_csv(out, keep_default_na=False)
    assert len(dec) == 700 and dec["hand"].tolist() == raw["hand"].tolist()
    for i in range(len(dec)):
        hands = [cards(dec.loc[i, f"dealt_{p}"]) for p in range(4)]
        assert all(len(h) == 12 for h in hands)
        deck = Counter(c for h in hands for c in h)
        assert set(deck) == set(FACES) and set(deck.values()) == {2}  # the whole deck, twice
        for p in range(4):  # the same cards the package's own decoder names
            assert hands[p] == decode_hand(int(raw.loc[i, f"dealt_{p}"]))
        assert dec.loc[i, "trump"] == "SHDC"[raw.loc[i, "trump"]]
        assert dec.loc[i, "bidder"] == SEAT_NAMES[raw.loc[i, "bidder"]]
        assert dec.loc[i, "dealer"] == SEAT_NAMES[i % 4]  # the dealer of hand k is seat k mod 4
        passed = Counter(cards(dec.loc[i, "passed_to_bidder"]))
        partner = (raw.loc[i, "bidder"] + 2) % 4  # the partner gives from the dealt cards
        assert passed.total() == 4 and passed <= Counter(hands[partner])
    assert dec["made"].isin([True, False]).all() and (dec["bid"] == raw["bid"]).all()


def test_export_refuses_to_overwrite_and_raw_export_keeps_columns(runs, tmp_path):
    out = tmp_path / "p.csv"
    export_run(runs["partnership"], out, decoded=False)
    before = out.read_bytes()
    r = CliRunner().invoke(main, ["export", str(runs["partnership"]), "--out", str(out)])
    assert r.exit_code != 0 and "already exists" in r.output and "--overwrite" in r.output
    assert out.read_bytes() == before
    raw = pd.read_csv(out)
    assert raw["dealt_0"].dtype.kind == "i" and list(raw.columns) == list(
        pd.read_parquet(runs["partnership"]).columns
    )
