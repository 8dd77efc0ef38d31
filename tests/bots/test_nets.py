"""The trained nets (issue 19): what each input means, legal choices, learning, shipped weights.

Encoder cases are hand-made positions read back by input name (``input_names``), so
each test says what an input means in the game's own words.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from sheshbesh.bots.arena import play_bout
from sheshbesh.bots.base import MatchContext, RandomRaceBot
from sheshbesh.bots.expectimax import OWN_VARIANTS
from sheshbesh.bots.nets.bot import LEVELS, NetBot, one_ply, outputs_of, shipped
from sheshbesh.bots.nets.encode import encode, finished, input_names, view_of, views_after
from sheshbesh.bots.nets.net import Net, flip_matrix
from sheshbesh.bots.nets.train import best_play, complement_chooser, roll, train
from sheshbesh.bots.registry import make_bot
from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.moves import Play
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import Phase, RaceGame

W, B = Side.WHITE, Side.BLACK


def inputs(position: Position) -> dict[str, float]:
    """The encoding of ``position`` for its side to move, by input name."""
    row = encode(view_of(position)[None, :], position.rules)[0]
    names = input_names(position.rules)
    assert len(names) == len(row)
    return dict(zip(names, row.tolist(), strict=True))


# --- the encoder, per variant ----------------------------------------------------------


def test_points_are_gnubg_thresholds_from_the_side_to_moves_own_numbers():
    p = Position.from_own(
        "caucasian_nardy", white={13: 5, 6: 1, "bar": 1, 24: 8}, black={24: 2, 8: 13}, turn=B
    )
    seen = inputs(p)
    # Black to move: its own 8 holds 13 (≥ 3 and five more than three); its 24 holds 2.
    assert [seen[f"my{k}@8"] for k in ("1", "2", "3", "more")] == [1, 1, 1, 5.0]
    assert [seen[f"my{k}@24"] for k in ("1", "2", "3", "more")] == [1, 1, 0, 0]
    # White's 13 is Black's 12 (opposite numbering); White's blot on its 6 is Black's 19.
    assert [seen[f"their{k}@12"] for k in ("1", "2", "3", "more")] == [1, 1, 1, 1.0]
    assert seen["their1@19"] == 1 and seen["their2@19"] == 0
    assert seen["their_bar"] == 0.5 and seen["my_bar"] == 0
    assert seen["my_pips"] == pytest.approx((2 * 24 + 13 * 8) / 167)
    assert seen["my_block"] == pytest.approx(1 / 6)  # made points 24 and 8: runs of one


def test_long_nardy_heads_blocks_and_the_six_point_run():
    p = Position.from_own(
        "long_nardy",
        white={24: 9, 18: 1, 17: 1, 16: 1, 15: 1, 14: 1, 1: 1},
        black={24: 14, 8: 1},
    )
    seen = inputs(p)
    assert seen["my_head"] == pytest.approx(9 / 15) and seen["their_head"] == pytest.approx(14 / 15)
    assert seen["my_block"] == pytest.approx(5 / 6)  # 18-17-16-15-14: one short of six
    assert seen["my_front"] == pytest.approx(1 / 24)
    # LN-7: a run of six is legal beyond an opposing checker. Black's leader on its own
    # 8 leaves room for one (Black's 9-14); at the start nobody has any.
    assert seen["my_prime_legal"] == 1
    start = inputs(Position.start("long_nardy"))
    assert start["my_prime_legal"] == start["their_prime_legal"] == 0


def test_a_run_across_the_diagonal_seam_is_not_a_block():
    """LN-1: my 12 and 13 are the opponent's 24 and 1, so they are not consecutive for him."""
    p = Position.from_own(
        "long_nardy", white={24: 9, 15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1}, black={6: 15}
    )
    assert inputs(p)["my_block"] == pytest.approx(3 / 6)


def test_plakoto_pins_and_mothers():
    # White's blot on its 20 is pinned under Black (Black's own 5); White's mother
    # (its last checker on 24) stands alone; Black's mother is pinned on White's 1.
    p = Position.from_own(
        "plakoto",
        white={24: 1, 13: 11, 1: 1},
        black={13: 10, 5: 1},
        white_pinned=[20],
        black_pinned=[24],
    )
    seen = inputs(p)
    assert seen["my_pinned@20"] == 1 and sum(seen[f"my_pinned@{q}"] for q in range(1, 25)) == 1
    assert seen["their_pinned@1"] == 1  # Black's 24, in White's numbers
    assert seen["my_mother_alone"] == 1 and seen["my_mother_pinned"] == 0
    assert seen["their_mother_pinned"] == 1 and seen["their_mother_alone"] == 0
    assert seen["my_pinned"] == pytest.approx(1 / 15)
    # White's point 1 pins: it blocks Black like a made point (PK-4).
    assert seen["my_block"] == pytest.approx(1 / 6)


