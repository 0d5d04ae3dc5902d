"""The ten-line loop shown in README.md runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_loop() -> str:
    text = README.read_text()
    section = text[text.index("<!-- env-start -->"):text.index("<!-- env-end -->")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "README's env section has no python code block"
    return blocks[0]


def test_readme_loop_runs_a_whole_game(capsys):
    code = readme_loop()
    assert "agent_iter" in code and "reset(seed=" in code
    namespace: dict = {}
    exec(compile(code, str(README), "exec"), namespace)
    env = namespace["env"]
    assert env.agents == []  # every agent finished
    assert "rank" in capsys.readouterr().out
