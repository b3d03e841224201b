"""deploy/: the Kubernetes manifests validate against the Kubernetes schemas (kubernetes-validate, strict)
and hold what production needs; the compose file runs several replicas behind nginx; nginx.conf passes
``nginx -t``; the gateway (nginx.conf with its keys and limits) is mounted alike by compose and by
kubernetes/gateway.yaml, whose ConfigMap holds nginx.conf itself, and no key is ever committed."""

from __future__ import annotations

import json
import re
import socket
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from bench.common import LOOPBACK, GunicornServer
from tests.conftest import ROOT
from tests.integration import nginx

KUBERNETES = ROOT / "deploy" / "kubernetes"
COMPOSE = ROOT / "deploy" / "compose.yaml"
# The newest Kubernetes the validator knows, and an older one still widely run.
KUBERNETES_VERSIONS = [kubernetes_validate.latest_version(), "1.29.0"]


def manifests() -> list[tuple[Path, dict[str, Any]]]:
    found = []
    for path in sorted(KUBERNETES.glob("*.yaml")):
        found += [(path, doc) for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]
    return found


def resource(kind: str, name: str = "card-rules") -> dict[str, Any]:
    """The one manifest of ``kind`` named ``name`` (by default the rules service's own)."""
    (doc,) = [doc for _, doc in manifests() if doc["kind"] == kind and doc["metadata"]["name"] == name]
    return doc


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_kubernetes_manifests_validate_strictly(version):
    kinds = []
    for _path, doc in manifests():
        kubernetes_validate.validate(doc, version, strict=True)  # raises with the path of the first problem
        kinds.append(doc["kind"])
    assert {"Deployment", "Service", "HorizontalPodAutoscaler", "ConfigMap"} <= set(kinds)


def test_strict_validation_would_catch_a_misspelt_field():
    deployment = resource("Deployment")
    deployment["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGett"] = {"path": "/healthz"}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSIONS[0], strict=True)


def test_deployment_probes_resources_and_security():
    deployment = resource("Deployment")
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports["http"] == int(env["PORT"]) and env["HOST"] == "0.0.0.0"
    assert int(env["WEB_CONCURRENCY"]) >= 1  # gunicorn would count the node's cores, not the pod's limit
    for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz"), ("startupProbe", "/healthz")):
        assert container[probe]["httpGet"] == {"path": path, "port": "http"}, probe
    assert {"cpu", "memory"} <= set(container["resources"]["requests"]) and {"cpu", "memory"} <= set(
        container["resources"]["limits"]
    )
    assert pod["securityContext"]["runAsNonRoot"] is True
    uid = re.search(r"--uid (\d+)", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    if uid:  # the image's user, so runAsNonRoot can check it
        assert pod["securityContext"]["runAsUser"] == int(uid.group(1))
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] is True and security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    assert "emptyDir" in next(
        v for v in pod["volumes"] if v["name"] == mounts["/tmp"]
    )  # writable /tmp on a read-only root
    assert pod["terminationGracePeriodSeconds"] > 20  # gunicorn's graceful_timeout


def test_service_and_autoscaler_point_at_the_deployment():
    deployment, service, hpa = resource("Deployment"), resource("Service"), resource("HorizontalPodAutoscaler")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert [p["targetPort"] for p in service["spec"]["ports"]] == ["http"]
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": deployment["metadata"]["name"],
    }
    (metric,) = hpa["spec"]["metrics"]
    assert metric["type"] == "Resource" and metric["resource"]["name"] == "cpu"
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]


