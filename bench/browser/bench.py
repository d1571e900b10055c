#!/usr/bin/env python3
"""What a big board costs the browser client, in headless Chromium (Debian's /usr/bin/chromium):
first load, and a remote rename, on boards of 100, 2,000 and 10,000 timers.

    python3 bench/browser/bench.py [--sizes 100,2000,10000] [--renames 20] [--web-root web-static]

It starts its own `timerboard serve` (TIMERBOARD_BIN, else .build/debug/timerboard) on a fresh data
folder, builds each board with WebSocket edits (100 operations per edit, the server's cap), opens it
in a fresh browser context and measures:

- load: from navigation start to the board being in the DOM (`#sections[data-ready]`) and to the
  next frame after that (requestAnimationFrame, then a task: the frame has been produced); the
  longest long task (PerformanceObserver 'longtask') during the load; the number of DOM elements.
- scrolling down the board, a screen per frame (at most --scroll-screens, 100 by default): the slowest screen, long tasks, and how
  many elements the page holds after (a big board builds a section's timers near the screen).
- a remote rename, one at a time (the next only after the previous has painted and the page is
  idle), sent by a second client on a raw socket: send → next frame (the sender's wall clock against
  the page's `performance.timeOrigin + now()`, same machine), and Chromium's own counters for it
  (CDP Performance.getMetrics deltas: TaskDuration, ScriptDuration, RecalcStyleDuration,
  LayoutDuration), alternately for the first section (on screen) and the middle one (off screen).

`--web-root` serves another copy of the client; `--before DIR` measures a second copy in the same run,
size by size (for example `git archive <commit> web-static | tar -x -C /tmp/before`), each on a server
of its own from the same binary; their loads alternate, each client first in turn (a machine whose
speed drifts during the run, and the order of two loads, weigh on both alike). Not a test: it prints figures, asserts nothing.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from raw_websocket import RawClient  # noqa: E402  (the tests' dependency-free WebSocket client)
from conftest import BoardRef  # noqa: E402  (a board id with its secrets)

BINARY = Path(os.environ.get("TIMERBOARD_BIN", ROOT / ".build" / "debug" / "timerboard"))
CHROMIUM = os.environ.get("TIMERBOARD_CHROMIUM", "/usr/bin/chromium")
LISTENING = re.compile(r"listening on [^\s:]+:(\d+)")
SHAPES = {100: (4, 25), 2000: (50, 40), 10000: (250, 40)}  # timers: (sections, timers per section)

# Runs in the page before its own scripts: when the board is first in the DOM, and when each title
# written by a patch (data-shown) reaches the next frame.
PAGE_PROBE = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  const afterFrame = (f) => requestAnimationFrame(() => setTimeout(f, 0));
  const bench = window.__bench = { ready: null, frame: null, painted: [], longtasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.attributeName === 'data-ready' && bench.ready === null) {
        bench.ready = performance.now();
        afterFrame(() => { bench.frame = performance.now(); console.log('__bench_frame'); });
      }
      if (r.attributeName === 'data-shown') {
        const title = r.target.value, applied = now();
        afterFrame(() => bench.painted.push({ title, applied, painted: now() }));
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready', 'data-shown'] });
})();"""


# Scrolls down the board a screen per frame (scrollTo, then the next frame and a task), at most
# `limit` screens: the screens and the time they took, the slowest screen, the long tasks meanwhile
# (their durations, rounded) and the elements the page holds after. scroll.py uses it too.
SCROLL = """async (limit) => {
    const before = __bench.longtasks.length, start = performance.now();
    let frames = 0, worst = 0;
    for (let y = 0; y + innerHeight < document.documentElement.scrollHeight && frames < limit; y += innerHeight) {
        const t = performance.now();
        scrollTo(0, y + innerHeight);
        await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
        worst = Math.max(worst, performance.now() - t);
        frames += 1;
    }
    const tasks = __bench.longtasks.slice(before).map(t => Math.round(t.duration));
    return {screens: frames, ms: performance.now() - start, worst, tasks, elements: document.getElementsByTagName('*').length};
}"""


class Server:
    def __init__(self, web_root: Path):
        self.data = tempfile.TemporaryDirectory(prefix="tb-browser-bench-")
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", "0", "--data-directory", self.data.name, "--web-root", str(web_root)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            if match := LISTENING.search(line):
                self.port = int(match.group(1))
                break
        else:
            raise RuntimeError("the server exited before listening")
        # Drain its output so it never blocks on a full pipe.
        import threading
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.data.cleanup()


def create_board(port: int, title: str) -> BoardRef:
    """A new board, with its secrets (boards are reached through capability links)."""
    import urllib.request
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/boards", data=json.dumps({"title": title}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        return BoardRef(json.load(response))


