"""Set up a DĒMOS table by hand and run one phase of the real kernel on it.

Hand-made rule tests (tests/demos/test_rules.py) describe a position in record
notation — hands, figures in acquisition order, face-up figures, Media covers, points,
what is left of the Power pile — and call the engine's own phase functions
(``_showdown`` for D4, ``_scandal`` for D6, ``_election`` for D7/D9) on it. The events
the phase logs come back decoded. The position itself is written by the package's
:func:`demos_sim.demos.positions.setup_state` (shared with ``demos_sim.demos.position``).
"""

from __future__ import annotations

import warnings

import numpy as np

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

from demos_sim.cards import SUITS, codes_of, figure_code  # noqa: E402
from demos_sim.demos import engine as E  # noqa: E402
from demos_sim.demos import layout as L  # noqa: E402
from demos_sim.demos.policies import resolve  # noqa: E402
from demos_sim.demos.positions import setup_state  # noqa: E402
from demos_sim.demos.rules import DemosConfig  # noqa: E402
from demos_sim.demos.sim import policy_tuple  # noqa: E402


class Table:
    """A hand-built position. ``figures`` lists codes in acquisition order; the second
    Media may be written "M" too (ids 12 then 13 are assigned in order)."""

    def __init__(self, config: DemosConfig, policies=("greedy",), dealer: int = 0,
                 hands=None, figures=None, faceup=None, covers=None, cum=None, pile=None,
                 vetoes=None, fav=None, announced=None):
        self.config = config
        self.cfg = config.to_array(log=True)
        n = config.players
        self.fns, self.params = policy_tuple(resolve(list(policies), n))
        self.st = np.zeros(L.ST_LEN, np.int64)
        self.obs = np.zeros((L.MAXP, L.OBS_LEN), np.int64)
        self.opts = np.zeros(L.MAXOPT, np.int64)
        self.prng = np.zeros(L.NSTREAM, np.uint64)
        self.wk = np.zeros(L.WK_LEN, np.int64)
        self.res = np.zeros(L.RES_LEN, np.int64)
        self.diag = np.zeros(E.DIAG_LEN, np.int64)
        self.log = np.zeros(L.EV_W * 2000, np.int64)
        self.log[0] = L.EV_W
        E.init_state(self.cfg, np.uint64(12345), self.st, self.obs, self.prng, self.res)
        self.st[L.S_DEALER] = dealer
        setup_state(self.st, config, hands=hands, figures=figures, faceup=faceup,
                    covers=covers, cum=cum, pile=pile, vetoes=vetoes, fav=fav,
                    announced=announced)

    # ---------------------------------------------------------------- phases
    def showdown(self):
        E._showdown(self.fns, self.st, self.cfg, self.obs, self.opts, self.params, self.prng,
                    self.wk, self.diag, self.log, self.res)
        return self.events()

    def scandal(self):
        E._scandal(self.fns, self.st, self.cfg, self.obs, self.opts, self.params, self.prng,
                   self.wk, self.diag, self.log, self.res)
        return self.events()

    def election(self):
        E._election(self.st, self.cfg, self.wk, self.log, self.res)
        return self.events()

    # ---------------------------------------------------------------- reading back
    def events(self):
        ev = self.log[L.EV_W:self.log[0]].reshape(-1, L.EV_W)
        return [tuple(int(x) for x in e) for e in ev]

    def of_type(self, t):
        return [e[1:] for e in self.events() if e[0] == t]

    def winners(self):
        return [e[0] for e in self.of_type(L.EV_WIN)]

    def figure_draws(self):
        return [(e[0], figure_code(e[1])) for e in self.of_type(L.EV_FIG)]

    def reveals(self):
        return sorted((e[0], figure_code(e[1])) for e in self.of_type(L.EV_REVEAL))

    def points(self):
        return [int(self.st[L.S_CUM + p]) for p in range(self.config.players)]

    def figures_of(self, p):
        return [figure_code(int(self.st[L.S_FIG + p * L.NFIG + i]))
                for i in range(int(self.st[L.S_NFIG + p]))]

    def result(self):
        """(winning side labels, winning seats) from the election's EV_RESULT."""
        (a, b, *_), = self.of_type(L.EV_RESULT)
        labels = self.config.side_labels()
        return ([labels[s] for s in range(len(labels)) if (a >> s) & 1],
                [p for p in range(self.config.players) if (b >> p) & 1])

    def side_trio(self, label):
        """(figures, colours, harmony) of a side's pooled trio (D9.5 ``pooled``)."""
        sid = self.config.side_labels().index(label)
        for e in self.of_type(L.EV_SIDE_TRIO):
            if e[0] == sid:
                h = e[4] % 4
                if h == 0:
                    return None, None, 0
                c = e[4] // 4
                return ([figure_code(e[1]), figure_code(e[2]), figure_code(e[3])],
                        SUITS[c // 16] + SUITS[(c // 4) % 4] + SUITS[c % 4], h)
        raise KeyError(label)

    def decided(self):
        """How the election was decided: the label of R_DECIDED (layout.DEC_LABELS)."""
        return L.DEC_LABELS[int(self.res[L.R_DECIDED])]

    def trio(self, p):
        for e in self.of_type(L.EV_TRIO):
            if e[0] == p:
                h = e[4] % 4
                if h == 0:
                    return None, 0
                return [figure_code(e[1]), figure_code(e[2]), figure_code(e[3])], h
        raise KeyError(p)

    def media_actions(self):
        return [(e[0], e[1], figure_code(e[2]), SUITS[e[3]]) for e in self.of_type(L.EV_MEDIA)]

    def hand_codes(self, p):
        return codes_of(int(self.st[L.S_HAND + p]))

