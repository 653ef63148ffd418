"""Step through first_bot's choice in a debugger, as plain Python:

    NUMBA_DISABLE_JIT=1 python -m pdb examples/debug_first_bot.py

then ``b examples/my_first_bot.py:27`` (a line of ``best_hand``) and ``c``. Without
``NUMBA_DISABLE_JIT=1`` the bot is compiled and the debugger cannot enter it.
"""

from pathlib import Path

from demos_sim.demos import position
from demos_sim.registry import load_plugin

load_plugin(str(Path(__file__).with_name("my_first_bot.py")))

pos = position(hand="7S 8S 2H 5D 1C", table="9S", kind="secret")
print(pos)
print("first_bot chooses:", pos.decide("first_bot"))
