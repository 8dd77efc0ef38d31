"""Game-flow rules of RULES.md through the race state machine, each test named by rule ID."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dice_sources import ListDice

from sheshbesh.games.errors import IllegalPlay
from sheshbesh.games.race import Position, Side
from sheshbesh.play import actions as act
from sheshbesh.play.cube import Cube
from sheshbesh.play.errors import IllegalAction, InvalidOptions, NotYourTurn
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import Phase, RaceGame, replay
from sheshbesh.play.result import exposure, score

W, B = Side.WHITE, Side.BLACK


def new(variant: str, **options: object) -> RaceGame:
    return RaceGame.create(variant, RaceOptions.defaults(variant, **options))[0]


def at(variant: str, text: str, to_move: Side = W, **options: object) -> RaceGame:
    """A game in its ROLL phase at ``text`` (a constructed position)."""
    game = new(variant, **options)
    return replace(game, position=Position.from_text(variant, text), phase=Phase.ROLL)


def run(game: RaceGame, dice: ListDice, *actions: act.Action) -> RaceGame:
    for action in actions:
        game = game.apply(action, dice).game
    return game


# --- the opening (BF-14) -------------------------------------------------------------


def test_bf_14_u_starter_plays_the_opening_dice_bg_3() -> None:
    game = run(new("backgammon"), ListDice([(3, 5)]), act.Start())
    assert game.phase is Phase.MOVE and game.position.turn is B
    assert game.turn is not None and game.turn.dice == (5, 3)


def test_bf_14_ties_are_rolled_again() -> None:
    step = new("backgammon").apply(act.Start(), ListDice([(4, 4), (2, 2), (6, 2)]))
    assert [e["type"] for e in step.events] == ["opening", "opening", "opening"]
    assert step.game.cube == Cube() and step.game.turn is not None
    assert step.game.turn.dice == (6, 2)


def test_bf_14_f_starter_rolls_fresh_pk_3() -> None:
    game = run(new("plakoto"), ListDice([(2, 5)]), act.Start())
    assert game.phase is Phase.ROLL and game.position.turn is B and game.turn is None


def test_ln_3_opening_winner_takes_white() -> None:
    game = run(new("long_nardy"), ListDice([(2, 5)]), act.Start())
    assert game.white_seat == 1 and game.position.turn is W and game.phase is Phase.ROLL


def test_sn_2_opening_dice_are_whites_first_roll() -> None:
    game = run(new("short_nardy"), ListDice([(3, 5)]), act.Start())
    assert game.white_seat == 1 and game.position.turn is W
    assert game.turn is not None and game.turn.dice == (5, 3)


def test_tn_e2_automatic_double_limit_one() -> None:
    step = new("takhte_nard").apply(act.Start(), ListDice([(4, 4), (4, 4), (6, 2)]))
    kinds = [e["type"] for e in step.events]
    assert kinds == ["opening", "auto_double", "opening", "opening"]
    assert step.game.cube == Cube(2, None) and not step.game.doubled
    assert step.game.position.turn is W


def test_bg_15_automatic_doubles_off_by_default_in_backgammon() -> None:
    game = run(new("backgammon"), ListDice([(4, 4), (6, 2)]), act.Start())
    assert game.cube == Cube()


def test_bg_15_up_to_three_automatic_doubles() -> None:
    dice = ListDice([(1, 1), (2, 2), (3, 3), (4, 4), (6, 2)])
    game = run(new("backgammon", auto_doubles=3), dice, act.Start())
    assert game.cube == Cube(8, None)


# --- the turn (BF-10) ----------------------------------------------------------------


def test_bf_10_steps_undo_confirm() -> None:
    game = run(new("backgammon"), ListDice([(3, 1)]), act.Start(), act.Move(W, 8, 5))
    with pytest.raises(IllegalPlay, match="not complete"):
        game.apply(act.Confirm(W))
    game = run(game, ListDice([]), act.Undo(W), act.Move(W, 8, 5), act.Move(W, 6, 5))
    game = run(game, ListDice([]), act.Confirm(W))
    assert game.position.text() == "B:W5x2,6x4,8x2,13x5,24x2:B1x2,12x5,17x3,19x5"
    assert game.phase is Phase.ROLL and game.position.turn is B


def test_bf_10_whole_play_in_one_action() -> None:
    game = run(new("backgammon"), ListDice([(6, 5)]), act.Start(), act.PlayText(W, "24/13"))
    assert game.position.turn is B


def test_bf_10_forced_play_is_played_automatically() -> None:
    """LN-E1: 6-6 from the start has only 24/18(2)."""
    game = at("long_nardy", "W:W24x15:B12x15")
    step = game.apply(act.Roll(W, "n1"), ListDice([(6, 6)]))
    assert [e["type"] for e in step.events] == ["rolled", "played"]
    assert step.events[-1]["auto"] is True and step.events[-1]["play"] == "24/18(2)"
    manual = at("long_nardy", "W:W24x15:B12x15", auto_play_forced=False)
    assert manual.apply(act.Roll(W), ListDice([(6, 6)])).game.phase is Phase.MOVE


def test_bf_9_4_no_play_passes_automatically_bg_e4() -> None:
    game = at("backgammon", "W:Wbar,13x14:B1x9,19x2,20x2,22x2")
    step = game.apply(act.Roll(W), ListDice([(6, 3)]))
    assert [e["type"] for e in step.events] == ["rolled", "passed"]
    assert step.game.position.turn is B and step.game.phase is Phase.ROLL


def test_rb_8_full_double_earns_the_complement_then_a_new_roll_rb_e4() -> None:
    game = at("russian_backgammon", "W:Wnewx15:Bnewx15", auto_play_forced=False)
    game = replace(game, position=Position.from_own(
        "russian_backgammon", white={3: 14, 10: 1}, black={20: 15}))  # fmt: skip
    step = game.apply(act.Roll(W), ListDice([(2, 2)]))
    game = run(step.game, ListDice([]), act.PlayText(W, "10/2"))
    assert game.phase is Phase.MOVE and game.turn is not None and game.turn.dice == (5, 5)
    game = run(game, ListDice([]), act.PlayText(W, "3/off(4)"))
    assert game.phase is Phase.ROLL and game.position.turn is W  # rolls again


def test_rb_8_interrupted_double_ends_the_turn_rb_e3() -> None:
    position = Position.from_own(
        "russian_backgammon", white={3: 14, 10: 1}, black={6: 2, 1: 2, 20: 11}
    )
    game = replace(at("russian_backgammon", "W:Wnewx15:Bnewx15"), position=position)
    step = game.apply(act.Roll(W), ListDice([(2, 2)]))
    assert step.events[-1]["play"] == "10/8" and step.game.position.turn is B


def test_rb_8_first_turn_double_is_rolled_again_rb_e5() -> None:
    game = at("russian_backgammon", "W:Wnewx15:Bnewx15", auto_play_forced=False)
    step = game.apply(act.Roll(W, "x"), ListDice([(4, 4), (6, 3)]))
    assert step.events[0]["ignored"] == "RB-8"
    assert step.game.turn is not None and step.game.turn.dice == (6, 3)


def test_ln_13_last_roll_draw_ln_e7a() -> None:
    game = at("long_nardy", "W:W1:B13,15", last_roll=True, stake_mode="mars")
    game = run(game, ListDice([(1, 2), (3, 1)]), act.Roll(W), act.Roll(B))
    assert game.turn is not None
    game = run(game, ListDice([]), act.PlayText(B, "3/off 1/off"))
    assert game.result is not None and game.result.is_draw and game.result.reason == "LN-13"
    assert game.result.paid_to(W) == 0


def test_ln_13_last_roll_that_misses_leaves_white_the_winner() -> None:
    game = at("long_nardy", "W:W1:B13,15", last_roll=True)
    game = run(game, ListDice([(1, 2), (2, 1)]), act.Roll(W), act.Roll(B))
    assert game.result is not None and game.result.winner is W and game.result.level == 1


def test_ln_13_without_the_option_white_wins_at_once() -> None:
    game = run(at("long_nardy", "W:W1:B13,15"), ListDice([(1, 2)]), act.Roll(W))
    assert game.result is not None and game.result.winner is W


# --- the cube (BG-10 … BG-17) --------------------------------------------------------


def test_bg_11_double_only_before_rolling_and_not_against_the_owner_bg_13() -> None:
    game = at("backgammon", Position.start("backgammon").text())
    game = run(game, ListDice([]), act.Double(W), act.Take(B))
    assert game.cube == Cube(2, B) and game.position.turn is W
    with pytest.raises(IllegalAction, match="owns the cube"):
        game.apply(act.Double(W))
    moving = run(game, ListDice([(3, 1)]), act.Roll(W))
    with pytest.raises(IllegalAction, match="only before rolling"):
        moving.apply(act.Double(W))


def test_bg_14_cube_capped_at_64() -> None:
    game = replace(at("backgammon", Position.start("backgammon").text()), cube=Cube(64, W))
    assert not game.can_double(W)
    with pytest.raises(IllegalAction, match="64"):
        game.apply(act.Double(W))


def test_bg_12_drop_pays_the_value_before_the_double() -> None:
    game = at("backgammon", Position.start("backgammon").text())
    game = run(game, ListDice([]), act.Double(W), act.Drop(B))
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (W, 1, "BG-12")
    assert game.result.paid_to(B) == -1


def test_bg_e7_redouble_drop_and_gammon_values() -> None:
    base = at("backgammon", Position.start("backgammon").text())
    game = run(base, ListDice([(3, 1)]), act.Double(W), act.Take(B), act.Roll(W))
    game = run(game, ListDice([]), act.PlayText(W, "8/5 6/5"), act.Double(B))
    dropped = run(game, ListDice([]), act.Drop(W))
    assert dropped.result is not None and dropped.result.paid_to(W) == -2
    taken = run(game, ListDice([(6, 5)]), act.Take(W), act.Roll(B))
    taken = run(taken, ListDice([]), act.PlayText(B, "24/13"), act.Resign(W, 2))
    taken = run(taken, ListDice([]), act.AcceptResign(B))
    assert taken.result is not None and taken.result.paid_to(W) == -8


def test_tn_e3_beaver_accepted_and_refused() -> None:
    game = at("takhte_nard", Position.start("takhte_nard").text())
    beavered = run(game, ListDice([]), act.Double(W), act.Beaver(B))
    assert beavered.cube == Cube(4, B) and beavered.phase is Phase.BEAVERED
    assert not any(isinstance(a, act.Beaver) for a in beavered.legal_actions())  # no raccoon
    accepted = run(beavered, ListDice([]), act.Take(W))
    assert accepted.phase is Phase.ROLL and accepted.position.turn is W
    refused = run(beavered, ListDice([]), act.Drop(W))
    assert refused.result is not None and refused.result.paid_to(W) == -2


def test_bg_16_beavers_off_by_default_in_backgammon() -> None:
    game = run(at("backgammon", Position.start("backgammon").text()), ListDice([]), act.Double(W))
    with pytest.raises(IllegalAction, match="beavers are off"):
        game.apply(act.Beaver(B))


def test_bg_17_jacoby_gammon_counts_single_until_a_double() -> None:
    game = at("backgammon", Position.start("backgammon").text(), jacoby=True)
    resigned = run(game, ListDice([]), act.Resign(W, 2), act.AcceptResign(B))
    assert resigned.result is not None and resigned.result.points == 1
    after_take = run(game, ListDice([]), act.Double(W), act.Take(B), act.Resign(W, 2))
    after_take = run(after_take, ListDice([]), act.AcceptResign(B))
    assert after_take.result is not None and after_take.result.points == 4


def test_bg_17_automatic_doubles_keep_jacoby_tn_2() -> None:
    game = run(new("takhte_nard"), ListDice([(4, 4), (6, 2)]), act.Start())
    game = run(game, ListDice([]), act.PlayText(W, "24/18 13/11"), act.Resign(B, 2))
    game = run(game, ListDice([]), act.AcceptResign(W))
    assert game.result is not None and (game.result.level, game.result.points) == (1, 2)


def test_bg_19_no_cube_in_the_crawford_game() -> None:
    game = at("backgammon", Position.start("backgammon").text(), match_length=5, crawford=True)
    with pytest.raises(IllegalAction, match="Crawford"):
        game.apply(act.Double(W))


def test_ns_1_nardy_tables_have_no_cube() -> None:
    with pytest.raises(InvalidOptions, match="without a doubling cube"):
        RaceOptions.defaults("long_nardy", cube=True)
    with pytest.raises(IllegalAction, match="without the cube"):
        at("short_nardy", Position.start("short_nardy").text()).apply(act.Double(W))


def test_bg_18_matches_have_no_beavers_jacoby_or_auto_doubles() -> None:
    with pytest.raises(InvalidOptions, match="BG-18"):
        RaceOptions.defaults("backgammon", match_length=5, beavers=True)
    assert RaceOptions.defaults("takhte_nard", match_length=5).beavers is False


# --- results and stakes --------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "mode", "level", "paid"),
    [
        ("short_nardy", "mars", 2, 2),  # SN-E4: mars pays both parts
        ("short_nardy", "mars", 1, 1),  # deposits returned, stake paid
        ("short_nardy", "oin", 2, 1),  # NS-2: no extra for a mars
        ("long_nardy", "mars", 2, 2),
        ("caucasian_nardy", "oin", 1, 1),
    ],
)
def test_ns_2_ns_3_stakes(variant: str, mode: str, level: int, paid: int) -> None:
    options = RaceOptions.defaults(variant, stake_mode=mode)
    result = score(options_rules(variant), options, W, level, 1, "BF-13")
    assert result.paid_to(W) == paid and result.paid_to(B) == -paid


def options_rules(variant: str):  # type: ignore[no-untyped-def]
    from sheshbesh.games.race import find_rules

    return find_rules(variant)


@pytest.mark.parametrize(
    ("variant", "level", "paid"),
    [("plakoto", 2, 2), ("plakoto", 1, 1), ("russian_backgammon", 3, 3), ("jacquet", 2, 2)],
)
def test_pk_11_rb_11_jq_10_loser_pays_level_times_stake(
    variant: str, level: int, paid: int
) -> None:
    result = score(options_rules(variant), RaceOptions.defaults(variant), B, level, 1, "BF-13")
    assert result.paid_to(B) == paid and result.paid_to(W) == -paid


def test_pl_5_exposure_is_the_largest_possible_loss() -> None:
    bg = options_rules("backgammon")
    assert exposure(bg, RaceOptions(cube=True), 4) == 12
    assert exposure(options_rules("short_nardy"), RaceOptions(stake_mode="mars"), 1) == 2
    assert exposure(bg, RaceOptions(cube=True, match_length=5), 8) == 1


def test_pl_5_under_jacoby_nobody_loses_more_than_the_cube_until_a_double() -> None:
    """BG-17, BF-15: while nobody has doubled a money game with Jacoby, a gammon or a
    backgammon scores single, whether played out, resigned or forfeited (PL-7), and a
    drop pays the cube: the largest possible loss is the cube. Once a double is offered
    (``doubled``) the levels count again."""
    bg = options_rules("backgammon")
    jacoby = RaceOptions(cube=True, jacoby=True)
    assert exposure(bg, jacoby, 1) == 1
    assert exposure(bg, jacoby, 4) == 4  # automatic doubles keep Jacoby (BG-17)
    assert exposure(bg, jacoby, 2, doubled=True) == 6
    assert exposure(bg, RaceOptions(cube=True), 1, doubled=False) == 3


def test_pl_7_timeout_forfeits_at_the_level_the_position_gives() -> None:
    game = at("backgammon", Position.start("backgammon").text())
    game = run(game, ListDice([]), act.Double(W), act.Take(B), act.Timeout(W))
    assert game.result is not None
    assert (game.result.winner, game.result.level, game.result.points) == (B, 3, 6)
    assert game.result.reason == "PL-7"


def test_pl_7_bg_12_a_timeout_on_a_pending_double_drops_it() -> None:
    """Money play: Black, doubled to 2 at the start (a backgammon for the forfeit level),
    lets his time run out: he drops and pays the cube before the offer, 1, not 3."""
    game = at("backgammon", Position.start("backgammon").text())
    game = run(game, ListDice([]), act.Double(W), act.Timeout(B))
    assert game.result is not None
    result = game.result
    assert (result.winner, result.level, result.cube, result.points) == (W, 1, 1, 1)
    assert result.reason == "PL-7" and result.paid_to(B) == -1


def test_pl_7_bg_12_a_forfeit_on_a_pending_redouble_pays_the_cube_before_it() -> None:
    base = at("backgammon", Position.start("backgammon").text())
    game = run(base, ListDice([(3, 1)]), act.Double(W), act.Take(B), act.Roll(W))
    game = run(game, ListDice([]), act.PlayText(W, "8/5 6/5"), act.Double(B), act.Timeout(W))
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.paid_to(W)) == (B, 2, -2)


def test_pl_7_bg_16_a_timeout_on_a_pending_beaver_pays_the_doubled_value() -> None:
    """The doubler must answer a beaver and runs out of time: he refuses it and pays the
    value his own double reached, 2 (not the forfeit level 3 × the beavered cube 4)."""
    game = at("backgammon", Position.start("backgammon").text(), beavers=True)
    game = run(game, ListDice([]), act.Double(W), act.Beaver(B), act.Timeout(W))
    assert game.result is not None
    result = game.result
    assert (result.winner, result.level, result.cube, result.points) == (B, 1, 2, 2)
    assert result.reason == "PL-7" and result.paid_to(W) == -2


def test_pl_7_the_log_of_a_forfeited_double_replays() -> None:
    game, created = RaceGame.create("backgammon", RaceOptions(cube=True))
    log: list[dict[str, object]] = []
    for action in (act.Start(), act.PlayText(W, "8/5 6/5"), act.Double(B), act.Timeout(W)):
        step = game.apply(action, ListDice([(3, 1)]))
        game, log = step.game, log + list(step.events)
    assert [e["type"] for e in log[-2:]] == ["timeout", "finished"]
    assert replay(created, log) == game


@pytest.mark.parametrize("end", ["resign", "timeout"])
def test_bf_15_pl_7_jacoby_with_the_cube_centred_a_gammon_or_backgammon_pays_one_cube(
    end: str,
) -> None:
    """BF-15 and PL-7's last sentence: a resigned or forfeited backgammon counts as a
    finished game would, so under Jacoby (BG-17) with nobody having doubled it pays
    1 × cube; once a double was taken it pays its full level."""
    game = at("backgammon", Position.start("backgammon").text(), jacoby=True)

    def ended(game: RaceGame) -> RaceGame:
        side = game.position.turn
        actions = (
            (act.Resign(side, 3), act.AcceptResign(side.other))
            if end == "resign"
            else (act.Timeout(side),)
        )
        over = run(game, ListDice([]), *actions)
        assert over.result is not None
        return over

    centred = ended(game).result
    assert centred is not None and (centred.level, centred.cube, centred.points) == (1, 1, 1)
    taken = run(game, ListDice([]), act.Double(W), act.Take(B))
    owned = ended(taken).result
    assert owned is not None and (owned.level, owned.cube, owned.points) == (3, 2, 6)


@pytest.mark.parametrize("end", ["resign", "timeout"])
def test_bf_15_pl_7_bg_17_after_an_automatic_double_jacoby_still_counts_one_cube(
    end: str,
) -> None:
    """BG-17: an automatic double (cube 2, still centred) is no offer; a resigned or
    forfeited gammon or backgammon pays 1 × 2."""
    game = run(new("takhte_nard"), ListDice([(4, 4), (6, 2)]), act.Start())
    game = run(game, ListDice([]), act.PlayText(W, "24/18 13/11"))
    if end == "resign":
        game = run(game, ListDice([]), act.Resign(B, 3), act.AcceptResign(W))
    else:
        game = run(game, ListDice([]), act.Timeout(B))
    assert game.result is not None
    assert (game.result.level, game.result.cube, game.result.paid_to(B)) == (1, 2, -2)


def test_pl_7_ns_4_a_forfeit_counts_mars_as_a_resignation_does() -> None:
    game = at("short_nardy", Position.start("short_nardy").text(), stake_mode="mars")
    game = run(game, ListDice([]), act.Timeout(W))
    assert game.result is not None and game.result.level >= 2 and game.result.paid_to(W) == -2


def test_pk_9_mother_pinned_wins_double_through_the_machine() -> None:
    position = Position.from_own("plakoto", white={6: 3, 13: 2}, black={24: 1, 10: 14})
    game = replace(at("plakoto", Position.start("plakoto").text()), position=position)
    game = run(game, ListDice([(5, 3)]), act.Roll(W), act.PlayText(W, "6/1^ 13/10"))
    assert game.result is not None and (game.result.winner, game.result.level) == (W, 2)


# --- resignation (BF-15) and bad input ------------------------------------------------


def test_bf_15_one_offer_per_turn_and_allowed_levels() -> None:
    game = at("short_nardy", Position.start("short_nardy").text())
    with pytest.raises(IllegalAction, match=r"not one of \[1, 2\]"):
        game.apply(act.Resign(W, 3))
    declined = run(game, ListDice([]), act.Resign(W, 1), act.DeclineResign(B))
    assert declined.phase is Phase.ROLL and declined.position.turn is W
    with pytest.raises(IllegalAction, match="once per turn"):
        declined.apply(act.Resign(W, 2))
    with pytest.raises(NotYourTurn):
        game.apply(act.Resign(B, 1))


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        (act.Roll(B), NotYourTurn, "waiting for white"),
        (act.Take(W), IllegalAction, "no double to take"),
        (act.Drop(W), IllegalAction, "no double to drop"),
        (act.Move(W, 8, 5), IllegalAction, "roll first"),
        (act.Confirm(W), IllegalAction, "roll first"),
        (act.AcceptResign(B), NotYourTurn, "waiting for white"),
        (act.Double(B), NotYourTurn, "waiting for white"),
        (act.Start(), IllegalAction, "already started"),
    ],
)
def test_bad_actions_raise_and_change_nothing(
    action: act.Action, error: type[Exception], message: str
) -> None:
    game = at("backgammon", Position.start("backgammon").text())
    with pytest.raises(error, match=message):
        game.apply(action, ListDice([(3, 1)]))
    assert game == at("backgammon", Position.start("backgammon").text())


def test_a_play_for_the_wrong_dice_is_refused() -> None:
    game = run(at("backgammon", Position.start("backgammon").text()), ListDice([(3, 1)]),
               act.Roll(W))  # fmt: skip
    with pytest.raises(IllegalPlay, match="no die or dice take 24 to 18"):
        game.apply(act.PlayText(W, "24/18 13/8"))
    with pytest.raises(IllegalPlay, match="not legal with 3-1"):
        game.apply(act.PlayText(W, "13/10 13/12"))
    with pytest.raises(IllegalPlay, match="not legal now"):
        game.apply(act.Move(W, 13, 7))


def test_nothing_after_the_end_and_the_log_replays() -> None:
    game, created = RaceGame.create("backgammon")
    log = []
    for action in (act.Start(), act.PlayText(W, "8/5 6/5"), act.Double(B), act.Drop(W)):
        step = game.apply(action, ListDice([(3, 1)]))
        game, log = step.game, log + list(step.events)
    with pytest.raises(IllegalAction, match="over"):
        game.apply(act.Roll(B))
    assert replay(created, log) == game


def test_bg_10_cube_starts_centred_at_1_and_either_side_may_double_first() -> None:
    game = at("backgammon", Position.start("backgammon").text())
    assert game.cube == Cube(1, None) and game.can_double(W)
    black_first = replace(game, position=replace(game.position, turn=B))
    assert black_first.can_double(B)


def test_tn_3_the_64_cap_holds_in_takhte_nard_too() -> None:
    game = replace(at("takhte_nard", Position.start("takhte_nard").text()), cube=Cube(64, None))
    assert not game.can_double(W)
    doubled = run(replace(game, cube=Cube(32, None)), ListDice([]), act.Double(W))
    assert not doubled.can_beaver(B)  # a beaver would pass 64 (BG-16)


def test_ns_4_resigning_at_level_2_counts_as_mars() -> None:
    game = at("short_nardy", Position.start("short_nardy").text(), stake_mode="mars")
    game = run(game, ListDice([]), act.Resign(W, 2), act.AcceptResign(B))
    assert game.result is not None and game.result.paid_to(B) == 2


def test_ns_5_a_draw_returns_every_deposit() -> None:
    result = score(options_rules("long_nardy"), RaceOptions.defaults("long_nardy"), None, 0, 1,
                   "LN-13")  # fmt: skip
    assert result.is_draw and result.paid_to(W) == 0 and result.paid_to(B) == 0


def test_bg_21_the_server_rolls_only_for_the_side_on_turn_after_confirmation() -> None:
    game = at("backgammon", Position.start("backgammon").text())
    with pytest.raises(NotYourTurn):
        game.apply(act.Roll(B), ListDice([(3, 1)]))
    moving = run(game, ListDice([(3, 1)]), act.Roll(W), act.Move(W, 8, 5))
    with pytest.raises(IllegalAction, match="start of your turn"):
        moving.apply(act.Roll(W), ListDice([(6, 6)]))


def test_bg_22_an_illegal_play_is_refused_not_condoned() -> None:
    game = run(at("backgammon", Position.start("backgammon").text()), ListDice([(3, 1)]),
               act.Roll(W))  # fmt: skip
    with pytest.raises(IllegalPlay):
        game.apply(act.PlayText(W, "13/12"))
    assert game.phase is Phase.MOVE and game.position.turn is W
