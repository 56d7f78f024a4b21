# SPDX-License-Identifier: GPL-3.0-or-later
"""Every snakemake command the README and the documentation's user pages show runs, as a dry run,
from a copy of the project: they cannot drift from the workflow again (the README's offline command
once failed on `openml=false`). `snakemake --report` runs for real after the tiny run of
tests/workflow/test_pipeline.py."""
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

# the pages a user follows (the history and benchmarks pages quote commands of their time)
PAGES = ["README.md", "docs/getting-started.md", "docs/running.md", "docs/cluster.md", "docs/data.md",
         "docs/outputs.md", "docs/extending.md"]


def readme_snakemake_commands() -> list[str]:
    text = "\n".join((ROOT / page).read_text() for page in PAGES)
    blocks = "\n".join(re.findall(r"```bash\n(.*?)```", text, flags=re.S)).replace("\\\n", " ")  # continued lines
    spans = re.findall(r"`([^`\n]+)`", text) + re.findall(r"^(?!\s*#)(.+)$", blocks, flags=re.M)
    commands = []
    for span in spans:
        for part in span.split("&&"):
            part = part.strip()
            command = part == "snakemake" or part.startswith("snakemake ")
            if command and "--report" not in part and part not in commands:
                commands.append(part)
    return commands


def test_the_readme_shows_its_commands():
    cmds = readme_snakemake_commands()
    assert "snakemake --cores 2" in cmds   # the main job, with nothing beside the repository


@pytest.mark.slow
@pytest.mark.parametrize("command", readme_snakemake_commands())
def test_readme_command_dry_runs(tmp_path, command):
    proj = tmp_path / "main"
    top = {".git", "results", "resources", "figures", "logs", ".snakemake", "src"}   # outputs, not the project
    shutil.copytree(ROOT, proj, ignore=lambda d, names: [n for n in names if (d == str(ROOT) and n in top)
                                                         or n == "__pycache__" or n.endswith(".egg-info")])
    args = shlex.split(command)[1:]
    if "user_datasets=my_datasets.yaml" in command:
        _user_datasets(proj)
    if "papers=[my_study]" in command:   # the Extending page's own paper
        from test_extending_examples import examples

        (proj / "config/papers/my_study.yaml").write_text(examples()["paper"][1])
    res = subprocess.run([sys.executable, "-m", "snakemake", *args, "--dry-run"], cwd=proj, capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]


def _user_datasets(proj):
    """The files a user has made when running the docs' own-data commands: the Extending page's
    weather.arff shipped into my_data/, its printed entry in my_datasets.yaml."""
    import yaml
    from test_extending_examples import examples

    name, text = examples()["dataset-file"]
    (proj / name).write_text(text)
    out = subprocess.run(["nbrepro", "ship", name, "--to", "my_data"], cwd=proj, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    entry = yaml.safe_load("\n".join(line[2:] for line in out[1:]).replace("…", "unknown"))
    (proj / "my_datasets.yaml").write_text(yaml.safe_dump({"folder": "my_data", "datasets": entry}))
