"""Offsets of the flat int64 vectors the Protocole kernels share (RULES.md Part P).

As for DĒMOS (:mod:`demos_sim.demos.layout`): ``cfg`` (the configuration,
:meth:`ProtocoleConfig.to_array`), ``st`` (the whole game state, hidden parts included;
only the engine reads it) and ``obs`` (one seat's observation, RULES.md M2; the only
thing a policy sees).

Cards (P1.1) are ids ``colour * 6 + symbol`` with colours R B G Y K P = 0–5 and symbols
M Q T S X O = 0–5 (the letter orders of GAME_RECORD.md), so every set of cards — a hand,
a Foyer, the Selection, the Norm — is one 36-bit mask in an int64. Colour ``c`` is the
6-bit group ``COLOUR0 << 6c``; symbol ``s`` is the bits ``SYMBOL0 << s``.
"""

MAXP = 4          # seats (P1.2: 2–4 players)
NCARD = 36
FULL = (1 << NCARD) - 1
COLOUR0 = 0x3F            # the 6 cards of colour 0 (bits 0–5)
SYMBOL0 = 0x41041041      # the 6 cards of symbol 0 (bits 0, 6, 12, 18, 24, 30)
MAXOPT = 2 * NCARD        # option buffer: every hand card x {Selection, Foyer}
SEL_MAX = 5               # P2.2

# decision options: card * 2 + destination
TO_SELECTION = 0
TO_FOYER = 1

# ---------------------------------------------------------------- cfg
C_MODE = 0         # 0 each for themselves, 1 all together
C_LEVEL = 1        # coop level 1–3; 0 in each mode
C_N = 2
C_FOYER_START = 3  # P1.3: 2 each; 1 / 2 / 3 at levels 1 / 2 / 3
C_REINF_SEL = 4    # P3.2: 1 at every coop level
C_TIE_DISCARD = 5  # standard_tie: 0 keep_tied, 1 discard_all
C_SCOPE_TEAM = 6   # reinforced_scope: 0 each_player, 1 team
C_NEED = 7         # P5.3 reinforced control: cards with both attributes in the Norm
C_ROUND_CAP = 8
C_CHECK_OBS = 9    # 1: check every decision against a scrambled hidden state
C_LOG = 10         # 1: write the event log (game records)
C_PER_DIM = 11     # P3.1a majority_scope: 0 pooled, 1 per_dimension
CFG_LEN = 12

MODE_EACH, MODE_COOP = 0, 1

# ---------------------------------------------------------------- st
S_ROUND = 0
S_INIT = 1          # Initiative holder (P1.4, P4.3)
S_ALIVE = 2         # mask of seats still in the game
S_SEL = 3           # Selection mask
S_NORM = 4          # this round's Norm mask
S_GONE = 5          # cards out of the game face up-seen: Selection discards (P3.1)
S_DEAD = 6          # cards out of the game unseen: eliminated players' Foyers (P4.2)
S_REMOVED = 7       # cards removed at setup (P1.2), public
S_DECKSET = 8       # set of this round's deck (round 0: all kept cards; later: last Norm)
S_TRUNC = 9
S_TURN = 10         # turns played this round
S_DECK_LEN = 11
S_HAND = 12                     # MAXP masks
S_FOYER = S_HAND + MAXP         # MAXP masks
S_POINTS = S_FOYER + MAXP       # MAXP cumulative points (P4.2)
S_PLAYED = S_POINTS + MAXP      # MAXP masks: cards each seat played face up this round
S_DECK = S_PLAYED + MAXP        # NCARD: this round's deck, top first
ST_LEN = S_DECK + NCARD

NSTREAM = MAXP + 1   # random streams of a game: one per seat, then chance
RNG_CHANCE = MAXP

# ---------------------------------------------------------------- obs
K_PLAY = 0          # the one decision of Part P: a hand card to the Selection or the Foyer

O_KIND = 0
O_SEAT = 1
O_N = 2
O_ROUND = 3
O_INIT = 4
O_TURN = 5          # turns played this round
O_HAND = 6          # own hand mask
O_FOYER = 7         # own Foyer mask (P2.1: a player may always look at it)
O_SEL = 8           # the Selection (face up)
O_NORM = 9          # this round's Norm (kept face up)
O_GONE = 10         # cards seen leaving the game: Selection discards, setup removal
O_DECKSET = 11      # the set of cards dealt this round (public: the last Norm)
O_ALIVE = 12
O_HANDN = 13                 # MAXP hand sizes
O_FOYERN = O_HANDN + MAXP    # MAXP Foyer sizes (P2.1: public)
O_POINTS = O_FOYERN + MAXP   # MAXP cumulative points
O_PLAYED = O_POINTS + MAXP   # MAXP masks: cards each seat played face up this round
OBS_LEN = O_PLAYED + MAXP

# ---------------------------------------------------------------- results (one row per game)
R_ROUNDS = 0
R_TRUNC = 1
R_NWIN = 2          # number of winners (0 = none)
R_WINMASK = 3       # seats
R_OUTCOME = 4       # OUT_* below
R_ELIM = 5          # mask of seats eliminated
R_FOYER_CARDS = 6   # total cards in all Foyers at the end
R_TURNS = 7
R_POINTS = 8        # MAXP cumulative points at the end
R_NORM_CARDS = R_POINTS + MAXP   # cards in the Norm at the last control (0: empty Norm)
RES_LEN = R_NORM_CARDS + 1

OUT_NONE, OUT_WIN, OUT_LOSS_ELIM, OUT_LOSS_REINF = 0, 1, 2, 3   # coop outcomes (P5.2)

# ---------------------------------------------------------------- event log (records)
from demos_sim.eventlog import EV_W  # noqa: E402,F401  (type, a, b, c, d, e)
(EV_SETUP, EV_ROUND, EV_DECK, EV_FOYER_DEAL, EV_HAND, EV_SEL_START, EV_TURN, EV_SELECTION,
 EV_CONTROL, EV_REINF, EV_POINTS, EV_END, EV_RESULT) = range(1, 14)
