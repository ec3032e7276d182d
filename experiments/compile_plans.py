"""Record the compile helper's plans (``make compile-plans``): for every preset and kernel entry
point, a cold compile in a fresh process with an empty cache, its compile tree recorded and the
helper's share chosen (:mod:`pinochle_sim.runs.compile.helper`), written to
``pinochle_sim/runs/compile/plans.json``. Run it after a kernel's arguments change or a kernel
moves (the test ``tests/runs/test_compile_helper.py`` says when); about 4 minutes on two cores.

    python experiments/compile_plans.py [PRESET ...]   (named presets: only theirs re-recorded)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

ONE = """
import json, sys
from pinochle_sim import engine_inputs
from pinochle_sim.runs.compile import warmup
key, plan = warmup.record_plan(engine_inputs(sys.argv[1]), sys.argv[2])
print(json.dumps([key, plan]))
"""


def main(presets: list[str]) -> None:
    from pinochle_sim.rules.presets import PRESETS
    from pinochle_sim.runs.compile import helper, warmup

    plans: dict = {}
    for rules in presets or list(PRESETS):
        for entry in warmup.ENTRIES:
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "NUMBA_CACHE_DIR": cache, helper.ENV: "0"}
                out = subprocess.run(
                    [sys.executable, "-c", ONE, rules, entry],
                    env=env, check=True, capture_output=True, text=True,
                )  # fmt: skip
            key, plan = json.loads(out.stdout.strip().splitlines()[-1])
            plans.setdefault(key, {"rules": rules, "entry": entry, **plan})
            print(
                f"{rules:>20} {entry:<10} {plan['serial_s']:6.2f} s serial, "
                f"{plan['simulated_s']:6.2f} s with the helper ({len(plan['kernels'])} kernels)",
                flush=True,
            )
    # presets named on the command line replace their own plans and keep the others'
    kept = {} if not presets else {
        k: v for k, v in helper.load_plans().items() if k not in plans
    }  # fmt: skip
    helper.save_plans({**kept, **plans})
    print(f"wrote {helper.PLANS}")


if __name__ == "__main__":
    main(sys.argv[1:])
