"""Simplified Chinese (zh-CN), the language added as data: every catalog entry has its zh-CN text with the
same parameters, the committed file is exactly what ``scripts/build-zh-cn`` makes (OpenCC tw2sp, then the
reviewed terms), no Traditional-only character survives, the mainland words land where they apply, and
over HTTP the same requests as tests/test_i18n.py answer the same JSON in zh-CN but for the human text.

The converter runs here (it is a test dependency); the service itself only reads the generated file."""

from __future__ import annotations

import fnmatch
import importlib.machinery
import importlib.util
import json
import string
from types import ModuleType

import opencc
import pytest

from service.api import texts
from service.api.errors import SCHEMA_ERROR_CODES
from service.rules import games, messages
from service.rules.messages import CATALOG, EN, ZH_CN, ZH_TW, Catalog, Message, placeholders
from tests.conftest import ROOT
from tests.test_i18n import (  # noqa: F401 (core_sample: the fixture, shared)
    ALL_SCHEMAS,
    CATALOGS,
    CJK,
    ENTRIES,
    ONE_REQUEST,
    REQUESTS,
    codes_in,
    core_sample,
    has_text,
    human_texts,
    in_language,
    problem_answers,
    sample_text,
    schema_messages,
)

RUN = "run `make zh-cn` (scripts/build-zh-cn), review the entries it prints, and commit the messages.zh-CN.json files under service/rules and service/api/texts.zh-CN.json"
CN = {"Accept-Language": "zh-CN"}
TW = {"Accept-Language": "zh-TW"}


