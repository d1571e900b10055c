#!/usr/bin/env python3
"""Scrolling a big board: long tasks while a 10,000-timer board is scrolled a screen per frame, in
headless Chromium (Debian's /usr/bin/chromium).

    python3 bench/browser/scroll.py [--timers 10000] [--screens 150] [--rounds 3] [--before DIR]

It starts `timerboard serve` (TIMERBOARD_BIN, else .build/debug/timerboard) for each client, builds
the board with WebSocket edits (bench.py's shapes: 250 sections of 40 timers), and then, round after
round, opens it in a fresh 1100×800 context, waits until the page is idle and scrolls down one screen
per frame (scrollTo, then the next frame and a task) for --screens screens. A `longtask`
PerformanceObserver (installed before the page's own scripts) records every main-thread task of
50 ms or more during the scroll. Printed per round: the long tasks (count, how many of 100 ms or
more, the longest), the slowest screen and the scroll's time, and the elements the page holds after.

`--before DIR` measures another copy of the client in the same run (for example `git archive
<commit> web-static | tar -x -C /tmp/before`); the rounds alternate between the clients, each
first in turn. `--trace DIR` writes a Chromium trace of each round's scroll there (for
chrome://tracing or Perfetto). `--cpu-throttle N` slows the renderer's main thread N times during the
scroll (Chromium's CPU throttling, as DevTools offers it): a repeatable stand-in for a machine that
other work keeps busy. Not a test: it prints figures, asserts nothing.
"""
import argparse
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import CHROMIUM, ROOT, SCROLL, SHAPES, Board, Server, idle  # noqa: E402  (the load benchmark's server, boards and scroll)

# What the DevTools performance panel records: tasks, script, style, layout, paint, and V8 samples.
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
                    "v8.execute", "toplevel", "blink.user_timing", "disabled-by-default-v8.cpu_profiler"]


def scroll_once(browser, board: Board, screens: int, trace: Path | None, throttle: float):
    context, page, cdp = board.load(browser)
    idle(page)
    if throttle > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    if trace:
        browser.start_tracing(page=page, path=str(trace), categories=TRACE_CATEGORIES)
    result = page.evaluate(SCROLL, screens)
    if trace:
        browser.stop_tracing()
    context.close()
    return result


def line(result):
    tasks = result["tasks"]
    over = [t for t in tasks if t >= 100]
    return (f"{len(tasks)} long tasks, {len(over)} of 100 ms or more, longest {max(tasks, default=0)} ms; "
            f"slowest screen {result['worst']:.0f} ms, {result['screens']} screens in {result['ms'] / 1000:.1f} s; "
            f"{result['elements']:,} elements after; tasks: {sorted(tasks, reverse=True)[:12]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timers", type=int, default=10000, choices=sorted(SHAPES))
    parser.add_argument("--screens", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--web-root", type=Path, default=ROOT / "web-static")
    parser.add_argument("--before", type=Path, help="another copy of the client, measured in the same run")
    parser.add_argument("--cpu-throttle", type=float, default=1,
                        help="slow the page's main thread this many times during the scroll (CDP), as a busy machine would")
    parser.add_argument("--trace", type=Path, help="write a Chromium trace of each scroll into this folder")
    args = parser.parse_args()
    clients = ([("before", args.before)] if args.before else []) + [("after" if args.before else "client", args.web_root)]
    servers = {}
    try:
        for name, root in clients:
            servers[name] = Server(root.resolve())
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
            boards = {name: Board(servers[name].port, args.timers, False) for name, _ in clients}
            results = {name: [] for name, _ in clients}
            names = list(boards)
            for round in range(args.rounds):
                for name in names[round % len(names):] + names[:round % len(names)]:
                    trace = args.trace / f"scroll-{name}-{round}.json" if args.trace else None
                    if trace:
                        trace.parent.mkdir(parents=True, exist_ok=True)
                    result = scroll_once(browser, boards[name], args.screens, trace, args.cpu_throttle)
                    results[name].append(result)
                    print(f"[{name}] round {round + 1}: {line(result)}", flush=True)
            browser.close()
        for name, rounds in results.items():
            tasks = [t for r in rounds for t in r["tasks"]]
            print(f"\n[{name}] {args.timers:,} timers, {len(rounds)} scrolls of {args.screens} screens: "
                  f"{len(tasks)} long tasks in all, {sum(t >= 100 for t in tasks)} of 100 ms or more, longest "
                  f"{max(tasks, default=0)} ms; slowest screen median {statistics.median(r['worst'] for r in rounds):.0f} ms")
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
