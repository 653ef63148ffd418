"""Offsets of the flat int64 vectors the Protocole kernels share (RULES.md Part P).

As for DĒMOS (:mod:`demos_sim.demos.layout`): ``cfg`` (the configuration,
:meth:`ProtocoleConfig.to_array`), ``st`` (the whole game state, hidden parts included;
only the engine reads it) and ``obs`` (one seat's observation, RULES.md M2; the only
thing a policy sees).

Cards (P1.1) are ids ``colour * 6 + symbol`` with colours R B G Y K P = 0–5 and symbols
M Q T S X O = 0–5 (the letter orders of GAME_RECORD.md), so every set of cards — a hand,
a Foyer, the Selection, the Norm — is one 36-bit mask in an int64. Colour ``c`` is the
6-bit group ``COLOUR0 << 6c``; symbol ``s`` is the bits ``SYMBOL0 << s``.

Offsets are declared once, in order (:mod:`demos_sim.layout_alloc`);
``print(view_obs(obs))`` or ``print(view_state(st))`` shows a vector field by field.
"""

from demos_sim.layout_alloc import Fields

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
_cfg = Fields("cfg")
C_MODE = _cfg.add()         # 0 each for themselves, 1 all together
C_LEVEL = _cfg.add()        # coop level 1–3; 0 in each mode
C_N = _cfg.add()
C_FOYER_START = _cfg.add()  # P1.3: 2 each; 1 / 2 / 3 at levels 1 / 2 / 3
C_REINF_SEL = _cfg.add()    # P3.2: 1 at every coop level
C_TIE_DISCARD = _cfg.add()  # standard_tie: 0 keep_tied, 1 discard_all
C_SCOPE_TEAM = _cfg.add()   # reinforced_scope: 0 each_player, 1 team
C_NEED = _cfg.add()         # P5.3 reinforced control: cards with both attributes in the Norm
C_ROUND_CAP = _cfg.add()
C_CHECK_OBS = _cfg.add()    # 1: check every decision against a scrambled hidden state
C_LOG = _cfg.add()          # 1: write the event log (game records)
C_PER_DIM = _cfg.add()      # P3.1a majority_scope: 0 pooled, 1 per_dimension
C_TRUTH = _cfg.add()        # bit p: seat p's policy is a reference that sees the true state
                            # (the truth block O_T_*); 0 in every ordinary game
CFG_LEN = _cfg.size

MODE_EACH, MODE_COOP = 0, 1

# ---------------------------------------------------------------- st
_st = Fields("state")
S_ROUND = _st.add()
S_INIT = _st.add()          # Initiative holder (P1.4, P4.3)
S_ALIVE = _st.add()         # mask of seats still in the game
S_SEL = _st.add()           # Selection mask
S_NORM = _st.add()          # this round's Norm mask
S_GONE = _st.add()          # cards out of the game face up-seen: Selection discards (P3.1)
S_DEAD = _st.add()          # cards out of the game unseen: eliminated players' Foyers (P4.2)
S_REMOVED = _st.add()       # cards removed at setup (P1.2), public
S_DECKSET = _st.add()       # this round's deck as a set (round 0: all kept cards; later:
                            # the last Norm)
S_TRUNC = _st.add()
S_TURN = _st.add()          # turns played this round
S_DECK_LEN = _st.add()
S_HAND = _st.add(MAXP)      # hand masks
S_FOYER = _st.add(MAXP)     # Foyer masks
S_POINTS = _st.add(MAXP)    # cumulative points (P4.2)
S_PLAYED = _st.add(MAXP)    # masks: cards each seat played face up this round
S_DECK = _st.add(NCARD)     # this round's deck, top first
S_ERROR = _st.add()         # an ERR_* code (demos_sim.kernel) the caller reports
ST_LEN = _st.size

NSTREAM = MAXP + 1   # random streams of a game: one per seat, then chance
RNG_CHANCE = MAXP

