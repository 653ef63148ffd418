"""Offsets of the flat int64 vectors the DĒMOS kernels share.

Three vectors: ``cfg`` (the configuration, :meth:`DemosConfig.to_array`), ``st`` (the
whole game state, hidden parts included; only the engine reads it) and ``obs`` (one
seat's observation, RULES.md M2; the only thing a policy sees), plus the results row
and the kernels' scratch ``wk``. Flat vectors keep the kernels cacheable and make a state
copy (for the observation test) one ``.copy()``. Offsets are declared once, in order
(:mod:`demos_sim.layout_alloc`); ``print(view_obs(obs[seat]))`` or
``print(view_state(st))`` shows a vector field by field.
"""

from demos_sim.layout_alloc import Fields

MAXP = 5          # seats
NCARD = 40        # People deck ids (suit*10 + value-1)
NFIG = 14         # 12 E/L/J figures + 2 Media
MEDIA0 = 12       # Media ids 12, 13
DECK_TOP = 63     # take code for "draw the top of the deck"
MAXOPT = 96       # option buffer size

# ---------------------------------------------------------------- cfg
_cfg = Fields("cfg")
C_RULES = _cfg.add()          # 0 full, 1 simplified
C_MODE = _cfg.add()           # 0 individual, 1 2v2, 2 2v3, 3 2v2+1
C_N = _cfg.add()
C_CARRE = _cfg.add()
C_RB = _cfg.add(3)            # run_base one, two, three suits
C_SECRET_OPT = _cfg.add()
C_MAX_ROUNDS = _cfg.add()     # 0 = no limit
C_ROUND_CAP = _cfg.add()
C_MEDIA_REVEALED = _cfg.add()
C_MEDIA_OPT = _cfg.add()
C_NO_TRIO_POINTS = _cfg.add()
C_TP_SUM = _cfg.add()
C_IND_ACT = _cfg.add()
C_IND_STRICT = _cfg.add()
C_P3_MONO = _cfg.add()
C_FAV_BONUS = _cfg.add()
C_SIDE = _cfg.add(MAXP)       # side id by seat
C_NSIDES = _cfg.add()
C_INDEP = _cfg.add()          # Independent's seat or -1
C_SIDE_VETOES = _cfg.add(MAXP)  # vetoes per side at setup
C_CHECK_OBS = _cfg.add()      # 1: check every decision against a scrambled hidden state
                              # (reference seats exempt); 2: reference seats too
C_LOG = _cfg.add()            # 1: write the event log (game records)
C_STATS = _cfg.add()          # 1: also the statistics that cost a search (R_UNAN_DELTA,
                              # R_UNAN_FLIP)
C_ANNOUNCE = _cfg.add()       # X2 announced_trio: 1 on
C_POOLED = _cfg.add()         # D9.5 team_trio: 0 best_member, 1 pooled
C_TALK_HANDS = _cfg.add()     # D9.2 team_talk: 0 figures, 1 hands
C_P3_SUM = _cfg.add()         # D9.6 step 3 p3_points_tiebreak: 1 sum, 0 max
C_TRUTH = _cfg.add()          # bit p: seat p's policy is a reference that sees the true
                              # state (``register(..., reference=...)``); its observation
                              # gets the truth block O_T_*. 0 in every ordinary game
C_START_CUM = _cfg.add(MAXP)  # cumulative points by seat at the start of the game: 0, or
                              # the trial handicap ``handicap_points`` (not a contract rule)
CFG_LEN = _cfg.size

MODE_INDIVIDUAL, MODE_2V2, MODE_2V3, MODE_2V2P1 = 0, 1, 2, 3

