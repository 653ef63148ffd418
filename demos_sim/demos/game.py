"""DĒMOS as a :class:`demos_sim.game.Game` (RULES.md Part D)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.game import SHARE_SCALE, Game, Quantity, toml_literal

_PKG = Path(__file__).resolve().parent.parent


from demos_sim.demos.layout import DEC_LABELS, NVB  # noqa: E402
from demos_sim.demos.rules import TRIAL_RULES  # noqa: E402

# quantities the kernel's plain result columns give (its statistics off: a faster game)
_NO_STATS = {"win_share", "no_winner", "truncated", "rounds", "points", "vetoes"}

COMBO_BINS = ("carre", "run_1_suit", "run_2_suits", "run_3_suits")
VETO_BINS = tuple(str(r + 1) for r in range(NVB - 1)) + (f"{NVB}+",)
MEDIA_BINS = ("0", "1", "2")
TARGET_BINS = ("targeted", "not_targeted")
ACTOR_BINS = ("teammate", "opponent")
IND_BINS = ("a_peoples_voice", "b_media_controller", "c_dissident")
HARMONY_BINS = ("no_winner", "none", "one_colour", "two_colours", "three_colours")

# tune-bot (demos_sim/tuner/bot.py) tunes the behaviour parameters of the policies with
# heuristic's parameter indices: name -> (index in params, low, high, step); step 1 with
# integer bounds = an integer parameter. Indices are heuristic's P_*
# (demos_sim/demos/policies/heuristic.py); never the flags (noveto, notake, nomedia, legacy).
TUNE_SPACE: dict[str, tuple[int, float, float, float]] = {
    "veto_at": (0, 8.0, 24.0, 0.5),       # P_VETO_AT: veto from this hand value
    "late": (1, 0.0, 12.0, 0.5),          # P_LATE: threshold lowered when the pile is low
    "need": (5, 0.0, 6.0, 0.25),          # P_NEED: raised when the trio needs nothing
    "samples": (6, 2, 32, 1),             # P_SAMPLES: Media samples (integer)
    "keep": (7, -6.0, 4.0, 0.25),         # P_KEEP: bonus of passing with a combination
    "draw_w": (8, 1.0, 6.0, 0.25),        # P_DRAW_W: draws looked ahead, secret/unanimous
    "floor": (9, 4.0, 16.0, 0.5),         # P_FLOOR: utility counts points above it
    "horizon": (10, 1.0, 10.0, 0.25),     # P_HORIZON: draws looked ahead, public discard
    "shape": (11, 0.0, 6.0, 0.125),       # P_SHAPE: weight of greedy's shape estimate
    "veto_spend": (15, 0.0, 12.0, 0.5),   # P_VETO_SPEND: spend vetoes as rounds run out
    "veto_free": (16, 0.0, 10.0, 0.25),   # P_VETO_FREE: an opponent likely to veto itself
    "mate_w": (17, 0.0, 3.0, 0.25),       # P_MATE_W: Media on a teammate (team modes only)
    # the Media's aim (P_AIM_*: changes to the target weights, 0 = heuristic's rule)
    "aim_threat": (28, -1.0, 3.0, 0.25),  # weight of the target's harmony on its loss
    "aim_harm": (29, -0.5, 3.0, 0.25),    # weight of the target's harmony on its own
    "aim_lead": (30, -0.01, 0.49, 0.02),  # weight of its points behind the leader
}
TUNE_TEAM_ONLY = ("mate_w",)      # no effect in individual games (D9): not searched there
# searched only when named (--params): tuned.toml's search did not have them
TUNE_NAMED_ONLY = ("aim_threat", "aim_harm", "aim_lead")
TUNABLE = ("heuristic", "search", "tuned")     # the policies with heuristic's parameters


class DemosGame(Game):
    name = "demos"
    title = "DĒMOS"
    # handicap_points, handicap_vetoes: trial rules outside contract 2 (rules.TRIAL_RULES),
    # not variants (None: the rules as written, 0)
    settings = {"rules": "full", "mode": "individual", "seating": None,
                **{name: None for name in TRIAL_RULES}}
    policies_module = "demos_sim.demos.policies"
    default_policy = "greedy"
    summary_metrics = ("no_winner", "truncated", "vetoes", "points")
    quantities = (
        Quantity("win_share", "side", SHARE_SCALE, rate=True,
                 description="M1 win share (a win shared by k counts 1/k)"),
        Quantity("no_winner", "game", rate=True, description="share of games without a winner"),
        Quantity("truncated", "game", rate=True,
                 description="share of games stopped by round_cap"),
        Quantity("rounds", "game", hist=(1, 256), description="game length in rounds"),
        Quantity("points", "seat", hist=(5, 256),
                 description="cumulative points at the end of the game"),
        Quantity("vetoes", "game", description="vetoes used per game"),
        # --- game statistics for the designer's analyses (RULES.md rule IDs in brackets)
        Quantity("nowin_rounds", "game", rate=True, per="rounds",
                 description="share of rounds nobody wins (D4.4)"),
        Quantity("round_winners", "game", description="round wins per game (joint wins count each)"),
        Quantity("combo_share", "bins", rate=True, per="round_winners", bins=COMBO_BINS,
                 description="share of round wins by combination (D4.1)"),
        Quantity("veto_by_side", "side", description="vetoes used per game by side (D3.4.1, D9.3)"),
        Quantity("veto_round", "bins", bins=VETO_BINS,
                 description="vetoes used per game in round r (the last bin: later rounds)"),
        Quantity("unanimous", "game", description="unanimous turns played per game (D3.4)"),
        Quantity("unan_score_change", "game", per="unanimous",
                 description="Σ over players of the round-score change a unanimous turn makes"),
        Quantity("unan_winner_change", "game", rate=True, per="unanimous",
                 description="share of unanimous turns that change the round's winners"),
        Quantity("media_held", "seat", description="Media held when the Scandal starts (D6)"),
        Quantity("players_by_media", "bins", bins=MEDIA_BINS,
                 description="players per game holding 0, 1 or 2 Media"),
        Quantity("win_by_media", "bins", SHARE_SCALE, rate=True, per="players_by_media",
                 bins=MEDIA_BINS, description="win share of a player holding 0, 1 or 2 Media"),
        Quantity("players_by_targeted", "bins", bins=TARGET_BINS,
                 description="players per game aimed at by a Media action, or not (D6.2)"),
        Quantity("win_by_targeted", "bins", SHARE_SCALE, rate=True, per="players_by_targeted",
                 bins=TARGET_BINS, description="win share of a player aimed at by a Media, or not"),
        Quantity("media_actions", "bins", bins=ACTOR_BINS,
                 description="Media actions per game aimed at a teammate or an opponent"),
        Quantity("media_actions_by_seat", "seat",
                 description="Media actions per game by the acting seat (D6.2)"),
        Quantity("win_by_media_target", "bins", SHARE_SCALE, rate=True, per="media_actions",
                 bins=ACTOR_BINS,
                 description="win share of the acting player's side, by whom its Media aimed at"),
        Quantity("media_cancel", "game", rate=True,
                 description="share of games where a player's two Media cancel out (D6.1)"),
        Quantity("decided", "bins", rate=True, bins=DEC_LABELS,
                 description="how the election found its winner (D7.3, D9.5, D9.6 priority)"),
        Quantity("independent_condition", "bins", rate=True, bins=IND_BINS,
                 description="2v2+1: share of games reaching D9.6 step 2 with each condition"),
        Quantity("win_harmony", "bins", rate=True, bins=HARMONY_BINS,
                 description="harmony of the winning trio (D7.2); none: won without a trio"),
    )

    def check_setting(self, key, value):
        from demos_sim.demos.rules import MODES, RULES_SETS

        if key == "rules":
            if value not in RULES_SETS:
                raise ConfigError(f"must be one of {', '.join(RULES_SETS)}, got {value!r}")
        elif key == "mode":
            if value not in MODES:
                raise ConfigError(f"must be one of {', '.join(MODES)}, got {value!r}")
        elif key == "seating":
            if not isinstance(value, str):
                raise ConfigError(f"must be a string of team labels by seat, got {value!r}")
        elif key in TRIAL_RULES:
            if (not isinstance(value, (int, np.integer)) or isinstance(value, bool)
                    or value < 0):
                raise ConfigError(f"must be an integer >= 0, got {value!r}")
            value = int(value)
        return value

    def variant_defaults(self):
        out = super().variant_defaults()
        out["secret_optional"] = "rules-dependent"     # D3.3: true in full, false in simplified
        return out

    def trial_rules(self):
        return dict(TRIAL_RULES)

    def check_variant(self, name, value):
        from demos_sim.demos.rules import VARIANTS, check_variant

        # TOML has no null: the string "null" stands for it where a variant allows null.
        if value == "null" and name in VARIANTS and VARIANTS[name][0] == "int_or_null":
            value = None
        return check_variant(name, value)

    def make_config(self, settings, players, variants):
        from demos_sim.demos.rules import MODE_PLAYERS, DemosConfig

        mode = settings.get("mode", "individual")
        if players is None:
            players = MODE_PLAYERS.get(mode, 4)
        return DemosConfig(rules=settings.get("rules", "full"), mode=mode, players=players,
                           seating=settings.get("seating"), variants=dict(variants),
                           **{name: settings.get(name) or 0 for name in TRIAL_RULES})

    def labels(self, config, level):
        if level == "side":
            return config.side_labels()
        return [str(i) for i in range(config.players)]

    def side_seats(self, config):
        sides = config.side_of_seat()
        return [[i for i, s in enumerate(sides) if s == j]
                for j in range(len(config.side_labels()))]

    def describe(self, config):
        out = {"rules": config.rules, "mode": config.mode, "players": config.players,
               "seating": config.seating, "variants": dict(config.variants)}
        out.update(config.trial_rules())    # trial rules outside contract 2, when on
        return out

    def play(self, config, specs, seed, chunk, count, metrics=None, first=0):
        from demos_sim.demos import layout as L
        from demos_sim.demos.sim import play_chunk

        want = self.needed(metrics)
        stats = not set(want) <= _NO_STATS
        res = play_chunk(config.to_array(stats=stats), list(specs), seed, config.players,
                         chunk, count, first)
        if not stats:
            return self._basic(config, res, count, want)
        nsides = len(config.side_labels())
        nwin = res[:, L.R_NWIN]
        units = np.where(nwin > 0, SHARE_SCALE // np.maximum(nwin, 1), 0)
        share = np.empty((count, nsides), np.int64)
        for s in range(nsides):
            share[:, s] = ((res[:, L.R_WINSIDES] >> s) & 1) * units
        trunc = res[:, L.R_TRUNC] == 1
        n = config.players
        seat_side = np.array(config.side_of_seat())
        seat_win = share[:, seat_side]                      # a player's win = its side's
        media = res[:, L.R_MEDIA:L.R_MEDIA + n]
        targeted = res[:, L.R_TARGETED:L.R_TARGETED + n] > 0
        mate = res[:, L.R_ACT_MATE:L.R_ACT_MATE + n]
        opp = res[:, L.R_ACT_OPP:L.R_ACT_OPP + n]
        by_media = np.stack([(media == k).sum(1) for k in range(3)], 1)
        win_media = np.stack([(seat_win * (media == k)).sum(1) for k in range(3)], 1)
        by_target = np.stack([targeted.sum(1), (~targeted).sum(1)], 1)
        win_target = np.stack([(seat_win * targeted).sum(1), (seat_win * ~targeted).sum(1)], 1)
        acts = np.stack([mate.sum(1), opp.sum(1)], 1)
        win_acts = np.stack([(seat_win * mate).sum(1), (seat_win * opp).sum(1)], 1)
        decided = (res[:, L.R_DECIDED:L.R_DECIDED + 1] == np.arange(len(DEC_LABELS))).astype(
            np.int64)
        ind = np.stack([(res[:, L.R_IND_COND] >> b) & 1 for b in range(3)], 1)
        harm = (res[:, L.R_WIN_HARM:L.R_WIN_HARM + 1] == np.arange(-1, 4)).astype(np.int64)
        winkind = res[:, L.R_WINKIND:L.R_WINKIND + 4]
        out = {
            "win_share": share,
            "no_winner": ((nwin == 0) & ~trunc).astype(np.int64)[:, None],
            "truncated": trunc.astype(np.int64)[:, None],
            "rounds": res[:, L.R_ROUNDS:L.R_ROUNDS + 1].copy(),
            "points": res[:, L.R_CUM:L.R_CUM + config.players].copy(),
            "vetoes": res[:, L.R_VETOES_USED:L.R_VETOES_USED + 1].copy(),
            "nowin_rounds": res[:, L.R_NOWIN_ROUNDS:L.R_NOWIN_ROUNDS + 1].copy(),
            "round_winners": winkind.sum(1, keepdims=True),
            "combo_share": winkind.copy(),
            "veto_by_side": res[:, L.R_VETO_SIDE:L.R_VETO_SIDE + nsides].copy(),
            "veto_round": res[:, L.R_VETO_RND:L.R_VETO_RND + L.NVB].copy(),
            "unanimous": res[:, L.R_UNAN:L.R_UNAN + 1].copy(),
            "unan_score_change": res[:, L.R_UNAN_DELTA:L.R_UNAN_DELTA + 1].copy(),
            "unan_winner_change": res[:, L.R_UNAN_FLIP:L.R_UNAN_FLIP + 1].copy(),
            "media_held": media.copy(),
            "players_by_media": by_media,
            "win_by_media": win_media,
            "players_by_targeted": by_target,
            "win_by_targeted": win_target,
            "media_actions": acts,
            "media_actions_by_seat": mate + opp,
            "win_by_media_target": win_acts,
            "media_cancel": res[:, L.R_MEDIA_CANCEL:L.R_MEDIA_CANCEL + 1].copy(),
            "decided": decided,
            "independent_condition": ind,
            "win_harmony": harm,
        }
        return {m: out[m] for m in want}

    @staticmethod
    def _basic(config, res, count, want):
        """The quantities of the kernel's plain result columns (statistics off)."""
        from demos_sim.demos import layout as L

        nsides = len(config.side_labels())
        nwin = res[:, L.R_NWIN]
        units = np.where(nwin > 0, SHARE_SCALE // np.maximum(nwin, 1), 0)
        share = np.empty((count, nsides), np.int64)
        for s in range(nsides):
            share[:, s] = ((res[:, L.R_WINSIDES] >> s) & 1) * units
        trunc = res[:, L.R_TRUNC] == 1
        out = {"win_share": share,
               "no_winner": ((nwin == 0) & ~trunc).astype(np.int64)[:, None],
               "truncated": trunc.astype(np.int64)[:, None],
               "rounds": res[:, L.R_ROUNDS:L.R_ROUNDS + 1].copy(),
               "points": res[:, L.R_CUM:L.R_CUM + config.players].copy(),
               "vetoes": res[:, L.R_VETOES_USED:L.R_VETOES_USED + 1].copy()}
        return {m: out[m] for m in want}

    # ---------------------------------------------------------------- tune-bot
    tune_named_only = TUNE_NAMED_ONLY

    def tune_space(self, team):
        return {n: v for n, v in TUNE_SPACE.items() if team or n not in TUNE_TEAM_ONLY}

    def tunable(self, policy):
        from demos_sim.registry import spec_parts

        if spec_parts(policy)[0] in TUNABLE:
            return None
        return (f"tune-bot tunes policies with heuristic's parameters ({', '.join(TUNABLE)}), "
                f"not {policy!r}")

    def tune_warm(self, path):
        """The vector of a ``tuned.toml`` (an earlier tune-bot result)."""
        from demos_sim.demos.policies import N_PARAMS
        from demos_sim.demos.policies.tuned import load_tuned

        try:
            data = load_tuned(path)
        except (OSError, ValueError) as e:
            raise ConfigError(f"--warm {path}: {e}") from e
        v = np.zeros(N_PARAMS)
        v[:len(data["params"])] = data["params"]
        return v

    def write_tuned(self, res, command, path):
        """A ``tuned.toml`` registered as the policy named by the file (``tuned``:
        ``demos_sim/demos/policies/tuned.py``; any other name, a best response:
        ``best_response.py``): the vector, how it was found, the confirmation."""
        return tuned_toml(res, command, Path(path).stem)

    def decisions(self, config, specs, index, seed):
        from demos_sim.demos.decisions import play_decisions

        return play_decisions(config, list(specs), index, seed)

    def source_files(self):
        files = sorted((_PKG / "demos").rglob("*.py"))
        files += [_PKG / f for f in ("rng.py", "bits.py", "cards.py", "sim_common.py",
                                     "registry.py", "kernel.py", "layout_alloc.py")]
        return files


# ------------------------------------------------------------------ tune-bot's data file
def tuned_header(name: str = "tuned") -> list[str]:
    """The comment that opens a tune-bot data file registered as policy ``name`` by
    ``demos_sim/demos/policies/tuned.py`` (``tuned``) or ``best_response.py`` (the best
    responses, ``--in-place``)."""
    module = "tuned" if name == "tuned" else "best_response"
    return [
        f"# The `{name}` DĒMOS policy: heuristic's function with the parameter vector below,",
        "# found by self-play (demos_sim/tuner/bot.py: TPE search on common deals, racing and",
        "# confirmation on fresh deals). Written by `demos-sim tune-bot`; regenerate, do not",
        f"# edit by hand. demos_sim/demos/policies/{module}.py registers it.",
    ]


def tuned_toml(res, command: str = "", name: str = "tuned") -> str:
    """The ``tuned.toml`` text of tune-bot's result ``res`` (or another policy's,
    ``name``): the vector, how it was found, the confirmation."""
    from demos_sim.provenance import CONTRACT, git_revision

    T = toml_literal
    h = res.headline()
    lines = tuned_header(name) + [
        f"policy = {T(res.policy)}",
        f"params = {T(res.params_list(res.best))}",
        f"default = {T(res.params_list(res.default))}",
        f"command = {T(command)}",
        f"seed = {res.seed}",
        f"trials = {res.trials}",
        f"games = {res.games}",
        f"field = {T(res.field)}",
        'sampler = "tpe"',
        f"contract = {CONTRACT}",
        f"git_revision = {T(git_revision() or '')}",
        f"wall_s = {round(res.wall_s, 1)}",
        f"deals_played = {res.deals_played}   # match deals, each in every rotation",
        f"warm = {T(res.warm or [])}   # vectors tried right after the default",
        f"searched = {T(list(res.space))}   # the others keep the policy's values",
        f"scoring = {T('in_place' if res.in_place else 'match')}"
        "   # in_place: one seat among the field (a best response); match: seat-rotated",
        "",
        "[config]",
    ]
    for k, v in res.config.items():
        if v is not None:
            lines.append(f"{k} = {T(v)}")
    lines += ["", "[tuned]   # the searched parameters: name = [default, tuned]"]
    d, b = res.named(res.default), res.named(res.best)
    for n in res.space:
        lines.append(f"{n} = [{T(d[n])}, {T(b[n])}]")
    lines += ["", "[race]", f"top = {res.top}",
              f"deals = {T([r['deals'] for r in res.race_rows if r['is_default']])}",
              f"seeds = {T(res.race_seeds)}"]
    last = max(r["round"] for r in res.race_rows)
    fin = [r for r in res.race_rows if r["round"] == last]
    winner = next(r for r in fin if all(r[n] == b[n] for n in res.space))
    dflt = next(r for r in fin if r["is_default"])
    lines += [f"winner_score = {winner['score']!r}", f"default_score = {dflt['score']!r}"]
    lines += ["", "[confirmation]   # the tuned vector against the policy itself, fresh deals",
              f"against = {T(h['against'])}", f"deals = {h['deals']}",
              f"seed = {h['seed']}", f"win_share = {h['win_share']!r}",
              f"ci95 = {T(h['ci95'])}",
              f"wins_per_game_diff = {h['wins_per_game_diff']!r}",
              f"wins_per_game_diff_ci95 = {T(h['wins_per_game_diff_ci95'])}"]
    for c in res.confirmation[1:]:
        lines += ["", "[[confirmation.field]]", f"against = {T(c['against'])}",
                  f"deals = {c['deals']}", f"win_share = {c['win_share']!r}",
                  f"ci95 = {T(c['ci95'])}"]
    return "\n".join(lines) + "\n"
