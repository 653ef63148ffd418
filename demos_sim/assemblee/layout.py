"""Offsets of the flat int64 vectors the L'Assemblée kernels share (RULES.md Part A).

``cfg`` (the configuration, :meth:`AssembleeConfig.to_array`), ``st`` (the whole game
state, hidden parts included: decks, sealed bids, pledges and votes before they are
revealed; only the engine reads it) and ``obs`` (the public board plus a decision
header, RULES.md A0/M2: the only thing a policy sees).

Ids follow the name lists of GAME_RECORD.md: characters ``spectacles`` 0 … ``crier`` 14,
events ``epidemic`` 0 … ``blank`` 14, personalities ``akikos`` 0 … ``ulios`` 5.

Offsets are declared once, in order (:mod:`demos_sim.layout_alloc`); ``print(view_obs(obs))``
or ``print(view_state(st))`` shows a vector field by field. The engine's scratch ``wk``
is declared here too (``W_*``).
"""

from demos_sim.layout_alloc import Fields

MAXP = 15
NCHAR = 15
NEVENT = 15
NHARM = 11
MAXPEND = 500            # pending events held at once; rounds are capped at this (rules.py)
MAXOPT = MAXP + 1        # list decisions: at most every seat plus "no"

CHARACTERS = ("spectacles", "guard", "thief", "assassin", "peddler", "courtesan", "oracle",
              "priest", "hero", "brigand", "athlete", "broker", "builder", "philosopher",
              "crier")
EVENTS = ("epidemic", "famine", "flood", "olympics", "crime_lord", "earthquake", "embargo",
          "sparta", "metics", "rumour", "idol", "harvest", "triumph", "wedding", "blank")
PERSONALITIES = ("akikos", "leremac", "mirnok", "nimos", "arthas", "ulios")

(CH_SPECTACLES, CH_GUARD, CH_THIEF, CH_ASSASSIN, CH_PEDDLER, CH_COURTESAN, CH_ORACLE,
 CH_PRIEST, CH_HERO, CH_BRIGAND, CH_ATHLETE, CH_BROKER, CH_BUILDER, CH_PHILOSOPHER,
 CH_CRIER) = range(15)
(EV_EPIDEMIC, EV_FAMINE, EV_FLOOD, EV_OLYMPICS, EV_CRIME, EV_EARTHQUAKE, EV_EMBARGO,
 EV_SPARTA, EV_METICS, EV_RUMOUR, EV_IDOL, EV_HARVEST, EV_TRIUMPH, EV_WEDDING,
 EV_BLANK) = range(15)
PE_AKIKOS, PE_LEREMAC, PE_MIRNOK, PE_NIMOS, PE_ARTHAS, PE_ULIOS = range(6)

# A6: base cost and resolving character of each harmful event (ids 0–10)
EVENT_BASE = (6, 5, 5, 3, 2, 6, 3, 5, 4, 2, 4)
EVENT_RESOLVER = (CH_ORACLE, CH_PEDDLER, CH_PRIEST, CH_ATHLETE, CH_ASSASSIN, CH_BUILDER,
                  CH_COURTESAN, CH_GUARD, CH_PHILOSOPHER, CH_CRIER, CH_HERO)

# ---------------------------------------------------------------- cfg
_cfg = Fields("cfg")
C_N = _cfg.add()
C_ROUNDS = _cfg.add()
C_THRESH = _cfg.add()             # A5.3 threshold in force (by players when the variant
                                  # is null)
C_MINP = _cfg.add()
C_PERS = _cfg.add()               # personalities on
C_AKIKOS_TOTAL = _cfg.add()       # akikos_income: 0 bonus, 1 total
C_CHECK_OBS = _cfg.add()
C_LOG = _cfg.add()
C_FORCE = _cfg.add(MAXP)          # personality forced on each seat (-1 none); a runner
                                  # setting (force_personality), not a Part V variant:
                                  # records never carry it
