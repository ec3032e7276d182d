"""The Parquet store: where a run's files live and what they hold.

Locations, local or a store's URL through fsspec (:mod:`.location`); every column with its
dtype and meaning (:mod:`.schema`); the names and formats of a run folder's files and its
manifest (:mod:`.files`); the provenance each part carries (:mod:`.provenance`); the folder as a
run writes it, with resume and overwrite (:mod:`.folder`); the checks of a folder against its
manifest (:mod:`.check`); reading parts back (:mod:`.read`, and :mod:`.scan` for one Arrow
dataset); a run as one decoded file for other tools (:mod:`.export`). Nothing here knows how
hands are played: the engine's version travels in the run's settings.
"""
