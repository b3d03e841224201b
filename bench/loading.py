"""Loading a request: the fast path compiled from each schema (``service/api/loading.py``) against
marshmallow's ``Schema.load``, for every request body the contract documents, in process.

    .venv/bin/python bench/loading.py            # about 20 s
    .venv/bin/python bench/loading.py --number 500

Each body is loaded ``--number`` times per pass, best of ``--repeats`` passes, garbage collector off. The
fast path must answer every documented request (it returns the same as ``load``: tests/api/test_loading.py);
the ``speed-up`` column is ``load`` time over fast-path time. Figures are in bench/README.md.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

import yaml

from bench.common import heading, say, table
from service.api.common import load_body
from service.api.games import schemas_for
from service.api.loading import fast_load
from service.rules.games import GAMES

ROOT = Path(__file__).resolve().parents[1]


def documented_requests() -> list[tuple[str, str, Any]]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    found = []
    for path, item in spec["paths"].items():
        content = item.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json")
        if content is None:
            continue
        body = content["example"] if "example" in content else next(iter(content["examples"].values()))["value"]
        found.append((path, content["schema"]["$ref"].rsplit("/", 1)[1], body))
    return found


def best_us(call: Any, number: int, repeats: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=repeats)) / number * 1e6


def loading_and_answering(app: Any, path: str, body: Any, number: int, repeats: int) -> tuple[float, float]:
    """(loading, answering) microseconds of one request in its view, in a request context: loading is
    ``load_body`` (reading the body, decoding the JSON, the fast path or ``Schema.load``), answering is the
    rest of the view (the rules and the answer's shaping), the whole view's time less the loading's."""
    endpoint, _ = app.url_map.bind("localhost").match(path, method="POST")
    view = app.view_functions[endpoint]
    raw = json.dumps(body).encode()
    with app.test_request_context(path, method="POST", data=raw, content_type="application/json") as context:
        stream = context.request.environ["wsgi.input"]
        schema = _schema_of(view)

        def whole() -> None:
            stream.seek(0)
            view()

        def load() -> None:
            stream.seek(0)
            load_body(schema)

        whole_us, load_us = best_us(whole, number, repeats), best_us(load, number, repeats)
    return load_us, whole_us - load_us


def _schema_of(view: Any) -> Any:
    """The schema the view loads its body with: the one ``load_body`` is called with, caught once."""
    caught: list[Any] = []
    module = sys.modules[view.__module__]
    original = module.load_body

    def catch(schema: Any) -> Any:
        caught.append(schema)
        raise _Caught

    module.load_body = catch
    try:
        view()
    except _Caught:
        pass
    finally:
        module.load_body = original
    return caught[0]


class _Caught(Exception):
    pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--number", type=int, default=300, help="loads per pass (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="passes, the best counts (default 5)")
    args = parser.parse_args()
    schemas = {s.__name__: s for game in GAMES for s in schemas_for(game).values()}
    from bench.big_two import recorded_game, validate_body
    from service.api import create_app

    app = create_app({"TESTING": True})
    requests = documented_requests()
    requests.append(
        ("/v1/big-two/games/validate", "BigTwoGameValidateRequest", validate_body(recorded_game(20260922, 20)))
    )
    rows, missed, heavier = [], [], []
    gc.disable()
    for path, name, body in requests:
        label = path + (" (98 actions)" if len(body.get("actions", ())) == 98 else "")
        schema = schemas[name]()
        if fast_load(schema, body) is None:
            missed.append(path)
        fast = best_us(lambda: fast_load(schema, body), args.number, args.repeats)  # noqa: B023 - called at once
        slow = best_us(lambda: schema.load(body), args.number, args.repeats)  # noqa: B023
        loading, answering = loading_and_answering(app, path, body, args.number, args.repeats)
        if loading > answering:
            heavier.append(label)
        rows.append([label, f"{fast:,.1f}", f"{slow:,.1f}", f"{slow / fast:.1f}x", f"{loading:,.1f}",
                     f"{answering:,.1f}", f"{loading / answering:.2f}"])  # fmt: skip
    gc.enable()
    heading(f"Loading each documented request body, microseconds (best of {args.repeats} x {args.number})")
    say(table(["operation", "fast path us", "Schema.load us", "speed-up", "loading us", "answering us",
               "loading / answering"], rows))  # fmt: skip
    if missed:
        say("the fast path declined: " + ", ".join(missed))
    say("loading costs more than answering: " + (", ".join(heavier) if heavier else "none"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
