"""Offsets of the flat int64 vectors the L'Assemblée kernels share (RULES.md Part A).

``cfg`` (the configuration, :meth:`AssembleeConfig.to_array`), ``st`` (the whole game
state, hidden parts included: decks, sealed bids, pledges and votes before they are
revealed; only the engine reads it) and ``obs`` (the public board plus a decision
header, RULES.md A0/M2: the only thing a policy sees).

Ids follow the name lists of GAME_RECORD.md: characters ``spectacles`` 0 … ``crier`` 14,
events ``epidemic`` 0 … ``blank`` 14, personalities ``akikos`` 0 … ``ulios`` 5.
"""

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
C_N = 0
C_ROUNDS = 1
C_THRESH = 2        # A5.3 threshold in force (by players when the variant is null)
C_MINP = 3
C_PERS = 4          # personalities on
C_AKIKOS_TOTAL = 5  # akikos_income: 0 bonus, 1 total
C_CHECK_OBS = 6
C_LOG = 7
C_FORCE = 8         # MAXP: personality forced on each seat (-1 none); a runner setting
                    # (force_personality), not a Part V variant: records never carry it
C_ORACLE_PLAYERS = C_FORCE + MAXP  # oracle_view (A4): 0 three_bids, 1 three_players
C_SURCHARGE_ONCE = C_ORACLE_PLAYERS + 1  # postpone_surcharge (A5.2): 0 per_round, 1 once
C_EVENT_INDEP = C_SURCHARGE_ONCE + 1     # event_draw (A3): 0 deck, 1 independent
C_FINAL_MC = C_EVENT_INDEP + 1           # final_tie (A10): 0 shared, 1 mc_choice
CFG_LEN = C_FINAL_MC + 1

# ---------------------------------------------------------------- st
S_ROUND = 0
S_MC = 1
S_IN = 2            # mask of seats in the game
S_NIN = 3
S_DECK_POS = 4      # next event card to draw
S_NPEND = 5
S_ENDED = 6         # 1 collapse, 2 fewer than min_players
S_ORACLE_NEXT = 7   # seat whose Oracle benefit applied this round (advantage next round), -1
S_ORACLE = 8        # this round's Oracle advantage seat, -1
S_SEES = 9          # mask of the seats whose bid he sees at the auction being bid on
                    # (three_players: the same 3 all round; three_bids: S_VIEWS[pos] at
                    # auctions 0-2 once that auction opens, 0 from auction 3 on)
S_ARTHAS_USED = 10  # mask
S_BRIG_NOW = 11     # mask: targeted by the Brigand last round (income 1 this round)
S_BRIG_NEXT = 12    # mask: targeted this round
S_NIMOS_USED = 13   # mask, this round
S_NREV = 14
S_CUR = 15          # auctions revealed so far this round (the one being bid on, if any)
S_SPENT = 16        # mask of characters spent this round (by character id)
S_ERROR = 17
S_GOLD_IN = 18      # ledger: gold created (income, events, benefits, exile shares)
S_GOLD_OUT = 19     # gold paid to the bank or leaving with a removed player
S_REN_IN = 20
S_REN_OUT = 21
S_PHASE = 22        # PH_* below: which sealed buffer is open
S_EVENT_NOW = 23    # this round's event, -1 before A3
S_GOLD = 24                       # MAXP
S_REN = S_GOLD + MAXP             # MAXP
S_PERS = S_REN + MAXP             # MAXP personality by seat (-1 off)
S_DECK = S_PERS + MAXP            # NEVENT event deck, top first
S_REV = S_DECK + NEVENT           # NCHAR revealed characters, A4 order
S_HOLDER = S_REV + NCHAR          # NCHAR holder by revealed position, -1
S_HOLDS = S_HOLDER + NCHAR        # NCHAR holder by character id this round, -1
S_PREV_HOLDS = S_HOLDS + NCHAR    # NCHAR holder by character id last round, -1
S_BIDS = S_PREV_HOLDS + NCHAR     # NCHAR x MAXP bids (row = revealed position)
S_SEALED = S_BIDS + NCHAR * MAXP  # MAXP: the open sealed decision (pledges, supports …)
S_SEALED2 = S_SEALED + MAXP       # MAXP: ostracism pledges
S_PEND_EV = S_SEALED2 + MAXP      # MAXPEND pending events, oldest first
S_PEND_P = S_PEND_EV + MAXPEND    # MAXPEND rounds postponed
S_PEND_DONE = S_PEND_P + MAXPEND  # MAXPEND scratch of A5.2: 1 resolved this round
S_VIEWS = S_PEND_DONE + MAXPEND   # 3: three_bids, the seat seen at auctions 0, 1, 2 (drawn
                                  # at the reveal; hidden until that auction opens)
