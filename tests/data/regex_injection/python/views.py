"""Flask and Django views of a small search service."""
import re

from django.http import JsonResponse
from django.views import View
from flask import Flask, jsonify, request

app = Flask(__name__)
USERS = ["ada", "grace", "linus"]
LINES = ["alpha", "beta"]


@app.route("/search")
def search():
    query = request.args.get("q", "")
    pattern = re.compile(query, re.IGNORECASE)  # expect: injection
    return jsonify([u for u in USERS if pattern.search(u)])


@app.route("/search-safe")
def search_safe():
    query = re.escape(request.args.get("q", ""))
    pattern = re.compile(r"\b" + query + r"\b")  # expect: clean
    return jsonify([u for u in USERS if pattern.search(u)])


@app.route("/filter", methods=["POST"])
def filter_lines():
    data = request.get_json()
    expr = data["expr"]
    lines = [line for line in LINES if re.search(expr, line)]  # expect: injection
    return jsonify(lines)


@app.route("/user/<name>")
def user(name):
    rx = re.compile("^%s$" % name)  # expect: injection
    return jsonify([u for u in USERS if rx.match(u)])


@app.route("/words")
def words():
    text = request.form["text"]
    parts = re.split(r"\s+", text)  # expect: clean
    return jsonify(parts)


def django_search(request):
    term = request.GET.get("term", "")
    if re.match(f".*{term}.*", "abc"):  # expect: injection
        return JsonResponse({"ok": True})
    limit = int(request.GET.get("limit", "10"))
    digits = re.compile(r"\d{1,%d}" % limit)  # expect: clean
    return JsonResponse({"digits": digits.pattern})


def reassigned(request):
    value = re.escape(request.POST["v"])
    value = request.POST["raw"]
    return re.fullmatch(value, "x")  # expect: injection


def sanitised_later(request):
    value = request.POST["v"]
    value = re.escape(value)
    return re.sub(value, "", "text")  # expect: clean


def helper(pattern):
    return re.compile(pattern)  # expect: injection (reached from caller, another function)


def caller(request):
    return helper(request.GET["p"])


class SearchView(View):
    text = "some text"

    def get(self, request):
        needle = request.GET.get("needle", "")
        found = re.findall("(?i)" + needle, self.text)  # expect: injection
        return JsonResponse({"found": found})

    def post(self, request):
        needle = "static"
        return JsonResponse({"found": re.findall(needle, self.text)})  # expect: clean


def constant_pattern():
    return re.compile(r"^[\w.-]+@[\w.-]+$")  # expect: clean


def format_pattern(request):
    sep = request.args["sep"]
    return re.split("[{}]".format(sep), "a,b")  # expect: injection


def header_pattern(request):
    agent = request.headers.get("User-Agent", "")
    bots = re.compile(r"(bot|crawler|spider)", re.I)  # expect: clean
    return bool(bots.search(agent))


def escaped_join(request):
    names = request.args.getlist("name")
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(alternatives)  # expect: clean