def test_russian_backgammon_unentered_checkers_and_the_owed_complement():
    p = Position.from_own(
        "russian_backgammon", white={"new": 14, 20: 1}, black={"new": 5, 6: 10}, owed=5
    )
    seen = inputs(p)
    assert seen["my_unentered"] == pytest.approx(14 / 15) and seen["my_entering_two"] == 1
    assert seen["their_unentered"] == pytest.approx(5 / 15) and seen["their_entering_two"] == 0
    assert [seen[f"owed{d}"] for d in range(1, 7)] == [0, 0, 0, 0, 1, 0]
    assert seen["my_pips"] == pytest.approx((14 * 25 + 20) / 375)


def test_jacquet_courier_and_the_home_anchor():
    travelling = Position.from_own("jacquet", white={24: 14, 15: 1}, black={24: 15})
    seen = inputs(travelling)
    assert seen["my_courier_travelling"] == 1 and seen["my_courier_at"] == pytest.approx(15 / 24)
    assert seen["their_courier_travelling"] == 0 and seen["my_anchor_1_2"] == 0
    home = Position.from_own("jacquet", white={24: 12, 5: 1, 2: 1, 1: 1}, black={24: 15})
    seen = inputs(home)
    assert seen["my_courier_travelling"] == 0 and seen["my_anchor_1_2"] == 1


SHOTS = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
         15: 1, 16: 1, 18: 1, 20: 1, 24: 1}  # fmt: skip
"""The backgammon player's table: rolls of 36 that hit a lone blot d pips from one checker."""


@pytest.mark.parametrize(
    ("variant", "blot", "behind"),
    [
        # Opposite numbering: Black's own point 1 + d is d pips short of White's 24.
        ("caucasian_nardy", 24, lambda d: 1 + d if d < 24 else "bar"),
        # RB-1, shared numbering: Black's own 1 + d is d pips short of White's own 1.
        ("russian_backgammon", 1, lambda d: 1 + d if d < 24 else "new"),
    ],
)
def test_shots_at_a_blot_are_the_published_table(variant, blot, behind):
    for distance in range(1, 25):
        p = Position.from_own(variant, white={blot: 1}, black={behind(distance): 1})
        seen = inputs(p)
        expected = SHOTS.get(distance, 0) / 36
        assert seen["my_blots_hit"] == pytest.approx(expected), distance
        # A hit sends the blot back from its own point to the bar: 25 − point pips.
        assert seen["my_blot_pips"] == pytest.approx(expected * (25 - blot) / 25), distance
        # Black's lone checker is a blot too, which White's may reach going the other way.
        assert seen["their_blots_hit"] * 36 == pytest.approx(brute_shots(p.pass_turn()))


def test_shots_touch_down_only_on_open_points_and_the_bar_enters_first():
    # Black's checker on its own 13 is 8 pips short of White's blot on its 20 (Black's
    # 5): 6-2, 5-3, 4-4 and 2-2 hit. White's point 16 (Black's 9, four pips on) closes
    # 4-4 and 2-2, both of which must touch down there.
    open_route = Position.from_own("caucasian_nardy", white={20: 1}, black={13: 1})
    assert inputs(open_route)["my_blots_hit"] == pytest.approx(6 / 36)
    blocked = Position.from_own("caucasian_nardy", white={20: 1, 16: 2}, black={13: 1})
    assert inputs(blocked)["my_blots_hit"] == pytest.approx(4 / 36)
    # With a Black checker on the bar it enters first (BF-11), and the checker on 13
    # has only what is left: 6-2, 5-3 and 2-2 no longer hit, 4-4 still does (one 4
    # enters, two carry the 13 to 5), and 5-5 brings the bar checker itself 20 pips.
    barred = Position.from_own("caucasian_nardy", white={20: 1}, black={13: 1, "bar": 1})
    assert inputs(barred)["my_blots_hit"] == pytest.approx(2 / 36)
    assert brute_shots(barred) == 2


def brute_shots(position: Position) -> int:
    """Rolls of 36 with which the side not to move has a legal play hitting a blot of the
    side to move: the move generator (the rules themselves) as the oracle."""
    me, them = position.turn, position.pass_turn()
    return sum(
        any(play.after.bar[me] > position.bar[me] for play in them.legal_plays((a, b)))
        for a in range(1, 7)
        for b in range(1, 7)
    )


