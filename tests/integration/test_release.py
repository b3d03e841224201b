"""The release artifacts carry pyproject.toml's version and work where an integrator puts them.

- The image (``make image``, scripts/build-image) is tagged ``card-rules-service:<version>`` and labelled
  from pyproject.toml and git; the deploy files name that tag. (scripts/container-check builds it for real.)
- The Python client's wheel (``make clients``, scripts/build-clients) installs into a fresh virtualenv with
  its dependencies from the package registry, and a program run there gets exact answers from gunicorn.
- The npm package of the TypeScript types installs offline into a fresh npm project, whose consumer compiles
  under ``tsc --strict`` importing the package by name, and its emitted JavaScript gets the exact answer.
- The service's own wheel holds ``py.typed`` and the rules' data, and installed without its dependencies
  (no Flask) runs the README's "Using the rules as a library" example, printing what its comment says;
  mypy, pointed at that virtualenv, sees the installed package as typed.

Each artifact is built once per session; the tests share one xdist worker so that it is built once.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT
from tests.integration.contract import POST_OPERATIONS

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
VERSION = PROJECT["version"]
IMAGE = f"card-rules-service:{VERSION}"
NODE_BIN = ROOT / ".tools" / "node" / "node_modules" / ".bin"
README = (ROOT / "README.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.xdist_group("release")


def run(command: list[str], timeout: int = 300, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)


def fresh_venv(where: Path) -> Path:
    """A new virtualenv without system site packages; its Python. pip comes from the suite's environment
    (``pip --python``), which is quicker than installing pip into every new one."""
    result = run([sys.executable, "-m", "venv", "--without-pip", str(where)])
    assert result.returncode == 0, result.stderr
    return where / "bin" / "python"


def pip_install(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", *args], timeout=600)


def example(operation_id: str) -> object:
    return next(op.request_example for op in POST_OPERATIONS if op.operation_id == operation_id)


# --- the image ---------------------------------------------------------------------------------------


def test_the_deploy_files_name_the_image_of_the_pyproject_version():
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8"))
    assert compose["services"]["rules"]["image"] == IMAGE
    deployment = yaml.safe_load((ROOT / "deploy" / "kubernetes" / "deployment.yaml").read_text(encoding="utf-8"))
    assert [c["image"] for c in deployment["spec"]["template"]["spec"]["containers"]] == [IMAGE]


@pytest.mark.parametrize("path", ["README.md", "deploy/compose.yaml", "deploy/kubernetes/deployment.yaml"])
def test_every_versioned_image_name_is_the_pyproject_version(path):
    named = re.findall(r"card-rules-service:(\d[\w.-]*)", (ROOT / path).read_text(encoding="utf-8"))
    assert named and set(named) == {VERSION}, named


def test_make_image_tags_the_version_and_passes_every_label_from_pyproject_and_git():
    result = run(["bash", str(ROOT / "scripts" / "build-image"), "--dry-run", "--pull=never"], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    command = result.stdout.splitlines()
    head = run(["git", "rev-parse", "HEAD"], cwd=ROOT).stdout.strip()
    build_args = dict(value.split("=", 1) for flag, value in zip(command, command[1:]) if flag == "--build-arg")
    assert build_args == {
        "TITLE": "card-rules-service", "DESCRIPTION": PROJECT["description"], "VERSION": VERSION,
        "REVISION": head, "SOURCE": PROJECT["urls"]["Source"], "LICENSES": "Apache-2.0",
    }  # fmt: skip
    assert command[command.index("--tag") + 1] == IMAGE
    assert command[-2:] == ["--pull=never", "."]  # extra arguments (container-check's) go before the context
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    labels = dict(re.findall(r"org\.opencontainers\.image\.(\w+)=\"\$\{(\w+)\}\"", dockerfile))
    assert labels == {"title": "TITLE", "description": "DESCRIPTION", "version": "VERSION",
                      "revision": "REVISION", "source": "SOURCE", "licenses": "LICENSES"}  # fmt: skip


def readme_container() -> str:
    return README[README.index("## Container") : README.index("## Releases")]


def shell_words(command: str) -> list[str]:
    return shlex.split(command.replace("\\\n", " "))


def test_the_readme_runs_the_image_with_container_checks_flags():
    section = readme_container()
    commands = re.findall(r"^(?:podman|docker) run (?:.*\\\n)*.*$", section, re.M)
    assert [c.split()[0] for c in commands] == ["podman", "docker"]
    script = (ROOT / "scripts" / "container-check").read_text(encoding="utf-8")
    run = shell_words(re.search(r"podman_q run (.*?)\"\$IMAGE\"", script, re.S).group(1))
    for command in commands:
        words = shell_words(command)
        pairs = set(zip(words, words[1:]))
        for flag, value in zip(run, run[1:]):
            if flag in ("--tmpfs", "--shm-size", "--cap-drop", "--security-opt", "--env"):
                assert (flag, value) in pairs, (command.split()[0], flag, value)
        assert "--read-only" in words
        assert ("--publish", "127.0.0.1:8000:8000") in pairs and ("--publish", "127.0.0.1:9464:9464") in pairs
        assert words[-1].endswith(IMAGE)
    runtime = re.search(r"PODMAN_RUNTIME=\((.*?)\)", script).group(1)
    assert f"`{runtime}`" in section  # the flags for a machine like the check's


def test_the_readme_builds_behind_a_proxy_as_container_check_does():
    section = readme_container()
    for setting in ("`CONTAINER_ENGINE`", "`IMAGE_NAME`", "`BUILD_ARGS`", "`PIP_CERT`"):
        assert setting in section, setting
    build_args = shell_words(re.search(r"^make image BUILD_ARGS=(.*)$", section, re.M).group(1))[0].split()
    script = (ROOT / "scripts" / "container-check").read_text(encoding="utf-8")
    bundle = "/etc/ssl/certs/ca-certificates.crt"  # the script's default HOST_CA_BUNDLE, mounted where it is
    assert f"HOST_CA_BUNDLE=${{HOST_CA_BUNDLE:-{bundle}}}" in script
    assert build_args == ["--volume", f"{bundle}:{bundle}:ro", "--build-arg", f"PIP_CERT={bundle}"]
    assert '--volume "$HOST_CA_BUNDLE:/etc/ssl/certs/ca-certificates.crt:ro"' in script
    assert "--build-arg PIP_CERT=/etc/ssl/certs/ca-certificates.crt" in script
    assert "ARG PIP_CERT" in (ROOT / "Dockerfile").read_text(encoding="utf-8")


def test_make_image_passes_build_args_and_the_settings_to_the_script():
    result = run(
        ["make", "--no-print-directory", "--dry-run", "image", "BUILD_ARGS=--pull=never --build-arg PIP_CERT=/ca.crt"],
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["bash scripts/build-image --pull=never --build-arg PIP_CERT=/ca.crt"]
    named = run(["bash", str(ROOT / "scripts" / "build-image"), "--dry-run"], cwd=ROOT,
                env={**os.environ, "IMAGE_NAME": "registry.example.com/rules", "CONTAINER_ENGINE": "docker"})  # fmt: skip
    command = named.stdout.splitlines()
    assert (
        command[:2] == ["docker", "build"]
        and command[command.index("--tag") + 1] == f"registry.example.com/rules:{VERSION}"
    )


def test_make_clients_installs_only_what_building_the_clients_needs():
    """The clients extra (not the test extra, not the project) and the npm tools (no chromium, no nginx)."""
    result = run(["make", "--no-print-directory", "--dry-run", "--always-make", "clients"], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "[test]" not in result.stdout and "--editable" not in result.stdout
    assert "scripts/build-clients --requirements | .venv/bin/python -m pip install" in result.stdout
    assert "bash scripts/install-test-tools npm" in result.stdout
    clients = PROJECT["optional-dependencies"]["clients"]
    assert any(r.startswith("openapi-python-client==") for r in clients) and len(clients) == 2
    listed = run([sys.executable, str(ROOT / "scripts" / "build-clients"), "--requirements"])
    assert listed.stdout.splitlines() == clients


def test_the_description_names_the_five_games():
    games = re.split(r", | and ", PROJECT["description"].partition("card games: ")[2])
    assert games == ["Pineapple OFC", "classic OFC", "Joker Thirteen", "Thirteen", "Taiwanese Big Two"]


# --- the client packages -----------------------------------------------------------------------------


def build_clients(out: Path, only: str) -> list[Path]:
    result = run([sys.executable, str(ROOT / "scripts" / "build-clients"), "--out", str(out), "--only", only])
    assert result.returncode == 0, result.stdout + result.stderr
    artifacts = [Path(line) for line in result.stdout.splitlines()]
    assert sorted(out.iterdir()) == sorted(artifacts)  # the artifacts alone: no generated sources left behind
    return artifacts


@pytest.fixture(scope="session")
def python_client_dist(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return build_clients(tmp_path_factory.mktemp("clients-python"), "python")


@pytest.fixture(scope="session")
def typescript_client_dist(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return build_clients(tmp_path_factory.mktemp("clients-typescript"), "typescript")


PYTHON_CLIENT_PROGRAM = """\
import json, sys
from card_rules_client import Client
from card_rules_client.api.big_two import big_two_classify_play
from card_rules_client.api.ofc_pineapple import ofc_score_hand
from card_rules_client.models import BigTwoClassifyRequest, HandScoreRequest

