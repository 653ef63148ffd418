"""The bot-writing kit: option helpers, per-decision registration, the position builder.

- Option helpers decode each decision kind's options as the rules say (D3.2, D3.3,
  D3.4.1, D3.4.3, D6.2, D9.4, X1, X2), checked on hand-written options and against the
  policies' own independent decoders.
- ``register(name, discard=…, veto=…)`` composes one policy that plays the same games as
  the equivalent hand-written one, and leaves every other decision to ``random``.
- ``position(...)`` gives the observation and options the engine itself gives: checked
  at every round-0 decision of real games (snapshots taken inside the engine).
"""

import itertools
import warnings

import numpy as np
import pytest
from numba import njit

from demos_sim.cards import card_id, codes_of, figure_id
from demos_sim.demos import Position, describe_option, kit, position
from demos_sim.demos import engine as E
from demos_sim.demos import layout as L
from demos_sim.demos.policies import POLICY_SIG, get, register
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.sim import policy_tuple
from demos_sim.registry import N_PARAMS, Policy, load_plugin
from demos_sim.rng import below
from demos_sim.sim_common import chunk_game_keys

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

C = card_id


# ------------------------------------------------------------------ option helpers
def test_discard_turn_options_decode_like_the_rules():
    # D3.2: the public option is the card; the player then draws blind
    assert kit.discard_of(kit.PUBLIC, C("7S")) == C("7S")
    assert kit.takes_deck(kit.PUBLIC, C("7S")) and kit.take_of(kit.PUBLIC, C("7S")) == -1
    # D3.3 / D3.4.3: discard * 64 + take (a face-up card, or DECK = the deck's top)
    for kind in (kit.SECRET, kit.UNANIMOUS):
        take = C("7S") * 64 + C("9C")
        blind = C("3D") * 64 + kit.DECK
        assert (kit.discard_of(kind, take), kit.take_of(kind, take)) == (C("7S"), C("9C"))
        assert not kit.takes_deck(kind, take) and not kit.is_pass(take)
        assert (kit.discard_of(kind, blind), kit.take_of(kind, blind)) == (C("3D"), -1)
        assert kit.takes_deck(kind, blind) and kit.draws_blind(kind, blind)
        # the option 1S-takes-2S (0 * 64 + 1) is not the public option 2S
        assert kit.discard_of(kind, 1) == C("1S") and kit.take_of(kind, 1) == C("2S")
    # D3.3 pass (full rules): nothing discarded, nothing drawn
    assert kit.is_pass(kit.PASS) and kit.discard_of(kit.SECRET, kit.PASS) == -1
    assert not kit.takes_deck(kit.SECRET, kit.PASS) and kit.take_of(kit.SECRET, kit.PASS) == -1
    hand = 0
    for c in ("7S", "8S", "2H", "5D", "1C"):
        hand |= 1 << C(c)
    after = kit.hand_after(kit.SECRET, C("1C") * 64 + C("9S"), hand)
    assert codes_of(int(after)) == ["7S", "8S", "9S", "2H", "5D"]
    after = kit.hand_after(kit.PUBLIC, C("2H"), hand)           # a blind draw: 4 known
    assert codes_of(int(after)) == ["7S", "8S", "5D", "1C"]
    assert kit.hand_after(kit.SECRET, kit.PASS, hand) == hand


