#!/usr/bin/env python3
"""End-to-end tests of `robotscan agents` (the built binary): the built-in
registry in every format, --purpose, --agents-from a file and a loopback URL
in both registry formats, and what is refused with which exit status.

usage: robotscan_agents_test.py ROBOTSCAN SOURCE_DIR
"""
import csv
import http.server
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest

ROBOTSCAN = None
SOURCE_DIR = None


def run(*args):
    proc = subprocess.run([ROBOTSCAN, "agents", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def snapshot_path():
    return os.path.join(SOURCE_DIR, "report", "data", "ai-robots-txt", "robots.json")


class Handler(http.server.BaseHTTPRequestHandler):
    bodies = {}

    def do_GET(self):
        status, body = self.bodies.get(self.path, (404, b"not here"))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class AgentsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(snapshot_path(), "rb") as f:
            cls.snapshot = f.read()
        cls.snapshot_names = list(json.loads(cls.snapshot))
        code, out, err = run("--format", "json")
        assert code == 0, err
        cls.built_in = json.loads(out)

    def test_json_lists_every_snapshot_name_once(self):
        names = []
        for agent in self.built_in["agents"]:
            names.append(agent["name"])
            names.extend(agent["aliases"])
        for name in self.snapshot_names:
            self.assertEqual(names.count(name), 1, name)
        self.assertIn("83485effdb4a31ea010e99cf5dddf14656a998b8", self.built_in["origin"])
        self.assertEqual(self.built_in["format"], "robotscan-agent-registry/1")

    def test_text_counts_agree_with_the_json(self):
        code, out, _ = run()
        self.assertEqual(code, 0)
        first = out.splitlines()[0]
        self.assertEqual(first.split()[0], str(len(self.built_in["agents"])))
        per_purpose = {}
        for agent in self.built_in["agents"]:
            per_purpose[agent["purpose"]] = per_purpose.get(agent["purpose"], 0) + 1
        for line in out.splitlines()[1:6]:
            purpose, count = line.split()
            self.assertEqual(int(count), per_purpose.get(purpose, 0), line)
        rows = [l for l in out.splitlines() if l.startswith("ChatGPT ")]
        self.assertEqual(len(rows), 1)
        self.assertIn("agent", rows[0].split())
        self.assertIn("ChatGPT Agent", rows[0])

    def test_csv_has_one_row_per_agent_and_purpose_filter(self):
        code, out, _ = run("--format", "csv")
        self.assertEqual(code, 0)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(len(rows), len(self.built_in["agents"]))
        by_token = {r["token"]: r for r in rows}
        self.assertEqual(by_token["GPTBot"]["purpose"], "training")
        self.assertEqual(by_token["AI"]["aliases"], "AI2Bot-DeepResearchEval; Ai2Bot-Dolma")
        code, out, _ = run("--format", "csv", "--purpose", "search")
        self.assertEqual(code, 0)
        search = list(csv.DictReader(io.StringIO(out)))
        self.assertTrue(search)
        self.assertEqual({r["purpose"] for r in search}, {"search"})
        self.assertEqual(len(search), sum(1 for a in self.built_in["agents"]
                                          if a["purpose"] == "search"))

    def test_agents_from_a_file_in_both_formats(self):
        code, out, err = run("--agents-from", snapshot_path(), "--format", "json")
        self.assertEqual(code, 0, err)
        converted = json.loads(out)
        self.assertEqual(converted["agents"], self.built_in["agents"])
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"format": "robotscan-agent-registry/1", "origin": "mine",
                       "agents": [{"name": "NewBot 2", "token": "NewBot",
                                   "purpose": "training", "operator": "X"}]}, f)
        try:
            code, out, err = run("--agents-from", f.name, "--format", "csv")
            self.assertEqual(code, 0, err)
            rows = list(csv.DictReader(io.StringIO(out)))
            self.assertEqual([(r["token"], r["purpose"], r["name"]) for r in rows],
                             [("NewBot", "training", "NewBot 2")])
        finally:
            os.unlink(f.name)

    def test_agents_from_a_loopback_url(self):
        newer = json.loads(self.snapshot)
        newer["BrandNewBot"] = {"operator": "[New](https://new.example)",
                                "function": "AI Data Scrapers", "respect": "Yes"}
        Handler.bodies = {"/robots.json": (200, json.dumps(newer).encode()),
                          "/html": (200, b"<html>not json</html>"),
                          "/gone": (404, b"gone")}
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        base = "http://127.0.0.1:%d" % server.server_address[1]
        try:
            code, out, err = run("--agents-from", base + "/robots.json", "--format", "json")
            self.assertEqual(code, 0, err)
            agents = json.loads(out)["agents"]
            self.assertEqual(len(agents), len(self.built_in["agents"]) + 1)
            new = [a for a in agents if a["token"] == "BrandNewBot"]
            self.assertEqual(new[0]["operator"], "New")
            self.assertEqual(new[0]["purpose"], "training")
            code, _, err = run("--agents-from", base + "/html")
            self.assertEqual(code, 3)
            self.assertIn("the text is not JSON", err)
            code, _, err = run("--agents-from", base + "/gone")
            self.assertEqual(code, 3)
            self.assertIn("HTTP 404", err)
        finally:
            server.shutdown()
            server.server_close()

    def test_refusals_and_their_exit_statuses(self):
        code, _, err = run("--agents-from", "/nonexistent/registry.json")
        self.assertEqual(code, 2)
        self.assertIn("/nonexistent/registry.json", err)
        code, _, err = run("--purpose", "spying")
        self.assertEqual(code, 2)
        self.assertIn("--purpose must be", err)
        code, _, err = run("--format", "xml")
        self.assertEqual(code, 2)
        with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as f:
            f.write(b"\x00\xff binary")
        try:
            code, _, err = run("--agents-from", f.name)
            self.assertEqual(code, 3)
            self.assertIn("not an agent registry", err)
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    ROBOTSCAN = sys.argv.pop(1)
    SOURCE_DIR = sys.argv.pop(1)
    unittest.main(verbosity=2)