with Client(base_url=sys.argv[1], raise_on_unexpected_status=True) as client:
    play = big_two_classify_play.sync(client=client, body=BigTwoClassifyRequest.from_dict({"cards": ["9s", "9h", "9d", "9c", "3h"]}))
    print(play.combination, play.monster, play.hand.label)
    score = ofc_score_hand.sync(client=client, body=HandScoreRequest.from_dict(json.loads(sys.argv[2])))
    print([player.total for player in score.players], [(m.a, m.b, m.points_a) for m in score.matchups])
"""


def test_the_python_client_is_a_wheel_and_an_sdist_of_the_version(python_client_dist):
    assert [p.name for p in python_client_dist] == [
        f"card_rules_client-{VERSION}-py3-none-any.whl",
        f"card_rules_client-{VERSION}.tar.gz",
    ]
    with zipfile.ZipFile(python_client_dist[0]) as wheel:
        metadata = wheel.read(f"card_rules_client-{VERSION}.dist-info/METADATA").decode()
        assert "card_rules_client/py.typed" in wheel.namelist()
    assert f"\nVersion: {VERSION}\n" in metadata
    assert "Requires-Dist: httpx" in metadata and "Requires-Dist: attrs" in metadata


def test_the_python_client_wheel_in_a_fresh_venv_calls_the_live_server(python_client_dist, live_server, tmp_path):
    python = fresh_venv(tmp_path / "venv")
    installed = pip_install(python, str(python_client_dist[0]))
    if installed.returncode != 0:
        pytest.fail(
            "pip could not install the client's wheel with its dependencies (httpx, attrs) from the package "
            f"registry; the suite needs the registry (as `make test` does):\n{installed.stdout}{installed.stderr}"
        )
    program = tmp_path / "program.py"
    program.write_text(PYTHON_CLIENT_PROGRAM, encoding="utf-8")
    body = json.dumps(example("ofcScoreHand"))
    result = run([str(python), str(program), live_server.base_url, body], cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "four_of_a_kind True Four of a kind\n"
        "[7, 17, -24] [(0, 1, -3), (0, 2, 10), (1, 2, 14)]\n"
    )  # fmt: skip


TYPESCRIPT_CONSUMER = """\
import type { components, operations } from "@card-rules/types";