def test_find_turn_option_finds_every_option_the_engine_lists():
    """Every option of the engine's own discard-turn lists (D3.2, D3.3 with and without
    the pass, D3.4.3), on 1,500 random hands and tables; an option missing from the list
    is -1; in a list in another order it is still found (by the search)."""
    rng = np.random.default_rng(3)
    opts = np.zeros(L.MAXOPT, np.int64)
    obs = np.zeros(L.OBS_LEN, np.int64)
    for case in range(1500):
        cards = rng.permutation(40)
        hand = int(sum(1 << int(c) for c in cards[:5]))
        table = int(sum(1 << int(c) for c in cards[5:5 + rng.integers(0, 9)]))
        kind = (kit.PUBLIC, kit.SECRET, kit.UNANIMOUS)[case % 3]
        obs[L.O_KIND], obs[L.O_HAND], obs[L.O_TABLE] = kind, hand, table
        if kind == kit.PUBLIC:
            listed = sorted(int(c) for c in cards[:5])
        else:
            k = 0
            if kind == kit.SECRET and case % 2:
                opts[0] = kit.PASS
                k = 1
            k = E._discard_take_options(opts, k, hand, table)
            listed = [int(x) for x in opts[:k]]
        opts[:len(listed)] = listed
        n = len(listed)
        for i, o in enumerate(listed):
            assert kit.find_turn_option(obs, opts, n, o) == i
        outside = int(cards[39]) * 64 + kit.DECK if kind != kit.PUBLIC else int(cards[39])
        assert kit.find_turn_option(obs, opts, n, outside) == -1
        shuffled = np.array(listed[::-1] + [0] * (L.MAXOPT - n), np.int64)
        assert all(kit.find_turn_option(obs, shuffled, n, o) == n - 1 - i
                   for i, o in enumerate(listed))


def test_other_options_decode_like_the_rules():
    assert kit.is_veto(kit.VETO_YES) and not kit.is_veto(kit.VETO_NO)        # D3.4.1
    assert (kit.media_target(2 * 16 + 1), kit.target_slot(2 * 16 + 1)) == (2, 1)   # D6.2
    assert kit.media_target(kit.PASS) == -1 and kit.is_pass(kit.PASS)
    assert kit.receiver_of(3) == 3 and kit.option_suit(kit.HEARTS) == 1
    from demos_sim.demos.policies.basic import announced_colour   # the policies' decoder
    for o in range(64):                                             # X2: E*16 + L*4 + J
        e, l, j = kit.announced_suits(o)
        assert (e, l, j) == tuple(announced_colour(o, t) for t in range(3))
        assert kit.announcement(e, l, j) == o
    assert kit.card_of(7, kit.SPADES) == C("7S") and kit.card_value(C("10C")) == 10
    assert kit.card_suit(C("3D")) == kit.DIAMONDS
    assert kit.figure_type(figure_id("LH")) == kit.FIG_L
    assert kit.figure_colour(figure_id("LH")) == kit.HEARTS
    assert kit.is_media(12) and kit.figure_colour(13) == -1


def test_describe_option_prints_every_kind():
    assert describe_option("secret", C("7S") * 64 + C("9C")) == "discard 7S, take 9C"
    assert describe_option("unanimous", C("3D") * 64 + kit.DECK) == "discard 3D, draw blind"
    assert describe_option("secret", kit.PASS) == "pass"
    assert describe_option("public", C("10H")) == "discard 10H, draw blind"
    assert describe_option("veto", 1) == "veto" and describe_option("veto", 0) == "no veto"
    assert describe_option("media", 2 * 16 + 1) == "Media on seat 2's figure #1"
    assert describe_option("media", kit.PASS) == "decline the Media"
    assert describe_option("colour", kit.HEARTS) == "colour ♥"
    assert describe_option(kit.FAVOURITE, kit.CLUBS) == "favourite suit ♣"
    assert describe_option("allocate", 3) == "figure to seat 3"
    assert describe_option("announce", kit.announcement(1, 0, 2)) == "announce E♥ L♠ J♦"
    with pytest.raises(ValueError, match="unknown decision kind"):
        describe_option("discard", 3)


def test_hand_score_is_the_D4_score_of_the_reference_scorer():
    from ref_scoring import ref_best

    cfg_full = DemosConfig("full", "individual", 4).to_array()
    cfg_x1 = DemosConfig("full", "individual", 4,
                         variants={"favourite_suit_bonus": 10, "run_base": [10, 6, 2]}).to_array()
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_SEAT] = 1
    obs[L.O_FAV + 1] = kit.HEARTS
    rng = np.random.default_rng(3)
    for _ in range(400):
        cards = [int(c) for c in rng.choice(40, 5, replace=False)]
        mask = sum(1 << c for c in cards)
        codes = codes_of(mask)
        assert kit.hand_score(cfg_full, obs, mask) == ref_best(codes)[1]
        assert kit.hand_score(cfg_x1, obs, mask) == ref_best(
            codes, run_base=(10, 6, 2), favourite_suit="H", favourite_suit_bonus=10)[1]