@pytest.mark.parametrize("variant", ["caucasian_nardy", "russian_backgammon"])
def test_shots_agree_with_every_legal_play_of_the_36_rolls(variant):
    """The input is an estimate (BF-9's maximum can forbid the only hitting play, and an
    RB double's complement is not followed), so it must agree with the move generator in
    nearly every position of random games, and never be far off."""
    rng = random.Random(3)
    agree = total = 0
    for _ in range(6):
        position, opening = Position.start(variant), True
        for _ in range(150):
            dice = roll(rng, position, opening)
            opening = False
            plays = position.legal_plays(dice)
            position = rng.choice(plays).after if plays else position.pass_turn()
            if 15 in (position.off[W], position.off[B]):
                break
            if position.owed:
                continue
            estimate = round(inputs(position)["my_blots_hit"] * 36)
            exact = brute_shots(position)
            assert abs(estimate - exact) <= 4, position.text()
            agree += estimate == exact
            total += 1
    assert total > 300 and agree >= 0.97 * total, (agree, total)


@pytest.mark.parametrize("variant", sorted(OWN_VARIANTS))
def test_views_of_candidates_match_the_positions_and_outcomes_match_the_rules(variant):
    """The fast path (search tuples) and the slow one (positions) agree, ends included."""
    rng = random.Random(7)
    for _ in range(3):
        position, opening = Position.start(variant), True
        while position.outcome() is None:
            plays = position.legal_plays(roll(rng, position, opening))
            opening = False
            if not plays:
                position = position.pass_turn()
                continue
            views, _ = views_after(position, plays)
            done, result = finished(views, position.rules)
            for view, over, levels, play in zip(views, done, result, plays, strict=True):
                after = play.after
                assert (view == view_of(after)).all(), after.text()
                outcome = after.outcome()
                assert over == (outcome is not None), after.text()
                if outcome is not None:
                    me = after.turn
                    won, lost = outcome.winner is me, outcome.winner is me.other
                    expected = [won, won and outcome.level >= 2, won and outcome.level >= 3,
                                lost and outcome.level >= 2, lost and outcome.level >= 3,
                                outcome.winner is None]  # fmt: skip
                    assert levels.tolist() == [float(e) for e in expected], after.text()
            position = rng.choice(plays).after


# --- the net -----------------------------------------------------------------------------


def test_the_flip_gives_the_other_sides_chances():
    outputs = ("win", "win2", "lose2", "draw")
    t, c = flip_matrix(outputs)
    mine = np.array([0.5, 0.2, 0.1, 0.1])  # win, win2, lose2, draw
    theirs = c + t @ mine
    assert theirs.tolist() == pytest.approx([0.4, 0.1, 0.2, 0.1])


@pytest.mark.parametrize("variant", sorted(OWN_VARIANTS))
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_the_nets_choice_is_always_a_legal_play(variant, level):
    """The arena applies every action as the server does: an illegal one would raise."""
    net = Net.create(variant, seed=1)
    bot = NetBot(level, seed=1, nets={variant: net})
    bout = play_bout((bot, RandomRaceBot(seed=2)), variant, seed=3, budget=0.05)
    assert bout.points >= 0 and len(bout.think[0]) > 0


def rb_turns(
    rng: random.Random, games: int | None = None
) -> Iterator[tuple[Position, tuple[int, int], tuple[Play, ...]]]:
    """Each turn with a play of random Russian backgammon games (``games`` of them, or
    no end), its dice and plays; the game goes on by a random one of those plays."""
    played = 0
    while games is None or played < games:
        position, opening = Position.start("russian_backgammon"), True
        while position.outcome() is None:
            dice = roll(rng, position, opening)
            opening = False
            plays = position.legal_plays(dice)
            if not plays:
                position = position.pass_turn()
                continue
            yield position, dice, plays
            position = rng.choice(plays).after
        played += 1


def complement_value(net: Net, after: Position, weights: np.ndarray) -> float:
    """What the mover of a double's first four moves makes of the best four of the
    complement after them (RB-8), by trying every one of those."""
    plays = after.legal_plays((after.owed, after.owed))
    if not plays:
        return -float(net.equity(outputs_of(net, after.pass_turn()), weights)[0])
    return max(best_play(net, after, (play,), weights).equity[0] for play in plays)


