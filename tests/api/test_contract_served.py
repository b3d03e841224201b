"""``/openapi.yaml`` and ``/openapi.json``: built once by the app factory (so before gunicorn forks its
workers), served as the same bytes every time, with an ``ETag`` and ``304 Not Modified`` on ``If-None-Match``."""

from __future__ import annotations

import gzip
import hashlib
import json

import pytest
import yaml

from service.api import create_app, meta
from tests.conftest import ROOT

FILE = (ROOT / "openapi.yaml").read_bytes()
PATHS = ("/openapi.yaml", "/openapi.json")


def test_the_yaml_is_the_file_byte_for_byte_and_the_json_is_the_same_document(client):
    assert client.get("/openapi.yaml").get_data() == FILE
    served = client.get("/openapi.json").get_data()
    assert served == json.dumps(yaml.safe_load(FILE), ensure_ascii=False, separators=(",", ":")).encode()
    assert json.loads(served) == yaml.safe_load(FILE)


def test_the_documents_are_built_by_the_factory_not_by_a_request(tmp_path):
    spec = tmp_path / "openapi.yaml"
    spec.write_bytes(FILE)
    app = create_app({"TESTING": True, "OPENAPI_PATH": str(spec)})
    built = app.extensions[meta.CONTRACT_KEY]
    spec.write_text("openapi: 3.1.0\ninfo: {title: changed after start, version: '0'}\n")  # a request reads no file
    answer = app.test_client().get("/openapi.yaml")
    assert answer.get_data() == FILE and answer.headers["ETag"] == f'"{built.yaml.etag}"'


@pytest.mark.parametrize("path", PATHS)
def test_an_etag_that_is_a_hash_of_the_bytes_and_no_cache(client, path):
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["ETag"] == f'"{hashlib.sha256(answer.get_data()).hexdigest()[:32]}"'
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.headers["Content-Language"] == "en" and "Accept-Language" in answer.headers["Vary"]


@pytest.mark.parametrize("path", PATHS)
def test_if_none_match_with_the_current_tag_is_a_304_without_a_body(client, path):
    etag = client.get(path).headers["ETag"]
    for given in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        answer = client.get(path, headers={"If-None-Match": given})
        assert answer.status_code == 304, given
        assert answer.get_data() == b""
        assert answer.headers["ETag"] == etag and answer.headers["Cache-Control"] == "no-cache"
        assert answer.headers["Content-Language"] == "en" and answer.headers["X-Request-ID"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("given", ['"0123456789abcdef0123456789abcdef"', "not a tag", ",,", 'W/"', "x" * 2000])
def test_any_other_if_none_match_gets_the_document(client, path, given):
    answer = client.get(path, headers={"If-None-Match": given})
    assert answer.status_code == 200 and len(answer.get_data()) > 100_000


def test_the_two_documents_have_different_tags(client):
    assert client.get("/openapi.yaml").headers["ETag"] != client.get("/openapi.json").headers["ETag"]


GZIP_ACCEPTED = ("gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8, *;q=0.1", "*", "deflate, *;q=0.5", "X-GZIP")
GZIP_REFUSED = ("identity", "gzip;q=0", "*;q=0", "gzip;q=0, *", "deflate, br", "")


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("given", GZIP_ACCEPTED)
def test_a_client_that_takes_gzip_gets_the_same_document_compressed_with_a_tag_of_its_own(client, path, given):
    plain = client.get(path)
    packed = client.get(path, headers={"Accept-Encoding": given})
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) < len(plain.get_data()) / 4
    assert packed.headers["ETag"] == f'"{hashlib.sha256(packed.get_data()).hexdigest()[:32]}"' != plain.headers["ETag"]
    for answer in (plain, packed):
        assert [v.strip() for v in answer.headers["Vary"].split(",")] == ["Accept-Encoding", "Accept-Language"]
    assert (
        client.get(path, headers={"Accept-Encoding": given, "If-None-Match": packed.headers["ETag"]}).status_code == 304
    )
    # the plain form's tag does not name the compressed form: the client gets the form it asked for
    again = client.get(path, headers={"Accept-Encoding": given, "If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 200 and again.get_data() == packed.get_data()


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("given", GZIP_REFUSED)
def test_a_client_that_does_not_take_gzip_gets_the_plain_document(client, path, given):
    answer = client.get(path, headers={"Accept-Encoding": given})
    assert "Content-Encoding" not in answer.headers
    assert answer.get_data() == client.get(path).get_data()


def test_the_compressed_documents_are_the_same_bytes_on_every_start(tmp_path):
    first = meta.Document.of(FILE, "application/yaml")
    assert meta.Document.of(FILE, "application/yaml") == first  # no time stamp in the gzip header
