"""Writes Inspect AI logs with inspect-ai's own eval() and a mock model, for the reader tests:
run by the environment `make` gives the real writers (.venv-writers), never imported by the package.

`python inspect_writer.py DIR KIND`, KIND one of:
- `finished`: one eval of six questions (the mock answers three right) as .eval and as JSON,
  and one with two epochs, sampled at temperature 0.6, top-p 0.95, 512 tokens at most (.eval);
- `cancelled`: the run is interrupted (SIGINT, as Ctrl-C) after three samples;
- `error`: the solver raises on the fourth sample (fail_on_error, Inspect's default);
- `killed`: a KeyboardInterrupt inside the solver ends the process with the log unfinished
  (no header: status "started")."""

import asyncio
import os
import signal
import sys

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate, solver

QUESTIONS = [
    ("q1", "What is 1+1?", "2", "2"),
    ("q2", "What is 2+3?", "5", "5"),
    ("q3", "What is 3*3?", "9", "9"),
    ("q4", "What is 10-4?", "6", "7"),
    ("q5", "What is 12/3?", "4", "3"),
    ("q6", "What is 7+8?", "15", "16"),
]  # id, question, target, the mock's answer: q1-q3 right, q4-q6 wrong
ANSWERS = {q: answer for _, q, _, answer in QUESTIONS}


def mock_output(input, tools, tool_choice, config):
    question = input[-1].text
    out = ModelOutput.from_content(model="mockllm", content=f"The answer is {ANSWERS[question]}")
    # usage given: without it mockllm counts tokens with tiktoken, which downloads its tables
    out.usage = ModelUsage(input_tokens=4, output_tokens=4, total_tokens=8)
    return out


def task(solve) -> Task:
    samples = [Sample(id=i, input=q, target=t) for i, q, t, _ in QUESTIONS]
    return Task(dataset=samples, solver=solve, scorer=match(numeric=True), name="arithmetic")


def run(folder: str, solve, **options) -> None:
    model = get_model("mockllm/model", custom_outputs=mock_output, memoize=False)
    os.makedirs(folder, exist_ok=True)
    try:
        eval(task(solve), model=model, log_dir=folder, display="none", max_samples=1, **options)
    except BaseException as e:  # a cancelled or killed run: its log is what is tested
        print(folder, "ended by", type(e).__name__)


@solver
def stops_after(n: int, how: str):
    """The solver of a run that does not finish: after n samples it interrupts the process
    (SIGINT: Inspect records "cancelled"), raises (an error: "error"), or raises
    KeyboardInterrupt itself (the process ends with the log unfinished: "started")."""
    count = {"n": 0}

    async def solve(state, generate_answer):
        count["n"] += 1
        if count["n"] > n:
            if how == "cancelled":
                os.kill(os.getpid(), signal.SIGINT)
                await asyncio.sleep(30)
            raise (RuntimeError if how == "error" else KeyboardInterrupt)("stopped by the test")
        return await generate_answer(state)

    return solve


if __name__ == "__main__":
    out, kind = sys.argv[1], sys.argv[2]
    if kind == "finished":
        run(os.path.join(out, "eval"), generate(), log_format="eval")
        run(os.path.join(out, "json"), generate(), log_format="json")
        # sampled, as a reasoning eval is: the settings Inspect writes into the log's plan
        settings = {"temperature": 0.6, "top_p": 0.95, "max_tokens": 512}
        run(os.path.join(out, "epochs"), generate(), log_format="eval", epochs=2, **settings)
    else:
        run(os.path.join(out, kind), stops_after(3, kind), log_format="eval")
