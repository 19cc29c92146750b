"""Every Eval Ever's own tools, for the reader and writer tests: run by the environment `make`
gives the real writers (.venv-writers), never imported by the package.

- `python eee_writer.py convert LOG OUT`: converts an Inspect log with every-eval-ever's own
  Inspect converter (its command line, `every_eval_ever convert inspect`) into OUT: the
  aggregate JSON and the instance-level JSONL beside it.
- `python eee_writer.py validate FILE...`: checks each file against the schema the package
  ships (eval.schema.json), printing `valid FILE` or the first error, exit status 1 on one.

The tests' mock model is named `mockllm/...`, a provider the converter does not know, so it
is registered as an inference engine (model id as given, developer unknown) before converting."""

import json
import sys
from importlib import resources


def convert(log: str, out: str) -> int:
    from every_eval_ever.cli import main
    from every_eval_ever.converters.inspect import utils

    utils.MODEL_HANDLER_MAP["mockllm"] = utils.InferenceEngineHandler
    return main(["convert", "inspect", "--log_path", log, "--output_dir", out])


def validate(files: list[str]) -> int:
    import jsonschema

    text = resources.files("every_eval_ever.schemas").joinpath("eval.schema.json").read_text()
    schema = json.loads(text)
    failed = 0
    for name in files:
        with open(name, encoding="utf-8") as handle:
            doc = json.load(handle)
        try:
            jsonschema.validate(doc, schema)
            print("valid", name)
        except jsonschema.ValidationError as e:
            print("invalid", name, e.message, list(e.absolute_path))
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1] == "convert":
        raise SystemExit(convert(sys.argv[2], sys.argv[3]))
    raise SystemExit(validate(sys.argv[2:]))
