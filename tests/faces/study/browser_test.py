#!/usr/bin/env python3
"""`rave study serve` in a real browser, end to end (docs/study.md).

1. Bad requests over HTTP: a malformed POST, an unknown token, a second submit of one answer, an
   answer out of range or out of turn: each a JSON error with its status, and the database unchanged.
2. Headless Chromium (Debian's chromium and chromium-driver, through selenium) clicks through the
   practice (feedback checked against the answer key read from the npz files) and part of the test,
   by mouse and by keys 1-8; a screenshot of the problem page is written when asked.
3. The server is killed with SIGKILL mid-session: every answer already given is in SQLite; a new
   server continues the participant at the next problem, and the browser finishes the test.
4. A second participant, in a fresh session, answers the practice and 3 of the 7 test problems
   (2 right) and stops.
5. `rave study export`, `rave score` and `rave study report`: each participant's accuracy equals
   their clicks scored by hand against the npz targets (the first, who clicks every right answer,
   100; the second on the 3 they answered, not the 7 shown), the Human row is the mean of the two,
   says it rests on 2 participants and 10 answers, and the table reports the time per problem.

usage: browser_test.py RAVE_BINARY [--screenshot FILE.png]; exit 77 (skipped) without chromium,
chromium-driver or selenium.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import numpy as np

CHROMIUM = next((p for p in ("/usr/lib/chromium/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)), None)
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def start_server(rave, data, db):
    proc = subprocess.Popen([rave, "study", "serve", str(data), "--db", str(db), "--per-config", "1",
                             "--practice", "2", "--port", "0", "--seed", "5"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"FAIL: the server did not start: {line}{proc.stdout.read()}")
    return proc, f"http://127.0.0.1:{match.group(1)}"


OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy


def call(base, method, path, body=None, token=""):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"X-Rave-Token": token, "Content-Type": "application/json"})
    try:
        with OPENER.open(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def rows(db):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT participant, position, problem, answer, practice, milliseconds "
                         "FROM answers ORDER BY participant, position").fetchall()


def target(data, problem):
    return int(np.load(data / (problem + ".npz"))["target"])


def right_label(data, db, participant, position):
    """The label (1-8) of the right answer at a participant's position, from the npz target."""
    with sqlite3.connect(db) as c:
        sequence = json.loads(c.execute("SELECT sequence FROM participants WHERE id = ?", (participant,)).fetchone()[0])
    return target(data, sequence[position]) + 1


def stopping_participant(driver, base, data, db):
    """Participant 3, in a fresh session: the practice, then 3 of the 7 test problems (right,
    wrong, right), then they stop. Returns their clicks as (position, label)."""
    driver.execute_script("localStorage.clear();")
    driver.get(base + "/")
    wait_for(driver, "welcome")
    driver.find_element("id", "name").send_keys("stops early")
    driver.find_element("id", "start").click()
    clicked = []
    wait_for(driver, "problem")
    answer(driver, 1, by_key=False)
    clicked.append((0, 1))
    wait_for(driver, "feedback")
    driver.find_element("id", "next").click()
    wait_for(driver, "problem")
    answer(driver, 2, by_key=True)
    clicked.append((1, 2))
    wait_for(driver, "feedback")
    driver.find_element("id", "next").click()
    wait_for(driver, "interlude")
    driver.find_element("id", "begin").click()
    for position, right in ((2, True), (3, False), (4, True)):
        wait_for(driver, "problem")
        label = right_label(data, db, 3, position)
        label = label if right else label % 8 + 1
        answer(driver, label, by_key=position == 3)
        clicked.append((position, label))
    wait_for(driver, "problem")  # the 4th test problem is shown; they stop there
    time.sleep(0.3)
    participant = [(r[1], r[3] + 1) for r in rows(db) if r[0] == 3]
    check(participant == clicked, f"participant 3: the database holds {participant}, clicked {clicked}")
    return clicked


def hand_score(data, db, participant):
    """A participant's test answers scored by hand against the npz targets: (right, answered)."""
    tests = [r for r in rows(db) if r[0] == participant and not r[4]]
    return sum(r[3] == target(data, r[2]) for r in tests), len(tests)