# ------------------------------------------------------------------ registration
@njit(POLICY_SIG, cache=True)
def _lowest_blind(cfg, obs, opts, n_opts, params, rng):
    """examples/highcards.py's discard turns, written with the kit."""
    kind = kit.decision_kind(obs)
    best, best_i = 99, 0
    for i in range(n_opts):
        o = opts[i]
        if kit.is_pass(o) or not kit.takes_deck(kind, o):
            continue
        v = kit.card_value(kit.discard_of(kind, o))
        if v < best:
            best, best_i = v, i
    return best_i


@njit(cache=True)                      # no signature: compiled when composed
def _never(cfg, obs, opts, n_opts, params, rng):
    return kit.VETO_NO


@njit(cache=True)
def _allocates(cfg, obs, opts, n_opts, params, rng):
    values = np.arange(n_opts)[::-1].copy()   # new arrays need numba's reference counting
    return int(np.argmin(values))


def _results(specs, config, games=300, seed=11):
    from demos_sim.demos.policies import resolve

    fns, params = policy_tuple(resolve(specs, config.players))
    res = np.zeros((games, L.RES_LEN), np.int64)
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_batch(fns, config.to_array(), params, chunk_game_keys(seed, 0, 0, games), res, diag)
    E.check_errors(diag)
    return res


@pytest.fixture(scope="module")
def composed():
    from pathlib import Path

    root = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())
    load_plugin(str(root / "examples" / "highcards.py"))
    register("t_kit_highcards", discard=_lowest_blind, veto=_never)
    register("t_kit_random", veto=kit.uniform)
    register("t_kit_greedy", discard=get("greedy").fn, others="greedy")
    return True


@pytest.mark.parametrize("setup", [("full", "individual", 4), ("simplified", "individual", 3),
                                   ("full", "2v2+1", 5)])
def test_a_composed_policy_plays_the_hand_written_games(composed, setup):
    config = DemosConfig(*setup, variants={"favourite_suit_bonus": 10, "media_optional": True})
    mix = ["greedy", "random", "heuristic", "greedy", "random"][:config.players]
    for name, same_as in (("t_kit_highcards", "highcards"), ("t_kit_random", "random"),
                          ("t_kit_greedy", "greedy"), ("t_kit_greedy:noveto", "greedy:noveto")):
        a = _results([name] + mix[1:], config)
        b = _results([same_as] + mix[1:], config)
        assert np.array_equal(a, b), (name, same_as)
    # and the comparison can fail: a different discard rule plays other games
    assert not np.array_equal(_results(["t_kit_highcards"] + mix[1:], config),
                              _results(["t_kit_random"] + mix[1:], config))


def test_register_keywords_are_checked_and_the_decorator_is_unchanged(composed):
    with pytest.raises(TypeError, match="unknown decision keyword 'discards'"):
        register("t_kit_bad", discards=_lowest_blind)
    with pytest.raises(TypeError, match="not a numba function"):
        register("t_kit_bad", veto=lambda *a: 0)

    @register("t_kit_plain", params=(3.0,), description="d")
    @njit(POLICY_SIG, cache=True)
    def plain(cfg, obs, opts, n_opts, params, rng):
        return 0

    # a function without a signature that allocates arrays composes and plays (it is
    # compiled on its own, not inside the composition, which runs without refcounting)
    register("t_kit_alloc", public=_allocates)
    assert position(hand="7S 8S 9S 1H 3D").decide("t_kit_alloc").text == "discard 3D, draw blind"

    p = get("t_kit_plain")
    assert p.fn is plain and p.params[0] == 3.0 and p.description == "d"
    assert "discard=_lowest_blind" in get("t_kit_highcards").description
    assert get("t_kit_greedy").flags == get("greedy").flags


# ------------------------------------------------------------------ positions
SNAP_AT, SNAP_COUNT, SNAP_N = N_PARAMS, N_PARAMS + 1, N_PARAMS + 2
SNAP_OBS = N_PARAMS + 3
SNAP_OPTS = SNAP_OBS + L.OBS_LEN
SNAP_W = SNAP_OPTS + L.MAXOPT