# ---------------------------------------------------------------- obs
K_PLAY = 0          # the one decision of Part P: a hand card to the Selection or the Foyer

_obs = Fields("observation")
O_KIND = _obs.add()
O_SEAT = _obs.add()
O_N = _obs.add()
O_ROUND = _obs.add()
O_INIT = _obs.add()
O_TURN = _obs.add()         # turns played this round
O_HAND = _obs.add()         # own hand mask
O_FOYER = _obs.add()        # own Foyer mask (P2.1: a player may always look at it)
O_SEL = _obs.add()          # the Selection (face up)
O_NORM = _obs.add()         # this round's Norm (kept face up)
O_GONE = _obs.add()         # cards seen leaving the game: Selection discards, setup removal
O_DECKSET = _obs.add()      # the set of cards dealt this round (public: the last Norm)
O_ALIVE = _obs.add()
O_HANDN = _obs.add(MAXP)    # hand sizes
O_FOYERN = _obs.add(MAXP)   # Foyer sizes (P2.1: public)
O_POINTS = _obs.add(MAXP)   # cumulative points
O_PLAYED = _obs.add(MAXP)   # masks: cards each seat played face up this round
# The truth block: only for a seat whose policy is a reference (cfg C_TRUTH, e.g.
# ``omniscient``), exempt from M2; zero for every other seat's decisions.
O_T_ON = _obs.add()         # 1 when the block below is filled
O_T_HAND = _obs.add(MAXP)   # every seat's hand
O_T_FOYER = _obs.add(MAXP)  # every seat's Foyer (face down)
O_T_DEAD = _obs.add()       # eliminated players' Foyers (out of the game unseen, P4.2)
OBS_LEN = _obs.size

# ---------------------------------------------------------------- scratch (one per game)
# The turn loop runs without NRT (it never allocates): the M2 check's space is ``wk``.
_wk = Fields("scratch")
W_ST2 = _wk.add(ST_LEN)          # the M2 check's scrambled copy of st …
W_OBS2 = _wk.add(OBS_LEN)        # … and its observation
SCRAMBLE_LEN = 2 * MAXP + 1 + NCARD   # scramble_hidden: hidden locations, then cards
W_SCRAMBLE = _wk.add(SCRAMBLE_LEN)
WK_LEN = _wk.size

# ---------------------------------------------------------------- results (one row per game)
_res = Fields("results")
R_ROUNDS = _res.add()
R_TRUNC = _res.add()
R_NWIN = _res.add()         # number of winners (0 = none)
R_WINMASK = _res.add()      # seats
R_OUTCOME = _res.add()      # OUT_* below
R_ELIM = _res.add()         # mask of seats eliminated
R_FOYER_CARDS = _res.add()  # total cards in all Foyers at the end
R_TURNS = _res.add()
R_POINTS = _res.add(MAXP)   # cumulative points at the end
R_NORM_CARDS = _res.add()   # cards in the Norm at the last control (0: empty Norm)
RES_LEN = _res.size

OUT_NONE, OUT_WIN, OUT_LOSS_ELIM, OUT_LOSS_REINF = 0, 1, 2, 3   # coop outcomes (P5.2)

# ---------------------------------------------------------------- named views (debugging)
CFG = _cfg.named(globals(), "C_")
STATE = _st.named(globals(), "S_")
OBS = _obs.named(globals(), "O_")
RESULTS = _res.named(globals(), "R_")
view_cfg, view_state, view_obs, view_res = CFG.view, STATE.view, OBS.view, RESULTS.view

# ---------------------------------------------------------------- event log (records)
from demos_sim.eventlog import EV_W  # noqa: E402,F401  (type, a, b, c, d, e)
(EV_SETUP, EV_ROUND, EV_DECK, EV_FOYER_DEAL, EV_HAND, EV_SEL_START, EV_TURN, EV_SELECTION,
 EV_CONTROL, EV_REINF, EV_POINTS, EV_END, EV_RESULT) = range(1, 14)
