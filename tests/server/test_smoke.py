import random

from club_client import play_randomly


def test_a_backgammon_money_game_end_to_end(club, new_player):
    ann, bob = new_player("ann"), new_player("bob")
    assert ann.balance() == 100_000
    request = ann.offer(variant="backgammon", stake=100, cube=True)
    game = bob.accept(request["id"])
    a, b = ann.watch(game["id"]), bob.watch(game["id"])
    a.until(lambda f: f["t"] == "snapshot")
    b.until(lambda f: f["t"] == "snapshot")
    play_randomly([a, b], random.Random(1), prefer=("take",))
    assert ann.balance() + bob.balance() == 200_000
    assert club