C_ORACLE_PLAYERS = _cfg.add()     # oracle_view (A4): 0 three_bids, 1 three_players
C_SURCHARGE_ONCE = _cfg.add()     # postpone_surcharge (A5.2): 0 per_round, 1 once
C_EVENT_INDEP = _cfg.add()        # event_draw (A3): 0 deck, 1 independent
C_FINAL_MC = _cfg.add()           # final_tie (A10): 0 shared, 1 mc_choice
CFG_LEN = _cfg.size

# ---------------------------------------------------------------- st
_st = Fields("state")
S_ROUND = _st.add()
S_MC = _st.add()
S_IN = _st.add()                  # mask of seats in the game
S_NIN = _st.add()
S_DECK_POS = _st.add()            # next event card to draw
S_NPEND = _st.add()
S_ENDED = _st.add()               # 1 collapse, 2 fewer than min_players
S_ORACLE_NEXT = _st.add()         # seat whose Oracle benefit applied this round
                                  # (advantage next round), -1
S_ORACLE = _st.add()              # this round's Oracle advantage seat, -1
S_SEES = _st.add()                # mask of the seats whose bid he sees at the auction
                                  # being bid on (three_players: the same 3 all round;
                                  # three_bids: S_VIEWS[pos] at auctions 0-2 once that
                                  # auction opens, 0 from auction 3 on)
S_ARTHAS_USED = _st.add()         # mask
S_BRIG_NOW = _st.add()            # mask: targeted by the Brigand last round (income 1
                                  # this round)
S_BRIG_NEXT = _st.add()           # mask: targeted this round
S_NIMOS_USED = _st.add()          # mask, this round
S_NREV = _st.add()
S_CUR = _st.add()                 # auctions revealed so far this round (the one being
                                  # bid on, if any)
S_SPENT = _st.add()               # mask of characters spent this round (by character id)
S_ERROR = _st.add()               # an ERR_* code (demos_sim.kernel) the caller reports
S_GOLD_IN = _st.add()             # ledger: gold created (income, events, benefits, exile
                                  # shares)
S_GOLD_OUT = _st.add()            # gold paid to the bank or leaving with a removed player
S_REN_IN = _st.add()
S_REN_OUT = _st.add()
S_PHASE = _st.add()               # PH_* below: which sealed buffer is open
S_EVENT_NOW = _st.add()           # this round's event, -1 before A3
S_GOLD = _st.add(MAXP)            # gold by seat
S_REN = _st.add(MAXP)             # renown by seat
S_PERS = _st.add(MAXP)            # personality by seat (-1 off)
S_DECK = _st.add(NEVENT)          # event deck, top first
S_REV = _st.add(NCHAR)            # revealed characters, A4 order
S_HOLDER = _st.add(NCHAR)         # holder by revealed position, -1
S_HOLDS = _st.add(NCHAR)          # holder by character id this round, -1
S_PREV_HOLDS = _st.add(NCHAR)     # holder by character id last round, -1
S_BIDS = _st.add((NCHAR, MAXP))   # bids (row = revealed position)
S_SEALED = _st.add(MAXP)          # the open sealed decision (pledges, supports …)
S_SEALED2 = _st.add(MAXP)         # ostracism pledges
S_PEND_EV = _st.add(MAXPEND)      # pending events, oldest first
S_PEND_P = _st.add(MAXPEND)       # rounds postponed
S_PEND_DONE = _st.add(MAXPEND)    # scratch of A5.2: 1 resolved this round
S_VIEWS = _st.add(3)              # three_bids: the seat seen at auctions 0, 1, 2 (drawn
                                  # at the reveal; hidden until that auction opens)
ST_LEN = _st.size

PH_NONE, PH_BID, PH_PLEDGE, PH_SUPPORT, PH_OSTP, PH_VOTE = 0, 1, 2, 3, 4, 5

NSTREAM = MAXP + 2   # random streams: one per seat, the scramble stream, a chance stream
RNG_SCRAMBLE = MAXP
RNG_CHANCE = MAXP + 1

# ---------------------------------------------------------------- obs
# decision kinds
(K_BID, K_NIMOS, K_TIE, K_STOP, K_SPEND, K_PLEDGE, K_TARGET, K_BUY, K_PROPOSE, K_SUPPORT,
 K_OST_PLEDGE, K_VOTE, K_NAME_MC) = range(13)
