"""Unit tests of examples/my_first_bot.py: one position each, the bot's choice in words.

Run them with ``python -m pytest examples/test_my_first_bot.py``.
"""

from pathlib import Path

from demos_sim.demos import position
from demos_sim.registry import load_plugin

load_plugin(str(Path(__file__).with_name("my_first_bot.py")))   # registers "first_bot"


def test_takes_the_card_that_completes_a_run():
    # D3.3: 9S on the table makes 7S 8S 9S (12 + 7 = 19 points); 1C is the card to lose
    pos = position(hand="7S 8S 2H 5D 1C", table="9S", kind="secret")
    assert pos.decide("first_bot").text == "discard 1C, take 9S"


def test_keeps_its_run_and_drops_the_lowest_other_card():
    # D3.2: the public discard always draws blind; 7S 8S 9S stays whatever comes
    pos = position(hand="7S 8S 9S 1H 3D", kind="public")
    assert pos.decide("first_bot").text == "discard 1H, draw blind"


def test_vetoes_with_a_strong_hand_only():
    # D3.4.1: 19 points >= 18 vetoes; 4 + 2 = 6 points (a three-suit run 2-3-4) does not
    strong = position(hand="7S 8S 9S 1H 3D", kind="veto", table="4H 5D")
    weak = position(hand="2S 3H 4D 9C 6S", kind="veto", table="4H 5D")
    assert strong.decide("first_bot").text == "veto"
    assert weak.decide("first_bot").text == "no veto"
