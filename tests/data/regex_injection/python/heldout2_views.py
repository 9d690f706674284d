# Held-out set 2: written before the finder changes of issue 27's follow-up,
# measured once after them, never tuned on (README.md).
import re

from django.http import JsonResponse
from flask import Blueprint
from flask import request as flask_request

bp = Blueprint("search", __name__)

SORT_PATTERNS = {"name": r"^[a-z]+$", "date": r"^\d{4}-\d{2}-\d{2}$"}


def tag_filter(request):
    tags = request.GET.getlist("tag")
    pattern = "|".join(tags)
    rx = re.compile(pattern)  # expect: injection
    return JsonResponse({"ok": bool(rx)})


def sort_view(request):
    key = request.GET.get("sort", "name")
    rx = re.compile(SORT_PATTERNS[key])  # expect: clean
    return JsonResponse({"pattern": rx.pattern})


class SearchView:
    def __init__(self, request):
        self.term = request.GET.get("q", "")
        self.safe = re.escape(self.term)

    def results(self, items):
        rx = re.compile(self.safe, re.I)  # expect: clean
        return [i for i in items if rx.search(i)]

    def raw_results(self, items):
        return [i for i in items if re.search(self.term, i)]  # expect: injection


@bp.route("/grep", methods=["POST"])
def grep():
    body = flask_request.get_json(silent=True) or {}
    expr = body.get("expr", "")
    return {"hits": re.findall(expr, body.get("text", ""))}  # expect: injection


def count_view(request):
    n = int(request.GET.get("n", "3"))
    rx = re.compile(r"\d{%d}" % n)  # expect: clean
    return JsonResponse({"pattern": rx.pattern})


def language_view(request):
    lang = request.headers.get("Accept-Language", "en")
    rx = re.compile(r"^" + lang.split(",")[0])  # expect: injection
    return JsonResponse({"pattern": rx.pattern})


def normalise_view(request):
    text = request.POST.get("text", "")
    sep = request.POST.get("sep", " ")
    return JsonResponse({"text": re.sub(r"\s+", sep, text)})  # expect: clean