@njit(POLICY_SIG, cache=True)
def _snapshot(cfg, obs, opts, n_opts, params, rng):
    """Random play but no veto (so that the unanimous turn is played); copies the
    observation and options of its own SNAP_AT-th decision."""
    if params[SNAP_COUNT] == params[SNAP_AT]:
        for i in range(L.OBS_LEN):
            params[SNAP_OBS + i] = obs[i]
        for i in range(n_opts):
            params[SNAP_OPTS + i] = opts[i]
        params[SNAP_N] = n_opts
    params[SNAP_COUNT] += 1
    if obs[L.O_KIND] == kit.VETO:
        return kit.VETO_NO
    return below(rng, 0, n_opts)


def _snapshots(config, key):
    """(seat, obs, opts) of every decision of round 0, and the round's events."""
    cfg = config.to_array(log=True)
    out = []
    for j in range(6):
        prm = np.zeros((L.MAXP, SNAP_W))
        prm[:, SNAP_AT] = j
        log = np.zeros(L.EV_W * 30000, np.int64)
        log[0] = L.EV_W
        E.play_game((_snapshot,) * L.MAXP, cfg, prm, np.uint64(key), np.zeros(L.ST_LEN, np.int64),
                    np.zeros((L.MAXP, L.OBS_LEN), np.int64), np.zeros(L.MAXOPT, np.int64),
                    np.zeros(L.NSTREAM, np.uint64), np.zeros(L.WK_LEN, np.int64), log,
                    np.zeros(E.DIAG_LEN, np.int64), np.zeros(L.RES_LEN, np.int64))
        events = log[L.EV_W:log[0]].reshape(-1, L.EV_W)
        for seat in range(config.players):
            n = int(prm[seat, SNAP_N])
            ob = prm[seat, SNAP_OBS:SNAP_OBS + L.OBS_LEN].astype(np.int64)
            if n and ob[L.O_ROUND] == 0:
                out.append((seat, ob, prm[seat, SNAP_OPTS:SNAP_OPTS + n].astype(np.int64)))
    return out, events


def _action(events, t, p):
    """Seat p's (discard, take) of event type t in round 0 from the event log."""
    for e in events:
        if e[0] == L.EV_ROUND and e[1] == 1:
            break
        if e[0] == t and e[1] == p:
            d, take = int(e[2]), int(e[3])
            return "pass" if d < 0 else (codes_of(1 << d)[0],
                                         "deck" if take == kit.DECK else codes_of(1 << take)[0])
    raise AssertionError((t, p))


@pytest.mark.parametrize("setup,variants", [
    (("full", "individual", 4), {}), (("simplified", "individual", 3), {}),
    (("full", "individual", 5), {"secret_optional": False}),
    (("full", "2v2", 4), {"team_talk": "hands"})])
def test_position_gives_the_engines_observation_and_options(setup, variants):
    """Every round-0 decision of real games, rebuilt from what its observation shows
    (and the hidden discards from the event log): same observation, same options."""
    config = DemosConfig(*setup, variants=variants)
    compared = set()
    for key in chunk_game_keys(7, 0, 0, 2):
        snaps, events = _snapshots(config, key)
        for seat, ob, opts in snaps:
            n = config.players
            kind = int(ob[L.O_KIND])
            if kind not in (kit.PUBLIC, kit.SECRET, kit.VETO, kit.UNANIMOUS):
                continue                # a 2v2 allocation after the showdown: not here
            public = {p: codes_of(1 << int(ob[L.O_PUB + p]))[0] for p in range(n)
                      if ob[L.O_PUB + p] >= 0}
            secret = {p: _action(events, L.EV_SECRET, p) for p in range(n)
                      if ob[L.O_SEC_TAKE + p] != -2}
            unan = {p: _action(events, L.EV_UNAN, p) for p in range(n)
                    if ob[L.O_UNAN_TAKE + p] >= 0}
            mates = {p: codes_of(int(ob[L.O_MATE_HAND + p])) for p in range(n)
                     if ob[L.O_MATE_HAND + p]}
            pos = position(codes_of(int(ob[L.O_HAND])), kit.KIND_NAMES[kind], seat,
                           config=config, public=public, secret=secret, unanimous=unan,
                           hands=mates)
            assert pos.options() == opts.tolist(), (seat, kit.KIND_NAMES[kind])
            mask = np.ones(L.OBS_LEN, bool)
            mask[L.O_GVER] = False                          # version counters: bookkeeping
            mask[L.O_FVER:L.O_FVER + L.MAXP] = False
            diff = np.nonzero(mask & (pos.obs != ob))[0]
            assert diff.size == 0, (seat, kit.KIND_NAMES[kind], diff, pos.obs[diff], ob[diff])
            compared.add(kind)
    want = {kit.PUBLIC, kit.SECRET} | ({kit.VETO, kit.UNANIMOUS} if setup[0] == "full" else set())
    assert compared == want