def check_scores(rave, data, db, out):
    """Each participant's file and the Human row against the clicks scored by hand."""
    figures = []
    for participant in (2, 3):
        right, answered = hand_score(data, db, participant)
        figures.append(100.0 * right / answered)
        scored = subprocess.run([rave, "score", str(out / f"participant-{participant}.jsonl"), "-d", str(data), "--json"],
                                check=True, capture_output=True, text=True)
        result = json.loads(scored.stdout)
        check(abs(result["accuracy"] - figures[-1]) < 1e-9 and result["evaluated"] == answered,
              f"participant {participant}: rave score says {result['accuracy']} on {result['evaluated']}, "
              f"the clicks {right} of {answered}")
        check("counted wrong" not in scored.stderr, f"participant {participant}: {scored.stderr}")
    check(figures[0] == 100.0, f"participant 2 clicked every right answer, but scores {figures[0]}")
    human = f"| Human | {sum(figures) / 2:.2f} ["
    table = subprocess.run([rave, "score", *map(str, sorted(out.glob("*.jsonl"))), "-d", str(data), "--seeds"],
                           check=True, capture_output=True, text=True).stdout
    row = next((line for line in table.splitlines() if line.startswith("| Human |")), "")
    check(row.startswith(human), f"the Human row is not the mean of {figures}: {table}")
    check(row.endswith("| 2 participants, 10 answers, 4 shown unanswered |"), f"the Human row's note: {row}")
    check("time per problem of Human (median s over 10 answers)" in table, f"no time per problem: {table}")
    report = subprocess.run([rave, "study", "report", str(data), "--db", str(db), "--per-config", "1",
                             "--practice", "2", "--seed", "5"], check=True, capture_output=True, text=True).stdout
    check(row in report.splitlines(), f"rave study report's row differs from rave score's {row}: {report}")


def bad_requests(base, db):
    status, created = call(base, "POST", "/api/participants", {"name": "api"})
    check(status == 200 and len(created["token"]) == 32, f"enrolment: {status} {created}")
    token = created["token"]
    status, body = call(base, "POST", "/api/answers", {"position": 0, "answer": 2, "milliseconds": 900}, token)
    check(status == 200 and "correct" in body and 1 <= body["answer"] <= 8, f"practice answer: {status} {body}")
    before = rows(db)
    for what, ((path, body, tok), want) in {
        "malformed JSON": (("/api/answers", b'{"position": 1, "answer"', token), 400),
        "not an object": (("/api/answers", b"[1, 2]", token), 400),
        "unknown token": (("/api/answers", {"position": 1, "answer": 1, "milliseconds": 5}, "f" * 32), 403),
        "no token": (("/api/answers", {"position": 1, "answer": 1, "milliseconds": 5}, ""), 403),
        "second submit": (("/api/answers", {"position": 0, "answer": 7, "milliseconds": 5}, token), 409),
        "out of turn": (("/api/answers", {"position": 2, "answer": 1, "milliseconds": 5}, token), 409),
        "answer 9": (("/api/answers", {"position": 1, "answer": 9, "milliseconds": 5}, token), 400),
        "negative time": (("/api/answers", {"position": 1, "answer": 1, "milliseconds": -1}, token), 400),
    }.items():
        status, reply = call(base, "POST", path, body, tok)
        check(status == want and isinstance(reply.get("error"), str), f"{what}: {status} {reply}, wanted {want}")
    check(rows(db) == before, "a refused request changed the database")
    status, _ = call(base, "GET", "/api/state", token="0" * 32)
    check(status == 403, "another participant's state readable without their token")
    status, problem = call(base, "GET", "/api/problems/1", token=token)
    check(status == 200 and "answer" not in problem and "target" not in problem, f"a problem carries its answer: {problem}")


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-proxy-server",
                 "--window-size=1000,1100", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def wait_for(driver, section, timeout=20):
    """Waits until `section` is the one shown and, for a problem, its images are loaded."""
    end = time.time() + timeout
    script = ("const s = document.getElementById(arguments[0]);"
              "return s.classList.contains('shown') && (arguments[0] !== 'problem' || "
              "[...document.images].every(i => i.complete && i.naturalWidth > 0) && !busy);")
    while time.time() < end:
        if driver.execute_script(script, section):
            return
        time.sleep(0.05)
    raise AssertionError(f"the page never showed #{section}: {driver.find_element('tag name', 'body').text[:300]}")