AMOUNT_KINDS = (K_BID, K_PLEDGE, K_OST_PLEDGE)   # option index = the amount, 0 … O_MAX

_obs = Fields("observation")
O_KIND = _obs.add()
O_SEAT = _obs.add()
O_N = _obs.add()
O_ROUND = _obs.add()
O_ROUNDS = _obs.add()
O_MC = _obs.add()
O_IN = _obs.add()
O_NIN = _obs.add()
O_MAX = _obs.add()                # amount decisions: the largest amount allowed
O_CHAR = _obs.add()               # character concerned (bid, Nimos, tie, stop, spend,
                                  # target, buy), -1
O_POS = _obs.add()                # its position in the revealed order, -1
O_EVENT = _obs.add()              # event concerned (stop, spend, pledge), -1
O_COST = _obs.add()               # its cost (spend, pledge)
O_TARGET = _obs.add()             # ostracism target (support, pledge), -1
O_PROPOSER = _obs.add()
O_NEED_SUP = _obs.add()           # A8 thresholds of the current proposal
O_NEED_GOLD = _obs.add()
O_TIE_WHAT = _obs.add()           # K_TIE: 0 an auction (A4), 1 the honours (A9), 2 the
                                  # final tie (A10, final_tie = mc_choice: options are
                                  # the players tied after gold)
O_ORACLE = _obs.add()             # this round's Oracle advantage seat, -1
O_SEES = _obs.add()               # mask of the seats whose bid he sees at the current
                                  # auction (public)
O_THRESH = _obs.add()             # collapse threshold in force
O_NPEND = _obs.add()              # pending harmful events
O_PEND_COST = _obs.add()          # their total cost now (A5.3 formula, players in the
                                  # game now)
O_NREV = _obs.add()
O_SPENT = _obs.add()              # mask of characters spent this round
O_PLEDGE_CALLS = _obs.add()       # pledge rounds so far (A5.2 calls for pledges)
O_LAST_TOTAL = _obs.add()         # total pledged at the last call, -1 before any
O_LAST_COST = _obs.add()          # its cost
O_BRIG = _obs.add()               # mask: seats whose income this round / next is cut
                                  # (Brigand, public)
O_ARTHAS_USED = _obs.add()
O_OST_PROPOSALS = _obs.add()      # proposals so far in the game
O_DRAWN = _obs.add()              # mask of event ids drawn since the last shuffle (the
                                  # deck's remainder is its complement: public)
O_EVENT_NOW = _obs.add()          # this round's event, -1 before A3
_obs.skip(1)                      # unused (policies read the offsets below by value)
O_GOLD = _obs.add(MAXP)           # everyone's gold (A0: public)
O_REN = _obs.add(MAXP)            # renown
O_PERS = _obs.add(MAXP)           # personality (-1 off; public, seed booklet)
O_REV = _obs.add(NCHAR)           # revealed characters, -1 past O_NREV
O_HOLDER = _obs.add(NCHAR)        # holder by revealed position (-1 none / not yet)
O_HOLDS = _obs.add(NCHAR)         # holder by character id this round (-1)
O_PREV_HOLDS = _obs.add(NCHAR)    # holder by character id last round (-1)
O_BIDS = _obs.add((NCHAR, MAXP))  # revealed bids (-1 unrevealed); the Oracle sees the
                                  # current row of the seats he sees
O_PEND_COUNT = _obs.add(NHARM)    # pending events by id
O_LAST_PLEDGE = _obs.add(MAXP)    # each seat's pledge at the last call (-1 out)
O_PLEDGED = _obs.add(MAXP)        # gold pledged over the game
O_PLEDGE_POS = _obs.add(MAXP)     # calls at which the seat pledged > 0
O_LAST_VOTE = _obs.add(MAXP)      # last honours vote (-1)
O_PROPOSED = _obs.add(MAXP)       # ostracism proposals made
O_TARGETED = _obs.add(MAXP)       # times targeted by Thief/Assassin/Courtesan/Brigand
O_ATTACKS = _obs.add(MAXP)        # times the seat targeted someone
OBS_LEN = _obs.size