def test_metrics_are_scraped_on_a_port_the_service_does_not_route():
    deployment, service = resource("Deployment"), resource("Service")
    template = deployment["spec"]["template"]
    (container,) = template["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    env = {e["name"]: e["value"] for e in container["env"]}
    assert ports["metrics"] != ports["http"] and int(env["METRICS_PORT"]) == ports["metrics"]
    annotations = template["metadata"]["annotations"]
    assert (annotations["prometheus.io/port"], annotations["prometheus.io/path"]) == (str(ports["metrics"]), "/metrics")
    assert [p["targetPort"] for p in service["spec"]["ports"]] == ["http"]  # never the metrics port


def test_compose_runs_replicas_behind_nginx():
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    rules, proxy = compose["services"]["rules"], compose["services"]["nginx"]
    assert rules["deploy"]["replicas"] >= 2
    assert "ports" not in rules and "container_name" not in rules  # either would stop a second replica
    assert (COMPOSE.parent / rules["build"]["context"] / rules["build"]["dockerfile"]).resolve() == ROOT / "Dockerfile"
    assert rules["read_only"] is True and "/tmp" in rules["tmpfs"]
    assert proxy["image"].startswith("nginx:")
    assert proxy["depends_on"]["rules"]["condition"] == "service_healthy"
    source, target, _ = proxy["volumes"][0].split(":")
    assert (COMPOSE.parent / source).resolve() == nginx.CONF and target == "/etc/nginx/nginx.conf"

    conf = nginx.CONF.read_text(encoding="utf-8")
    [(upstream_name, upstream_body)] = re.findall(r"upstream\s+(\w+)\s*\{([^}]*)\}", conf)
    assert re.findall(r"server\s+([\w.-]+):(\d+)", upstream_body) == [("rules", rules["environment"]["PORT"])]
    assert re.findall(r"proxy_pass\s+http://(\w+);", conf) == [upstream_name]
    (listen,) = re.findall(r"listen\s+(\d+);", conf)
    assert [p.split(":")[-1] for p in proxy["ports"]] == [listen]
    # a POST that killed a worker is never sent on to the next replica (test_stateless.py runs it)
    (next_upstream,) = re.findall(r"^\s*proxy_next_upstream\s+([^;]*);", conf, re.M)
    assert "error" in next_upstream.split() and "non_idempotent" not in next_upstream.split()


def test_compose_mounts_the_gateways_keys_and_limits_read_only():
    proxy = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"]["nginx"]
    mounts = {m["target"]: m for m in proxy["volumes"][1:]}
    assert sorted(mounts) == [nginx.MOUNTED + "api-keys.map", nginx.MOUNTED + "limits.conf"]
    for mount in mounts.values():
        # a missing file is an error, not an empty directory created in its place
        assert (mount["type"], mount["read_only"], mount["bind"]) == ("bind", True, {"create_host_path": False})
    keys = (COMPOSE.parent / mounts[nginx.MOUNTED + "api-keys.map"]["source"]).resolve()
    assert (COMPOSE.parent / mounts[nginx.MOUNTED + "limits.conf"]["source"]).resolve() == nginx.LIMITS
    assert keys.parent == nginx.KEYS_EXAMPLE.parent and keys != nginx.KEYS_EXAMPLE
    relative = str(keys.relative_to(ROOT))
    assert subprocess.run(["git", "check-ignore", "--quiet", "--no-index", relative], cwd=ROOT).returncode == 0
    assert subprocess.run(["git", "ls-files", "--error-unmatch", relative], cwd=ROOT, capture_output=True).returncode


def test_no_api_key_is_committed():
    """The example's one key is too short for nginx.conf to accept it, and no manifest is a Secret."""
    (example,) = re.findall(r'^"([^"]*)" [\w-]+;$', nginx.KEYS_EXAMPLE.read_text(encoding="utf-8"), re.M)
    assert len(example) < 32 and "{32,256}" in nginx.CONF.read_text(encoding="utf-8")
    assert [doc["kind"] for _, doc in manifests() if doc["kind"] == "Secret"] == []


def test_gateway_configmap_holds_nginx_conf_and_the_default_limits():
    """deploy/nginx.conf exists once in spirit: kubernetes/gateway.yaml holds the same text. After editing
    the conf, copy it into the ConfigMap's nginx.conf (each line indented by four spaces)."""
    data = resource("ConfigMap", "card-rules-gateway")["data"]
    assert data == {
        "nginx.conf": nginx.CONF.read_text(encoding="utf-8"),
        "limits.conf": nginx.LIMITS.read_text(encoding="utf-8"),
    }


def test_gateway_deployment_mounts_the_conf_the_keys_secret_and_the_limits():
    deployment, configmap = resource("Deployment", "card-rules-gateway"), resource("ConfigMap", "card-rules-gateway")
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert container["image"] == compose["services"]["nginx"]["image"]
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    conf = mounts["/etc/nginx/nginx.conf"]
    assert (conf["subPath"], conf["readOnly"]) == ("nginx.conf", True)
    assert volumes[conf["name"]]["configMap"] == {
        "name": configmap["metadata"]["name"],
        "items": [{"key": "nginx.conf", "path": "nginx.conf"}],
    }
    mounted = mounts[nginx.MOUNTED.rstrip("/")]
    assert mounted["readOnly"] is True
    keys = {"name": "card-rules-api-keys", "items": [{"key": "api-keys.map", "path": "api-keys.map"}]}
    limits = {"name": configmap["metadata"]["name"], "items": [{"key": "limits.conf", "path": "limits.conf"}]}
    assert volumes[mounted["name"]]["projected"]["sources"] == [{"secret": keys}, {"configMap": limits}]
    assert "emptyDir" in volumes[mounts["/tmp"]["name"]]  # the conf writes only under /tmp
    assert pod["securityContext"]["runAsNonRoot"] is True
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] is True and security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]
    (listen,) = re.findall(r"listen\s+(\d+);", nginx.CONF.read_text(encoding="utf-8"))
    assert [(p["name"], p["containerPort"]) for p in container["ports"]] == [("http", int(listen))]


