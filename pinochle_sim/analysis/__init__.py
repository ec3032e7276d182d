"""The analysis layer: exact meld distributions (:mod:`.exact`), duplicate matches and sweeps
(:mod:`.compare`), the hand advisor (:mod:`.advise`), estimates with their uncertainty
(:mod:`.stats`) and reports of runs (:mod:`.reports`).

Nothing is imported here, so that a module that needs only one of them (``advise``, say) loads
neither pandas nor matplotlib."""
