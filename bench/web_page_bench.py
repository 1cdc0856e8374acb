#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The page (web/) in headless Chromium over a large root: what issue 52 measures.

    bench/web_page_bench.py [--count 100000] [--bin .build/release] [--warm | --no-thumbnails] [--keys 40]

Makes COUNT small real JPEGs (one picture by sample_photos.py, each file told apart by a
JPEG comment) in folders of 500, starts the real curatord and curatord-web on them, and
with --warm waits until every thumbnail is made (the daemon's backlog at 0). Then, in
headless Chromium (chromedriver, CDP):

- lcp_ms: Largest Contentful Paint from navigation to the first grid;
- scrolling from the first photo to the last, a screen per frame: the longest task
  (PerformanceObserver 'longtask', over 50 ms is one), the most DOM elements at once,
  the JS heap after (CDP Runtime.getHeapUsage);
- key_to_badge_ms: Space on a photo to its badge on screen (through the gateway and the
  daemon), p50 and p95 over --keys presses.

Prints one JSON object. Everything it made is removed at the end.
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)


def request(sock_path, body):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock_path)
        s.sendall((json.dumps(body) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return json.loads(data)


def make_root(root, count, scratch):
    base = os.path.join(scratch, "base.jpg")
    subprocess.run([sys.executable, os.path.join(HERE, "sample_photos.py"), "jpeg", base, "--width", "640",
                    "--height", "480", "--texture-cache", scratch], check=True, capture_output=True)
    data = open(base, "rb").read()
    for i in range(count):
        folder = os.path.join(root, f"{i // 500:04d}")
        if i % 500 == 0:
            os.makedirs(folder, exist_ok=True)
        comment = f"photo {i}".encode()
        with open(os.path.join(folder, f"IMG_{i:06d}.JPG"), "wb") as f:
            f.write(data[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + data[2:])


def wait_for(what, predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    raise SystemExit(f"timed out waiting for {what}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=100000)
    parser.add_argument("--bin", default=os.path.join(PACKAGE, ".build", "release"))
    parser.add_argument("--warm", action="store_true", help="wait for every thumbnail first")
    parser.add_argument("--keys", type=int, default=40)
    parser.add_argument("--no-thumbnails", action="store_true",
                        help="a daemon that makes none (the grid's placeholders): the grid alone, without the decoder's load")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="curatord-webbench-")
    processes = []
    try:
        root = os.path.join(scratch, "pics")
        os.makedirs(root)
        started = time.monotonic()
        make_root(root, args.count, scratch)
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(scratch, "data"), XDG_CACHE_HOME=os.path.join(scratch, "cache"),
                   XDG_RUNTIME_DIR=scratch, HOME=scratch, XDG_STATE_HOME=os.path.join(scratch, "xs"),
                   XDG_CONFIG_HOME=os.path.join(scratch, "xc"))
        sock = os.path.join(scratch, "d.sock")
        log = open(os.path.join(scratch, "daemon.log"), "w")
        config = os.path.join(scratch, "curatord.json5")
        with open(config, "w") as f:
            f.write(json.dumps({"thumbnails": not args.no_thumbnails, "roots": [{"path": root}]}))
        processes.append(subprocess.Popen([os.path.join(args.bin, "curatord"), "--config", config, "--socket", sock,
                                           "--state-dir", os.path.join(scratch, "state")], env=env, stdout=log, stderr=log))
        def status():
            try:
                return request(sock, {"cmd": "status"})["result"]
            except (OSError, ValueError, KeyError):
                return None  # not listening yet, or busy: asked again
        wait_for("the daemon's scan", lambda: (status() or {"scanning": True})["scanning"] is False, 600)
        if args.warm:
            wait_for("warm thumbnails", lambda: (status() or {}).get("thumbnails", {}).get("backlog", 1) == 0, 3600)
        prepared = time.monotonic() - started
        out = open(os.path.join(scratch, "web.out"), "w+")
        processes.append(subprocess.Popen([os.path.join(args.bin, "curatord-web"), "--socket", sock, "--web",
                                           os.path.join(PACKAGE, "web")], env=env, stdout=out, stderr=log))
        url = wait_for("the gateway's address", lambda: open(out.name).readline().strip(), 30)

        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1440,900",
                     "--enable-precise-memory-info"):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))
        driver.set_script_timeout(900)  # a screen a frame over 100 000 photos takes minutes
        try:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
                window.__lcp = 0; window.__longest = 0; window.__long = 0;
                new PerformanceObserver(l => { for (const e of l.getEntries()) window.__lcp = e.startTime; })
                    .observe({type: 'largest-contentful-paint', buffered: true});
                new PerformanceObserver(l => { for (const e of l.getEntries()) { window.__long += 1;
                    window.__longest = Math.max(window.__longest, e.duration); } }).observe({type: 'longtask', buffered: true});"""})
            driver.get(url)
            wait_for("the grid", lambda: driver.execute_script(
                "return document.body.dataset.ready === 'true' && document.querySelectorAll('[role=gridcell]').length > 0"), 120)
            wait_for("the whole listing", lambda: driver.execute_script(
                "return document.querySelectorAll('[role=gridcell]').length > 0 && document.getElementById('view-count').textContent.startsWith('%d ')" % args.count), 120)
            time.sleep(1)
            lcp = driver.execute_script("return window.__lcp")
            driver.execute_script("window.__longest = 0; window.__long = 0;")
            scroll = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const grid = document.getElementById('grid');
                let most = 0, frames = 0;
                const t0 = performance.now();
                function step() {
                  most = Math.max(most, document.getElementsByTagName('*').length);
                  frames += 1;
                  if (grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1) {
                    done({most, frames, ms: performance.now() - t0});
                    return;
                  }
                  grid.scrollTop += grid.clientHeight;
                  requestAnimationFrame(step);
                }
                requestAnimationFrame(step);""")
            time.sleep(0.5)
            longest, long_count = driver.execute_script("return [window.__longest, window.__long]")
            heap = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})
            # Space on a photo to its badge: toggled twice per sample (select, deselect).
            driver.execute_script("document.getElementById('grid').scrollTop = 0;")
            time.sleep(0.5)
            latencies = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const presses = arguments[0];
                const cell = document.querySelector('[role=gridcell][data-index="0"]');
                cell.focus();
                const out = [];
                let i = 0;
                function press() {
                  if (i >= presses) { done(out); return; }
                  const want = i % 2 === 0;
                  const t0 = performance.now();
                  const observer = new MutationObserver(() => {
                    const c = document.querySelector('[role=gridcell][data-index="0"]');
                    if (c && (c.getAttribute('aria-selected') === 'true') === want) {
                      observer.disconnect();
                      requestAnimationFrame(() => { out.push(performance.now() - t0); i += 1; setTimeout(press, 20); });
                    }
                  });
                  observer.observe(document.getElementById('grid'), {subtree: true, attributes: true});
                  document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: ' ', bubbles: true}));
                }
                press();""", args.keys)
        finally:
            driver.quit()
        latencies.sort()
        print(json.dumps({
            "photos": args.count, "warm_thumbnails": args.warm, "thumbnails": not args.no_thumbnails, "prepare_s": round(prepared, 1),
            "lcp_ms": round(lcp, 1),
            "scroll": {"frames": scroll["frames"], "ms": round(scroll["ms"]), "most_dom_elements": scroll["most"],
                       "long_tasks": long_count, "longest_task_ms": round(longest, 1)},
            "js_heap_mb": round(heap["usedSize"] / 1e6, 1),
            "key_to_badge_ms": {"p50": round(statistics.median(latencies), 1),
                                "p95": round(latencies[int(len(latencies) * 0.95) - 1], 1)},
        }, indent=1))
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
