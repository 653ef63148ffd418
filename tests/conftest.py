import sys
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Every (rules, mode, players) the engine plays: D2.2, D9.1.
ALL_SETUPS = [("full", "individual", 3), ("full", "individual", 4), ("full", "individual", 5),
              ("simplified", "individual", 3), ("simplified", "individual", 4),
              ("simplified", "individual", 5), ("full", "2v2", 4), ("full", "2v3", 5),
              ("full", "2v2+1", 5)]


# ---------------------------------------------------------------- the fast tier
# `make test-fast` runs every test not marked slow. Slow (measured with --durations on this
# 2-core machine): whole analyses and notebooks, exhaustive enumerations, record audits over
# every setup, runs in subprocesses or several processes. Whole files end with ".py", single
# tests name their function (every parametrisation). Besides these, every test that asks for
# an analysis run (the `small_analysis` fixture, directly or through a fixture of its
# module) is slow (:func:`pytest_collection_modifyitems`); the pure statistics tests of
# tests/analysis/ run in the fast tier.
SLOW = (
    "tests/analysis/test_notebooks.py", "tests/analysis/test_report.py",
    "tests/analysis/test_revisions.py",
    "tests/analysis/test_tuner.py::test_real_tune_through_the_cli",
    "tests/analysis/test_tuner.py::test_an_evaluation_on_dask_plays_the_same_games",
    "tests/analysis/test_tuner.py::test_a_tune_killed_and_run_again_reads_its_games_back",
    "tests/analysis/test_assemblee.py::test_identical_personas_are_exchangeable",
    "tests/analysis/test_protocole_levels.py::test_new_quantities_per_game",
    "tests/analysis/test_teams.py::test_representatives_do_not_depend_on_the_other_rungs",
    "tests/analysis/test_variants.py::test_sweep_each_changes_one_key_at_a_time",
    "tests/analysis/test_veto.py::test_noveto_cannot_matter_without_a_unanimous_turn",
    "tests/demos/test_records.py", "tests/demos/test_scoring.py",
    "tests/kit/test_check.py", "tests/kit/test_guide.py", "tests/kit/test_nojit.py",
    "tests/runner/test_resume.py",
    "tests/runner/test_tournament_play.py::test_kill_9_mid_tournament_then_the_same_command_resumes",
    "tests/protocole/test_rules.py::test_P3_exhaustive_norm_selection_against_the_reference",
    "tests/assemblee/test_referee.py::test_scripted_games_audit_clean_and_cover_the_rare_rules",
    "tests/assemblee/test_records.py::test_mc_choice_tie_records_replay_clean",
    "tests/runner/test_runner.py::test_progress_bar_on_a_terminal_only",
    "tests/runner/test_runner.py::test_same_tables_for_1_and_2_workers_and_dask",
    "tests/runner/test_runner.py::test_runner_then_simulate_in_one_process",
    "tests/runner/test_runner.py::test_cli_dask_local_cluster_of_processes_gives_the_same_table",
    "tests/tools/test_cli.py::test_bad_input_is_one_line_error",
    "tests/demos/test_bots.py::test_demos_ladder_order",
    "tests/protocole/test_ismcts.py::test_ismcts_beats_planner_both_modes",
    "tests/protocole/test_cli.py::test_plugin_policy_reaches_every_worker",
    "tests/protocole/test_cli.py::test_simulate_same_numbers_for_any_worker_count",
    "tests/runner/test_runner.py::test_stopping_rule_stops_at_the_first_chunk_narrow_enough",
    "tests/tools/test_readme.py::test_readme_policy_example_runs_through_the_cli",
    "tests/assemblee/test_referee.py::test_mutations_of_the_new_fields_of_scripted_games_are_caught",
    "tests/tools/test_skill.py::test_generic_path_cooperative_game_with_a_toy_budgeted_plugin",
    "tests/demos/test_planted_weakness.py::test_vetoing_in_round_1_is_beaten_by_ismcts",
    "tests/demos/test_belief.py::test_belief_beats_a_planted_weak_policy",
    "tests/tools/test_perf_profile.py::test_a_real_profile_names_the_protocole_kernels",
    "tests/stats/test_plots_read.py::test_every_analysis_plot_reads",
    # the explorer's what-ifs and sample games in the browser (runs of 4,096 games each)
    "tests/explorer/test_explorer_browser.py::test_a_2v3_handicap_run_shared_by_url_and_downloaded",
    "tests/explorer/test_explorer_browser.py::test_restricted_bots_and_budgets_in_the_pickers",
    "tests/explorer/test_explorer_browser.py::test_a_replay_shows_hands_decisions_with_reasons_and_the_swing",
    "tests/explorer/test_explorer_browser.py::test_no_overlap_at_1280_and_no_sideways_scroll_at_390",
    "tests/explorer/test_form_and_replay.py::test_greedy_reasons_explain_its_choices_and_the_game_is_the_record",
    "tests/explorer/test_explorer_browser.py::test_a_sweep_and_a_find_the_value",
    # the documentation site built once with its sample runs (about 20 s), for these five
    "tests/tools/test_docs.py::test_every_designer_question_has_its_answer_page",
    "tests/tools/test_docs.py::test_the_cli_reference_holds_every_command_help",
    "tests/tools/test_docs.py::test_the_variants_page_lists_every_variant_with_its_default",
    "tests/tools/test_docs.py::test_sample_outputs_are_made_by_the_build",
    "tests/tools/test_docs.py::test_record_format_and_demo_output",
    # one real run end to end per command (a sweep and its report; a search)
    "tests/tools/test_sweep.py::test_sweep_end_to_end_then_its_report",
    "tests/tools/test_solve.py::test_solve_end_to_end",
    # two short trainings of the apprentice (recorder games, labels, fits)
    "tests/demos/test_apprentice.py::test_training_is_deterministic_and_learns_its_teacher",
)


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        if (any(item.nodeid.startswith(s) for s in SLOW)
                or "small_analysis" in getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


# ---------------------------------------------------------------- the analyses, small
SMALL_GAMES = 512     # games per grid point when the tests run an analysis (main rung)
# … except these (the tuning analysis: games per tuner trial; its tests state their sizes)
SMALL_GAMES_OF = {"tuning": 128}


def small_games(module, experiment: str | None = None) -> dict:
    """bot -> games per grid point of each rung in the tests' small run of ``module``
    (:data:`SMALL_GAMES` at the main rung, the others in proportion to their shares)."""
    from demos_sim.analysis.core.protocol import quick_games

    stem = experiment if experiment is not None else module.EXPERIMENTS[0]
    return quick_games(module, stem, SMALL_GAMES)


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def small_analysis(tmp_path_factory):
    """``small_analysis(name) -> folder``: the analysis run once per test session at
    :data:`SMALL_GAMES` games per point (:data:`SMALL_GAMES_OF` for some) into a shared
    folder (its section in ``folder/name``); the analysis tests and the notebook test share
    these runs. Under pytest-xdist the folder is shared by the workers (the session's base
    temporary folder), and an analysis is run by the first worker that asks for it while
    the others wait on its lock file, so no analysis runs twice in a session."""
    import fcntl
    import os

    from demos_sim.analysis.suite import analyse

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent                      # pytest-of-…/pytest-N/, shared by workers
    root = base / "small-analyses"
    root.mkdir(exist_ok=True)

    def get(name: str) -> Path:
        games = SMALL_GAMES_OF.get(name, SMALL_GAMES)
        with open(root / f".{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)            # released when the file closes
            done = root / f".{name}.done"
            if not done.exists():
                analyse([name], out=root, games=games, workers=1, quiet=True)
                done.write_text(f"{games}\n")
            assert done.read_text() == f"{games}\n", (name, games)
        return root

    return get