class Editor:
    """The other user: a raw WebSocket client that edits and waits for each edit's answer."""

    def __init__(self, port: int, board: str, client_id: str):
        self.client = RawClient(port, None)
        self.client.hello_and_join(client_id, board)
        self.client.until("snapshot")
        self.next = 1

    def edit(self, ops) -> float:
        """Sends one edit, waits for its ack; returns the wall-clock ms when it was sent."""
        op_id = str(self.next)
        self.next += 1
        sent = time.time() * 1000
        self.client.send({"type": "edit", "opId": op_id, "ops": ops})
        while True:
            message = self.client.message()
            if message.get("opId") == op_id:
                assert message["type"] == "ack", message
                return sent

    def close(self):
        self.client.close()


def build(editor: Editor, sections: int, per_section: int):
    ops = []
    for s in range(sections):
        ops.append({"op": "addSection", "id": f"s{s}", "title": f"Section {s}", "position": "last"})
        for t in range(per_section):
            ops.append({"op": "addTimer", "id": f"s{s}t{t}", "sectionID": f"s{s}", "title": f"Timer {s}.{t}",
                        "minutes": t % 60, "seconds": (7 * t) % 60, "position": "last"})
    for start in range(0, len(ops), 100):
        editor.edit(ops[start:start + 100])


def start_every_timer(editor: Editor, sections: int):
    """Every timer of the board running (the 0:00 ones count overtime at once)."""
    ops = [{"op": "startSection", "id": f"s{s}"} for s in range(sections)]
    for start in range(0, len(ops), 100):
        editor.edit(ops[start:start + 100])


METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")


def metrics(cdp):
    values = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: values.get(name, 0.0) * 1000 for name in METRICS}