# ---------------------------------------------------------------- scratch (wk)
# Hot kernels never allocate (they run without NRT): what they need lives in ``wk``.
_wk = Fields("scratch")
W_ST2 = _wk.add(ST_LEN)           # the M2 check: a copy of st with hidden parts redrawn …
W_OBS2 = _wk.add(OBS_LEN)         # … the board rebuilt from st …
W_OBS3 = _wk.add(OBS_LEN)         # … and rebuilt from the redrawn copy
W_SCRAMBLE = _wk.add(NEVENT)      # scramble_hidden: the event deck's remaining cards
W_SEATS = _wk.add(MAXP)           # seats in turn order (a phase's own list)
W_LIST = _wk.add(max(NCHAR, MAXP))  # a seat or character list a phase builds and reads
W_VOTES = _wk.add(MAXP)           # honours votes received
WK_LEN = _wk.size

# ---------------------------------------------------------------- results (one row per game)
_res = Fields("results")
R_ROUNDS = _res.add()
R_COLLAPSE = _res.add()
R_EARLY = _res.add()              # ended by min_players (A8, A12)
R_TRUNC = _res.add()              # never (kept for the runner's M1 bookkeeping)
R_NWIN = _res.add()
R_WINMASK = _res.add()
R_MC0 = _res.add()
R_EXILED = _res.add()             # mask
R_ASSASSINATED = _res.add()       # mask
R_OST_PROPOSALS = _res.add()
R_OST_PASSES = _res.add()
R_OST_PLEDGED = _res.add()        # gold pledged in ostracisms
R_COLLAPSE_PEND = _res.add()      # mask of event ids pending at the collapse
R_SPENT_RESOLVED = _res.add()
R_PLEDGE_RESOLVED = _res.add()
R_POSTPONED = _res.add()
R_ERROR = _res.add()              # S_ERROR at the end of the game (0: no error)
_res.skip(3)                      # unused
R_SCORE = _res.add(MAXP)          # scores (-1 for players out)
R_GOLD = _res.add(MAXP)
R_REN = _res.add(MAXP)
R_PERS = _res.add(MAXP)
R_HOLD = _res.add((NCHAR, MAXP))  # rounds seat held character
R_WINBID = _res.add(NCHAR)        # sum of winning bids (paid)
R_SOLD = _res.add(NCHAR)          # auctions won
R_REVEALED = _res.add(NCHAR)      # rounds revealed
R_COLLAPSE_EV = _res.add(NHARM)   # collapses with this event pending (count 0/1)
R_COLLAPSE_NEW = _res.add()       # the newest pending event at the collapse
                                  # (the one that tipped the total), -1 otherwise
R_EXILE_GOLD = _res.add()         # gold of the exiled players, shared out (A8)
R_EXILE_REN = _res.add()          # renown of the exiled players, shared out (A8)
R_FINAL_TIED = _res.add()         # A10: players still tied after gold (0 when none or a
                                  # collapse); under final_tie = mc_choice the MC then
                                  # named the one winner
RES_LEN = _res.size

# ---------------------------------------------------------------- named views (debugging)
CFG = _cfg.named(globals(), "C_")
STATE = _st.named(globals(), "S_")
OBS = _obs.named(globals(), "O_")
RESULTS = _res.named(globals(), "R_")
SCRATCH = _wk.named(globals(), "W_")
view_cfg, view_state, view_obs, view_res = CFG.view, STATE.view, OBS.view, RESULTS.view

# ---------------------------------------------------------------- event log (records)
from demos_sim.eventlog import EV_W  # noqa: E402,F401  (type, a, b, c, d, e)
(L_SETUP, L_PERS, L_DECK, L_ROUND, L_INCOME, L_RESHUFFLE, L_EVENT, L_REVEAL, L_ORACLE,
 L_BID, L_NIMOS, L_HOLDER, L_GOOD, L_PEND, L_PLEDGE, L_PEND_END, L_COLLAPSE, L_BENEFIT,
 L_OST, L_OST_PLEDGE, L_OST_END, L_VOTE, L_HONOURED, L_FIG, L_ROUND_END, L_FINAL,
 L_SCORE, L_A7, L_A9, L_VIEW, L_FINAL_TIE) = range(1, 32)
