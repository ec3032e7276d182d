"""One simulated hand up close: every move of it, as a dict or as text (:mod:`.show`), and its
trick play solved double dummy, with every card's value and an optimal line (:mod:`.solve`).
"""
