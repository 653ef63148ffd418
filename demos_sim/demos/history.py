"""Every discard decision of a recorded DĒMOS game, as the deciding seat saw it.

A game record (GAME_RECORD.md, contract 2) holds each round's People deck in shuffled
order and every action, so the hidden cards at any moment can be rebuilt exactly: the
deal (D3.1: five cards one at a time in action order), the public discards and their
draws (D3.2), the secret turn (D3.3), the unanimous turn (D3.4.3). :func:`decision_points`
walks a record and yields, before each public, secret and unanimous decision, what the
position builder needs (:func:`demos_sim.demos.positions.position`: the seat's
observation holds only what it saw, RULES.md M2) and the truth behind it (every hand, the
face-down discards), for measuring a policy's inference or labelling a decision with a
stronger policy's choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from demos_sim.demos.positions import position


@dataclass(frozen=True)
class DecisionPoint:
    round: int
    dealer: int
    kind: str                       # "public" | "secret" | "unanimous"
    seat: int
    hands: dict                     # seat -> set of card codes, at this moment
    public: dict                    # seat -> card (D3.2), made before this decision
    secret: dict                    # seat -> "pass" | card (drew) | (card, take) (D3.3)
    unanimous: dict                 # seat -> (card, "deck" | take) (D3.4.3)
    secret_cards: dict              # seat -> its secret discard (face down or not)
    unanimous_cards: dict           # seat -> its unanimous discard (face down)

    def position(self, config):
        """The deciding seat's position (its observation, options and configuration)."""
        return position(hand=" ".join(sorted(self.hands[self.seat])), kind=self.kind,
                        seat=self.seat, config=config, round=self.round, dealer=self.dealer,
                        public=self.public or None, secret=self.secret or None,
                        unanimous=self.unanimous or None)


def decision_points(rec: dict):
    """Yield a :class:`DecisionPoint` before every discard decision of the record."""
    n = rec["players"]
    for r, rd in enumerate(rec["rounds"]):
        dealer = rd["dealer"]
        order = [(dealer + 1 + j) % n for j in range(n)]
        deck = rd["deck"]
        i = 0
        hands = {p: set() for p in range(n)}
        for _ in range(5):                                   # D3.1
            for p in order:
                hands[p].add(deck[i])
                i += 1
        pub, sec, unan, sec_true, unan_true = {}, {}, {}, {}, {}

        def point(kind, seat):
            return DecisionPoint(r, dealer, kind, seat, {p: set(h) for p, h in hands.items()},
                                 dict(pub), dict(sec), dict(unan), dict(sec_true),
                                 dict(unan_true))

        for a in rd["public"]:                               # D3.2
            p = a["seat"]
            yield point("public", p)
            hands[p].remove(a["discard"])
            pub[p] = a["discard"]
            hands[p].add(deck[i])
            i += 1
        for a in rd["secret"]:                               # D3.3
            p = a["seat"]
            yield point("secret", p)
            if a["discard"] is None:
                sec[p] = "pass"
                continue
            hands[p].remove(a["discard"])
            sec_true[p] = a["discard"]
            if a["take"] == "deck":
                hands[p].add(deck[i])
                i += 1
                sec[p] = a["discard"]
            else:
                hands[p].add(a["take"])
                sec[p] = (a["discard"], a["take"])
        if rd.get("veto") is not None or not rd.get("unanimous"):
            continue
        for a in rd["unanimous"]:                            # D3.4.3
            p = a["seat"]
            yield point("unanimous", p)
            hands[p].remove(a["discard"])
            unan_true[p] = a["discard"]
            if a["take"] == "deck":
                hands[p].add(deck[i])
                i += 1
                take = "deck"
            else:
                hands[p].add(a["take"])
                take = a["take"]
            unan[p] = (a["discard"], take)