def idle(page):
    """Two frames with nothing to do: what the last change caused is over."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))")


class Board:
    """One size's board on one client's server, and the loads of it measured so far."""

    def __init__(self, port: int, timers: int, running: bool):
        self.port, self.timers, self.running = port, timers, running
        self.sections, per_section = SHAPES[timers]
        self.ref = create_board(port, f"Bench {timers}")
        builder = Editor(port, self.ref, f"bench-build-{timers}")
        t = time.time()
        build(builder, self.sections, per_section)
        if running:
            start_every_timer(builder, self.sections)
        self.build_s = time.time() - t
        # Closed at once: a socket that reads nothing while the other client is measured goes
        # unanswered to the server's pings and is closed ("no answer to ping").
        builder.close()
        self.loads = []

    def load(self, browser):
        """Opens the board in a fresh context and records the load; returns the context, page and CDP session."""
        context = browser.new_context(viewport={"width": 1100, "height": 800})
        context.add_init_script("localStorage.setItem('timerboard.name', 'Bench')")
        context.add_init_script(PAGE_PROBE)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        # Told by the page's console, not by polling it: Playwright's wait_for_function injects and
        # runs its own script in the page, on the main thread, in the middle of the load measured.
        with page.expect_console_message(lambda message: message.text == "__bench_frame", timeout=120_000):
            page.goto(f"http://127.0.0.1:{self.port}/b/{self.ref}#edit={self.ref.edit}", wait_until="commit")
        page.wait_for_function("() => document.getElementById('connection').dataset.state === 'live'", timeout=60_000)
        self.loads.append(page.evaluate("""() => ({ready: __bench.ready, frame: __bench.frame,
            longest: Math.max(0, ...__bench.longtasks.filter(t => t.start <= __bench.frame).map(t => t.duration)),
            elements: document.getElementsByTagName('*').length})"""))
        return context, page, cdp


def measure(browser, board: Board, renames: int, scroll_screens: int):
    """One more load of `board` (the median of all its loads is printed), then, in that page: the idle
    cost, the renames and the scrolling."""
    timers, sections, running = board.timers, board.sections, board.running
    editor = Editor(board.port, board.ref, f"bench-rename-{timers}")
    context, page, cdp = board.load(browser)
    load = {key: statistics.median(l[key] for l in board.loads) for key in board.loads[0]}
    load["frames"] = [round(l["frame"]) for l in board.loads]
    idle(page)

    # Nobody edits for 5 s: what the page costs while it only shows the time passing (the
    # countdowns of the rows it holds tick; with --running, every timer of the board runs).
    before = metrics(cdp)
    page.wait_for_timeout(5_000)
    after = metrics(cdp)
    quiet = {k: (after[k] - before[k]) / 5 for k in METRICS}

    samples = {"on screen": [], "off screen": []}
    for i in range(renames):
        where, section = ("on screen", "s0") if i % 2 == 0 else ("off screen", f"s{sections // 2}")
        title = f"Renamed {i}"
        before = metrics(cdp)
        count = page.evaluate("() => __bench.painted.length")
        sent = editor.edit([{"op": "updateSection", "id": section, "title": title}])
        page.wait_for_function("n => __bench.painted.length > n", arg=count, timeout=60_000)
        idle(page)
        after = metrics(cdp)
        painted = page.evaluate("n => __bench.painted[n]", count)
        assert painted["title"] == title, painted
        samples[where].append({"paint": painted["painted"] - sent, **{k: after[k] - before[k] for k in METRICS}})
    longest = page.evaluate("() => Math.max(0, ...__bench.longtasks.filter(t => t.start > __bench.frame).map(t => t.duration))")
    # Scrolling through the whole board, a screen at a time, a frame each: still usable?
    scroll = page.evaluate(SCROLL, scroll_screens)
    scroll.update(longtasks=len(scroll["tasks"]), longest=max(scroll["tasks"], default=0))
    # What the renderer holds once scrolled: Chromium's own counts (JS heap, DOM nodes, listeners).
    held = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    scroll.update(heap_mb=held.get("JSHeapUsedSize", 0) / 1e6, nodes=held.get("Nodes", 0))
    editor.close()
    context.close()
    return {"timers": timers, "sections": sections, "running": running, "build_s": board.build_s, "load": load,
            "quiet": quiet, "renames": samples, "rename_longest_longtask": longest, "scroll": scroll}


def report(result):
    load = result["load"]
    print(f"\n[{result['client']}] {result['timers']:,} timers in {result['sections']} sections ({load['elements']:,} elements; built in {result['build_s']:.1f} s)")
    print(f"  load (median of {len(load['frames'])}): board in DOM {load['ready']:.0f} ms, next frame {load['frame']:.0f} ms, "
          f"longest long task {load['longest']:.0f} ms; next frame each time: {load['frames']}")
    quiet = result["quiet"]
    print(f"  nobody editing, {'every timer running' if result['running'] else 'timers as built'}: main-thread tasks "
          f"{quiet['TaskDuration']:.1f} ms per second (script {quiet['ScriptDuration']:.1f}, style "
          f"{quiet['RecalcStyleDuration']:.1f}, layout {quiet['LayoutDuration']:.1f})")
    for where, samples in result["renames"].items():
        if not samples:
            continue
        med = lambda key: statistics.median(s[key] for s in samples)
        top = lambda key: max(s[key] for s in samples)
        print(f"  remote rename, {where} ({len(samples)}): send→next frame p50 {med('paint'):.1f} ms (max {top('paint'):.1f}); "
              f"task p50 {med('TaskDuration'):.1f} ms (max {top('TaskDuration'):.1f}); script {med('ScriptDuration'):.1f}, "
              f"style {med('RecalcStyleDuration'):.1f}, layout {med('LayoutDuration'):.1f} ms (p50)")
    print(f"  longest long task while renaming: {result['rename_longest_longtask']:.0f} ms (0: none over 50 ms)")
    scroll = result["scroll"]
    print(f"  scrolling down, a screen per frame: {scroll['screens']} screens in {scroll['ms']:.0f} ms, slowest screen "
          f"{scroll['worst']:.0f} ms, {scroll['longtasks']} long tasks (longest {scroll['longest']:.0f} ms); {scroll['elements']:,} elements after, "
          f"JS heap {scroll['heap_mb']:.1f} MB, {scroll['nodes']:,.0f} DOM nodes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,2000,10000")
    parser.add_argument("--renames", type=int, default=20)
    parser.add_argument("--scroll-screens", type=int, default=100, help="scroll at most this many screens")
    parser.add_argument("--loads", type=int, default=1, help="load the page this many times (median)")
    parser.add_argument("--web-root", type=Path, default=ROOT / "web-static")
    parser.add_argument("--before", type=Path, help="another copy of the client, measured in the same run, size by size")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--running", action="store_true", help="start every timer of each board before measuring")
    args = parser.parse_args()
    clients = ([("before", args.before)] if args.before else []) + [("after" if args.before else "client", args.web_root)]
    # One server per client (the page loads its modules from the root), both from the same binary.
    servers = {}
    results = []
    try:
        for name, root in clients:
            servers[name] = Server(root.resolve())
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
            for size in (int(s) for s in args.sizes.split(",")):
                boards = {name: Board(servers[name].port, size, args.running) for name, _ in clients}
                # All loads but the last alternate between the clients, each first in turn: a
                # machine that slows down during the run weighs on both alike, and so does the
                # order of the loads (a strict before-after order credited a change with 55 ms
                # that 30 rotated loads put at 24). The last load is measure()'s.
                names = list(boards)
                for round in range(args.loads - 1):
                    for name in names[round % len(names):] + names[:round % len(names)]:
                        boards[name].load(browser)[0].close()
                for name, board in boards.items():
                    results.append({"client": name, **measure(browser, board, args.renames, args.scroll_screens)})
                    report(results[-1])
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
