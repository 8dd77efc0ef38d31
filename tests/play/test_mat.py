"""The ``.mat`` export and import, checked against GNU Backgammon (the PyPI ``gnubg`` module).

gnubg reads every file we write back to the same final position and score; gnubg's
own export of a match played move for move alongside ours has the same records on
the same lines; our importer replays our files and gnubg's to the same state.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import gnubg
import pytest
from dice_sources import ListDice, SeededDice
from test_race_properties import pick

from sheshbesh.games.race import Side
from sheshbesh.games.race.gnubg_id import MatchId
from sheshbesh.play import actions as act
from sheshbesh.play.mat import MatError, export_mat, import_mat, import_records
from sheshbesh.play.match import Match, replay_match
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import Event, Phase, RaceGame, replay
from sheshbesh.play.record import dumps, make_record

W, B = Side.WHITE, Side.BLACK
SEEDS = [5, 8, 17, 22, 27, 29]
"""Seeded random matches that hold Crawford games, drops and gammons between them."""


def calm(actions: list[act.Action], rng: random.Random) -> act.Action:
    """Random legal actions with fewer doubles and resignations, so matches run several games."""
    kept = [
        a for a in actions
        if not (isinstance(a, act.Double) and rng.random() < 0.75)
        and not (isinstance(a, act.Resign) and rng.random() < 0.9)
    ]  # fmt: skip
    return pick(kept or actions, rng)


def random_match(seed: int, length: int, variant: str = "backgammon") -> tuple[Event, list[Event]]:
    rng, dice = random.Random(seed), SeededDice(seed)
    match, created = Match.create(variant, length)
    log: list[Event] = []
    while not match.finished:
        step = match.apply(calm(match.legal_actions(), rng), dice)
        match, log = step.match, log + list(step.events)
    return created, log


def random_money_game(seed: int, variant: str, **options: Any) -> tuple[Event, list[Event]]:
    rng, dice = random.Random(seed), SeededDice(seed)
    game, created = RaceGame.create(variant, RaceOptions.defaults(variant, **options))
    log: list[Event] = []
    while not game.finished:
        step = game.apply(calm(game.legal_actions(), rng), dice)
        game, log = step.game, log + list(step.events)
    return created, log


def crawford_games(log: list[Event]) -> set[int]:
    return {e["game"] for e in log if e["type"] == "game_started" and e["crawford"]}


def gnubg_reads(text: str, tmp_path: Path) -> tuple[str, MatchId, list[dict[str, Any]]]:
    """Import ``text`` into gnubg: its position ID, match ID and per-game summaries."""
    path = tmp_path / "match.mat"
    path.write_text(text)
    gnubg.command(f"import mat {path}")
    games = [game["info"] for game in gnubg.match(analysis=0)["games"]]
    return gnubg.positionid(), MatchId.from_id(gnubg.matchid()), games


GNUBG_SIDE = {"X": W, "O": B}
"""gnubg's summaries call its player 0 (our White, the left column) X."""


# --- the check: gnubg reads our export back ------------------------------------


def test_gnubg_reads_our_matches_to_the_same_position_and_score(tmp_path: Path) -> None:
    seen = {"crawford": 0, "drop": 0, "gammon": 0}
    for seed in SEEDS:
        created, log = random_match(seed, 3 + seed % 5)
        match = replay_match(created, log)
        text = export_mat(created, log, names=("Ann", "Bob"))
        position_id, match_id, games = gnubg_reads(text, tmp_path)
        assert position_id == match.game.position.id(), seed
        assert match_id.score == match.score and match_id.match_length == match.length
        assert len(games) == len(match.results)
        crawford = crawford_games(log)
        for number, (ours, theirs) in enumerate(zip(match.results, games, strict=True), 1):
            assert GNUBG_SIDE[theirs["winner"]] is ours.winner, (seed, number)
            assert theirs["points-won"] == ours.points, (seed, number)
            assert theirs.get("crawford", False) == (number in crawford), (seed, number)
        seen["crawford"] += len(crawford)
        seen["drop"] += sum(r.reason == "BG-12" for r in match.results)
        seen["gammon"] += sum(r.level == 2 and r.reason == "BF-13" for r in match.results)
    assert all(seen.values()), seen


