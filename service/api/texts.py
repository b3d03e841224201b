"""Every human text of the HTTP layer: problem titles and details, what each problem type and error code
means (docs/errors.md), marshmallow's messages and the JSON decoder's, in every language of
``service.rules.messages.LANGUAGES``. The rules core keeps the games' texts (``service/rules/messages.py``);
this catalog is the same engine (``messages.Catalog``) over the web layer's own domains: ``http``,
``schema`` and ``json``. Its added languages are data files beside this module (``texts.zh-CN.json``, made
by ``make zh-cn`` like the core's).

No text arrives here as English to be recognised: the HTTP layer raises each problem with its key and
parameters (``errors.ApiProblem``), marshmallow's messages are templates that keep their key
(``SCHEMA_MESSAGES``, installed by ``install_schema_messages``) and the JSON decoder's ``msg`` is looked up
as it is (``decoder_message``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from marshmallow import fields, validate

from service.rules.messages import LANGUAGES, Catalog, Entry, Message, T, placeholders

# --- the HTTP layer: problem titles and details, what each problem type and error code means --------------------------------------

HTTP: dict[str, Entry] = {
    "title.400": T("Malformed JSON", "JSON 格式錯誤"),
    "title.404": T("Not found", "找不到"),
    "title.405": T("Method not allowed", "不允許的方法"),
    "title.413": T("Request body too large", "請求內容太大"),
    "title.415": T("Unsupported media type", "不支援的媒體類型"),
    "title.422": T("Invalid input", "輸入無效"),
    "title.500": T("Internal error", "內部錯誤"),
    "title.503": T("Overloaded", "服務忙碌"),
    "title.other": T("Error", "錯誤"),
    "title.not-ready": T("Not ready", "尚未就緒"),
    "detail.not_json": T(
        "Send the request body as JSON with Content-Type: application/json.",
        "請以 JSON 傳送請求內容，並帶上 Content-Type: application/json。",
    ),
    "detail.malformed_json/decode": T(
        "The body is not valid JSON: {message:json}: line {line} column {column} (char {char})",
        "請求內容不是有效的 JSON：{message:json}，在第 {line} 行第 {column} 欄（字元位置 {char}）",
    ),
    "detail.charset": T(
        "Send the JSON body as UTF-8: application/json takes no other charset.",
        "請以 UTF-8 傳送 JSON 請求內容：application/json 不接受其他字元集。",
    ),
    "detail.not_utf8": T(
        "The body is not UTF-8 JSON text (RFC 8259, section 8.1): no other encoding, no byte order mark.",
        "請求內容不是 UTF-8 的 JSON 文字（RFC 8259 第 8.1 節）：不接受其他編碼，也不接受位元組順序標記。",
    ),
    "detail.duplicate_key": T(
        "The body is not valid JSON for this service: the key {key} appears twice in one object.",
        "請求內容不是本服務接受的 JSON：同一個物件裡鍵 {key} 出現兩次。",
    ),
    "detail.not_a_number": T(
        "The body is not valid JSON: {constant} is not a JSON number.",
        "請求內容不是有效的 JSON：{constant} 不是 JSON 的數字。",
    ),
    "detail.number_too_long": T(
        "The body is not valid JSON for this service: a number has more than 4,300 digits.",
        "請求內容不是本服務接受的 JSON：有一個數字超過 4,300 位。",
    ),
    "detail.empty_body": T(
        "The body is empty: send the operation's JSON object (/openapi.json has an example of each).",
        "請求內容是空的：請送出這個操作的 JSON 物件（/openapi.json 有每個操作的範例）。",
    ),
    "detail.malformed_json/other": T("The body is not valid JSON: {error}", "請求內容不是有效的 JSON：{error}"),
    "detail.chunked_unreadable": T(
        "The chunked request body could not be read to its end.",
        "分塊傳送的請求內容無法完整讀取。",
    ),
    "detail.too_deep": T(
        "The body nests arrays and objects deeper than {depth} levels, which no request of this service needs.",
        "請求內容的陣列與物件巢狀超過 {depth} 層，本服務沒有任何請求需要這麼深。",
    ),
    "detail.schema": T("The request does not match the schema: {errors}", "請求內容不符合結構定義：{errors}"),
    "detail.impossible": T("The request cannot be computed: {errors}", "請求內容無法計算：{errors}"),
    "detail.error": T("{pointer}: {message}", "{pointer}：{message}"),
    "detail.error_root": T('"" (the body): {message}', '""（整個請求內容）：{message}'),
    "detail.truncated": T(
        "{count} problems; the first {listed} are listed. ",
        "共 {count} 個問題，只列出前 {listed} 個。",
    ),
    "detail.too_large_bytes": T(
        "The request body is larger than the limit of {limit} bytes.",
        "請求內容超過上限 {limit} 位元組。",
    ),
    "detail.no_such_path": T(
        "There is no operation at {path}. GET /v1/games lists the games and their base paths; every operation is in /openapi.json.",
        "{path} 沒有任何操作。GET /v1/games 列出各個遊戲與其基本路徑；所有操作都在 /openapi.json。",
    ),
    "detail.method_not_allowed_here": T(
        "{path} does not answer {method}; it answers {allowed}.",
        "{path} 不接受 {method}，只接受 {allowed}。",
    ),
    "detail.no_such_path_near": T(
        "There is no operation at {path}; did you mean {near}? GET /v1/games lists the games and their base paths.",
        "{path} 沒有任何操作；是不是要用 {near}？GET /v1/games 列出各個遊戲與其基本路徑。",
    ),
    "detail.trailing_slash": T(
        "There is no operation at {path}: paths have no trailing slash; use {bare}.",
        "{path} 沒有任何操作：路徑結尾不加斜線，請用 {bare}。",
    ),
    "detail.internal": T(
        "The service failed to answer this request; it has been logged.",
        "服務無法回答這個請求；這個錯誤已經記錄下來。",
    ),
    "detail.overloaded": T(
        "This server is already computing as many heavy requests as it runs at once ({limit}); retry after {seconds} s.",
        "這台伺服器正在計算的繁重請求已達同時執行的上限（{limit} 個）；請在 {seconds} 秒後重試。",
    ),
    "detail.draining": T(
        "This server process is stopping: it finishes the requests it holds and takes no new ones; send them to another replica.",
        "這個伺服器程序正在停止：它會做完手上的請求，不再接受新的；請把請求送往其他副本。",
    ),
    # werkzeug's own descriptions of the failures it raises outside our routes
    "detail.bad_request": T(
        "The browser (or proxy) sent a request that this server could not understand.",
        "瀏覽器（或代理伺服器）送來的請求，伺服器無法理解。",
    ),
    "detail.not_found": T(
        "The requested URL was not found on the server. If you entered the URL manually please check your"
        " spelling and try again.",
        "伺服器上找不到這個網址。如果網址是手動輸入的，請檢查拼字後再試一次。",
    ),
    "detail.method_not_allowed": T(
        "The method is not allowed for the requested URL.",
        "這個網址不接受這個 HTTP 方法。",
    ),
    "detail.too_large": T(
        "The data value transmitted exceeds the capacity limit.",
        "傳送的資料超過服務接受的大小上限。",
    ),
    # what each problem type means (docs/errors.md); gunicorn's own refusals included
    "problem.malformed-json": T(
        "The body is not valid JSON, or a chunked body could not be read to its end.",
        "請求內容不是有效的 JSON，或分塊傳送的內容無法完整讀取。",
    ),
    "problem.not-found": T(
        "No operation at this path (paths have no trailing slash); GET /v1/games lists the games.",
        "這個路徑沒有任何操作（路徑結尾不加斜線）；GET /v1/games 列出各個遊戲。",
    ),
    "problem.method-not-allowed": T(
        "The path exists, not with this method; the Allow header names its methods.",
        "路徑存在，但不接受這個 HTTP 方法；Allow 標頭列出可用的方法。",
    ),
    "problem.body-too-large": T(
        "The body is larger than the limit, which the detail gives in bytes; the connection closes.",
        "請求內容超過上限（detail 以位元組說明上限）；連線會關閉。",
    ),
    "problem.unsupported-media-type": T(
        "The body is not sent as Content-Type: application/json.",
        "請求內容不是以 Content-Type: application/json 傳送。",
    ),
    "problem.invalid-input": T(
        "The body does not match the operation's schema or cannot be computed; errors locates each cause, with its code.",
        "請求內容不符合操作的結構定義，或無法計算；errors 指出每個原因與其代碼。",
    ),
    "problem.internal-error": T(
        "A fault of the service, logged with the request ID; never the client's.",
        "服務本身的錯誤，已連同請求 ID 記錄；不是用戶端的問題。",
    ),
    "problem.malformed-request": T(
        "The HTTP request itself is malformed (refused by the server before the application).",
        "HTTP 請求本身格式錯誤（在進入應用程式之前就被伺服器拒絕）。",
    ),
    "problem.forbidden": T("The server refuses this request.", "伺服器拒絕這個請求。"),
    "problem.request-timeout": T(
        "The request's head or body did not arrive in time; the connection closes.",
        "請求的標頭或內容沒有及時送達；連線會關閉。",
    ),
    "problem.request-line-too-long": T(
        "The request line (method, path, version) is longer than the server accepts.",
        "請求行（方法、路徑、版本）超過伺服器接受的長度。",
    ),
    "problem.expectation-failed": T("The Expect header cannot be met.", "無法滿足 Expect 標頭的要求。"),
    "problem.headers-too-large": T(
        "Too many header fields, or one too long.",
        "標頭欄位太多，或其中一個太長。",
    ),
    "problem.not-implemented": T(
        "The request uses an HTTP feature the server does not implement (such as a transfer coding).",
        "請求使用了伺服器沒有實作的 HTTP 功能（例如某種傳輸編碼）。",
    ),
    "problem.not-ready": T(
        "The server process answering GET /readyz is stopping; route requests to another replica.",
        "回答 GET /readyz 的伺服器程序正在停止；請把請求送往其他副本。",
    ),
    "problem.overloaded": T(
        "The server is too busy to answer in time; retry after Retry-After seconds.",
        "伺服器太忙，無法及時回答；請在 Retry-After 秒後重試。",
    ),
    # what each request-schema error code means (docs/errors.md)
    "error.unknown_field": T("A field the schema does not have.", "結構定義中沒有這個欄位。"),
    "error.required": T("A required field is missing.", "缺少必填欄位。"),
    "error.null": T("null where a value is needed.", "這裡需要一個值，不能是 null。"),
    "error.wrong_type": T(
        'A value of the wrong JSON type (a string for a number, an object for a list; at the pointer "", a body that is not an object).',
        'JSON 型別錯誤（該是數字卻是字串、該是陣列卻是物件；指標為 "" 時：請求內容不是物件）。',
    ),
    "error.wrong_length": T(
        "A list with more or fewer items than the schema allows.", "陣列的項目數超出結構定義允許的範圍。"
    ),
    "error.not_one_of": T("A value that is not one of the allowed values.", "值不是允許的選項之一。"),
    "error.out_of_range": T("A number outside its allowed range.", "數字超出允許的範圍。"),
    "error.invalid_value": T("A value the schema refuses.", "結構定義不接受這個值。"),
    "error.too_deep": T(
        "The body nests arrays and objects deeper than 32 levels.",
        "請求內容的陣列與物件巢狀超過 32 層。",
    ),
}

# --- marshmallow's own messages (request schema errors), by marshmallow's own key ----------------------

SCHEMA: dict[str, Entry] = {
    "unknown": T("Unknown field.", "未知的欄位"),
    "unknown_near": T("Unknown field; did you mean {near}?", "未知的欄位；是不是要用 {near}？"),
    "type": T("Invalid input type.", "輸入的型別無效"),
    "root_type": T("Must be a JSON object.", "必須是 JSON 物件"),
    "required": T("Missing data for required field.", "缺少必填欄位"),
    "null": T("Field may not be null.", "這個欄位不能是 null"),
    "validator_failed": T("Invalid value.", "值無效"),
    "string.invalid": T("Not a valid string.", "不是有效的字串"),
    "string.invalid_utf8": T("Not a valid utf-8 string.", "不是有效的 UTF-8 字串"),
    "integer.invalid": T("Not a valid integer.", "不是有效的整數"),
    "number.invalid": T("Not a valid number.", "不是有效的數字"),
    "number.too_large": T("Number too large.", "數字太大"),
    "boolean.invalid": T("Not a valid boolean.", "不是有效的布林值（true 或 false）"),
    "list.invalid": T("Not a valid list.", "不是有效的陣列"),
    "nested.type": T("Invalid type.", "型別無效"),
    "length.equal": T("Length must be {equal}.", "長度必須是 {equal}"),
    "length.between": T("Length must be between {min} and {max}.", "長度必須介於 {min} 到 {max} 之間"),
    "length.min": T("Shorter than minimum length {min}.", "長度少於最小長度 {min}"),
    "length.max": T("Longer than maximum length {max}.", "長度超過最大長度 {max}"),
    "one_of": T("Must be one of: {choices}.", "必須是下列之一：{choices}"),
    "range.between": T(
        "Must be greater than or equal to {min} and less than or equal to {max}.",
        "必須大於或等於 {min}，且小於或等於 {max}",
    ),
    "range.min": T("Must be greater than or equal to {min}.", "必須大於或等於 {min}"),
    "range.max": T("Must be less than or equal to {max}.", "必須小於或等於 {max}"),
}

# --- Python's JSON decoder messages (inside a 400's detail), by the decoder's msg ---------------------

JSON: dict[str, Entry] = {
    "expecting_value": T("Expecting value", "這裡應該要有一個值"),
    "expecting_property_name": T(
        "Expecting property name enclosed in double quotes",
        "這裡應該要有用雙引號括起來的屬性名稱",
    ),
    "expecting_colon": T("Expecting ':' delimiter", "這裡應該要有 ':'"),
    "expecting_comma": T("Expecting ',' delimiter", "這裡應該要有 ','"),
    "extra_data": T("Extra data", "JSON 結束後還有多餘的資料"),
    "unterminated_string": T("Unterminated string starting at", "字串沒有結尾，字串開頭在"),
    "invalid_control_character": T("Invalid control character at", "無效的控制字元，位置在"),
    "invalid_control_character_named": T("Invalid control character {char} at", "無效的控制字元 {char}，位置在"),
    "invalid_escape": T("Invalid \\escape", "無效的跳脫字元 \\"),
    "invalid_escape_named": T("Invalid \\escape: {char}", "無效的跳脫字元：{char}"),
    "invalid_unicode_escape": T("Invalid \\uXXXX escape", "無效的 \\uXXXX 跳脫字元"),
}

CATALOG = Catalog({"http": HTTP, "schema": SCHEMA, "json": JSON}, Path(__file__).resolve().with_suffix(""))
DOMAINS = tuple(CATALOG)


def text(key: str, language: str = LANGUAGES[0]) -> str:
    """The bare template of an ``http`` entry."""
    return CATALOG.text("http", key, language)


# --- the JSON decoder's messages ---------------------------------------------------------------------

DECODER_MESSAGES = {
    "Expecting value": "expecting_value",
    "Expecting property name enclosed in double quotes": "expecting_property_name",
    "Expecting ':' delimiter": "expecting_colon",
    "Expecting ',' delimiter": "expecting_comma",
    "Extra data": "extra_data",
    "Unterminated string starting at": "unterminated_string",
    "Invalid control character at": "invalid_control_character",
    "Invalid \\escape": "invalid_escape",
    "Invalid \\uXXXX escape": "invalid_unicode_escape",
}
"""``JSONDecodeError.msg`` (the C scanner's fixed messages) -> its key in ``JSON``."""
DECODER_NAMED = {  # the pure-Python scanner's messages that name a character: (prefix, suffix) -> key
    ("Invalid control character ", " at"): "invalid_control_character_named",
    ("Invalid \\escape: ", ""): "invalid_escape_named",
}


def decoder_message(msg: str) -> tuple[str, dict[str, Any]] | None:
    """(key, params) in the ``json`` domain of a ``JSONDecodeError.msg``, or None for a message it lacks."""
    key = DECODER_MESSAGES.get(msg)
    if key is not None:
        return key, {}
    for (prefix, suffix), key in DECODER_NAMED.items():
        if msg.startswith(prefix) and msg.endswith(suffix) and len(msg) > len(prefix) + len(suffix):
            return key, {"char": msg[len(prefix) : len(msg) - len(suffix)]}
    return None


# --- marshmallow's messages: templates that keep their key -------------------------------------------


class SchemaMessage(str):
    """A request-schema message: it *is* the English text (so marshmallow and every ``str`` use see the
    same message) and carries its ``message`` key, which the error handler renders in the answer's
    language."""

    message: Message

    def __new__(cls, english: str, message: Message) -> SchemaMessage:
        found = super().__new__(cls, english)
        found.message = message
        return found

    @classmethod
    def of(cls, message: Message) -> SchemaMessage:
        return cls(message.render(), message)


class SchemaTemplate(str):
    """marshmallow's English template of one ``schema`` entry: ``format`` gives a ``SchemaMessage`` that
    keeps the entry's key and the parameters its template names."""

    key: str

    def __new__(cls, english: str, key: str) -> SchemaTemplate:
        found = super().__new__(cls, english)
        found.key = key
        return found

    def format(self, *args: Any, **kwargs: Any) -> str:
        english = str.format(self, *args, **kwargs)
        template = SCHEMA[self.key][LANGUAGES[0]]
        names = placeholders(template)
        if not names <= kwargs.keys():  # a first stage (Range's "{min_op}"): see RangeTemplate
            return english
        return SchemaMessage(english, Message("schema", self.key, {name: kwargs[name] for name in names}))


class RangeTemplate(str):
    """``validate.Range``'s two-stage template: ``Must be {min_op} {{min}}.`` gets its operator when the
    validator is built; only the inclusive operators the catalog has become ``SchemaTemplate``s."""

    keys: dict[tuple[str, ...], str]

    def __new__(cls, english: str, keys: dict[tuple[str, ...], str]) -> RangeTemplate:
        found = super().__new__(cls, english)
        found.keys = keys
        return found

    def format(self, *args: Any, **kwargs: Any) -> str:
        english = str.format(self, *args, **kwargs)
        key = self.keys.get(tuple(kwargs[op] for op in ("min_op", "max_op") if op in kwargs))
        return SchemaTemplate(english, key) if key is not None else english


SCHEMA_MESSAGES: dict[tuple[type, str], str] = {
    (fields.Field, "required"): "required",
    (fields.Field, "null"): "null",
    (fields.Field, "validator_failed"): "validator_failed",
    (fields.String, "invalid"): "string.invalid",
    (fields.String, "invalid_utf8"): "string.invalid_utf8",
    (fields.Integer, "invalid"): "integer.invalid",
    (fields.Number, "invalid"): "number.invalid",
    (fields.Number, "too_large"): "number.too_large",
    (fields.Boolean, "invalid"): "boolean.invalid",
    (fields.List, "invalid"): "list.invalid",
    (fields.Nested, "type"): "nested.type",
    (fields.Enum, "unknown"): "one_of",  # the same text as OneOf's: "Must be one of: {choices}."
}
"""(marshmallow field class, its error key) -> our ``schema`` key."""
SCHEMA_ERRORS = {"unknown": "unknown", "type": "type"}
"""A schema's own error keys -> our ``schema`` key (``StrictSchema.error_messages``)."""
VALIDATOR_MESSAGES: dict[tuple[type, str], str] = {
    (validate.Length, "message_equal"): "length.equal",
    (validate.Length, "message_all"): "length.between",
    (validate.Length, "message_min"): "length.min",
    (validate.Length, "message_max"): "length.max",
    (validate.OneOf, "default_message"): "one_of",
}
RANGE_MESSAGES: dict[str, dict[tuple[str, ...], str]] = {
    "message_all": {("greater than or equal to", "less than or equal to"): "range.between"},
    "message_min": {("greater than or equal to",): "range.min"},
    "message_max": {("less than or equal to",): "range.max"},
}


def schema_errors() -> dict[str, str]:
    """``error_messages`` for a schema class: its own messages, with their keys (each a ``SchemaMessage``,
    typed as the ``str`` marshmallow's ``Schema.error_messages`` declares)."""
    return {name: SchemaMessage.of(Message("schema", key)) for name, key in SCHEMA_ERRORS.items()}


def install_schema_messages() -> None:
    """Give marshmallow's default messages and validators' templates their keys, once, before any schema is
    built. Each stays the very English text marshmallow had (a test holds them equal), so nothing else that
    uses marshmallow in the process sees a difference."""
    for (cls, name), key in SCHEMA_MESSAGES.items():
        english = cls.__dict__["default_error_messages"][name]
        if not isinstance(english, SchemaTemplate):
            cls.__dict__["default_error_messages"][name] = SchemaTemplate(english, key)
    for (cls, name), key in VALIDATOR_MESSAGES.items():
        english = getattr(cls, name)
        if not isinstance(english, SchemaTemplate):
            setattr(cls, name, SchemaTemplate(english, key))
    for name, keys in RANGE_MESSAGES.items():
        english = getattr(validate.Range, name)
        if not isinstance(english, RangeTemplate):
            setattr(validate.Range, name, RangeTemplate(english, keys))


def schema_message(message: Any) -> Message | None:
    """The key of one marshmallow message, or None for a text that did not come from the catalog."""
    return message.message if isinstance(message, SchemaMessage) else None