def test_rb_8_a_double_is_played_with_the_complement_that_follows_it():
    """At 0-ply the four moves of a double are chosen by the best four moves of the
    complement the same turn then plays, among the net's :data:`WIDTH` best: never
    worse than the plain 0-ply choice by that measure, and better in some positions.
    Each value is worked out here one play at a time, apart from the bot's batch."""
    net = shipped("russian_backgammon")
    weights = net.level_weights((1.0, 1.0))
    options = RaceOptions.defaults("russian_backgammon")
    bot = NetBot("hard", seed=1)
    doubles = better = 0
    for position, dice, plays in rb_turns(random.Random(19), games=4):
        if doubles == 40:
            break
        if dice[0] == dice[1] and not position.owed and plays[0].after.owed:
            doubles += 1
            game = RaceGame(position.rules, options, position, phase=Phase.MOVE)
            chosen = bot.choose_play(game, plays, MatchContext(), None)
            plain = plays[best_play(net, position, plays, weights).index]
            mine = complement_value(net, chosen.after, weights)
            theirs = complement_value(net, plain.after, weights)
            assert mine >= theirs - 1e-9, position.text()
            better += mine > theirs + 1e-9
    assert doubles == 40 and better > 0, (doubles, better)


def test_rb_8_one_ply_looks_a_roll_beyond_a_doubles_complement():
    """At 1-ply a double's first four moves are valued as any play is, a roll beyond:
    here the roll after the best complement (found one play at a time), not the
    complement itself, which is no roll but the same turn's second half."""
    net = shipped("russian_backgammon")
    weights = net.level_weights((1.0, 1.0))
    rng, seen, moved = random.Random(20), 0, 0
    position, opening = Position.start("russian_backgammon"), True
    while seen < 6:
        if position.outcome() is not None:
            position, opening = Position.start("russian_backgammon"), True
        if position.owed and (owed := position.legal_plays((position.owed, position.owed))):
            me = position.turn
            values = [best_play(net, position, (play,), weights).equity[0] for play in owed]
            complement = owed[int(np.argmax(values))]
            value = one_ply(net, position, me, weights)
            assert value == pytest.approx(one_ply(net, complement.after, me, weights))
            moved += abs(value - max(values)) > 1e-6
            seen += 1
            position = rng.choice(owed).after
            continue
        dice = roll(rng, position, opening)
        opening = False
        plays = position.legal_plays(dice)
        position = rng.choice(plays).after if plays else position.pass_turn()
    assert moved == seen, "the roll beyond the complement changed no value"


def test_rb_8_training_with_the_complement_plays_as_the_0_ply_bot_plays():
    """``sheshbesh train russian_backgammon --complement``: self-play makes the play the
    0-ply bot would make, a double's first four moves through their complement and every
    other play by the net alone, so the net learns from the games it will play."""
    net = shipped("russian_backgammon")
    weights = net.level_weights((1.0, 1.0))
    options = RaceOptions.defaults("russian_backgammon")
    bot, choose = NetBot("hard", seed=1), complement_chooser()
    doubles = others = apart = 0
    for position, _, plays in rb_turns(random.Random(26)):
        if doubles >= 12 and others >= 40:
            break
        choice = best_play(net, position, plays, weights)
        index = choose(net, plays, choice, weights)
        game = RaceGame(position.rules, options, position, phase=Phase.MOVE)
        assert plays[index] is bot.choose_play(game, plays, MatchContext(), None)
        if plays[0].after.owed and plays[0].after.turn is position.turn:
            doubles += 1
            apart += index != choice.index
        else:
            others += 1
            assert index == choice.index
    assert apart > 0, "no double where the complement changed the choice: the test sees nothing"


def test_rb_8_a_double_that_bears_off_the_last_checkers_owes_no_complement():
    """The game ends with the double: nothing of the complement is looked at (the
    position after it still names the complement, and asking its plays would raise)."""
    position = Position.from_text("russian_backgammon", "W:W1,3:B20x15")
    plays = position.legal_plays((1, 1))
    assert plays[0].after.outcome() is not None and plays[0].after.owed == 6
    game = RaceGame(position.rules, RaceOptions.defaults("russian_backgammon"), position,
                    phase=Phase.MOVE)  # fmt: skip
    assert NetBot("hard", seed=1).choose_play(game, plays, MatchContext(), None) is plays[0]


