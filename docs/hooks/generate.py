"""mkdocs hook: the site's generated pages (``demos_sim.docs_site.generated``: the command
line reference from the argument parsers, the variants from the rules modules, the record
contract, the demo's output and the answer pages from the committed analyses) are added to
the hand-written pages of docs/ when the site is built; nothing generated is written into
docs/. A hand-written page may say ``<!-- findings: SECTION[,SECTION] -->`` on a line of
its own: the "What we found" sentences of those analyses go there; ``<!-- help: COMMAND
-->`` puts that command's ``--help`` there (or a line saying this version has no such
command); ``<!-- output: demos-sim ARGS -->`` what that command prints, run at build
time (``DEMOS_SIM_DOCS_RUN=0`` leaves it out); ``<!-- ladder -->`` the committed policy
ladder (``results/ladder/ladder.md``); ``<!-- skill: FOLDER -->`` a committed skill trace
(``results/skill/FOLDER/skill.md``)."""

from __future__ import annotations

import re
import time

from mkdocs.structure.files import File

from demos_sim.docs_site import ROOT, generated

MARK = re.compile(r"^<!-- findings: ([\w,]+) -->$", re.M)
HELP = re.compile(r"^<!-- help: ([\w-]+) -->$", re.M)
RUN = re.compile(r"^<!-- output: demos-sim (.+) -->$", re.M)
LADDER = re.compile(r"^<!-- ladder -->$", re.M)
SKILL = re.compile(r"^<!-- skill: ([\w-]+) -->$", re.M)


def on_files(files, config):
    t = time.perf_counter()
    made = generated()
    for path, content in made.items():
        if files.get_file_from_path(path) is not None:
            raise SystemExit(f"docs/{path} is generated when the site is built: remove it")
        files.append(File.generated(config, path, content=content))
    print(f"INFO    -  generated {len(made)} pages and files in "
          f"{time.perf_counter() - t:.1f} s")
    return files


def on_page_markdown(markdown, page, config, files):
    from demos_sim.report.docs_pages import findings_markdown

    def fill(m):
        text = findings_markdown(ROOT / "results" / "analyses", tuple(m.group(1).split(",")))
        return text or "*(the analyses of this paragraph are not in results/analyses)*"

    def usage(m):
        from demos_sim.docs_site import command_help
        return command_help(m.group(1))

    def output(m):
        from demos_sim.docs_site import command_output
        return command_output(m.group(1))

    def ladder(m):
        from demos_sim.docs_site import ladder_markdown
        return ladder_markdown(ROOT / "results" / "ladder")

    def skill(m):
        from demos_sim.docs_site import skill_markdown
        return skill_markdown(m.group(1), ROOT / "results" / "skill")

    markdown = HELP.sub(usage, MARK.sub(fill, markdown))
    return SKILL.sub(skill, LADDER.sub(ladder, RUN.sub(output, markdown)))
