"""Offsets of the flat int64 vectors the DĒMOS kernels share.

Three vectors: ``cfg`` (the configuration, :meth:`DemosConfig.to_array`), ``st`` (the
whole game state, hidden parts included; only the engine reads it) and ``obs`` (one
seat's observation, RULES.md M2; the only thing a policy sees). Flat vectors keep the
kernels cacheable and make a state copy (for the observation test) one ``.copy()``.
"""

MAXP = 5          # seats
NCARD = 40        # People deck ids (suit*10 + value-1)
NFIG = 14         # 12 E/L/J figures + 2 Media
MEDIA0 = 12       # Media ids 12, 13
DECK_TOP = 63     # take code for "draw the top of the deck"
MAXOPT = 96       # option buffer size

# ---------------------------------------------------------------- cfg
C_RULES = 0        # 0 full, 1 simplified
C_MODE = 1         # 0 individual, 1 2v2, 2 2v3, 3 2v2+1
C_N = 2
C_CARRE = 3
C_RB = 4           # 3 entries: run_base one, two, three suits
C_SECRET_OPT = 7
C_MAX_ROUNDS = 8   # 0 = no limit
C_ROUND_CAP = 9
C_MEDIA_REVEALED = 10
C_MEDIA_OPT = 11
C_NO_TRIO_POINTS = 12
C_TP_SUM = 13
C_IND_ACT = 14
C_IND_STRICT = 15
C_P3_MONO = 16
C_FAV_BONUS = 17
C_SIDE = 18        # MAXP entries: side id by seat
C_NSIDES = 23
C_INDEP = 24       # Independent's seat or -1
C_SIDE_VETOES = 25  # MAXP entries: vetoes per side at setup
C_CHECK_OBS = 30   # 1: check every decision against a scrambled hidden state
C_LOG = 31         # 1: write the event log (game records)
C_STATS = 32       # 1: also the statistics that cost a search (R_UNAN_DELTA, R_UNAN_FLIP)
C_ANNOUNCE = 33    # X2 announced_trio: 1 on
C_POOLED = 34      # D9.5 team_trio: 0 best_member, 1 pooled
C_TALK_HANDS = 35  # D9.2 team_talk: 0 figures, 1 hands
C_P3_SUM = 36      # D9.6 step 3 p3_points_tiebreak: 1 sum, 0 max
CFG_LEN = 37

MODE_INDIVIDUAL, MODE_2V2, MODE_2V3, MODE_2V2P1 = 0, 1, 2, 3

# ---------------------------------------------------------------- st
S_ROUND = 0
S_DEALER = 1
S_DECK_LEN = 2
S_DECK_POS = 3
S_PILE_LEN = 4
S_PILE_POS = 5
S_GVER = 6           # bumped whenever game-level public state changes
S_VETOED = 7         # this round: 1 when the unanimous turn was vetoed
S_TABLE = 8          # mask of face-up cards on the table that can be taken
S_FACEUP = 9         # mask of every card that was face up this round
S_SEC_UP = 10        # 1 once the secret discards are turned face up (D3.4.2)
S_TRUNC = 11
S_DECK = 12                     # 40
S_HAND = S_DECK + NCARD         # 5 masks
S_PILE = S_HAND + MAXP          # 14
S_FIG = S_PILE + NFIG           # 5 x 14: figure ids by acquisition order
S_NFIG = S_FIG + MAXP * NFIG    # 5
S_FIGUP = S_NFIG + MAXP         # 5 masks over figure ids: face up
S_COVER = S_FIGUP + MAXP        # 14: colour a Media gave the figure, -1
S_CUM = S_COVER + NFIG          # 5
S_VETO = S_CUM + MAXP           # 5 (by side)
S_FAV = S_VETO + MAXP           # 5 favourite suit, -1
S_PUB = S_FAV + MAXP            # 5 public discard, -1 = not yet
S_SEC = S_PUB + MAXP            # 5 secret discard, -1 = pass / not yet
S_SEC_TAKE = S_SEC + MAXP       # 5: -2 not yet, -1 pass, 63 deck, card
S_UNAN = S_SEC_TAKE + MAXP      # 5 unanimous discard (face down, out), -1
S_UNAN_TAKE = S_UNAN + MAXP     # 5: -2 not yet, 63 deck, card
S_SCORE = S_UNAN_TAKE + MAXP    # 5 round scores of the last showdown
S_MEDIA_OWNED = S_SCORE + MAXP  # 5: Media held after D6.1 (kept/collected count)
S_ANN = S_MEDIA_OWNED + MAXP    # 5 by side: X2 announced colouring E*16 + L*4 + J, -1 none
ST_LEN = S_ANN + MAXP