def test_media_options_are_the_engines_legal_targets():
    figures = {0: "M EH", 1: "LS JD ES", 2: "EC", 3: "JH"}
    for variants in ({}, {"media_optional": True}, {"media_targets_revealed": True}):
        pos = position(kind="media", figures=figures, faceup={3: "JH"}, covers={"ES": "H"},
                       variants=variants)
        opts = np.zeros(L.MAXOPT, np.int64)
        k0 = 1 if variants.get("media_optional") else 0
        opts[0] = -1
        k = E._legal_targets(pos.st, pos.cfg, 0, opts, k0)
        assert pos.options() == opts[:k].tolist()
    # D6.2 by hand: not its own figures, not a covered one (ES), not a face-up one (JH)
    pos = position(kind="media", figures=figures, faceup={3: "JH"}, covers={"ES": "H"})
    assert pos.texts() == ["Media on seat 1's figure #0 (face down)",
                           "Media on seat 1's figure #1 (face down)",
                           "Media on seat 2's figure #0 (face down)"]


def test_decide_names_the_choice_and_refuses_a_bad_index():
    pos = position(hand="7S 8S 9S 1H 3D", table="9C", kind="secret")
    assert isinstance(pos, Position) and pos.n_opts == 11
    c = pos.decide("greedy")
    assert (c.index, c.option, str(c)) == (8, C("1H") * 64 + C("9C"), "discard 1H, take 9C")
    assert pos.index_of("discard 1H, take 9C") == 8

    @njit(POLICY_SIG)
    def returns_the_option(cfg, obs, opts, n_opts, params, rng):
        return opts[n_opts - 1]

    with pytest.raises(ValueError, match=r"answered option index 1446 .* 11 options"):
        pos.decide(returns_the_option)
    text = str(pos)
    assert "hand   7S 8S 9S 1H 3D" in text and "   10  discard 3D, take 9C" in text


def test_position_refuses_what_cannot_happen():
    bad = [
        (dict(hand="7S 8S 9S 1H", kind="secret"), "holds 4 cards"),                  # D3.5
        (dict(hand="7S 8S 9S 1H 3D", rules="simplified", players=3), "no aces"),      # D1
        (dict(hand="7S 8S 9S 2H 3D", kind="secret", table="4H",
              secret={1: ("5D", "6C")}), "6C, which is not on the table"),            # D3.3
        (dict(hand="7S 8S 9S 2H 3D", kind="veto", vetoes={0: 0}), "no veto left"),     # D3.4.1
        (dict(hand="7S 8S 9S 2H 3D", kind="veto", rules="simplified", players=3),
         "simplified rules have no veto"),                                             # D8
        (dict(kind="favourite"), "favourite_suit_bonus > 0"),                          # X1
        (dict(kind="media", figures={0: "M", 1: "EH"}, faceup={1: "EH"}),
         "no legal Media target"),                                                     # D6.2
        (dict(kind="allocate", figure="EH"), "teams only"),                            # D9.4
        (dict(hand="7S 8S 9S 2H 3D", kind="secret", table="7S"), "in a hand and on the table"),
    ]
    for kw, msg in bad:
        with pytest.raises(ValueError, match=msg):
            position(**kw)