# ---------------------------------------------------------------- st
_st = Fields("state")
S_ROUND = _st.add()
S_DEALER = _st.add()
S_DECK_LEN = _st.add()
S_DECK_POS = _st.add()
S_PILE_LEN = _st.add()
S_PILE_POS = _st.add()
S_GVER = _st.add()           # bumped whenever game-level public state changes
S_VETOED = _st.add()         # this round: 1 when the unanimous turn was vetoed
S_TABLE = _st.add()          # mask of face-up cards on the table that can be taken
S_FACEUP = _st.add()         # mask of every card that was face up this round
S_SEC_UP = _st.add()         # 1 once the secret discards are turned face up (D3.4.2)
S_TRUNC = _st.add()
S_DECK = _st.add(NCARD)
S_HAND = _st.add(MAXP)       # hand masks
S_PILE = _st.add(NFIG)
S_FIG = _st.add((MAXP, NFIG))  # figure ids by acquisition order
S_NFIG = _st.add(MAXP)
S_FIGUP = _st.add(MAXP)      # masks over figure ids: face up
S_COVER = _st.add(NFIG)      # colour a Media gave the figure, -1
S_CUM = _st.add(MAXP)
S_VETO = _st.add(MAXP)       # by side
S_FAV = _st.add(MAXP)        # favourite suit, -1
S_PUB = _st.add(MAXP)        # public discard, -1 = not yet
S_SEC = _st.add(MAXP)        # secret discard, -1 = pass / not yet
S_SEC_TAKE = _st.add(MAXP)   # -2 not yet, -1 pass, 63 deck, card
S_UNAN = _st.add(MAXP)       # unanimous discard (face down, out), -1
S_UNAN_TAKE = _st.add(MAXP)  # -2 not yet, 63 deck, card
S_SCORE = _st.add(MAXP)      # round scores of the last showdown
S_MEDIA_OWNED = _st.add(MAXP)  # Media held after D6.1 (kept/collected count)
S_ANN = _st.add(MAXP)        # by side: X2 announced colouring E*16 + L*4 + J, -1 none
S_ARG0 = _st.add()           # decision argument (K_ALLOC: figure; K_COLOUR: target seat)
S_ARG1 = _st.add()           # K_COLOUR: target figure slot
S_TEAMVIEW = _st.add()       # 1 while a team decision is being taken (D9.2 team knowledge)
S_KEY = _st.add(MAXP)        # D4.3 round keys of the showdown (-1 abandoned)
S_KIND = _st.add(MAXP)       # combination kinds of the showdown
S_ENT_SEAT = _st.add(MAXP)   # winning sides in drawing order: their place (seat) …
S_ENT_SIDE = _st.add(MAXP)   # … their side …
S_ENT_CARRE = _st.add(MAXP)  # … and whether they won with a Carré
S_ERROR = _st.add()          # an ERR_* code (demos_sim.kernel) the caller reports
S_FVER = _st.add(MAXP)       # bumped when that player's figures change (or are seen)
ST_LEN = _st.size

NSTREAM = MAXP + 2       # random streams of a game: one per seat, chance, the M2 check
RNG_CHANCE = MAXP
RNG_SCRAMBLE = MAXP + 1

# ---------------------------------------------------------------- obs
# decision kinds
K_FAV, K_PUBLIC, K_SECRET, K_VETO, K_UNAN, K_ALLOC, K_MEDIA, K_COLOUR, K_ANNOUNCE = range(9)
# K_ANNOUNCE (X2): options 0..63 = the colouring E*16 + L*4 + J (suits 0..3 = S H D C)