type ClassifyRequest = operations["bigTwoClassifyPlay"]["requestBody"]["content"]["application/json"];
type Classification = operations["bigTwoClassifyPlay"]["responses"][200]["content"]["application/json"];
type Problem = components["schemas"]["Problem"];

async function classify(baseUrl: string, body: ClassifyRequest): Promise<Classification> {
  const response = await fetch(`${baseUrl}/v1/big-two/plays/classify`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) {
    const problem = (await response.json()) as Problem;
    throw new Error(`${problem.status} ${problem.title}`);
  }
  return (await response.json()) as Classification;
}

const play = await classify(process.argv[2], { cards: ["9s", "9h", "9d", "9c", "3h"] });
console.log(play.combination, play.monster, play.hand?.label ?? "(no hand)");  // an invalid play has no hand
"""


@pytest.mark.usefixtures("tools")
def test_the_typescript_package_installs_offline_and_its_consumer_calls_the_live_server(
    typescript_client_dist, live_server, tmp_path
):
    assert [p.name for p in typescript_client_dist] == [f"card-rules-types-{VERSION}.tgz"]
    with tarfile.open(typescript_client_dist[0]) as tarball:
        manifest = json.load(tarball.extractfile("package/package.json"))
        assert sorted(tarball.getnames()) == ["package/README.md", "package/index.d.ts", "package/package.json"]
    assert (manifest["name"], manifest["version"], manifest["types"]) == ("@card-rules/types", VERSION, "index.d.ts")
    assert "dependencies" not in manifest

    (tmp_path / "package.json").write_text('{"name": "consumer", "private": true, "type": "module"}\n')
    installed = run(["npm", "install", "--offline", "--no-audit", "--no-fund", str(typescript_client_dist[0])],
                    cwd=tmp_path)  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (tmp_path / "consumer.ts").write_text(TYPESCRIPT_CONSUMER, encoding="utf-8")
    # @types/node is not installed: the consumer declares the one Node global it reads
    (tmp_path / "node.d.ts").write_text("declare const process: { argv: string[] };\n", encoding="utf-8")
    compiled = run(
        [str(NODE_BIN / "tsc"), "--strict", "--target", "es2022", "--lib", "es2022,dom", "--module", "nodenext",
         "--moduleResolution", "nodenext", "--outDir", "out", "consumer.ts", "node.d.ts"],
        cwd=tmp_path,
    )  # fmt: skip
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    result = run(["node", "out/consumer.js", live_server.base_url], cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "four_of_a_kind true Four of a kind\n"


# --- the rules core as a library ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def service_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from a copy of what the image's build copies (the checkout stays as it is)."""
    source = tmp_path_factory.mktemp("service-source")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copyfile(ROOT / name, source / name)
    shutil.copytree(ROOT / "service", source / "service", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("service-wheel")
    result = run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(source)])
    assert result.returncode == 0, result.stdout + result.stderr
    return out / f"card_rules_service-{VERSION}-py3-none-any.whl"