def test_training_is_deterministic_and_weights_round_trip(tmp_path):
    first, second = Net.create("plakoto", seed=4), Net.create("plakoto", seed=4)
    train(first, 6, seed=9, checkpoint=0, log=lambda line: None)
    train(second, 6, seed=9, checkpoint=0, log=lambda line: None)
    assert np.array_equal(first.w1, second.w1) and np.array_equal(first.w2, second.w2)
    assert not np.array_equal(first.w1, Net.create("plakoto", seed=4).w1)  # it learnt
    first.save(tmp_path / "plakoto.npz")
    loaded = Net.load(tmp_path / "plakoto.npz")
    assert loaded.games == 6 and np.array_equal(loaded.w1, first.w1)


def test_weights_from_before_new_inputs_widen_and_play_as_before(tmp_path):
    """The shots were added at the end of the hitting games' encoding: older weights
    load for training on (``--resume``) with zero weight on them, and only then."""
    net = Net.create("caucasian_nardy", seed=3)
    added = ["my_blots_hit", "my_blot_pips", "their_blots_hit", "their_blot_pips"]
    assert list(input_names(net.rules)[-4:]) == added
    # Net() checks the shapes, so the older file is written by hand.
    np.savez_compressed(tmp_path / "old.npz", variant="caucasian_nardy", w1=net.w1[:, :-4],
                        b1=net.b1, w2=net.w2, b2=net.b2, games=7)  # fmt: skip
    with pytest.raises(ValueError, match="inputs"):
        Net.load(tmp_path / "old.npz")
    widened = Net.load(tmp_path / "old.npz", widen=True)
    assert widened.games == 7 and not widened.w1[:, -4:].any()
    position = Position.from_own("caucasian_nardy", white={20: 1, 13: 14}, black={13: 15})
    x = encode(view_of(position)[None, :], net.rules)
    assert x[0, -4:].any()  # the new inputs are not zero here, yet change nothing
    x_without = x.copy()
    x_without[:, -4:] = 0
    assert np.allclose(widened.forward(x)[1], widened.forward(x_without)[1])


def test_a_grown_hidden_layer_plays_as_before_and_its_new_units_then_learn():
    """``train --resume --hidden``: the new units start silent, so the grown net's outputs
    are the old net's, and training gives them weight."""
    net = Net.create("russian_backgammon", seed=6)
    train(net, 4, seed=6, checkpoint=0, log=lambda line: None)
    grown = Net(net.variant, net.w1.copy(), net.b1.copy(), net.w2.copy(), net.b2.copy(), 4)
    grown.grow(120, seed=7)
    assert grown.w1.shape == (120, net.w1.shape[1]) and grown.w2.shape == (net.w2.shape[0], 120)
    assert grown.w1[80:].any() and not grown.w2[:, 80:].any()
    position = Position.from_own("russian_backgammon", white={20: 3, 13: 12}, black={24: 15})
    x = encode(view_of(position)[None, :], net.rules)
    assert np.allclose(grown.forward(x)[1], net.forward(x)[1])
    train(grown, 3, seed=8, checkpoint=0, log=lambda line: None)
    assert grown.w2[:, 80:].any()
    with pytest.raises(ValueError, match="more than"):
        grown.grow(100, seed=7)


def test_a_run_stopped_after_a_checkpoint_left_the_weights_of_a_shorter_run():
    """docs/training/README.md: shipped weights are the last checkpoint of a timed run."""
    saved: list[np.ndarray] = []
    longer = Net.create("jacquet", seed=2)
    train(longer, 4, seed=3, checkpoint=2, checkpoint_games=0, log=lambda line: None,
          save=lambda net: saved.append(net.w1.copy()))  # fmt: skip
    shorter = Net.create("jacquet", seed=2)
    train(shorter, 2, seed=3, checkpoint=0, log=lambda line: None)
    assert np.array_equal(saved[0], shorter.w1) and not np.array_equal(saved[1], shorter.w1)


def test_a_few_hundred_games_of_self_play_beat_the_random_bot():
    net = Net.create("plakoto", seed=5)
    train(net, 300, seed=5, checkpoint=0, log=lambda line: None)
    nets = {"plakoto": net}
    wins = 0
    for game in range(200):
        mine = NetBot("hard", seed=game, nets=nets)
        flip = game % 2 == 1
        bots = (RandomRaceBot(seed=game), mine) if flip else (mine, RandomRaceBot(seed=game))
        bout = play_bout(bots, "plakoto", seed=10_000 + game)
        wins += bout.winner == (1 if flip else 0)
    assert wins >= 160, wins


# --- the shipped weights -----------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(OWN_VARIANTS))
def test_shipped_weights_load_as_package_data_and_play(variant):
    net = shipped(variant)  # importlib.resources: works from a wheel as from the checkout
    assert net.variant == variant and net.games > 0
    bot = make_bot("net:hard")
    assert variant in bot.variants