_obs = Fields("observation")
O_KIND = _obs.add()
O_SEAT = _obs.add()
O_N = _obs.add()
O_ROUND = _obs.add()
O_DEALER = _obs.add()
O_HAND = _obs.add()           # own hand mask
O_TABLE = _obs.add()          # face-up takeable cards
O_FACEUP = _obs.add()         # every card face up this round
O_OWN_OUT = _obs.add()        # own face-down discards this round
O_DECK_LEFT = _obs.add()
O_PILE_LEFT = _obs.add()
O_VETOED = _obs.add()
O_ARG0 = _obs.add()           # K_ALLOC: figure id; K_COLOUR: target seat
O_ARG1 = _obs.add()           # K_COLOUR: target figure id when known, else -1
O_GVER = _obs.add()           # game-part version (bookkeeping, not information)
O_PUB = _obs.add(MAXP)        # public discards (-1 not yet)
O_SEC = _obs.add(MAXP)        # -2 not yet, -1 pass, 40 face down, else card
O_SEC_TAKE = _obs.add(MAXP)   # public: which face-up card, or the deck
O_UNAN_TAKE = _obs.add(MAXP)
O_SCORE = _obs.add(MAXP)      # last showdown's round scores
O_CUM = _obs.add(MAXP)
O_VETOES = _obs.add(MAXP)     # vetoes left to each seat's side
O_SIDE = _obs.add(MAXP)
O_FAV = _obs.add(MAXP)
O_NFIG = _obs.add(MAXP)
O_FIGUP = _obs.add(MAXP)      # masks
O_COVER = _obs.add(NFIG)
O_MEDIA_OWNED = _obs.add(MAXP)  # public once the Scandal phase starts
O_FIGS = _obs.add((MAXP, NFIG))  # known figure id, -1 face-down unknown, -2 none
O_FVER = _obs.add(MAXP)       # versions of the O_FIGS rows (bookkeeping, not information)
O_ANN = _obs.add(MAXP)        # by seat: X2 colouring announced by the seat's side, -1
O_MATE_HAND = _obs.add(MAXP)  # by seat: a teammate's hand mask in a team decision under
                           # team_talk = hands (D9.2), else 0
# The truth block: filled only for a seat whose policy is a *reference* (cfg C_TRUTH,
# e.g. ``omniscient``), exempt from M2; zero in every other seat's observation.
O_T_ON = _obs.add()           # 1 when the block below is filled
O_T_HAND = _obs.add(MAXP)     # every seat's hand mask
O_T_SEC = _obs.add(MAXP)      # every secret discard (D3.3), face down or not; -1 none
O_T_UNAN = _obs.add(MAXP)     # every unanimous discard (D3.4.3, face down); -1 none
O_T_DECK_N = _obs.add()       # cards left in the People deck …
O_T_DECK = _obs.add(NCARD)    # … in draw order
O_T_FIGS = _obs.add((MAXP, NFIG))  # every seat's figure ids, face down too; -2 none
O_T_PILE_N = _obs.add()       # figures left in the Power pile …
O_T_PILE = _obs.add(NFIG)     # … in draw order
OBS_LEN = _obs.size

# ---------------------------------------------------------------- scratch (wk)
# Hot kernels never allocate (they run without NRT): what they need lives in ``wk``,
# one region per use, so no phase overwrites another's (the M2 check runs inside them).
_wk = Fields("scratch")
W_ST2 = _wk.add(ST_LEN)      # the M2 check's scrambled copy of st …
W_OBS2 = _wk.add(OBS_LEN)    # … and its observation
W_SCRAMBLE = _wk.add(NCARD + NFIG)  # scramble_hidden: the hidden cards, then figures
W_HELD = _wk.add(MAXP)       # D6: Media held by seat …
W_PLAYS = _wk.add(MAXP)      # … and Media each will play
W_TRIO = _wk.add(18)         # best_trio: candidate figures by type, counts
W_HARM = _wk.add(MAXP)       # election, by seat: own trio's harmony (D7.1) …
W_ACH = _wk.add(MAXP)        # … harmonies some own trio reaches
W_PMATCH = _wk.add(MAXP)     # … an own trio has the side's announced colouring (X2)
W_SIDE_H = _wk.add(MAXP)     # by side: the side's trio (D9.5: best member / pooled) …
W_SIDE_ACH = _wk.add(MAXP)
W_SIDE_MT = _wk.add(MAXP)
W_ELIGIBLE = _wk.add(MAXP)   # contenders of one election step, by seat or side …
W_PTS = _wk.add(MAXP)        # … their points …
W_MATCH = _wk.add(MAXP)      # … their trio has their announced colouring (X2)
W_ANN_OF = _wk.add(MAXP)     # by side: the announced colouring, -1
W_H3 = _wk.add(MAXP)         # D9.6 step 3: the harmonies that qualify, by side
W_PRE_SCORE = _wk.add(MAXP)  # statistics: round scores before D3.4.3 …
W_PRE_KEY = _wk.add(MAXP)    # … and round keys
W_CLASS = _wk.add(MAXP)      # statistics: combination class (0 Carré, 1-3 a run of 1-3 suits)
WK_LEN = _wk.size