def test_gnubg_reads_a_match_cut_anywhere(tmp_path: Path) -> None:
    """An unfinished match exports too: gnubg reaches the same position and score."""
    created, log = random_match(17, 5)
    rng = random.Random(1)
    ends = [i for i, e in enumerate(log, 1) if e["type"] in ("played", "passed")]
    for end in rng.sample(ends, 12):
        match = replay_match(created, log[:end])
        position_id, match_id, _ = gnubg_reads(export_mat(created, log[:end]), tmp_path)
        assert position_id == match.game.position.id(), end
        assert match_id.score == match.score, end


@pytest.mark.parametrize("jacoby", [False, True])
def test_gnubg_reads_a_money_game_as_a_0_point_match(tmp_path: Path, jacoby: bool) -> None:
    for seed in (3, 4, 6):
        created, log = random_money_game(seed, "backgammon", jacoby=jacoby)
        game = replay(created, log)
        text = export_mat(created, log)
        assert "\n 0 point match\n" in text and text.count(" Game ") == 1
        gnubg.command(f"set jacoby {'on' if jacoby else 'off'}")
        position_id, match_id, games = gnubg_reads(text, tmp_path)
        assert game.result is not None and match_id.match_length == 0
        assert position_id == game.position.id()
        assert games[0]["points-won"] == game.result.points
        assert GNUBG_SIDE[games[0]["winner"]] is game.result.winner


def test_gnubg_reads_takhte_nard_money_games_but_not_their_automatic_doubles(
    tmp_path: Path,
) -> None:
    """TN-1: backgammon for gnubg. Beavers read back; BG-15's automatic doubles cannot."""
    gnubg.command("set jacoby on")
    gnubg.command("set beavers 3")
    for seed in (0, 2, 3, 11):
        created, log = random_money_game(seed, "takhte_nard")
        game = replay(created, log)
        assert game.result is not None
        text = export_mat(created, log)
        position_id, _, games = gnubg_reads(text, tmp_path)
        assert position_id == game.position.id()
        assert GNUBG_SIDE[games[0]["winner"]] is game.result.winner
        assert games[0]["points-won"] * 2**game.auto_doubles == game.result.points
        assert ('[AutoDoubles "1"]' in text) is (game.auto_doubles == 1)
    assert "Beavers => 4" in text


def test_gnubg_reads_a_forfeited_match_and_our_import_keeps_the_forfeit(tmp_path: Path) -> None:
    """BG-20/PL-7: the timeout game is a ``Wins`` line; the header says who forfeited."""
    rng, dice = random.Random(22), SeededDice(22)
    match, created = Match.create("backgammon", 5)
    log: list[Event] = []
    while match.number < 3 or match.game.phase is Phase.OPENING:
        step = match.apply(calm(match.legal_actions(), rng), dice)
        match, log = step.match, log + list(step.events)
    step = match.apply(act.Timeout(W))
    match, log = step.match, log + list(step.events)
    assert match.result is not None and match.result.reason == "BG-20"
    text = export_mat(created, log)
    assert '; [Forfeit "White"]' in text
    position_id, match_id, _ = gnubg_reads(text, tmp_path)
    assert position_id == match.game.position.id() and match_id.score == match.score
    again = import_mat(text).final[0]
    assert isinstance(again, Match)
    assert (again.result, again.results) == (match.result, match.results)


def test_gnubg_reads_a_double_its_own_double_command_would_call_dead(tmp_path: Path) -> None:
    """A 1-point match: gnubg's ``double`` refuses a dead cube, RULES.md allows it (BG-11)."""
    match, created = Match.create("backgammon", 1)
    log: list[Event] = []
    dice = ListDice([(1, 3), (6, 4)])
    for action in (act.Start(), act.PlayText(B, "8/5 6/5"), act.Double(W), act.Take(B),
                   act.Roll(W), act.PlayText(W, "24/14"), act.Resign(B, 1),
                   act.AcceptResign(W)):  # fmt: skip
        step = match.apply(action, dice)
        match, log = step.match, log + list(step.events)
    assert match.score == (2, 0)
    position_id, match_id, _ = gnubg_reads(export_mat(created, log), tmp_path)
    assert (position_id, match_id.score) == (match.game.position.id(), (2, 0))