# ---------------------------------------------------------------- obs
# decision kinds
K_FAV, K_PUBLIC, K_SECRET, K_VETO, K_UNAN, K_ALLOC, K_MEDIA, K_COLOUR, K_ANNOUNCE = range(9)
# K_ANNOUNCE (X2): options 0..63 = the colouring E*16 + L*4 + J (suits 0..3 = S H D C)

O_KIND = 0
O_SEAT = 1
O_N = 2
O_ROUND = 3
O_DEALER = 4
O_HAND = 5         # own hand mask
O_TABLE = 6        # face-up takeable cards
O_FACEUP = 7       # every card face up this round
O_OWN_OUT = 8      # own face-down discards this round
O_DECK_LEFT = 9
O_PILE_LEFT = 10
O_VETOED = 11
O_ARG0 = 12        # K_ALLOC: figure id; K_COLOUR: target seat
O_ARG1 = 13        # K_COLOUR: target figure id when known, else -1
O_GVER = 14        # game-part version (bookkeeping, not information)
O_PUB = 15                  # 5 public discards (-1 not yet)
O_SEC = O_PUB + MAXP        # 5: -2 not yet, -1 pass, 40 face down, else card
O_SEC_TAKE = O_SEC + MAXP   # 5 (public: which face-up card, or the deck)
O_UNAN_TAKE = O_SEC_TAKE + MAXP  # 5
O_SCORE = O_UNAN_TAKE + MAXP     # 5 last showdown's round scores
O_CUM = O_SCORE + MAXP           # 5
O_VETOES = O_CUM + MAXP          # 5: vetoes left to each seat's side
O_SIDE = O_VETOES + MAXP         # 5
O_FAV = O_SIDE + MAXP            # 5
O_NFIG = O_FAV + MAXP            # 5
O_FIGUP = O_NFIG + MAXP          # 5 masks
O_COVER = O_FIGUP + MAXP         # 14
O_MEDIA_OWNED = O_COVER + NFIG   # 5 (public once the Scandal phase starts)
O_FIGS = O_MEDIA_OWNED + MAXP    # 5 x 14: known figure id, -1 face-down unknown, -2 none
O_FVER = O_FIGS + MAXP * NFIG    # 5: versions of the O_FIGS rows (bookkeeping)
O_ANN = O_FVER + MAXP            # 5 by seat: X2 colouring announced by the seat's side, -1
O_MATE_HAND = O_ANN + MAXP       # 5 by seat: a teammate's hand mask in a team decision
                                 # under team_talk = hands (D9.2), else 0
OBS_LEN = O_MATE_HAND + MAXP

S_ARG0 = ST_LEN        # decision argument (K_ALLOC: figure; K_COLOUR: target seat)
S_ARG1 = ST_LEN + 1    # K_COLOUR: target figure slot
S_TEAMVIEW = ST_LEN + 2  # 1 while a team decision is being taken (D9.2 team knowledge)
S_KEY = ST_LEN + 3       # 5: D4.3 round keys of the showdown (-1 abandoned)
S_KIND = S_KEY + MAXP    # 5: combination kinds of the showdown
S_ENT_SEAT = S_KIND + MAXP   # 5: winning sides in drawing order: their place (seat) …
S_ENT_SIDE = S_ENT_SEAT + MAXP   # … their side …
S_ENT_CARRE = S_ENT_SIDE + MAXP  # … and whether they won with a Carré
S_ERROR = S_ENT_CARRE + MAXP   # non-zero: an impossible situation the caller reports
S_FVER = S_ERROR + 1           # 5: bumped when that player's figures change (or are seen)
ST_LEN = S_FVER + MAXP