def answer(driver, label, by_key):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys  # noqa: F401
    if by_key:
        driver.find_element(By.TAG_NAME, "body").send_keys(str(label))
    else:
        driver.find_element(By.CSS_SELECTOR, f'button.candidate[data-label="{label}"]').click()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("rave")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("SKIP: no selenium (scripts/setup.sh --full installs it)")
        return 77
    if not CHROMIUM or not os.path.exists(DRIVER):
        print("SKIP: no chromium / chromedriver (apt-get install chromium chromium-driver)")
        return 77
    for variable in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        os.environ.pop(variable, None)
    work = pathlib.Path(tempfile.mkdtemp(prefix="rave-study-"))
    server = None
    driver = None
    try:
        data, db = work / "data", work / "study.sqlite"
        subprocess.run([args.rave, "generate", "-n", "10", "-o", str(data), "-s", "3", "-j", "2"],
                       check=True, stdout=subprocess.DEVNULL)
        server, base = start_server(args.rave, data, db)
        bad_requests(base, db)

        driver = browser()
        driver.get(base + "/")
        wait_for(driver, "welcome")
        driver.find_element("id", "name").send_keys("browser")
        driver.find_element("id", "start").click()
        clicked = []  # (position, label)
        for position in range(2):  # practice, with feedback
            wait_for(driver, "problem")
            label = 3 + position
            answer(driver, label, by_key=position == 1)
            clicked.append((position, label))
            wait_for(driver, "feedback")
            text = driver.find_element("id", "feedback-text").text
            check(re.search(r"the answer is [1-8]\.", text) is not None, f"practice feedback: {text!r}")
            driver.find_element("id", "next").click()
        wait_for(driver, "interlude")
        driver.find_element("id", "begin").click()
        for position in range(2, 5):  # three test problems, then the server dies
            wait_for(driver, "problem")
            if position == 3 and args.screenshot:
                driver.save_screenshot(args.screenshot)
            label = right_label(data, db, 2, position)
            answer(driver, label, by_key=position % 2 == 0)
            clicked.append((position, label))
            if position < 4:
                wait_for(driver, "problem")
        time.sleep(0.5)
        server.send_signal(signal.SIGKILL)
        server.wait()
        participant = [r for r in rows(db) if r[0] == 2]
        check([(r[1], r[3] + 1) for r in participant] == clicked,
              f"after SIGKILL the database holds {[(r[1], r[3] + 1) for r in participant]}, clicked {clicked}")

        server, base = start_server(args.rave, data, db)  # a new server, the same database
        token = driver.execute_script("return token;")
        driver.get(base + "/#" + token)
        for position in range(5, 9):  # the rest of the test (2 practice + 7 test = 9)
            wait_for(driver, "problem")
            progress = driver.find_element("id", "progress").text
            check(progress == f"Problem {position - 1} of 7", f"resumed at {progress!r}, not problem {position - 1}")
            label = right_label(data, db, 2, position)
            answer(driver, label, by_key=position % 2 == 1)
            clicked.append((position, label))
        wait_for(driver, "done")
        participant = [r for r in rows(db) if r[0] == 2]
        check([(r[1], r[3] + 1) for r in participant] == clicked, f"database {participant} vs clicked {clicked}")
        check(all(r[5] >= 0 for r in participant), "negative times")

        clicked_3 = stopping_participant(driver, base, data, db)
        check(len(clicked_3) == 5, f"participant 3 clicked {clicked_3}")

        out = work / "predictions"
        subprocess.run([args.rave, "study", "export", str(data), "--db", str(db), "--per-config", "1",
                        "--practice", "2", "--seed", "5", "-o", str(out)], check=True, stdout=subprocess.DEVNULL)
        exported = sorted(out.glob("*.jsonl"))
        check([p.name for p in exported] == ["participant-2.jsonl", "participant-3.jsonl"],
              f"export wrote {exported} (participant 1 answered practice only)")
        lines = (out / "participant-3.jsonl").read_text().splitlines()
        check(len(lines) == 7 and sum('"answer":null' in line for line in lines) == 4,
              f"participant 3's file does not list the 7 problems shown, 4 unanswered: {lines}")
        check_scores(args.rave, data, db, out)
    finally:
        if driver:
            driver.quit()
        if server and server.poll() is None:
            server.terminate()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} study browser checks failed")
        return 1
    print("all study browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