# --- gnubg's own export, played move for move alongside ours ---------------------------


class _GnubgOpening:
    """Our dice, except that each game's opening roll is the one gnubg rolled."""

    def __init__(self, seed: int) -> None:
        self.dice = SeededDice(seed)
        self.opening: tuple[int, int] | None = None

    def read_gnubg(self) -> None:
        match_id = MatchId.from_id(gnubg.matchid())
        high, low = match_id.dice
        self.opening = (high, low) if match_id.dice_owner == 0 else (low, high)

    def roll(self, nonce: str | None, count: int) -> act.Rolled:
        if self.opening is not None:
            opening, self.opening = self.opening, None
            return act.Rolled(opening)
        return self.dice.roll(nonce, count)


def live_cube(match: Match) -> list[act.Action]:
    """The legal actions less gnubg's dead-cube doubles, which its ``double`` command refuses.

    gnubg will not let a player double once the cube already gives him the match
    (cube ≥ points he needs); RULES.md has no such rule, and gnubg's importer
    reads such doubles, so only this lockstep drive leaves them out.
    """
    actions = match.legal_actions()
    game = match.game
    side = game.position.turn
    if game.cube.value >= match.length - match.score[side]:
        actions = [a for a in actions if not isinstance(a, act.Double)]
    return actions


COMMANDS = {
    "doubled": "double", "taken": "take", "dropped": "drop", "resign_accepted": "accept",
    "resign_declined": "reject", "passed": "move",
}  # fmt: skip
LEVELS = {1: "normal", 2: "gammon", 3: "backgammon"}


def played_in_gnubg(seed: int, length: int, out: Path) -> tuple[Event, list[Event], str]:
    """A random match played by us and, command by command, by gnubg; gnubg's export."""
    for command in ("set player 0 human", "set player 1 human", "set automatic roll off",
                    f"set seed {seed}", f"new match {length}", "set player 0 name White",
                    "set player 1 name Black"):  # fmt: skip
        gnubg.command(command)
    rng, dice = random.Random(seed), _GnubgOpening(seed)
    dice.read_gnubg()
    match, created = Match.create("backgammon", length)
    log: list[Event] = []
    while not match.finished:
        step = match.apply(calm(live_cube(match), rng), dice)
        match, log = step.match, log + list(step.events)
        for event in step.events:
            kind = event["type"]
            if kind == "rolled":
                gnubg.command(f"set dice {event['dice'][0]} {event['dice'][1]}")
            elif kind == "played":
                gnubg.command(f"move {event['play']}")
            elif kind == "resign_offered":
                gnubg.command(f"resign {LEVELS[event['level']]}")
            elif kind == "game_started":
                gnubg.command("new game")
                dice.read_gnubg()
            elif kind in COMMANDS:
                gnubg.command(COMMANDS[kind])
    gnubg.command(f"export match mat {out}")
    return created, log, out.read_text()


def skeleton(text: str) -> list[tuple[str, str, str]]:
    """Each move line as (number, left, right) read at gnubg's fixed columns 5 and 33.

    A roll keeps its sorted dice and how many steps it moved: the steps may name
    another route to the same play, and gnubg writes the dice of a roll that was
    never played in the order they were set.
    """
    rows = []
    for line in text.splitlines():
        if line.startswith(" " * 5) or re.match(r"^\s*\d+\) ", line):
            rows.append((line[:5].strip(), _cell(line[5:33]), _cell(line[33:])))
    return rows


def _cell(text: str) -> str:
    roll = re.match(r"^([1-6])([1-6]):(.*)$", text.strip())
    if roll is None:
        return text.strip()
    return f"{max(roll[1], roll[2])}{min(roll[1], roll[2])}: {len(roll[3].split())} steps"