def test_positions_of_every_kind_print_and_decide():
    cases = [
        dict(kind="public", hand="7S 8S 9S 1H 3D"),
        dict(kind="secret", hand="7S 8S 9S 1H 3D", table="4H 5D"),
        dict(kind="veto", hand="7S 8S 9S 1H 3D", table="4H 5D"),
        dict(kind="unanimous", hand="7S 8S 9S 1H 3D", table="4H 5D 6C", secret={1: "6C"}),
        dict(kind="allocate", mode="2v2", figures={0: "EH", 2: "LS"}, figure="JD"),
        dict(kind="media", figures={0: "M EH", 1: "LS JD"}),
        dict(kind="colour", figures={0: "M EH", 1: "LS JD"}, target=(1, 1)),
        dict(kind="favourite", variants={"favourite_suit_bonus": 10}),
        dict(kind="announce", variants={"announced_trio": True}),
    ]
    for kw in cases:
        pos = position(**kw)
        assert kit.KIND_NAMES[pos.kind] == kw["kind"]
        texts = pos.texts()
        assert len(set(texts)) == len(texts) == pos.n_opts >= 2       # one text per option
        for name in ("random", "greedy", "heuristic"):
            assert pos.decide(name).text in texts
        assert kit.KIND_RULES[pos.kind] in str(pos)


def test_a_decision_reads_the_observation_it_is_given():
    """The builder's state is what policies see: X2 announcements, points, covers."""
    pos = position(kind="colour", figures={0: "M", 1: "LS JD"}, target=(1, 0),
                   faceup={1: "LS"}, points=[5, 30, 0, 0])
    assert kit.colour_target(pos.obs) == 1 and kit.colour_figure(pos.obs) == figure_id("LS")
    assert pos.obs[L.O_CUM + 1] == 30
    blind = position(kind="colour", figures={0: "M", 1: "LS JD"}, target=(1, 1))
    assert kit.colour_figure(blind.obs) == -1                       # D6.2: pointed at blind
    pos = position(kind="announce", variants={"announced_trio": True}, seat=2,
                   announced={"0": "SHD"})
    assert pos.obs[L.O_ANN + 0] == kit.announcement(0, 1, 2) and pos.obs[L.O_ANN + 1] == -1
    pos = position(kind="allocate", mode="2v3", seat=1, figure="M")
    assert pos.options() == [1, 3, 4] and kit.is_media(kit.allocated_figure(pos.obs))
    assert list(itertools.islice(pos.texts(), 1)) == ["figure to seat 1"]


SIX_D = C("6D")


@njit(POLICY_SIG, cache=True)
def _reads_truth(cfg, obs, opts, n_opts, params, rng):
    """Option 1 when the truth block is there and seat 1's hand holds 6D, else 0."""
    if obs[L.O_T_ON] == 1 and (obs[L.O_T_HAND + 1] >> SIX_D) & 1:
        return 1
    return 0


def test_a_reference_policy_decides_with_the_truth_block_as_in_a_game():
    """A reference (``register(..., reference=...)``, like ``omniscient``) is asked with
    the truth block filled and its seat's C_TRUTH bit set, as a game plays it; any other
    policy sees the observation alone (M2)."""
    params = np.zeros(N_PARAMS)         # not registered: the registry stays as it is
    reference = Policy("t_kit_truth", _reads_truth, params, reference="t_kit_truth")
    pos = position(hand="7S 8S 9S 2H 5D", kind="secret", hands={1: "6D 3C 4C 7H 8H"},
                   public={1: "3D", 2: "4D", 3: "1H", 0: "10S"})
    assert pos.decide(reference).index == 1              # sees seat 1's 6D
    assert pos.decide(Policy("t_kit_blind", _reads_truth, params)).index == 0   # M2 only
    assert not pos.obs[L.O_T_ON:].any()                  # the position's own obs: M2 only
    truth = pos.observation(reference=True)
    assert truth[L.O_T_ON] == 1 and truth[L.O_T_HAND + 1] == pos.st[L.S_HAND + 1]
    assert np.array_equal(truth[:L.O_T_ON], pos.obs[:L.O_T_ON])


def test_the_position_module_example_runs():
    import doctest

    from demos_sim.demos import positions

    result = doctest.testmod(positions)
    assert result.failed == 0 and result.attempted >= 3