ST_LEN = S_VIEWS + 3

PH_NONE, PH_BID, PH_PLEDGE, PH_SUPPORT, PH_OSTP, PH_VOTE = 0, 1, 2, 3, 4, 5

NSTREAM = MAXP + 2   # random streams: one per seat, the scramble stream, a chance stream
RNG_SCRAMBLE = MAXP
RNG_CHANCE = MAXP + 1

# ---------------------------------------------------------------- obs
# decision kinds
(K_BID, K_NIMOS, K_TIE, K_STOP, K_SPEND, K_PLEDGE, K_TARGET, K_BUY, K_PROPOSE, K_SUPPORT,
 K_OST_PLEDGE, K_VOTE, K_NAME_MC) = range(13)
AMOUNT_KINDS = (K_BID, K_PLEDGE, K_OST_PLEDGE)   # option index = the amount, 0 … O_MAX

O_KIND = 0
O_SEAT = 1
O_N = 2
O_ROUND = 3
O_ROUNDS = 4
O_MC = 5
O_IN = 6
O_NIN = 7
O_MAX = 8          # amount decisions: the largest amount allowed
O_CHAR = 9         # character concerned (bid, Nimos, tie, stop, spend, target, buy), -1
O_POS = 10         # its position in the revealed order, -1
O_EVENT = 11       # event concerned (stop, spend, pledge), -1
O_COST = 12        # its cost (spend, pledge)
O_TARGET = 13      # ostracism target (support, pledge), -1
O_PROPOSER = 14
O_NEED_SUP = 15    # A8 thresholds of the current proposal
O_NEED_GOLD = 16
O_TIE_WHAT = 17    # K_TIE: 0 an auction (A4), 1 the honours (A9), 2 the final tie (A10,
                   # final_tie = mc_choice: options are the players tied after gold)
O_ORACLE = 18      # this round's Oracle advantage seat, -1
O_SEES = 19        # mask of the seats whose bid he sees at the current auction (public)
O_THRESH = 20      # collapse threshold in force
O_NPEND = 21       # pending harmful events
O_PEND_COST = 22   # their total cost now (A5.3 formula, players in the game now)
O_NREV = 23
O_SPENT = 24       # mask of characters spent this round
O_PLEDGE_CALLS = 25  # pledge rounds so far (A5.2 calls for pledges)
O_LAST_TOTAL = 26    # total pledged at the last call, -1 before any
O_LAST_COST = 27     # its cost
O_BRIG = 28        # mask: seats whose income this round / next is cut (Brigand, public)
O_ARTHAS_USED = 29
O_OST_PROPOSALS = 30  # proposals so far in the game
O_DRAWN = 31       # mask of event ids drawn since the last shuffle (the deck's remainder is
                   # its complement: public)
O_EVENT_NOW = 32   # this round's event, -1 before A3
O_GOLD = 34                         # MAXP everyone's gold (A0: public)
O_REN = O_GOLD + MAXP               # MAXP renown
O_PERS = O_REN + MAXP               # MAXP personality (-1 off; public, seed booklet)
O_REV = O_PERS + MAXP               # NCHAR revealed characters, -1 past O_NREV
O_HOLDER = O_REV + NCHAR            # NCHAR holder by revealed position (-1 none / not yet)
O_HOLDS = O_HOLDER + NCHAR          # NCHAR holder by character id this round (-1)
O_PREV_HOLDS = O_HOLDS + NCHAR      # NCHAR holder by character id last round (-1)
O_BIDS = O_PREV_HOLDS + NCHAR       # NCHAR x MAXP revealed bids (-1 unrevealed); the
                                    # Oracle sees the current row of the seats he sees