@pytest.mark.parametrize("seed", [5, 14, 17])
def test_our_export_has_gnubgs_records_on_gnubgs_lines(seed: int, tmp_path: Path) -> None:
    created, log, theirs = played_in_gnubg(seed, 5, tmp_path / "gnubg.mat")
    ours = export_mat(created, log)
    assert ours.split("\n 5 point match\n")[1].count("\n") > 10
    assert skeleton(ours) == skeleton(theirs)
    score_lines = [line for line in theirs.splitlines() if " : " in line]
    assert score_lines == [line for line in ours.splitlines() if " : " in line]
    match = replay_match(created, log)
    from_gnubg = import_mat(theirs).final[0]
    assert isinstance(from_gnubg, Match)
    assert (from_gnubg.score, from_gnubg.game.position) == (match.score, match.game.position)


# --- our import of our export -----------------------------------------------------------


@pytest.mark.parametrize("variant", ["backgammon", "takhte_nard"])
def test_our_import_replays_our_export_to_the_same_match(variant: str) -> None:
    for seed in SEEDS:
        created, log = random_match(seed, 1 + seed % 7, variant)
        match = replay_match(created, log)
        imported = import_mat(export_mat(created, log, names=("Ann", "Bob")))
        assert imported.names == ("Ann", "Bob") and imported.length == match.length
        again = imported.final[0]
        assert isinstance(again, Match) and again.variant == variant
        assert (again.score, again.results, again.result) == (match.score, match.results,
                                                              match.result)  # fmt: skip
        assert (again.game.position, again.game.cube) == (match.game.position, match.game.cube)
        assert replay_match(*imported.logs[0]) == again


@pytest.mark.parametrize("seed", range(8))
def test_our_import_replays_takhte_nard_money_games_with_beavers_and_auto_doubles(
    seed: int,
) -> None:
    created, log = random_money_game(seed, "takhte_nard", auto_doubles=2)
    game = replay(created, log)
    text = export_mat(created, log)
    again = import_mat(text).final[0]
    assert isinstance(again, RaceGame) and again.rules.name == "takhte_nard"
    assert (again.position, again.cube, again.result) == (game.position, game.cube, game.result)
    assert again.auto_doubles == game.auto_doubles


def test_a_beaver_and_its_take_are_written_as_gnubg_writes_them() -> None:
    game, created = RaceGame.create("takhte_nard", RaceOptions.defaults("takhte_nard"))
    dice = ListDice([(3, 1), (6, 4)])
    log: list[Event] = []
    for action in (act.Start(), act.PlayText(W, "8/5 6/5"), act.Double(B), act.Beaver(W),
                   act.Take(B), act.Roll(B), act.PlayText(B, "24/14")):  # fmt: skip
        step = game.apply(action, dice)
        game, log = step.game, log + list(step.events)
    text = export_mat(created, log)
    assert "  2)  Beavers => 4               64: 24/18 18/14" in text
    assert " Doubles => 2" in text and "Takes" not in text
    again = import_mat(text).final[0]
    assert isinstance(again, RaceGame) and again.cube == game.cube


# --- the layout, by hand -----------------------------------------------------------------

A_MATCH = """\
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

 Game 3
 Ann : 2                        Bob : 1

"""


def test_a_short_match_in_gnubgs_mat_layout() -> None:
    """Black opens and wins a drop; White wins a resigned gammon; the Crawford game waits."""
    match, created = Match.create("backgammon", 3)
    dice = ListDice([(1, 3), (6, 4), (3, 1)])
    log: list[Event] = []
    for action in (act.Start(), act.PlayText(B, "8/5 6/5"), act.Roll(W), act.PlayText(W, "24/14"),
                   act.Double(B), act.Drop(W), act.Start(), act.PlayText(W, "8/5 6/5"),
                   act.Resign(B, 2), act.AcceptResign(W)):  # fmt: skip
        step = match.apply(action, dice)
        match, log = step.match, log + list(step.events)
    assert match.score == (2, 1) and match.crawford
    assert export_mat(created, log, names=("Ann", "Bob"), date="2026.11.22") == A_MATCH
    again = import_mat(A_MATCH).final[0]
    assert again == match


# --- bad input ------------------------------------------------------------------------------


