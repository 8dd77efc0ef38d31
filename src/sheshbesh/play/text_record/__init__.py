"""Our text format for race games: a line-oriented record people can read and replay.

gnubg's ``.mat`` covers backgammon and takhte nard (:mod:`sheshbesh.play.mat`),
PDN covers draughts; this format covers every race variant (long, Caucasian and
short nardy, Plakoto, Russian backgammon, Jacquet...). docs/record-format.md is
its grammar. Tag lines first, then one line per event, in order::

    [Variant "long_nardy"]
    [Result "W 1"]

    opening 5-3 W
    1. W 53: 24/16
    1. B 62: 24/18 24/22

The JSON record stays the source of truth and the only one with dice proofs; a
text record keeps the dice and the confirmed plays (never steps or undos), and
:func:`import_text` replays it through :class:`~sheshbesh.play.race.RaceGame`, so an imported
record is a checked one.

A chouette session (issue 18) has its own lines in the same format, tagged
``[Game "chouette"]``: :mod:`.chouette_lines` says how each session event reads,
:mod:`.chouette_export` writes them and :mod:`.chouette_import` replays them
through :class:`~sheshbesh.play.chouette_session.ChouetteSession`; ``export_text``
and ``import_text`` hand such records to them.

The package is split by direction: :mod:`.export` writes a record as text;
:mod:`.parse` reads the lines and :mod:`.import_` replays them; :mod:`.common`
holds the format's name, its error and the one way an event reads as a line.
The names below are the public ones.
"""

from .common import FORMAT, TextRecordError
from .export import export_text
from .import_ import import_text

__all__ = ["FORMAT", "TextRecordError", "export_text", "import_text"]
