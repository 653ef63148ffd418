"""Weights of the DĒMOS ``apprentice`` (:mod:`demos_sim.demos.policies.apprentice`),
written by ``demos-sim train-apprentice``: do not edit.

Teacher ismcts@256; seed 0; 2,400 games of tuned self-play and 1,200 of the apprentice's own (DAgger), 620,134 decisions; L2 0.001.
Regenerate: demos-sim train-apprentice --teacher ismcts@256 --games 2400 --dagger-games 1200 --seed 0

Fit (both rounds):
  public: 199,339 decisions (0 teacher choices outside the scored options), agreement with the teacher 55.2% (heuristic's 44.3%), log-likelihood -1.097 a decision
  secret: 199,339 decisions (0 teacher choices outside the scored options), agreement with the teacher 55.7% (heuristic's 49.3%), log-likelihood -1.234 a decision
  unanimous: 146,694 decisions (0 teacher choices outside the scored options), agreement with the teacher 74.4% (heuristic's 68.5%), log-likelihood -0.783 a decision
  veto: 74,762 decisions (0 teacher choices outside the scored options), agreement with the teacher 95.1% (heuristic's 88.6%), log-likelihood -0.122 a decision
"""

WEIGHTS = (
    # public
    0.3801046590504132,  # static value (heuristic's, floor 11)
    1.434143522013241,  # heuristic's look-ahead value
    0.0267613686848019,  # shape of the kept cards
    0.0,  # pass
    0.0,  # take
    -2.7969973940459343,  # chance the draw completes
    -1.2157329858862826,  # value without completing
    -0.4124368162806328,  # static value, floor 16
    0.230625226914087,  # static value, floor 6
    0.5257975527620292,  # holds a combination
    -2.369526146592726,  # discarded card's value
    -0.32451121929556653,  # breaks the held combination
    0.0,  # discards the favourite suit
    0.14924364230697185,  # largest suit kept
    0.0,  # pass × others strong
    0.0,  # static × others strong
    0.029173355699503835,  # static × pile progress
    0.0,  # pass × pile progress
    0.0019443974228884478,  # static × (players − 4)
    0.0,  # pass × place in order
    0.6083868294135231,  # static × place in order
    0.0,  # pass × own veto left
    0.011435020067702856,  # static × opposing vetoes
    0.0,  # take × others strong
    -0.013426074605110543,  # static × lead in points
    0.0,  # pass × lead in points
    0.1893556210500573,  # heuristic's choice
    -1.4925041529512735,  # points (floor 0)
    -0.0919771673489523,  # static × (team size − 1)
    0.0,  # draw × others strong
    0.0,  # take × pile progress
    3.1721490401770875e-19,  # draw × pile progress
    # secret
    -0.08188903463575943,  # static value (heuristic's, floor 11)
    0.9011882026137283,  # heuristic's look-ahead value
    -0.14337075855746756,  # shape of the kept cards
    -3.0513251225360545,  # pass
    -1.1659405345796616,  # take
    0.5144620595695707,  # chance the draw completes
    -0.45963297930862057,  # value without completing
    0.13252924993150103,  # static value, floor 16
    0.26750341872824873,  # static value, floor 6
    -0.6168587856723386,  # holds a combination
    -2.805292773868549,  # discarded card's value
    -0.16548783394519184,  # breaks the held combination
    0.0,  # discards the favourite suit
    1.7627660490581027,  # largest suit kept
    0.12790067314705053,  # pass × others strong
    0.37748985886078235,  # static × others strong
    -0.10357566297736935,  # static × pile progress
    0.08750402879296992,  # pass × pile progress
    -0.050438745896123814,  # static × (players − 4)
    0.13719205727344164,  # pass × place in order
    0.2595785592716607,  # static × place in order
    0.12384591131835088,  # pass × own veto left
    -0.005755885792046459,  # static × opposing vetoes
    -0.5462519052710275,  # take × others strong
    0.013396535767434914,  # static × lead in points
    0.09607643935250909,  # pass × lead in points
    0.6181074528717703,  # heuristic's choice
    0.9855422917628518,  # points (floor 0)
    -0.10740277780023814,  # static × (team size − 1)
    0.25280421096432065,  # draw × others strong
    -0.05853320003100189,  # take × pile progress
    0.022872385274498166,  # draw × pile progress
    # unanimous
    0.2642215546803255,  # static value (heuristic's, floor 11)
    0.38831008749272933,  # heuristic's look-ahead value
    -0.1813612394609727,  # shape of the kept cards
    0.0,  # pass
    -1.372122345489511,  # take
    0.3544501850548278,  # chance the draw completes
    0.10016999498695749,  # value without completing
    -0.6726098746372617,  # static value, floor 16
    0.4281745454680362,  # static value, floor 6
    1.8668224207309414,  # holds a combination
    -1.8884802039041282,  # discarded card's value
    0.08375864449425535,  # breaks the held combination
    0.0,  # discards the favourite suit
    8.660398974483288,  # largest suit kept
    0.0,  # pass × others strong
    0.13309299786451353,  # static × others strong
    0.2532482557837904,  # static × pile progress
    0.0,  # pass × pile progress
    0.18277120290066023,  # static × (players − 4)
    0.0,  # pass × place in order
    0.3896338182086062,  # static × place in order
    0.0,  # pass × own veto left
    0.10631200896799614,  # static × opposing vetoes
    0.13557680309291298,  # take × others strong
    -0.14462044883536804,  # static × lead in points
    0.0,  # pass × lead in points
    2.2632560511299653,  # heuristic's choice
    3.6016322587508136,  # points (floor 0)
    -0.01404593894817427,  # static × (team size − 1)
    -0.13396339406821248,  # draw × others strong
    0.04316126644041842,  # take × pile progress
    -0.04536905862061868,  # draw × pile progress
    # veto
    -2.24417973885468,  # bias
    2.0801269014012065,  # hand value
    -15.975282901294086,  # points above 17
    0.18976604875368602,  # heuristic vetoes
    4.059558215823173,  # value − heuristic's threshold
    -0.011579907639591092,  # Carré
    -2.504949405821002,  # Power pile left
    -0.910657803856889,  # last round
    0.21971189618366774,  # vetoes left
    -0.9396239899935224,  # vetoes per round left
    -1.3744341144133518,  # others passed
    -0.08311603921366983,  # others took
    -0.3072593101438041,  # opposing sides to ask with a veto
    0.7856514238116403,  # … of which showed strength
    -0.30942192808964325,  # chance a figure improves the trio
    0.1735344838774854,  # lead in points
    0.3747607817986187,  # players − 4
    0.6112230146980924,  # place in order
    0.13054029113646248,  # own pass
    0.0757895048076653,  # own take
    -0.9794561765283099,  # team mode
    -1.3439204726082823,  # round
    0.0,  # (unused)
    0.0,  # (unused)
    0.0,  # (unused)
    0.0,  # (unused)
    0.0,  # (unused)
    0.0,  # (unused)
    0.0,  # (unused)
    0.0,  # (unused)
    0.0,  # (unused)
    0.0,  # (unused)
)