NSTREAM = MAXP + 2       # random streams of a game: one per seat, chance, the M2 check
RNG_CHANCE = MAXP
RNG_SCRAMBLE = MAXP + 1

# ---------------------------------------------------------------- scratch (wk)
# Hot kernels never allocate (they run without NRT): what they need lives in ``wk``.
W_ST2 = 0                 # the M2 check's scrambled copy of st
W_OBS2 = W_ST2 + ST_LEN   # … and its observation
W_TMP = W_OBS2 + OBS_LEN  # 128 words for small lists (scramble, trios, election)
W_PRE = W_TMP + 128       # 3 x MAXP (statistics): scores and keys before D3.4.3, combination class
WK_LEN = W_PRE + 3 * MAXP

# ---------------------------------------------------------------- results (one row per game)
R_ROUNDS = 0
R_TRUNC = 1
R_NWIN = 2        # number of winning sides (0 = no winner)
R_WINSIDES = 3    # bitmask of winning sides
R_VETOES_USED = 4
R_CUM = 5         # MAXP cumulative points
R_HARMONY = R_CUM + MAXP   # MAXP harmonies
# Game statistics for the designer's analyses (counted by the kernel, cheap integers):
R_NOWIN_ROUNDS = R_HARMONY + MAXP   # rounds nobody won (D4.4)
R_WINKIND = R_NOWIN_ROUNDS + 1      # 4: round wins (per winning player) by Carré, run of 1/2/3 suits
R_VETO_SIDE = R_WINKIND + 4         # MAXP: vetoes used by side
NVB = 16
R_VETO_RND = R_VETO_SIDE + MAXP     # NVB: vetoes used in round r (0-based; the last bin: later)
R_UNAN = R_VETO_RND + NVB           # unanimous turns played (not vetoed)
R_UNAN_DELTA = R_UNAN + 1           # Σ over those turns and players: round score after − before
R_UNAN_FLIP = R_UNAN_DELTA + 1      # those turns that changed the set of round winners
                                    # (these two only with C_STATS: the runner sets it)
R_MEDIA = R_UNAN_FLIP + 1           # MAXP: Media held by seat when the Scandal phase starts
R_MEDIA_CANCEL = R_MEDIA + MAXP     # 1 when a player's two Media cancelled out (D6.1)
R_TARGETED = R_MEDIA_CANCEL + 1     # MAXP: Media actions aimed at seat
R_ACT_MATE = R_TARGETED + MAXP      # MAXP: Media actions of seat aimed at a teammate
R_ACT_OPP = R_ACT_MATE + MAXP       # MAXP: … aimed at an opponent
R_DECIDED = R_ACT_OPP + MAXP        # how the election was decided: DEC_* code
R_IND_COND = R_DECIDED + 1          # 2v2+1 step 2: bitmask of the Independent's conditions a/b/c
R_WIN_HARM = R_IND_COND + 1         # best harmony of the winning sides' trios (-1: no winner)
RES_LEN = R_WIN_HARM + 1

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

# ---------------------------------------------------------------- event log (records)
from demos_sim.eventlog import EV_W  # noqa: E402,F401  (type, a, b, c, d, e)
(EV_PILE, EV_FAV, EV_ROUND, EV_DECK, EV_PUBLIC, EV_SECRET, EV_VETO, EV_UNAN, EV_SHOW,
 EV_WIN, EV_FIG, EV_REVEAL, EV_POINTS, EV_END, EV_CANCEL, EV_KEPT, EV_MEDIA, EV_TRIO,
 EV_RESULT, EV_ANNOUNCE, EV_SIDE_TRIO) = range(1, 22)
