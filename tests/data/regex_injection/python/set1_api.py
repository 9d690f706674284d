"""First held-out set (frozen finder 15a748f, measured once), seen since:
a development file now (tests/data/regex_injection/README.md)."""
import re

from flask import Blueprint, abort, request

bp = Blueprint("api", __name__)
LINES = []
NAMES = []
TEXT = ""


@bp.get("/grep")
def grep():
    needle = request.args.get("needle") or abort(400)
    flags = re.I if request.args.get("ci") else 0
    rx = re.compile(needle, flags)  # expect: injection
    return "\n".join(line for line in LINES if rx.search(line))


@bp.post("/validate")
def validate():
    payload = request.get_json(force=True)
    rules = payload.get("rules", [])
    for rule in rules:
        if not re.fullmatch(rule["pattern"], payload["value"]):  # expect: injection
            return {"ok": False}
    return {"ok": True}


def highlight(request):
    q = request.GET.get("q", "").strip()
    if not q:
        return ""
    words = [re.escape(w) for w in q.split()]
    rx = re.compile("|".join(words), re.IGNORECASE)  # expect: clean
    return rx.sub(r"<b>\g<0></b>", TEXT)


def by_prefix(request):
    prefix = request.GET["prefix"]
    return [name for name in NAMES if re.match(prefix, name)]  # expect: injection


def safe_length(request):
    n = len(request.GET.get("q", ""))
    return re.compile(r"\w{%d}" % n)  # expect: clean


def host_check(request):
    host = request.META.get("HTTP_HOST", "")
    allowed = re.compile(r"^(www\.)?example\.com$")  # expect: clean
    return bool(allowed.match(host))


class Filter:
    def __init__(self, request):
        self.pattern = request.GET.get("p", "")

    def apply(self, items):
        return [i for i in items if re.search(self.pattern, i)]  # expect: injection (object field)