O_PEND_COUNT = O_BIDS + NCHAR * MAXP  # NHARM pending events by id
O_LAST_PLEDGE = O_PEND_COUNT + NHARM  # MAXP each seat's pledge at the last call (-1 out)
O_PLEDGED = O_LAST_PLEDGE + MAXP      # MAXP gold pledged over the game
O_PLEDGE_POS = O_PLEDGED + MAXP       # MAXP calls at which the seat pledged > 0
O_LAST_VOTE = O_PLEDGE_POS + MAXP     # MAXP last honours vote (-1)
O_PROPOSED = O_LAST_VOTE + MAXP       # MAXP ostracism proposals made
O_TARGETED = O_PROPOSED + MAXP        # MAXP times targeted by Thief/Assassin/Courtesan/Brigand
O_ATTACKS = O_TARGETED + MAXP         # MAXP times the seat targeted someone
OBS_LEN = O_ATTACKS + MAXP

# ---------------------------------------------------------------- results (one row per game)
R_ROUNDS = 0
R_COLLAPSE = 1
R_EARLY = 2          # ended by min_players (A8, A12)
R_TRUNC = 3          # never (kept for the runner's M1 bookkeeping)
R_NWIN = 4
R_WINMASK = 5
R_MC0 = 6
R_EXILED = 7         # mask
R_ASSASSINATED = 8   # mask
R_OST_PROPOSALS = 9
R_OST_PASSES = 10
R_OST_PLEDGED = 11   # gold pledged in ostracisms
R_COLLAPSE_PEND = 12  # mask of event ids pending at the collapse
R_SPENT_RESOLVED = 13
R_PLEDGE_RESOLVED = 14
R_POSTPONED = 15
R_ERROR = 16
R_SCORE = 20                        # MAXP (-1 for players out)
R_GOLD = R_SCORE + MAXP
R_REN = R_GOLD + MAXP
R_PERS = R_REN + MAXP
R_HOLD = R_PERS + MAXP              # NCHAR x MAXP rounds seat held character
R_WINBID = R_HOLD + NCHAR * MAXP    # NCHAR sum of winning bids (paid)
R_SOLD = R_WINBID + NCHAR           # NCHAR auctions won
R_REVEALED = R_SOLD + NCHAR         # NCHAR rounds revealed
R_COLLAPSE_EV = R_REVEALED + NCHAR  # NHARM collapses with this event pending (count 0/1)
R_COLLAPSE_NEW = R_COLLAPSE_EV + NHARM  # the newest pending event at the collapse
                                        # (the one that tipped the total), -1 otherwise
R_EXILE_GOLD = R_COLLAPSE_NEW + 1   # gold of the exiled players, shared out (A8)
R_EXILE_REN = R_EXILE_GOLD + 1      # renown of the exiled players, shared out (A8)
R_FINAL_TIED = R_EXILE_REN + 1      # A10: players still tied after gold (0 when none or a
                                    # collapse); under final_tie = mc_choice the MC then
                                    # named the one winner
RES_LEN = R_FINAL_TIED + 1

# ---------------------------------------------------------------- event log (records)
from demos_sim.eventlog import EV_W  # noqa: E402,F401  (type, a, b, c, d, e)
(L_SETUP, L_PERS, L_DECK, L_ROUND, L_INCOME, L_RESHUFFLE, L_EVENT, L_REVEAL, L_ORACLE,
 L_BID, L_NIMOS, L_HOLDER, L_GOOD, L_PEND, L_PLEDGE, L_PEND_END, L_COLLAPSE, L_BENEFIT,
 L_OST, L_OST_PLEDGE, L_OST_END, L_VOTE, L_HONOURED, L_FIG, L_ROUND_END, L_FINAL,
 L_SCORE, L_A7, L_A9, L_VIEW, L_FINAL_TIE) = range(1, 32)
