"""Policy parameters are range-checked and a kind the rules never use is refused, with a
one-line error that says why (issue: `--param bid.risk=500` used to give a mean bid of 596;
`sweep --param bid.margin=... --rules two-hand` printed rows of +0.00)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pinochle_sim.cli.commands import main
from pinochle_sim.policies import KINDS, REGISTRY, PolicySet
from pinochle_sim.runs.simulate.hands import engine_inputs


def _fails(args: list[str], tmp_path, *messages: str) -> None:
    res = CliRunner().invoke(main, args)
    assert res.exit_code != 0
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    last = [line for line in res.output.splitlines() if line.startswith("Error")]
    assert len(last) == 1, res.output
    for m in messages:
        assert m in last[0], last[0]
    assert not any(tmp_path.iterdir()), "nothing may be written"


@pytest.mark.parametrize(
    ("args", "messages"),
    [
        (["--bid-policy", "calibrated", "--param", "bid.risk=500"], ["1..99", "percent"]),
        (["--bid-policy", "calibrated", "--param", "bid.risk=-50"], ["out of range"]),
        (["--param", "play.draw_trump=7"], ["0..1"]),
        (["--param", "bid.margin=-501"], ["-500..500", "points"]),
        (["--rules", "two-hand", "--param", "bid.margin=10"], ["no bid decision"]),
        (["--param", "stock.win_meld=10"], ["no stock decision", "partnership"]),
        (["--stock-policy", "random"], ["stock policy 'random'", "no stock decision"]),
        (["--rules", "three-hand", "--param", "pass.keep_trump=0"], ["no pass decision"]),
    ],
)
def test_run_refuses_bad_policy_parameters(args, messages, tmp_path) -> None:
    out = tmp_path / "run"
    _fails(["run", "--hands", "1000", "--out", str(out), *args], tmp_path, *messages)


def test_sweep_refuses_a_kind_the_rules_never_use(tmp_path) -> None:
    args = ["sweep", "--param", "bid.margin=-20:20:10", "--rules", "two-hand", "--hands", "100"]
    _fails([*args, "--out", str(tmp_path / "s")], tmp_path, "no bid decision")


def test_compare_checks_both_sides(tmp_path) -> None:
    args = ["compare", "default", "bid.margin=20", "--rules", "two-hand", "--hands", "100"]
    _fails([*args, "--out", str(tmp_path / "c")], tmp_path, "no bid decision")


def test_library_refuses_too(tmp_path) -> None:
    with pytest.raises(ValueError, match="no meld decision"):
        engine_inputs("joedog", PolicySet(meld="random"))
    with pytest.raises(ValueError, match="out of range"):
        PolicySet.from_options(params=["stock.meld_weight=201"])


def test_policies_command_lists_every_policy_and_range() -> None:
    res = CliRunner().invoke(main, ["policies"])
    assert res.exit_code == 0
    for kind in KINDS:
        for name, info in REGISTRY[kind].items():
            assert f"  {name}: " in res.output
            for pname, spec in info.params.items():
                assert f"{kind}.{pname} = {spec.default}  [{spec.range_text} {spec.unit}]" in (
                    res.output
                )
    one = CliRunner().invoke(main, ["policies", "play"])
    assert one.exit_code == 0 and "counting" in one.output and "estimate" not in one.output
    bad = CliRunner().invoke(main, ["policies", "nonsense"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
