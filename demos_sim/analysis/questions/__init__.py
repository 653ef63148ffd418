"""The designer's questions: one module per analysis, each following the protocol of
:mod:`demos_sim.analysis.core.protocol` (listed, in report order, in
:data:`demos_sim.analysis.names.REGISTERED`). A question module imports the analysis core,
the tuner, the runner and the games; never the suite, the report or another question.
"""