def test_gateway_services_route_the_public_port_to_nginx_and_rules_to_the_service():
    rules_pods = resource("Deployment")["spec"]["template"]["metadata"]["labels"]
    gateway_pods = resource("Deployment", "card-rules-gateway")["spec"]["template"]["metadata"]["labels"]
    gateway, upstream = resource("Service", "card-rules-gateway"), resource("Service", "rules")
    assert gateway["spec"]["selector"].items() <= gateway_pods.items()
    assert [p["targetPort"] for p in gateway["spec"]["ports"]] == ["http"]
    # The conf's upstream, rules:8000, is the rules service's pods on their http port (never metrics).
    assert upstream["spec"]["selector"].items() <= rules_pods.items()
    (upstream_port,) = re.findall(r"server\s+rules:(\d+)", nginx.CONF.read_text(encoding="utf-8"))
    assert [(p["port"], p["targetPort"]) for p in upstream["spec"]["ports"]] == [(int(upstream_port), "http")]
    # The gateway's pods are none of the rules service's: no selector of the service's picks them.
    for kind in ("Service", "PodDisruptionBudget"):
        selector = resource(kind)["spec"]["selector"]
        assert not selector.get("matchLabels", selector).items() <= gateway_pods.items(), kind
    assert not resource("Deployment")["spec"]["selector"]["matchLabels"].items() <= gateway_pods.items()


def test_every_problem_nginx_answers_is_in_the_contract():
    """nginx's own problem bodies have the contract's shape, and their types are listed in its Problem.type."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    described = spec["components"]["schemas"]["Problem"]["properties"]["type"]["description"]
    answered = re.findall(r"return (\d{3}) '(\{.*\})';", nginx.CONF.read_text(encoding="utf-8"))
    assert len(answered) == 13
    for status, body in answered:
        problem = json.loads(
            body.replace("$card_rules_request_id", "abc").replace("$card_rules_unauthorized_detail", "d")
        )
        assert (problem["status"], problem["instance"], problem["errors"]) == (
            int(status),
            "urn:card-rules:request:abc",
            [],
        )
        assert problem["type"] == "about:blank" or f"`{problem['type']}` ({status})" in described, problem["type"]


def test_every_refusal_of_nginx_is_a_problem_of_its_status():
    """Each status nginx may answer itself (its error_page directives, nginx's 494 for a header too large
    included) leads to a location that answers problem+json with that status (or the one after its "="),
    never nginx's HTML page."""
    conf = nginx.CONF.read_text(encoding="utf-8")
    locations = dict(
        re.findall(r"^\s*location (?:= )?(\S+) \{\n(?:(?!\s*location ).*\n)*?\s*return (\d{3}) '\{", conf, re.M)
    )
    pages = re.findall(r"^\s*error_page ([\d ]+?) (?:=(\d{3}) )?(\S+);$", conf, re.M)
    answers = {
        int(code): (int(answered or code), int(locations[target]))
        for codes, answered, target in pages
        for code in codes.split()
    }
    assert {code: status for code, (status, _) in answers.items()} == {
        400: 400, 401: 401, 404: 404, 405: 405, 408: 408, 413: 413, 414: 414, 429: 429, 494: 431, 500: 500,
        502: 503, 503: 503, 504: 503, 505: 505,
    }  # fmt: skip
    assert all(status == returned for status, returned in answers.values()), answers


@pytest.mark.usefixtures("tools")
def test_nginx_conf_passes_nginx_t(tmp_path):
    result = nginx.check_syntax(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "syntax is ok" in result.stderr


# Ways of writing /metrics that nginx resolves to it before choosing a location.
METRICS_SPELLINGS = ["/metrics", "/metrics?format=text", "//metrics", "/./metrics", "/docs/../metrics", "/%6Detrics"]


def ask(port: int, method: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-case names, body) of one request (with ``headers``) on its own connection,
    read to its close."""
    head = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    with socket.create_connection((LOOPBACK, port), timeout=10) as sock:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: x\r\n{head}Connection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


@pytest.mark.usefixtures("tools")
def test_nginx_answers_metrics_itself_with_a_404_problem():
    backend = GunicornServer(workers=1)
    backend.metrics_port = backend.port  # /metrics on the backend's one port: only nginx's own rule hides it
    with backend, nginx.NginxServer([backend.port]) as proxy:
        assert ask(backend.port, "GET", "/metrics")[0] == 200
        assert ask(proxy.port, "GET", "/healthz", nginx.bearer())[0] == 200
        sent = []
        for method in ("GET", "HEAD"):
            for path in METRICS_SPELLINGS:
                sent.append(request_id := f"metrics-{len(sent)}")
                status, headers, body = ask(proxy.port, method, path, {**nginx.bearer(), "X-Request-ID": request_id})
                assert (status, headers["content-type"]) == (404, "application/problem+json"), (method, path)
                assert headers["x-request-id"] == request_id, path
                if method == "GET":
                    assert json.loads(body)["status"] == 404 and b"card_rules_" not in body
                    assert json.loads(body)["instance"] == f"urn:card-rules:request:{request_id}"
        assert ask(proxy.port, "GET", "/healthz", {**nginx.bearer(), "X-Request-ID": "after-metrics"})[0] == 200
        backend_log = nginx.service_log_after(backend, "after-metrics")
        assert [i for i in sent if f'"{i}"' in backend_log] == []  # nginx's own answers: the service never saw one
