"""The CLI contract of issue 2/3, run as a real subprocess: ``sheshbesh moves --stdin``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

COMMAND = [sys.executable, "-m", "sheshbesh.cli"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def test_moves_stdin_backgammon_contract_example() -> None:
    line = json.dumps({"variant": "backgammon", "position_id": "4HPwATDgc/ABMA", "dice": [3, 1]})
    result = run("moves", "--stdin", stdin=line + "\n")
    answer = json.loads(result.stdout)
    plays = {entry["play"]: entry["position_id"] for entry in answer["plays"]}
    assert len(plays) == 16
    assert plays["8/5 6/5"] == "sGfwATDgc/ABMA"


def test_moves_stdin_answers_each_line_in_order_and_survives_bad_lines() -> None:
    lines = [
        {"variant": "long_nardy", "position": "W:W24x15:B12x15", "dice": [6, 6]},
        "this is not json",
        {"variant": "backgammon", "position_id": "4HPwATDgc/ABMA", "dice": [0, 7]},
        {"variant": "long_nardy", "position": "W:W24x16:B12x15", "dice": [1, 2]},
        {"variant": "chess", "position": "x", "dice": [1, 2]},
        {"variant": "backgammon", "position_id": "4HPw!TDgc/ABMA", "dice": [1, 2]},
        [1, 2],
        {"variant": "draughts", "fen": "W:W32:B1,28"},
        {"variant": "backgammon", "position_id": "4HPwATDgc/ABMA", "dice": [1, 2, 3]},
    ]
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    result = run("moves", "--stdin", stdin=text + "\n")
    answers = [json.loads(out) for out in result.stdout.splitlines()]
    assert result.returncode == 0
    assert len(answers) == len(lines)
    assert answers[0] == {"plays": [{"play": "24/18(2)", "position": "B:W18x2,24x13:B12x15"}]}
    assert "not JSON" in answers[1]["error"]
    assert "die 0" in answers[2]["error"]
    assert "24x16" in answers[3]["error"]
    assert "chess" in answers[4]["error"]
    assert "'!'" in answers[5]["error"]
    assert "JSON object" in answers[6]["error"]
    assert answers[7] == {"moves": [{"move": "32x23", "fen": "B:W23:B1"}]}
    assert "two integers" in answers[8]["error"]


def test_moves_stdin_flushes_each_answer_before_the_next_line() -> None:
    """A caller can talk to the process line by line (no buffering until EOF)."""
    with subprocess.Popen(
        [*COMMAND, "moves", "--stdin"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        for dice in ([6, 5], [2, 2]):
            request = {"variant": "backgammon", "position_id": "4HPwATDgc/ABMA", "dice": dice}
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())
            assert answer["plays"], answer
        process.stdin.close()
        assert process.wait(timeout=30) == 0


def test_moves_stdin_empty_list_when_no_play() -> None:
    """BG-E4: a checker on the bar against a closed entry point passes."""
    position = "W:Wbar,13x14:B1x9,19x2,20x2,22x2"
    line = json.dumps({"variant": "backgammon", "position": position, "dice": [6, 3]})
    answer = json.loads(run("moves", "--stdin", stdin=line).stdout)
    assert answer == {"plays": []}


def test_moves_for_a_person_and_start() -> None:
    result = run("moves", "backgammon", "4HPwATDgc/ABMA", "6-5")
    assert result.returncode == 0
    assert result.stdout.split()[0] == "24/13"
    assert run("start", "long_nardy").stdout.strip() == "W:W24x15:B12x15"
    assert run("start", "draughts").stdout.strip().startswith("W:W31")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("moves", "backgammon", "4HPwATDgc/ABMA", "7-1"), "die 7"),
        (("moves", "backgammon", "nonsense", "3-1"), "expected 14"),
        (("moves", "plakoto", "W:W24x15:B1x15"), "give the roll"),
        (
            ("train", "long_nardy", "--games", "1", "--seed", "1", "--complement"),
            "owes no complement",
        ),
    ],
)
def test_bad_command_lines_say_what_is_wrong(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr


def test_perft_draughts_prints_leaf_count_last() -> None:
    result = run("perft", "draughts", "--fen", "W:W31-50:B1-20", "--depth", "3")
    assert result.stdout.strip().splitlines()[-1] == "658"


def test_train_writes_weights_and_a_log_and_resumes(tmp_path) -> None:
    """Issue 19: ``sheshbesh train`` as docs/training/README.md runs it, in miniature."""
    from sheshbesh.bots.nets.net import Net
    from sheshbesh.cli import main

    out = tmp_path / "plakoto.npz"
    args = ["--out", str(out), "--checkpoint", "2", "--checkpoint-games", "2"]
    assert main(["train", "plakoto", "--games", "4", "--seed", "1", *args]) == 0
    assert Net.load(out).games == 4
    resume = ["--resume", str(out)]
    assert main(["train", "plakoto", "--games", "2", "--seed", "2", *resume, *args]) == 0
    assert Net.load(out).games == 6
    lines = (tmp_path / "plakoto.log").read_text().splitlines()
    checkpoints = [line for line in lines if line.startswith("games ")]
    assert [line.split()[1] for line in checkpoints] == ["2", "4", "6"]
    assert all("vs expectimax:medium: score" in line for line in checkpoints)
    headers = [line for line in lines if line.startswith("# sheshbesh train")]
    assert len(headers) == 2 and "--resume" in headers[1] and "(at 4 games)" in headers[1]
