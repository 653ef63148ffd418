"""The game-level value of ``belief_game`` (written by experiments/fit_horizon.py --games 3000 --seed 2026 --policy tuned: 149388 round ends of 4-player full-rules games; do not edit by hand)."""

# weights of const, mine, others, pile, dpoints10, mine_pile, others_pile
W = (-3.399714, 0.861172, -0.281205, 0.148801, 0.075555, -0.300404, 0.313375)
DV = 0.113557