def library_example() -> tuple[str, str]:
    """The README's "Using the rules as a library" snippet and the output its ``# expected output:`` comment
    says it prints."""
    start = README.index("### Using the rules as a library")
    snippet = re.search(r"```python\n(.*?)```", README[start:], re.S).group(1)
    code, _, expected = snippet.partition("# expected output:\n")
    return code, "".join(line.removeprefix("# ").removeprefix("#") + "\n" for line in expected.splitlines())


def test_the_service_wheel_is_typed_and_holds_the_rules_data(service_wheel):
    with zipfile.ZipFile(service_wheel) as wheel:
        names = set(wheel.namelist())
    assert "service/py.typed" in names
    assert {
        "service/rules/messages.json",
        "service/rules/big_two/messages.json",
        "service/rules/ofc/messages.json",
    } <= names


def test_the_readme_library_example_runs_without_flask(service_wheel, tmp_path):
    python = fresh_venv(tmp_path / "venv")
    installed = pip_install(python, "--no-deps", "--no-index", str(service_wheel))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    no_flask = run([str(python), "-c", "import flask"], cwd=tmp_path)
    assert no_flask.returncode == 1 and "No module named 'flask'" in no_flask.stderr
    where = run([str(python), "-c", "import service; print(service.__file__)"], cwd=tmp_path)
    assert where.stdout.startswith(str(tmp_path / "venv" / "lib")), where.stdout + where.stderr

    code, expected = library_example()
    (tmp_path / "example.py").write_text(code, encoding="utf-8")
    result = run([str(python), "example.py"], cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    assert expected and result.stdout == expected


def test_mypy_sees_the_installed_rules_as_typed(service_wheel, tmp_path):
    python = fresh_venv(tmp_path / "venv")
    installed = pip_install(python, "--no-deps", "--no-index", str(service_wheel))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    code, _ = library_example()
    (tmp_path / "example.py").write_text(
        code + "reveal_type(play.monster)\nreveal_type(row.royalty)\n", encoding="utf-8"
    )
    result = run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable", str(python), "example.py"],
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.findall(r'Revealed type is "(.*)"', result.stdout) == ["bool", "int"], result.stdout