def test_import_refuses_a_text_that_is_not_a_mat_file() -> None:
    with pytest.raises(MatError, match="no 'N point match' line"):
        import_mat("")
    with pytest.raises(MatError, match=r"line 1: expected 'N point match'"):
        import_mat("hello\n")
    with pytest.raises(MatError, match=r"line 3: expected the players and score"):
        import_mat(" 3 point match\n Game 1\n nonsense\n")
    with pytest.raises(MatError, match="1-25 points"):
        import_mat(" 31 point match\n")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("  1) 31: 8/4 6/5", r"line 4: .*'8/4 6/5'"),
        ("  1) 33: 8/5 6/3", r"line 4: the opening roll 33 is a doublet"),
        ("  1) 31: 8/5 6/5               Roars", r"line 4: cannot read 'Roars'"),
        ("  1)  Doubles => 2", r"line 4: a game opens with a roll"),
        ("  1) 31: 8/5 6/5     Wins 1 point", r"line 4: white resigns while black is to act"),
    ],
)
def test_import_names_the_bad_line(line: str, message: str) -> None:
    text = f" 3 point match\n Game 1\n A : 0          B : 0\n{line}\n"
    with pytest.raises(MatError, match=message):
        import_mat(text)


def test_import_refuses_a_double_in_the_crawford_game_bg_19() -> None:
    text = (
        " 3 point match\n Game 1\n A : 0          B : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Drops\n"
        " Game 2\n A : 0          B : 1\n  1) 31: 8/5 6/5\n      Wins 2 points\n"
        " Game 3\n A : 2          B : 1\n  1) 31: 8/5 6/5                 Doubles => 2\n"
    )
    with pytest.raises(MatError, match=r"line 12: no doubling in the Crawford game \(BG-19\)"):
        import_mat(text)


def test_import_checks_each_games_score_line() -> None:
    text = (
        " 3 point match\n Game 1\n A : 0          B : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Drops\n"
        " Game 2\n A : 1          B : 0\n"
    )
    with pytest.raises(MatError, match="line 7: the file's score 1-0 is not the replayed 0-1"):
        import_mat(text)


def test_import_refuses_a_game_that_never_ended_and_a_bad_forfeit_tag() -> None:
    text = " 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n Game 2\n A : 0   B : 0\n"
    with pytest.raises(MatError, match="line 6: game 2 starts before the last one ended"):
        import_mat(text)
    with pytest.raises(MatError, match="should name White or Black"):
        import_mat('; [Forfeit "Carol"]\n 3 point match\n')


def test_export_refuses_variants_gnubg_does_not_play() -> None:
    _, created = RaceGame.create("long_nardy")
    with pytest.raises(MatError, match="no long_nardy"):
        export_mat(created, [])
    with pytest.raises(MatError, match="not a game or match log"):
        export_mat({"type": "opening"}, [])
    with pytest.raises(MatError, match="no plakoto"):
        import_mat(" 1 point match\n", variant="plakoto")


# --- the command line -----------------------------------------------------------------------


def test_cli_exports_a_match_record_and_imports_it_back(tmp_path: Path) -> None:
    created, log = random_match(8, 5)
    record_file = tmp_path / "match.json"
    record_file.write_text(dumps({**make_record(created, log), "game": "match"}))
    mat = tmp_path / "match.mat"
    run = [sys.executable, "-m", "sheshbesh.cli"]
    exported = subprocess.run([*run, "export", str(record_file), "--white", "Ann", "-o", str(mat)],
                              capture_output=True, text=True, check=False)  # fmt: skip
    assert exported.returncode == 0, exported.stderr
    assert mat.read_text().startswith("\n 5 point match\n") and " Ann : 0 " in mat.read_text()
    imported = subprocess.run([*run, "import", str(mat)], capture_output=True, text=True,
                              check=False)  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    (record,) = import_records(mat.read_text())
    assert record["game"] == "match" and record["players"] == {"W": "Ann", "B": "Black"}
    assert dumps(record) in imported.stdout
    final = replay_match(record["created"], record["events"])
    assert final.score == replay_match(created, log).score