# ---------------------------------------------------------------- results (one row per game)
_res = Fields("results")
R_ROUNDS = _res.add()
R_TRUNC = _res.add()
R_NWIN = _res.add()           # number of winning sides (0 = no winner)
R_WINSIDES = _res.add()       # bitmask of winning sides
R_VETOES_USED = _res.add()
R_CUM = _res.add(MAXP)        # cumulative points
R_HARMONY = _res.add(MAXP)    # harmonies
# Game statistics for the designer's analyses (counted by the kernel, cheap integers):
R_NOWIN_ROUNDS = _res.add()   # rounds nobody won (D4.4)
R_WINKIND = _res.add(4)       # round wins (per winning player) by Carré, run of 1/2/3 suits
R_VETO_SIDE = _res.add(MAXP)  # vetoes used by side
NVB = 16
R_VETO_RND = _res.add(NVB)    # vetoes used in round r (0-based; the last bin: later)
R_UNAN = _res.add()           # unanimous turns played (not vetoed)
R_UNAN_DELTA = _res.add()     # Σ over those turns and players: round score after − before
R_UNAN_FLIP = _res.add()      # those turns that changed the set of round winners
                           # (these two only with C_STATS: the runner sets it)
R_MEDIA = _res.add(MAXP)      # Media held by seat when the Scandal phase starts
R_MEDIA_CANCEL = _res.add()   # 1 when a player's two Media cancelled out (D6.1)
R_TARGETED = _res.add(MAXP)   # Media actions aimed at seat
R_ACT_MATE = _res.add(MAXP)   # Media actions of seat aimed at a teammate
R_ACT_OPP = _res.add(MAXP)    # … aimed at an opponent
R_DECIDED = _res.add()        # how the election was decided: DEC_* code
R_IND_COND = _res.add()       # 2v2+1 step 2: bitmask of the Independent's conditions a/b/c
R_WIN_HARM = _res.add()       # best harmony of the winning sides' trios (-1: no winner)
RES_LEN = _res.size

# R_DECIDED codes
DEC_NONE = 0           # no winner (or truncated)
DEC_HARMONY = 1        # one side had the best harmony (D7.3, D9.5)
DEC_POINTS = 2         # a harmony tie broken by points
DEC_SHARED = 3         # a tie that points did not break: shared victory
DEC_NOTRIO_POINTS = 4  # no trio anywhere, won on points (D7.4 `points`)
DEC_P1, DEC_P2, DEC_P3 = 5, 6, 7    # 2v2+1: the priority step that found the winner (D9.6)
DEC_ANNOUNCED = 8      # a harmony tie broken by the announced colouring (X2)
DEC_LABELS = ("none", "harmony", "points", "shared", "no_trio_points", "p1_three_colour",
              "p2_independent", "p3_team_trios", "announced")

# ---------------------------------------------------------------- named views (debugging)
CFG = _cfg.named(globals(), "C_")
STATE = _st.named(globals(), "S_")
OBS = _obs.named(globals(), "O_")
SCRATCH = _wk.named(globals(), "W_")
RESULTS = _res.named(globals(), "R_")
view_cfg, view_state, view_obs, view_res = CFG.view, STATE.view, OBS.view, RESULTS.view

# ---------------------------------------------------------------- event log (records)
from demos_sim.eventlog import EV_W  # noqa: E402,F401  (type, a, b, c, d, e)
(EV_PILE, EV_FAV, EV_ROUND, EV_DECK, EV_PUBLIC, EV_SECRET, EV_VETO, EV_UNAN, EV_SHOW,
 EV_WIN, EV_FIG, EV_REVEAL, EV_POINTS, EV_END, EV_CANCEL, EV_KEPT, EV_MEDIA, EV_TRIO,
 EV_RESULT, EV_ANNOUNCE, EV_SIDE_TRIO) = range(1, 22)
