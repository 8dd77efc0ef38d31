"""The gnubg/JellyFish ``.mat`` text format: export a match or a money game, import one.

The layout is the one GNU Backgammon writes (``export match mat``) and reads
(``import mat``); it was learnt from files gnubg exported, and our files are
checked by importing them into gnubg (tests/play/test_mat.py)::

    ; [EventDate "2026.11.22"]

     3 point match

     Game 1
     Ann : 0                        Bob : 0
      1)                             31: 8/5 6/5
      2) 64: 24/18 18/14              Doubles => 2
      3)  Drops                       Wins 1 point

     Game 2
     Ann : 0                        Bob : 1
      1) 31: 8/5 6/5
          Wins 2 points

White is the left column (gnubg's player 0), Black the right one. Each move
line holds one record per column: ``DD: moves`` for a roll (higher die first,
nothing after the colon for a roll that cannot be played), ``Doubles => N``,
``Beavers => N``, ``Takes``, ``Drops`` and, last, ``Wins N points`` for the
winner. Moves are single die steps in the mover's numbers, ``25`` the bar,
``0`` off, ``*`` after a hit (what gnubg writes, so its importer never has to
choose a route). A money game is a ``0 point match`` of one game; gnubg finds
the Crawford game from the score lines alone.

The format cannot say everything our games can. Comment lines in the header
carry the rest for our importer (gnubg keeps them as a match comment):
``[Variant "takhte_nard"]``, ``[Jacoby "On"]`` and ``[Beaver "On"]`` for money
tables, ``[AutoDoubles "1"]`` (BG-15: ties of the opening roll are not in the
format), and ``[Forfeit "Black"]`` when a player timed out or left (PL-7, BG-20).
A resignation is a ``Wins`` line in a game that is not over, as in gnubg.

The package is split by direction: :mod:`.export` writes a log as ``.mat`` text;
:mod:`.parse` reads text into per-game records and :mod:`.import_` replays them
through our state machine; :mod:`.common` holds what both directions share.
The names below are the public ones.
"""

from .common import MAT_VARIANTS, MatError
from .export import export_mat, export_record
from .import_ import ImportedMat, Log, import_mat, import_records

__all__ = [
    "MAT_VARIANTS",
    "ImportedMat",
    "Log",
    "MatError",
    "export_mat",
    "export_record",
    "import_mat",
    "import_records",
]