def load_generator() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("build_zh_cn", str(ROOT / "scripts" / "build-zh-cn"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


BUILD = load_generator()
FILES = BUILD.files()
"""Every zh-CN data file (the games' beside their texts, the HTTP layer's): its catalog, path and domains."""
FILE_IDS = [path.relative_to(ROOT).as_posix() for _, path, _ in FILES]
DATA: dict[str, dict[str, dict[str, str]]] = {
    domain: entries
    for _, path, _ in FILES
    for domain, entries in json.loads(path.read_text(encoding="utf-8"))["texts"].items()
}
"""Every data file's texts, by domain."""
TERMS, PINS = BUILD.load_rules()
T2S = opencc.OpenCC("t2s")
DRAFT = opencc.OpenCC(BUILD.CONFIGURATION)


def traditional(text: str) -> list[str]:
    """The characters of ``text`` that OpenCC writes otherwise in Simplified Chinese."""
    return sorted({ch for ch in text if T2S.convert(ch) != ch})


def fields(template: str) -> list[tuple[str, str]]:
    """Every ``{name:format}`` of a template, in order-free form (a reference like ``:term`` included)."""
    return sorted((name, spec or "") for _, name, spec, _ in string.Formatter().parse(template) if name is not None)


# ---- the data file ------------------------------------------------------------------------------------------


def test_every_catalog_entry_has_a_zh_cn_text():
    missing = [f"{domain}:{key}" for domain, key, _ in ENTRIES if key not in DATA.get(domain, {})]
    assert not missing, f"{len(missing)} catalog entries have no zh-CN text ({', '.join(missing[:10])} ...): {RUN}"


def test_every_zh_cn_text_was_made_from_todays_zh_tw_and_names_an_entry():
    stale = [f"{d}:{k}" for d, k, e in ENTRIES if k in DATA.get(d, {}) and DATA[d][k][ZH_TW] != e[ZH_TW]]
    assert not stale, f"the zh-TW text of {stale} changed since its zh-CN was made: {RUN}"
    orphans = [f"{d}:{k}" for d, entries in DATA.items() for k in entries if k not in messages.CATALOGS[d].get(d, {})]
    assert not orphans, f"zh-CN texts for entries the catalog no longer has: {orphans}: {RUN}"


@pytest.mark.parametrize(("catalog", "path", "domains"), FILES, ids=FILE_IDS)
def test_the_committed_file_is_exactly_what_the_generator_makes(catalog, path, domains):
    data, _ = BUILD.build(DRAFT, of=catalog, domains=domains)
    committed = path.read_text(encoding="utf-8")
    assert BUILD.dump(data) == committed, f"{RUN}:\n" + "\n".join(BUILD.changes(json.loads(committed), data))


@pytest.mark.parametrize(("domain", "key", "entry"), ENTRIES, ids=[f"{d}:{k}" for d, k, _ in ENTRIES])
def test_zh_cn_keeps_every_parameter_and_reference(domain, key, entry):
    zh_cn = messages.CATALOGS[domain].text(domain, key, ZH_CN)
    assert zh_cn == DATA[domain][key][ZH_CN], f"{domain}:{key} is not read from the data file: {RUN}"
    assert fields(zh_cn) == fields(entry[ZH_TW]), f"{domain}:{key}"
    assert placeholders(zh_cn) == placeholders(entry[EN])
    assert CJK.search(zh_cn), f"{domain}:{key} has no Chinese"


def test_no_traditional_only_character_survives():
    assert set(traditional("頭道 爆牌 鐵支")) == {"頭", "鐵"}  # the check itself sees Traditional characters
    found = {f"{d}:{k}": traditional(e[ZH_CN]) for d, texts in DATA.items() for k, e in texts.items()}
    assert not {place: chars for place, chars in found.items() if chars}
    converted = [f"{d}:{k}" for d, texts in DATA.items() for k, e in texts.items() if e[ZH_CN] != e[ZH_TW]]
    assert len(converted) >= 0.8 * len(ENTRIES)  # a conversion, not a copy of the zh-TW texts


def test_an_added_language_falls_back_at_run_time(tmp_path, monkeypatch):
    monkeypatch.setattr(messages, "CATALOGS", {})  # a catalog of its own, without its data file
    bare = Catalog({"ofc-pineapple": {"term.top": messages.T("top", "頭道")}}, tmp_path / "messages")
    assert bare.text("ofc-pineapple", "term.top", ZH_CN) == "頭道"  # zh-TW, never an error or English
    assert ZH_CN not in bare["ofc-pineapple"]["term.top"] and CATALOG["ofc-pineapple"]["term.top"][ZH_CN] == "头道"


@pytest.mark.parametrize(("catalog", "path", "domains"), FILES, ids=FILE_IDS)
def test_the_file_is_package_data(catalog, path, domains):
    """The image installs the package (not editable): the data files must be in it, the zh-CN file and the
    hand-written texts it is made from (``messages.json``) where they are data too."""
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]
    written = path.with_name(path.name.replace(f".{ZH_CN}.json", ".json"))
    for data_file in [path, *([written] if written.exists() else [])]:
        package = data_file.parent.relative_to(ROOT).as_posix().replace("/", ".")
        assert any(fnmatch.fnmatchcase(data_file.name, p) for p in patterns.get(package, ())), data_file


# ---- mainland words: the terms table and the words that come through the conversion ---------------------------


def test_every_term_lands_where_it_applies():
    """Wherever the converter's draft of a zh-TW text holds a term's word, the zh-CN text holds the mainland
    word instead (or a longer term's, which contains it)."""
    landed = 0
    for term in TERMS:
        for domain, key, entry in ENTRIES:
            applies = any(fnmatch.fnmatchcase(domain, p) for p in term["domains"])
            if not applies or term["draft"] not in DRAFT.convert(entry[ZH_TW]) or (domain, key) in PINS:
                continue
            zh_cn = messages.CATALOGS[domain].text(domain, key, ZH_CN)
            assert term["draft"] not in zh_cn, (domain, key, zh_cn)
            assert any(t[ZH_CN] in zh_cn for t in TERMS if term["draft"] in t["draft"]), (domain, key, zh_cn)
            landed += 1
    assert landed >= 2


def test_a_pin_holds_until_its_zh_tw_changes(tmp_path):
    """A hand-reviewed entry stays as written while the zh-TW text it translates is unchanged; once that
    changes the generator warns and falls back to the draft, so the file never holds a translation of an
    old text."""
    entry = texts.CATALOG["http"]["detail.internal"]
    pins = f"""
[[pin]]
domain = "http"
key = "detail.internal"
zh-TW = "{entry[ZH_TW]}"
zh-CN = "服务未能回答这个请求，错误已记录。"

[[pin]]
domain = "http"
key = "title.404"
zh-TW = "找不到了"
zh-CN = "未找到"

[[pin]]
domain = "http"
key = "no.such.key"
zh-TW = "無"
zh-CN = "无"
"""
    rules = tmp_path / "terms.toml"
    rules.write_text(BUILD.TERMS.read_text(encoding="utf-8") + pins, encoding="utf-8")
    data, warnings = BUILD.build(DRAFT, rules, of=texts.CATALOG)
    assert data["texts"]["http"]["detail.internal"] == {
        ZH_TW: entry[ZH_TW],
        ZH_CN: "服务未能回答这个请求，错误已记录。",
        "pinned": True,
    }
    assert data["texts"]["http"]["title.404"][ZH_CN] == DATA["http"]["title.404"][ZH_CN] == "找不到"
    assert [w.split(":")[0] for w in warnings] == ["stale pin http", "pin http"]


def test_every_term_says_where_it_comes_from():
    for term in TERMS:
        assert term["draft"] != term[ZH_CN] and not traditional(term[ZH_CN]) and term["source"], term
        assert term["draft"] == DRAFT.convert(term["draft"]), f"{term['draft']} is not how the converter writes it"


def test_no_term_reaches_a_text_it_should_not():
    """乌龙 is Joker Thirteen's high card (the rule book's 烏龍); OFC's foul words must not reach that game."""
    ofc_only = [t for t in TERMS if t["domains"] == ["ofc-*"]]
    assert {t["draft"] for t in ofc_only} >= {"全赢", "三道全赢"}
    assert messages.text("joker-thirteen", "label.high_card", ZH_CN) == "乌龙"
    assert messages.text("ofc-pineapple", "label.high_card", ZH_CN) == "高牌"


# Sentences of the OFC rule book (ofc-pineapple.zh-TW.txt, copied: the project never reads the rules folder):
# what the converter and the terms make of a fouled board, a scoop and royalties.
RULE_BOOK = [
    ("違反就是爆牌（犯規）。", "违反就是乌龙（犯规）。"),
    ("爆牌者對每一位沒爆牌的對手各輸 6 點（三道各輸 1 點＋被全贏的 3 點）。", "摆乌龙的玩家对每一位没摆乌龙的对手各输 6 点（三道各输 1 点＋被打枪的 3 点）。"),
    ("兩個人都爆牌：這兩人之間算 0 分，雙方獎分都不算。", "两个人都摆乌龙：这两人之间算 0 分，双方牌型加分都不算。"),
    ("對手爆牌時，視同你三道全贏：＋6，再加你的獎分。", "对手乌龙时，视同你打枪：＋6，再加你的牌型加分。"),
    ("不爆牌的前提下，三道贏過對手、拿獎分，並爭取進入范特西", "不摆乌龙的前提下，三道赢过对手、拿牌型加分，并争取进入范特西"),
    ("又叫「明牌十三支」。和十三支一樣要把 13 張牌擺成頭道、中道、尾道三道", "又叫「明牌十三张」。和十三支一样要把 13 张牌摆成头道、中道、尾道三道"),
    ("皇家同花順就是最大的同花順", "皇家同花顺就是最大的同花顺"),
]  # fmt: skip


@pytest.mark.parametrize(("zh_tw", "zh_cn"), RULE_BOOK)
def test_a_fouled_board_says_wulong_and_the_threads_words_are_used(zh_tw, zh_cn):
    """docs/rulings.md, "Simplified Chinese": a foul is 乌龙 (摆乌龙), a scoop 打枪, royalties 牌型加分."""
    assert BUILD.translate(zh_tw, "ofc-pineapple", TERMS, DRAFT) == zh_cn


def test_every_catalog_text_about_a_foul_says_wulong():
    fouls = [(d, k) for d, k, e in ENTRIES if "爆牌" in e[ZH_TW]]
    for domain, key in fouls:
        zh_cn = messages.CATALOGS[domain].text(domain, key, ZH_CN)
        assert "乌龙" in zh_cn and "爆牌" not in zh_cn, (domain, key, zh_cn)


@pytest.mark.parametrize(
    ("domain", "key", "words"),
    [
        ("ofc-pineapple", "term.top", "头道"),
        ("ofc-pineapple", "term.middle", "中道"),
        ("ofc-pineapple", "term.bottom", "尾道"),
        ("ofc-pineapple", "label.quads", "铁支"),
        ("ofc-pineapple", "label.straight_flush", "同花顺"),
        ("ofc-pineapple", "label.full_house", "葫芦"),
        ("ofc-pineapple", "label.straight", "顺子"),
        ("ofc-pineapple", "label.flush", "同花"),
        ("ofc-pineapple", "label.trips", "三条"),
        ("ofc-pineapple", "board_not_at_round/fantasyland", "范特西"),
        ("joker-thirteen", "label.high_card", "乌龙"),
        ("joker-thirteen", "label.quads", "铁支"),
        ("joker-thirteen", "label.three_jokers", "鬼三条"),
        ("joker-thirteen", "term.head", "头墩"),
        ("joker-thirteen", "head_not_below_middle", "相公：头墩"),
        ("big-two", "label.single", "单张"),
        ("big-two", "label.pair", "对子"),
        ("big-two", "label.four_of_a_kind", "铁支"),
        ("big-two", "label.straight_flush", "同花顺"),
        ("big-two", "label.full_house", "葫芦"),
        ("big-two", "label.dragon", "一条龙"),
        ("big-two", "factor.grand_slam", "大满贯"),
        ("big-two", "factor.twos_finish", "老二收尾"),
        ("big-two", "flush_not_a_combination/house", "台湾大老二没有同花"),
        ("http", "title.415", "不支持"),
        ("http", "detail.bad_request", "服务器"),
        ("http", "detail.too_deep", "数组与对象嵌套"),
        ("http", "detail.malformed_json/decode", "第 {line} 行第 {column} 列（字符位置 {char}）"),
        ("http", "detail.not_found", "拼写"),
        ("schema", "unknown", "字段"),
        ("schema", "string.invalid", "字符串"),
        ("schema", "boolean.invalid", "布尔值"),
        ("json", "invalid_escape_named", "转义字符"),
    ],
)
def test_mainland_words(domain, key, words):
    assert words in messages.CATALOGS[domain].text(domain, key, ZH_CN)


# ---- the cores' output and marshmallow's messages in zh-CN ----------------------------------------------------


def test_every_emitted_text_has_its_zh_cn(core_sample):
    for game, item in core_sample:
        code, english, params = sample_text(item)
        zh_cn = messages.render(game, code, params, ZH_CN)
        assert zh_cn != english and CJK.search(zh_cn) and not traditional(zh_cn), (game, code, zh_cn)


def test_every_marshmallow_message_the_schemas_can_produce_is_in_zh_cn():
    found: set[str] = set()
    for schema in ALL_SCHEMAS:
        found |= schema_messages(schema())
    for english in found:
        zh_cn = in_language(english, ZH_CN)
        assert CJK.search(zh_cn) and not traditional(zh_cn), (english, zh_cn)
    message = texts.SchemaMessage.of(Message("ofc-pineapple", "invalid_round", {"case": "five_and_fantasyland"}))
    assert in_language(message, ZH_CN) == 'round 是 1、2、3、4、5 或 "fantasyland"'


# ---- over HTTP ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def answered(client):
    """Every request of tests/test_i18n.py's sample in en, zh-TW and zh-CN."""
    return [(path, body, *(client.post(path, json=body, headers={**language, **ONE_REQUEST}) for language in ({}, TW, CN)))
            for path, body in REQUESTS]  # fmt: skip


def test_same_request_same_json_in_all_three_languages_but_human_text(answered):
    for path, body, en, tw, cn in answered:
        assert (en.status_code, en.mimetype) == (cn.status_code, cn.mimetype), path
        en_texts: list[str] = []
        tw_texts: list[str] = []
        cn_texts: list[str] = []
        shape = human_texts(en.get_json(), en_texts)
        assert shape == human_texts(tw.get_json(), tw_texts) == human_texts(cn.get_json(), cn_texts), (path, body)
        for english, zh_tw, zh_cn in zip(en_texts, tw_texts, cn_texts):
            assert CJK.search(zh_cn) and not traditional(zh_cn), (path, english, zh_cn)
            assert zh_cn != zh_tw or not traditional(zh_tw), (path, zh_tw)


def test_every_code_answered_has_its_zh_cn_message(answered):
    for path, _, en, _, cn in answered:
        game = games.find_game(path.split("/")[2]).domain  # ofc-classic's texts are ofc-pineapple's
        for (code, en_item), (cn_code, cn_item) in zip(codes_in(en.get_json()), codes_in(cn.get_json())):
            schema_error = "pointer" in en_item and code in SCHEMA_ERROR_CODES.values()  # texts: texts.SCHEMA
            assert code == cn_code and (schema_error or has_text(game, code)), (path, code)
            assert cn_item["message"] != en_item["message"] and not traditional(cn_item["message"]), (path, code)


def test_content_language_zh_cn_and_vary_on_every_answer(answered):
    for path, _, _, _, cn in answered:
        assert cn.headers["Content-Language"] == "zh-CN" and "Accept-Language" in cn.headers["Vary"], path


def test_labels_in_simplified_chinese_over_http(client):
    def label(path: str, body: dict) -> str:
        return client.post(path, json=body, headers=CN).get_json()["hand"]["label"]

    assert (
        label("/v1/ofc-pineapple/rows/evaluate", {"row": "middle", "cards": ["9s", "9h", "9d", "9c", "2s"]}) == "铁支"
    )
    assert label("/v1/ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "As"]}) == "一对"
    assert label("/v1/joker-thirteen/duns/evaluate", {"dun": "head", "cards": ["JK", "JK", "JK"]}) == "鬼三条"
    assert label("/v1/joker-thirteen/duns/evaluate", {"dun": "head", "cards": ["As", "Kd", "7c"]}) == "乌龙"
    assert label("/v1/big-two/plays/classify", {"cards": "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc".split()}) == "一条龙"
    assert label("/v1/big-two/plays/classify", {"cards": "9s 9h 9d 9c 3h".split()}) == "铁支"


def test_a_violation_in_simplified_chinese(client):
    body = {
        "board": {"top": ["Kh", "Qh", "Jh"]},
        "round": 2,
        "dealt": ["Ks", "7c", "2d"],
        "placement": {"top": ["Ks"], "bottom": ["7c"]},
        "discard": ["2d"],
    }
    violations = client.post("/v1/ofc-pineapple/moves/validate", json=body, headers=CN).get_json()["violations"]
    assert [v["message"] for v in violations if v["code"] == "row_overflow"] == ["头道只能放 3 张，已经摆满"]


def test_problems_in_simplified_chinese(client, app):
    english, chinese = problem_answers(client, app, {}), problem_answers(client, app, CN)
    for status, zh in chinese.items():
        assert zh.status_code == status and zh.headers["Content-Language"] == "zh-CN", status
        body = zh.get_json()
        assert body["type"] == english[status].get_json()["type"]
        assert body["title"] == texts.text(f"title.{status}", ZH_CN) and not traditional(body["title"])
        assert CJK.search(body["detail"]) and not traditional(body["detail"]), (status, body["detail"])
    assert (
        chinese[400].get_json()["detail"]
        == "请求内容不是有效的 JSON：这里应该要有用双引号括起来的属性名称，在第 1 行第 2 列（字符位置 1）"
    )
    assert chinese[404].get_json()["title"] == "找不到" and chinese[415].get_json()["title"] == "不支持的媒体类型"


@pytest.mark.parametrize(
    ("header", "language"),
    [("zh-CN", "zh-CN"), ("zh-SG", "zh-CN"), ("zh-MY", "zh-CN"), ("zh-Hans", "zh-CN"), ("zh-Hans-CN", "zh-CN"),
     ("zh-Hans-SG", "zh-CN"), ("zh-CN, en;q=0.5", "zh-CN"), ("en, zh-CN;q=0.5", "en"), ("zh", "zh-TW"),
     ("zh-TW", "zh-TW"), ("zh-Hant", "zh-TW"), ("zh-HK", "zh-TW")],
)  # fmt: skip
def test_which_ranges_answer_in_zh_cn(client, header, language):
    response = client.post(
        "/v1/big-two/plays/classify",
        json={"cards": ["9s", "9h", "9d", "9c", "3h"]},
        headers={"Accept-Language": header},
    )
    label = {"en": "Four of a kind", "zh-TW": "鐵支", "zh-CN": "铁支"}[language]
    assert (response.headers["Content-Language"], response.get_json()["hand"]["label"]) == (language, label)


def test_games_list_describes_decks_in_zh_cn(client):
    en = client.get("/v1/games").get_json()["games"]
    response = client.get("/v1/games", headers=CN)
    zh = response.get_json()["games"]
    assert response.headers["Content-Language"] == "zh-CN"
    assert [g["deck"]["description"] for g in zh] == [
        messages.text("games", f"games.{g['id']}.deck", ZH_CN) for g in en
    ]
    assert [g["deck"]["description"] for g in zh][0] == "一副 52 张扑克牌，没有鬼牌"


@pytest.mark.parametrize(
    ("path", "language"), [("/healthz", "zh-CN"), ("/openapi.json", "en"), ("/docs", "en"), ("/metrics", "en")]
)
def test_service_reads_say_their_language_in_zh_cn(client, path, language):
    response = client.get(path, headers=CN)
    assert response.status_code == 200 and response.headers["Content-Language"] == language


def test_english_is_untouched_by_the_added_language():
    assert all(messages.CATALOGS[d].text(d, k, EN) == e[EN] for d, k, e in ENTRIES)
